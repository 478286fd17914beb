import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { pinSerializerTypeScript } from "../../provider/typescript-guard";
import { writeFakeTypeScriptProject } from "./fake-typescript-project";

/**
 * The guard from its source, so that the mutation run sees it (typescript-guard.test.ts checks the
 * compiled copy the runner loads, and the mutation run leaves it out). The guard works on Node's own
 * require cache, which this file reads through Node's require (`req`); every module it caches or
 * patches lives in a temporary project, whose cache entries and folder each test removes afterwards.
 */
const req = createRequire(__filename);
/** The mark a pinned `typeScriptRequireStrings` carries, global so that any copy of this package sees another's. */
const PINNED = Symbol.for("pulumi-subscription-billing/typescript-guard");

type TsUtils = { typeScriptRequireStrings: (() => { typescriptRequire: string; tsnodeRequire: string }) & { [PINNED]?: true } };

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) {
    for (const key of Object.keys(req.cache)) if (key.startsWith(dir + path.sep)) delete req.cache[key];
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A temporary project folder (removed after the test) with the fake @pulumi/pulumi and `typescript` as given. */
function project(typescript: "none" | "no-api" | "api", leaveOut: "tsutils" | undefined = undefined) {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), "ts-guard-src-")));
  made.push(dir);
  return writeFakeTypeScriptProject(dir, typescript, leaveOut);
}

/** What the serializer's parser is: which module the shim gives, read as the runner reads it. */
const parser = (shim: string) => req(shim) as { from: string; ScriptTarget?: { Latest: number } };

describe("pinSerializerTypeScript (source): the parser @pulumi/pulumi serializes dynamic providers with", () => {
  it.each([
    { typescript: "no-api", returned: "vendored", from: "vendored", pinned: true, why: "TypeScript 7 in the project: the vendored parser" },
    { typescript: "api", returned: "project", from: "project", pinned: false, why: "a TypeScript with its API: the project's, untouched" },
    { typescript: "none", returned: "vendored", from: "vendored", pinned: false, why: "no TypeScript: the shim's own fallback, untouched" },
  ] as const)("$why", ({ typescript, returned, from, pinned }) => {
    const { dir, shim, vendored, tsutils } = project(typescript);
    expect(pinSerializerTypeScript(dir)).toBe(returned);
    expect(parser(shim)).toEqual({ from, createSourceFile: expect.any(Function), ScriptTarget: { Latest: 99 } });
    expect((req(tsutils) as TsUtils).typeScriptRequireStrings()).toEqual({
      typescriptRequire: pinned ? vendored : "typescript",
      tsnodeRequire: "ts-node",
    });
  });

  it("a shim not loaded yet is cached as a loaded module holding the vendored parser: Node hands it out as is", () => {
    const { dir, shim, vendored } = project("no-api");
    expect(req.cache[shim]).toBeUndefined();
    expect(pinSerializerTypeScript(dir)).toBe("vendored");
    expect(req.cache[shim]).toMatchObject({ id: shim, filename: shim, loaded: true });
    expect(req.cache[shim]?.exports).toBe(req(vendored));
    // A cached module not marked loaded is one still loading (a require cycle): Node would wrap its exports.
    expect(Object.getPrototypeOf(parser(shim))).toBe(Object.prototype);
  });

  it("a shim already loaded with TypeScript 7 is pointed at the vendored parser, and a second call changes nothing", () => {
    const { dir, shim, vendored, tsutils } = project("no-api");
    expect(parser(shim).from).toBe("project");
    expect(pinSerializerTypeScript(dir)).toBe("vendored");
    expect(parser(shim).from).toBe("vendored");
    const first = (req(tsutils) as TsUtils).typeScriptRequireStrings;
    expect(first[PINNED]).toBe(true);

    expect(pinSerializerTypeScript(dir)).toBe("vendored");
    expect(parser(shim).from).toBe("vendored");
    // Not wrapped a second time: the same function, still answering the vendored compiler.
    expect((req(tsutils) as TsUtils).typeScriptRequireStrings).toBe(first);
    expect(first()).toEqual({ typescriptRequire: vendored, tsnodeRequire: "ts-node" });
  });

  it("a tsutils another copy of this package pinned already (its mark is global) is left as it is", () => {
    const { dir, shim, tsutils } = project("no-api");
    const theirs = Object.assign(() => ({ typescriptRequire: "/elsewhere/typescript.js", tsnodeRequire: "ts-node" }), {
      [PINNED]: true as const,
    });
    (req(tsutils) as TsUtils).typeScriptRequireStrings = theirs;
    expect(pinSerializerTypeScript(dir)).toBe("vendored");
    expect(parser(shim).from).toBe("vendored");
    expect((req(tsutils) as TsUtils).typeScriptRequireStrings).toBe(theirs);
  });

  it("a @pulumi/pulumi without tsutils.js (no policy-pack runner to pin): the shim alone is pinned", () => {
    const { dir, shim, tsutils } = project("no-api", "tsutils");
    expect(pinSerializerTypeScript(dir)).toBe("vendored");
    expect(parser(shim).from).toBe("vendored");
    expect(req.cache[tsutils]).toBeUndefined();
  });

  it.each([
    { what: "a @pulumi/pulumi without the shim", remove: "shim" },
    { what: "a @pulumi/pulumi without the vendored parser", remove: "vendored" },
  ] as const)("$what is left alone: unknown", ({ remove }) => {
    const p = project("no-api");
    rmSync(p[remove]);
    expect(pinSerializerTypeScript(p.dir)).toBe("unknown");
    expect(req.cache[p.shim]).toBeUndefined();
    expect((req(p.tsutils) as TsUtils).typeScriptRequireStrings()).toEqual({ typescriptRequire: "typescript", tsnodeRequire: "ts-node" });
  });

  it("no @pulumi/pulumi at all: unknown", () => {
    const bare = realpathSync(mkdtempSync(path.join(tmpdir(), "ts-guard-src-bare-")));
    made.push(bare);
    expect(pinSerializerTypeScript(bare)).toBe("unknown");
  });
});
