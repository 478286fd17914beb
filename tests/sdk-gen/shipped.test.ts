import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { packageSchema } from "../../plugin/schema";
import { KINDS } from "../../provider/kinds";

/**
 * The generated Node.js SDK ships inside the package: the import the code `pulumi import` prints (the
 * schema's nodejs packageName) is a subpath export of this package, compiled into dist/ by the build, and
 * the version the SDK reports at run time (utilities.getVersion reads the package.json beside it) is the
 * plugin's. Reads dist/: run `npm run build` first.
 */

const ROOT = path.resolve(__dirname, "../..");
const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
  name: string;
  version: string;
  exports: Record<string, { types: string; default: string } | string>;
  files: string[];
};
const kinds = Object.values(KINDS).map((m) => m.kind);
const language = packageSchema(kinds, pkg.version).language as { nodejs: { packageName: string } };
const importPath = language.nodejs.packageName;
const subpath = `.${importPath.slice(pkg.name.length)}`;

describe("sdk-gen: the Node.js SDK ships in the package as the import `pulumi import` prints", () => {
  it("the schema's nodejs packageName is a subpath of this package, exported to the compiled SDK", () => {
    expect(importPath).toBe("pulumi-subscription-billing/billing");
    expect(importPath.startsWith(`${pkg.name}/`)).toBe(true);
    expect(pkg.exports[subpath]).toEqual({ types: "./dist/sdk-gen/nodejs/index.d.ts", default: "./dist/sdk-gen/nodejs/index.js" });
    // TypeScript's node10 resolution ignores "exports": the stub beside package.json answers it, and ships.
    expect(pkg.files).toContain("billing.d.ts");
    expect(readFileSync(path.join(ROOT, "billing.d.ts"), "utf8")).toMatch(/^export \* from "\.\/dist\/sdk-gen\/nodejs";$/m);
  });

  it("sdk-gen/nodejs/package.json holds the plugin's version and no plugin block (which would make every project require the plugin)", () => {
    const shipped = JSON.parse(readFileSync(path.join(ROOT, "sdk-gen/nodejs/package.json"), "utf8")) as Record<string, unknown>;
    expect(shipped.version).toBe(pkg.version);
    expect(shipped.name).toBe(importPath);
    expect(shipped.private).toBe(true);
    // The nodejs language host reads every package.json under node_modules: "pulumi": { "resource": true } here
    // would ask the engine for the billing plugin in every program of a project that installed the package.
    expect(Object.keys(shipped).sort()).toEqual(["description", "license", "name", "private", "version"]);
  });

  it("the build compiles it into dist/ with that package.json, and it resolves through the package's own exports", () => {
    const dist = path.join(ROOT, "dist/sdk-gen/nodejs");
    expect(existsSync(path.join(dist, "index.js")), "dist/sdk-gen/nodejs is missing: run `npm run build`").toBe(true);
    expect(readFileSync(path.join(dist, "package.json"), "utf8")).toBe(
      readFileSync(path.join(ROOT, "sdk-gen/nodejs/package.json"), "utf8"),
    );
    // Node's self-reference: the package's name and "exports" map, as a program resolves them after an install.
    const req = createRequire(path.join(ROOT, "package.json"));
    expect(req.resolve(importPath)).toBe(path.join(dist, "index.js"));
    const sdk = req(importPath) as Record<string, unknown>;
    for (const k of kinds) expect(typeof sdk[k.type], `${importPath} exports ${k.type}`).toBe("function");
    const utilities = req(path.join(dist, "utilities.js")) as { getVersion(): string };
    expect(utilities.getVersion()).toBe(pkg.version);
  });
});
