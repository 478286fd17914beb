import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { writeFakeTypeScriptProject } from "./fake-typescript-project";

/**
 * The guard runs in the runner's own CommonJS world (Node's require and its cache), so it is loaded
 * from the build, through Node's require, as the runner loads it (vitest's module graph is not Node's).
 */
const req = createRequire(__filename);
const { pinSerializerTypeScript } = req("../../dist/provider/typescript-guard.js") as typeof import("../../provider/typescript-guard");

/** A temporary project folder with the fake @pulumi/pulumi and `typescript` as given. */
const project = (typescript: "none" | "no-api" | "api") =>
  writeFakeTypeScriptProject(mkdtempSync(path.join(tmpdir(), "ts-guard-")), typescript);

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
