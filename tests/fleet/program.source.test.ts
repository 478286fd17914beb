import "./native-import";
import { realpathSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import * as pulumi from "@pulumi/pulumi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ResolvedSite } from "../../fleet/fleet-file";
import { inlineProgram, loadProgram, ProgramLoadError, TYPE_STRIPPING_NODE, typeStripping } from "../../fleet/program";
import { realFunction } from "./native-import";
import { PROGRAM_FILES, programProject, ROOT } from "./program-fixture";

/**
 * The loader's source (fleet/program.ts) in this process, on the same fixture project as program.test.ts
 * (which runs the compiled dist/ in a child node and so cannot see a mutant). The fixture is outside the
 * working directory, so the messages name files by their absolute paths. Left to program.test.ts: a Node
 * with type stripping turned off or absent (a process flag, not something this process can change) and the
 * stderr of a whole process (Node's "type": "module" advice).
 * The loader's `import()` is Node's own under vitest: see native-import.ts.
 */

const FILES: Record<string, string> = {
  ...PROGRAM_FILES,
  "scoped.ts": 'import { x } from "@nope/left-pad/sub";\nexport function program() {\n  return { x };\n}\n',
  "type-thrower.mjs": 'throw new TypeError("receiver is not a function");\nexport function program() {}\n',
  "string-thrower.mjs": 'throw "just a string";\nexport function program() {}\n',
  "common-default.cjs": "module.exports = { default: () => ({ from: 'module.exports.default' }) };\n",
  "common-fn.cjs": "module.exports = () => ({ from: 'module.exports' });\n",
  "not-a-function.mjs": "export const program = { not: 'a function' };\nexport default 42;\n",
  "dir-import.ts": 'import { x } from "./lib";\nexport function program() {\n  return { x };\n}\n',
  "lib/index.ts": "export const x = 1;\n",
  "typeless/package.json": '{ "name": "typeless" }\n',
  "typeless/site.js": 'process.emitWarning("kept", { code: "KEPT" });\nexport function program() {\n  return { from: "typeless" };\n}\n',
  "program.txt": "export function program() {}\n",
};

let dir: string;
/** A folder of this package's own (under ROOT), whose frames a stack's user frame skips. */
let ours: string;
const at = (file: string) => path.join(dir, file);

/** The ProgramLoadError a file's loading rejects with, checked to be one; its message. */
async function failure(file: string): Promise<string> {
  const err = await loadProgram(at(file)).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProgramLoadError);
  expect((err as Error).name).toBe("ProgramLoadError");
  return (err as Error).message;
}

beforeAll(async () => {
  globalThis.Function = realFunction; // fleet/program is evaluated by now
  dir = await programProject("billing-fleet-program-src-", FILES);
  ours = await mkdtemp(path.join(ROOT, ".program-source-test-"));
  await writeFile(path.join(ours, "boom.mjs"), 'export function boom() {\n  throw new Error("boom from the package");\n}\n');
  await writeFile(
    at("calls-ours.mjs"),
    `import { boom } from ${JSON.stringify(pathToFileURL(path.join(ours, "boom.mjs")).href)};\n\nboom();\nexport function program() {}\n`,
  );
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  if (ours) await rm(ours, { recursive: true, force: true });
});

describe("loadProgram (source, in-process)", () => {
  it("loads the README's site.ts and gives a program the runner's own @pulumi/pulumi", async () => {
    expect(typeof (await loadProgram(at("site.ts")))).toBe("function");
    const same = await loadProgram(at("same.ts"));
    expect(await same()).toBe(pulumi.Config);
  });

  it.each([
    ["default.ts", { from: "default" }],
    ["common.cts", { x: 1 }],
    ["common-default.cjs", { from: "module.exports.default" }],
    ["common-fn.cjs", { from: "module.exports" }],
  ])("finds the program of %s", async (file, result) => {
    const fn = await loadProgram(at(file));
    expect(await fn()).toEqual(result);
  });

  it("inlineProgram loads a path once and hands back the same promise", async () => {
    const site = { program: at("default.ts") } as ResolvedSite;
    const first = inlineProgram(site);
    expect(inlineProgram({ ...site })).toBe(first);
    expect(await (await first)()).toEqual({ from: "default" });
  });

  it("a syntax error in TypeScript names the file, line and column", async () => {
    expect(await failure("syntax.ts")).toBe(`${at("syntax.ts")}:3:21: syntax error: Expression expected`);
  });

  it("a syntax error in an ES module in JavaScript names the file and line (node --check)", async () => {
    expect(await failure("broken.mjs")).toBe(`${at("broken.mjs")}:2: syntax error: Unexpected token ';'`);
  });

  it.each([
    ["enum.ts", ":1:1: TypeScript enum", "an enum as a const object (const Color = { Red: 'red' } as const)"],
    ["namespace.ts", ":1: TypeScript namespace declaration", "a namespace as a module of its own or a plain object"],
    ["property.ts", ":2:23: TypeScript parameter property", "a parameter property as a field assigned in the constructor"],
  ])("TypeScript that needs compiling (%s) says what, where, and the rewrite", async (file, head, rewrite) => {
    expect(await failure(file)).toBe(
      `${at(file)}${head} needs compiling, and Node runs TypeScript by stripping its types only: rewrite it (${rewrite}), or compile the program with tsc and name the .js as the program`,
    );
  });

  it("a package that is not installed is named, with where Node looked and the install command", async () => {
    expect(await failure("missing.ts")).toBe(
      `${at("missing.ts")} imports "left-pad-nope", which is not installed where Node looks for it: node_modules/left-pad-nope in ${dir} or a folder above it; install it in the program's project (npm i left-pad-nope)`,
    );
    expect(await failure("scoped.ts")).toBe(
      `${at("scoped.ts")} imports "@nope/left-pad", which is not installed where Node looks for it: node_modules/@nope/left-pad in ${dir} or a folder above it; install it in the program's project (npm i @nope/left-pad)`,
    );
  });

  it("a relative import without its extension, with .js for a .ts, or of nothing, says what Node needs", async () => {
    expect(await failure("no-extension.ts")).toBe(
      `${at("no-extension.ts")} imports "./helpers" without its file extension, which Node needs in an ES module: import "./helpers.ts"`,
    );
    expect(await failure("js-extension.ts")).toBe(
      `${at("js-extension.ts")} imports "./helpers.js", which is helpers.ts: Node loads a file by its real name: import "./helpers.ts"`,
    );
    expect(await failure("gone.ts")).toBe(`${at("gone.ts")} imports "./nowhere.ts", which does not exist (${at("nowhere.ts")})`);
  });

  it("a module that exports no function as its program says what to export", async () => {
    const what = "exports no program: export a function as `program` (or as the default export) that declares the site's resources";
    expect(await failure("no-program.ts")).toBe(`${at("no-program.ts")} ${what}`);
    expect(await failure("not-a-function.mjs")).toBe(`${at("not-a-function.mjs")} ${what}`);
  });

  it.each([
    ["thrower.ts", "failed while loading, at %s:2:7: no receiver configured"],
    ["type-thrower.mjs", "failed while loading, at %s:1:7: TypeError: receiver is not a function"],
    ["string-thrower.mjs", "could not be loaded: just a string"],
  ])("what %s throws while loading is said with the program's own line", async (file, rest) => {
    expect(await failure(file)).toBe(`${at(file)} ${rest.replace("%s", at(file))}`);
  });

  it("a file Node cannot load as a module names its extension", async () => {
    expect(await failure("program.txt")).toBe(
      `${at("program.txt")}: Node cannot load .txt as a program: a program is a .js, .mjs, .cjs, .ts, .mts or .cts module`,
    );
  });

  it("a TypeScript program under node_modules, where Node strips no types, says to move it", async () => {
    const file = "node_modules/vendored/site.ts";
    expect(await failure(file)).toBe(
      `${at(file)} is under a node_modules folder, where Node does not strip types: move the program out of node_modules, or name its compiled .js`,
    );
  });

  it("a program that would declare its resources with another copy of @pulumi/pulumi names both", async () => {
    expect(await failure("copy/site.ts")).toBe(
      `${at("copy/site.ts")} loads @pulumi/pulumi from ${at("copy/node_modules/@pulumi/pulumi")}, but billing-fleet runs with the one in ${realpathSync(path.join(ROOT, "node_modules/@pulumi/pulumi"))}: ` +
        "a program's resources must be declared with the runner's copy; install pulumi-subscription-billing in the program's project and run its billing-fleet",
    );
  });

  it("an error thrown in this package's own code names the program's line that called it", async () => {
    expect(await failure("calls-ours.mjs")).toBe(
      `${at("calls-ours.mjs")} failed while loading, at ${at("calls-ours.mjs")}:3:1: boom from the package`,
    );
  });

  it("names a program under the working directory relative to it", async () => {
    const here = await mkdtemp(path.join(process.cwd(), ".program-source-cwd-"));
    try {
      await writeFile(path.join(here, "empty.mjs"), "export const nothing = 1;\n");
      expect(await loadProgram(path.join(here, "empty.mjs")).catch((e: Error) => e.message)).toBe(
        `${path.basename(here)}/empty.mjs exports no program: export a function as \`program\` (or as the default export) that declares the site's resources`,
      );
    } finally {
      await rm(here, { recursive: true, force: true });
    }
  });

  // Node refuses a folder with ERR_UNSUPPORTED_DIR_IMPORT (not ERR_MODULE_NOT_FOUND): the message names its index file.
  it("a folder import names the folder's index file to import instead", async () => {
    expect(await failure("dir-import.ts")).toBe(
      `${at("dir-import.ts")} imports "./lib", a folder, which Node does not resolve to its index in an ES module: import "./lib/index.ts"`,
    );
  });

  it('leaves out Node\'s "type": "module" advice while loading, keeps every other warning, and puts emitWarning back', async () => {
    const original = process.emitWarning;
    const seen: unknown[][] = [];
    const recorder = ((...args: unknown[]) => {
      seen.push(args);
    }) as typeof process.emitWarning;
    process.emitWarning = recorder;
    try {
      const [fn] = await Promise.all([loadProgram(at("typeless/site.js")), loadProgram(at("helpers.ts")).catch(() => undefined)]);
      expect(await fn()).toEqual({ from: "typeless" });
      expect(process.emitWarning).toBe(recorder);
      await loadProgram(at("common.cts"));
      expect(process.emitWarning).toBe(recorder);
    } finally {
      process.emitWarning = original;
    }
    expect(seen).toEqual([["kept", { code: "KEPT" }]]);
  });
});

describe("typeStripping", () => {
  it.each([
    [{ typescript: "strip" }, "22.23.3", "on"],
    [{}, "22.17.1", "absent"],
    [{}, "22.18.0", "off"],
    [{}, "20.19.0", "absent"],
    [{}, "23.5.0", "absent"],
    [{ typescript: false }, "23.6.0", "off"],
    [{}, "24.0.0", "off"],
    [{}, "", "absent"],
  ])("%j on Node %s is %s", (features, version, expected) => {
    expect(typeStripping(features, version)).toBe(expected);
  });

  it("this Node strips types, from the release the package names", () => {
    expect(typeStripping()).toBe("on");
    expect(TYPE_STRIPPING_NODE).toBe("22.18");
  });
});
