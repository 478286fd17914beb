import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { packageVersion } from "../../plugin/provider";

// The plugin's version is its package's: the nearest package.json above the plugin's files that is
// pulumi-subscription-billing's, skipping any other package's on the way (e.g. a dependency's).

describe("packageVersion", () => {
  let root: string | undefined;
  afterEach(() => {
    if (root) rmSync(root, { recursive: true, force: true });
    root = undefined;
  });
  const write = (dir: string, pkg: object) => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "package.json"), JSON.stringify(pkg));
  };

  it("is this repository's own when run from its sources", () => {
    expect(packageVersion()).toBe(require("../../package.json").version);
  });

  it("skips another package's package.json, and one of the same name without a version, on the way up", () => {
    root = mkdtempSync(path.join(tmpdir(), "plugin-version-"));
    write(root, { name: "pulumi-subscription-billing", version: "9.8.7" });
    write(path.join(root, "dist"), { name: "pulumi-subscription-billing" });
    write(path.join(root, "dist", "vendor"), { name: "left-pad", version: "1.3.0" });
    const from = path.join(root, "dist", "vendor", "plugin");
    mkdirSync(from, { recursive: true });
    expect(packageVersion(from)).toBe("9.8.7");
  });

  it("fails naming where it looked when no package.json above is the package's", () => {
    root = mkdtempSync(path.join(tmpdir(), "plugin-version-"));
    write(root, { name: "left-pad", version: "1.3.0" });
    expect(() => packageVersion(root)).toThrow(`no package.json of pulumi-subscription-billing above ${root}`);
  });
});
