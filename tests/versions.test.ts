import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * One version story: what package.json declares (engines, the peer range), what the tests pin (the
 * CLI is built at the @pulumi/pulumi dev dependency's release) and what the README's Install table
 * says are the same numbers, so that none of them can move alone.
 */
const ROOT = path.join(__dirname, "..");
const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
  engines: { node: string };
  peerDependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
const row = (name: string): string => {
  const line = readme.split("\n").find((l) => l.startsWith(`| ${name} |`));
  if (!line) throw new Error(`README's Install table has no row for ${name}`);
  return line;
};
const minimum = (range: string): string => {
  const m = /^(?:>=|\^)(\d+\.\d+\.\d+)$/.exec(range);
  if (!m) throw new Error(`not a range with a lower bound: ${range}`);
  return m[1];
};

describe("versions: package.json, the tests and the README say the same", () => {
  it("Node: engines is the README's minimum; the Node the repo runs its tests on satisfies it", () => {
    const min = minimum(pkg.engines.node);
    expect(row("Node.js")).toContain(`${min.replace(/\.0$/, "")} or later`);
    expect(row("Node.js")).toContain(pkg.devDependencies.node);
    const [major, minor] = process.versions.node.split(".").map(Number);
    const [minMajor, minMinor] = min.split(".").map(Number);
    expect(major > minMajor || (major === minMajor && minor >= minMinor)).toBe(true);
  });

  it("@pulumi/pulumi: the peer range starts at the release the CLI is built at, which the README names", () => {
    const pinned = pkg.devDependencies["@pulumi/pulumi"];
    expect(minimum(pkg.peerDependencies["@pulumi/pulumi"])).toBe(pinned);
    expect(pkg.peerDependencies["@pulumi/pulumi"]).toMatch(/^\^3\./);
    expect(row("`@pulumi/pulumi`")).toContain(`${pinned} up to the newest 3.x`);
    expect(row("Pulumi CLI")).toContain(`${pinned} or later`);
    expect(readme).toContain(`builds the Pulumi CLI ${pinned}`);
  });

  it("@pulumi/policy: the optional peer range starts at the tested release", () => {
    expect(minimum(pkg.peerDependencies["@pulumi/policy"])).toBe(pkg.devDependencies["@pulumi/policy"]);
    expect(row("`@pulumi/policy`")).toContain(`${pkg.devDependencies["@pulumi/policy"]} or later`);
  });
});
