import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The guard runs in the runner's own CommonJS world (Node's require and its cache), so it is loaded
 * from the build, through Node's require, as the runner loads it (vitest's module graph is not Node's).
 */
const req = createRequire(__filename);
const { pinSerializerTypeScript } = req("../../dist/provider/typescript-guard.js") as typeof import("../../provider/typescript-guard");
const REAL_SHIM = readFileSync(req.resolve("@pulumi/pulumi/typescript-shim.js"), "utf8");

/** A project folder with a @pulumi/pulumi that has the real shim and a stand-in vendored parser, and `typescript` as given. */
function project(typescript: "none" | "no-api" | "api"): { dir: string; shim: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "ts-guard-"));
  const pulumi = path.join(dir, "node_modules/@pulumi/pulumi");
  mkdirSync(path.join(pulumi, "vendor/typescript@3.8.3"), { recursive: true });
  writeFileSync(path.join(pulumi, "package.json"), JSON.stringify({ name: "@pulumi/pulumi", version: "3.270.0" }));
  writeFileSync(path.join(pulumi, "typescript-shim.js"), REAL_SHIM);
  // What the policy-pack runner asks before it registers ts-node (its shape in @pulumi/pulumi 3.259 to 3.270).
  writeFileSync(
    path.join(pulumi, "tsutils.js"),
    'exports.typeScriptRequireStrings = () => ({ typescriptRequire: "typescript", tsnodeRequire: "ts-node" });',
  );
  writeFileSync(
    path.join(pulumi, "vendor/typescript@3.8.3/typescript.js"),
    'module.exports = { from: "vendored", createSourceFile() {}, ScriptTarget: { Latest: 99 } };',
  );
  if (typescript !== "none") {
    const ts = path.join(dir, "node_modules/typescript");
    mkdirSync(ts, { recursive: true });
    writeFileSync(path.join(ts, "package.json"), JSON.stringify({ name: "typescript", version: typescript === "api" ? "5.9.3" : "7.0.2" }));
    // TypeScript 7's package has no compiler API: no createSourceFile, no ScriptTarget.
    writeFileSync(
      path.join(ts, "index.js"),
      typescript === "api"
        ? 'module.exports = { from: "project", createSourceFile() {}, ScriptTarget: { Latest: 99 } };'
        : 'module.exports = { from: "project" };',
    );
  }
  return { dir, shim: path.join(pulumi, "typescript-shim.js") };
}

describe("pinSerializerTypeScript: the parser @pulumi/pulumi serializes dynamic providers with", () => {
  it.each([
    { typescript: "no-api", returned: "vendored", parser: "vendored", why: "TypeScript 7 in the project: the vendored parser" },
    { typescript: "api", returned: "project", parser: "project", why: "a TypeScript with its API: the project's, untouched" },
    { typescript: "none", returned: "vendored", parser: "vendored", why: "no TypeScript: the shim's own fallback" },
  ] as const)("$why", ({ typescript, returned, parser }) => {
    const { dir, shim } = project(typescript);
    expect(pinSerializerTypeScript(dir)).toBe(returned);
    const ts = req(shim) as { from: string; ScriptTarget?: { Latest: number } };
    expect(ts.from).toBe(parser);
    expect(ts.ScriptTarget?.Latest).toBe(99);
    const { typeScriptRequireStrings } = req(path.join(path.dirname(shim), "tsutils.js"));
    expect(typeScriptRequireStrings()).toEqual({
      typescriptRequire: typescript === "no-api" ? path.join(path.dirname(shim), "vendor/typescript@3.8.3/typescript.js") : "typescript",
      tsnodeRequire: "ts-node",
    });
  });

  it("a shim already loaded with TypeScript 7 is pointed at the vendored parser, and a second call changes nothing", () => {
    const { dir, shim } = project("no-api");
    expect((req(shim) as { from: string }).from).toBe("project");
    expect(pinSerializerTypeScript(dir)).toBe("vendored");
    expect((req(shim) as { from: string }).from).toBe("vendored");
    expect(pinSerializerTypeScript(dir)).toBe("vendored");
    expect((req(shim) as { from: string }).from).toBe("vendored");
  });

  it("a @pulumi/pulumi without the shim, or none at all, is left alone", () => {
    const { dir, shim } = project("no-api");
    rmSync(shim);
    expect(pinSerializerTypeScript(dir)).toBe("unknown");
    const bare = mkdtempSync(path.join(tmpdir(), "ts-guard-bare-"));
    expect(pinSerializerTypeScript(bare)).toBe("unknown");
  });
});
