import "./native-import";
import { mkdirSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadProgram, ProgramLoadError } from "../../fleet/program";
import { realFunction } from "./native-import";
import { ROOT } from "./program-fixture";

/**
 * The loader's messages branch by branch (fleet/program.ts, issue 24's surviving mutants): what Node
 * throws is mostly fixed by the Node release, so here each program throws the error itself, with the
 * code, message and stack Node would give, and the whole ProgramLoadError message is compared. Also a
 * Node that reports no type stripping (process.features.typescript, process.versions.node redefined for
 * the one call), which program.source.test.ts leaves to program.test.ts's child processes.
 *
 * The loader's `import()` is Node's own under vitest: see native-import.ts.
 */

let dir: string;
let count = 0;
const at = (file: string) => path.join(dir, file);
const url = (file: string) => pathToFileURL(at(file)).href;

function put(file: string, text: string): string {
  mkdirSync(path.dirname(at(file)), { recursive: true });
  writeFileSync(at(file), text);
  return at(file);
}

/** A fresh ES module (a module is loaded once per path) that throws what `error` builds; its path. */
function thrower(error: string): string {
  return put(`throws-${++count}.mjs`, `${error}\nexport function program() {}\n`);
}

/** An ES module that throws an Error (or `kind`) with this code, message and stack. */
function throwing(spec: { kind?: string; code?: string; message: string; stack: string }): string {
  const code = spec.code ? `e.code = ${JSON.stringify(spec.code)};\n` : "";
  return thrower(
    `const e = new ${spec.kind ?? "Error"}(${JSON.stringify(spec.message)});\n${code}e.stack = ${JSON.stringify(spec.stack)};\nthrow e;`,
  );
}

/** The message of the ProgramLoadError the file's loading rejects with (checked to be one). */
async function failure(file: string): Promise<string> {
  const err = await loadProgram(file).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProgramLoadError);
  return (err as Error).message;
}

beforeAll(async () => {
  globalThis.Function = realFunction; // fleet/program is evaluated by now
  dir = await mkdtemp(path.join(tmpdir(), "billing-fleet-program-msg-"));
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("a syntax error's place, from the head of its stack", () => {
  const caretLate = ["/u/late.js:4", ...Array.from({ length: 8 }, (_, i) => `filler ${i}`), "  ^"].join("\n");
  it.each([
    // file URL, a line of two digits, a caret line with trailing blanks
    ["file:///u/site.ts:12\n  const y = ;\n            ^   \n\nSyntaxError: Unexpected token", "/u/site.ts:12:13"],
    // the first line that is only carets (and blanks) is the caret line
    ["/u/plain.js:3\n  ^ not a caret line\nlet a = b ^\n    ^^\n", "/u/plain.js:3:5"],
    // a caret line is looked for in the seven lines under the head only
    [caretLate, "/u/late.js:4"],
    ["C:\\u\\win.js:7\nx\n^", "C:\\u\\win.js:7:1"],
  ])("%j places it at %s", async (stack, place) => {
    const file = throwing({ kind: "SyntaxError", message: "Unexpected token", stack });
    expect(await failure(file)).toBe(`${place}: syntax error: Unexpected token`);
  });

  it.each([
    ["a head that does not start with the file", "SyntaxError: bad token in /u/x.js:3"],
    ["a head with more after the line", "/u/y.js:3 (extra)"],
    ["no head at all", ""],
  ])("%s: node --check is asked, and a file it passes is said with its imports", async (_, stack) => {
    const file = throwing({ kind: "SyntaxError", message: "Unexpected token", stack });
    expect(await failure(file)).toBe(`${file} (or a module it imports): syntax error: Unexpected token`);
  });

  it("node --check names a line of two digits", async () => {
    const file = put(`late-${++count}.mjs`, `${"// filler\n".repeat(11)}const x = ;\nexport function program() {}\n`);
    expect(await failure(file)).toBe(`${file}:12: syntax error: Unexpected token ';'`);
  });
});

describe("the user's frame of what a program throws while loading", () => {
  it.each([
    [
      "the first frame not in this package, after lines that are not frames",
      "failed at /m/msg.js:1:2",
      [
        "Error: failed at /m/msg.js:1:2",
        "    at junk (/j/unk.js:1:2) trailing",
        `    at ours (${path.join(ROOT, "fleet/x.js")}:5:6)`,
        "    at f (file:///u/site.mjs:12:34)",
      ],
      ", at /u/site.mjs:12:34",
    ],
    [
      "a path frame without parentheses, with trailing blanks",
      "boom",
      ["Error: boom", "    at /u/plain.js:7:8   "],
      ", at /u/plain.js:7:8",
    ],
    ["a Windows frame", "boom", ["Error: boom", "    at f (C:\\u\\win.js:3:4)"], ", at C:\\u\\win.js:3:4"],
    ["no frame", "boom", ["Error: boom"], ""],
  ])("%s", async (_, message, stack, where) => {
    const file = throwing({ message, stack: stack.join("\n") });
    expect(await failure(file)).toBe(`${file} failed while loading${where}: ${message}`);
  });
});

describe("what Node's error codes mean", () => {
  it.each([
    [
      "TypeScript Node cannot strip, said in other words",
      "ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX",
      "Decorators are not valid here",
      ": Decorators are not valid here (Node runs TypeScript by stripping its types only)",
    ],
    [
      "TypeScript Node cannot strip, with more after the sentence",
      "ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX",
      "TypeScript enum is not supported in strip-only mode, here",
      ": TypeScript enum is not supported in strip-only mode, here (Node runs TypeScript by stripping its types only)",
    ],
    ["invalid TypeScript without a place", "ERR_INVALID_TYPESCRIPT_SYNTAX", "Expected ';'", ": syntax error: Expected ';'"],
    ["a module not found, in other words", "ERR_MODULE_NOT_FOUND", "Cannot find something else", ": Cannot find something else"],
    [
      "a folder import, in other words",
      "ERR_UNSUPPORTED_DIR_IMPORT",
      "Node says: Directory import '/u/lib' is not supported resolving ES modules imported from /u/site.ts",
      ": Node says: Directory import '/u/lib' is not supported resolving ES modules imported from /u/site.ts",
    ],
  ])("%s: the program and Node's message", async (_, code, message, rest) => {
    const file = throwing({ code, message: `${message}\nsecond line`, stack: `Error: ${message}` });
    expect(await failure(file)).toBe(`${file}${rest}`);
  });

  it("TypeScript with no rewrite to offer (a decorator) says what, where, and to compile", async () => {
    const file = throwing({
      code: "ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX",
      message: "TypeScript decorator is not supported in strip-only mode.",
      stack: "/u/d.ts:4\n@sealed\n^",
    });
    expect(await failure(file)).toBe(
      "/u/d.ts:4:1: TypeScript decorator needs compiling, and Node runs TypeScript by stripping its types only: rewrite it, or compile the program with tsc and name the .js as the program",
    );
  });

  it("a file without an extension that Node cannot load says so", async () => {
    const file = put(`noext-${++count}`, 'throw Object.assign(new Error("unknown"), { code: "ERR_UNKNOWN_FILE_EXTENSION" });\n');
    expect(await failure(file)).toBe(
      `${file}: Node cannot load files without an extension as a program: a program is a .js, .mjs, .cjs, .ts, .mts or .cts module`,
    );
  });
});

describe("an import Node did not find", () => {
  const notFound = (what: string, from: string) =>
    throwing({ code: "ERR_MODULE_NOT_FOUND", message: `Cannot find ${what} imported from ${from}`, stack: "Error: not found" });

  it("a package's subpath names the package to install, from a file URL", async () => {
    expect(await failure(notFound("package 'left-pad/sub'", "file:///u/site.ts"))).toBe(
      '/u/site.ts imports "left-pad/sub", which is not installed where Node looks for it: node_modules/left-pad in /u or a folder above it; install it in the program\'s project (npm i left-pad)',
    );
  });

  it("a file URL one folder up, .js with no .ts beside it, does not exist", async () => {
    expect(await failure(notFound(`module '${url("x.js")}'`, url("sub/site.ts")))).toBe(
      `${at("sub/site.ts")} imports "../x.js", which does not exist (${at("x.js")})`,
    );
  });

  it("a file that is there (not a .js) is not taken for a .ts", async () => {
    put("there.ts", "export const x = 1;\n");
    expect(await failure(notFound(`module '${at("there.ts")}'`, at("site.ts")))).toBe(
      `${at("site.ts")} imports "./there.ts", which does not exist (${at("there.ts")})`,
    );
  });

  it("a .jsx is not a .js: its .tsx is not offered", async () => {
    put("view.tsx", "export const x = 1;\n");
    expect(await failure(notFound(`module '${at("view.jsx")}'`, at("site.ts")))).toBe(
      `${at("site.ts")} imports "./view.jsx", which does not exist (${at("view.jsx")})`,
    );
  });

  it.each([".ts", ".mts", ".cts", ".js", ".mjs", ".cjs"])(
    "a file without its extension (only a %s there) is named with it",
    async (ext) => {
      put(`only${ext}/helpers${ext}`, "export const x = 1;\n");
      expect(await failure(notFound(`module '${at(`only${ext}/helpers`)}'`, at(`only${ext}/site.ts`)))).toBe(
        `${at(`only${ext}/site.ts`)} imports "./helpers" without its file extension, which Node needs in an ES module: import "./helpers${ext}"`,
      );
    },
  );
});

describe("a folder import", () => {
  const folderImport = (folder: string, from: string) =>
    throwing({
      code: "ERR_UNSUPPORTED_DIR_IMPORT",
      message: `Directory import '${folder}' is not supported resolving ES modules imported from ${from}`,
      stack: "Error: folder",
    });

  it.each(["index.ts", "index.mts", "index.cts", "index.js", "index.mjs", "index.cjs"])(
    "names its only index (%s), from file URLs one folder up",
    async (index) => {
      put(`dirs/${index}/lib/${index}`, "export const x = 1;\n");
      expect(await failure(folderImport(url(`dirs/${index}/lib`), url(`dirs/${index}/sub/site.ts`)))).toBe(
        `${at(`dirs/${index}/sub/site.ts`)} imports "../lib", a folder, which Node does not resolve to its index in an ES module: import "../lib/${index}"`,
      );
    },
  );

  it("a folder without an index says to import a file in it", async () => {
    mkdirSync(at("empty-lib"), { recursive: true });
    expect(await failure(folderImport(at("empty-lib"), at("site.ts")))).toBe(
      `${at("site.ts")} imports "./empty-lib", a folder, which Node does not resolve to its index in an ES module: import a file in it by its name`,
    );
  });
});

describe("a Node that does not strip types", () => {
  /** Runs `fn` with this process reporting `typescript` and `node` as its type stripping and release. */
  async function asNode<T>(typescript: unknown, node: string, fn: () => Promise<T>): Promise<T> {
    const saved = {
      typescript: Object.getOwnPropertyDescriptor(process.features, "typescript"),
      node: Object.getOwnPropertyDescriptor(process.versions, "node"),
      version: Object.getOwnPropertyDescriptor(process, "version"),
    };
    Object.defineProperty(process.features, "typescript", { value: typescript, configurable: true });
    Object.defineProperty(process.versions, "node", { value: node, configurable: true });
    Object.defineProperty(process, "version", { value: `v${node}`, configurable: true });
    try {
      return await fn();
    } finally {
      if (saved.typescript) Object.defineProperty(process.features, "typescript", saved.typescript);
      else delete (process.features as { typescript?: unknown }).typescript;
      Object.defineProperty(process.versions, "node", saved.node as PropertyDescriptor);
      Object.defineProperty(process, "version", saved.version as PropertyDescriptor);
    }
  }

  const off = "Node v22.20.0 has its type stripping turned off (--no-experimental-strip-types, in NODE_OPTIONS?): remove that flag";
  const absent =
    "Node v22.17.0 cannot run TypeScript by itself: run billing-fleet with Node 22.18 or later, which strips the types (no TypeScript or ts-node needed)";

  it.each([
    [false, "22.20.0", ".ts", off],
    [false, "22.20.0", ".mts", off],
    [undefined, "22.17.0", ".cts", absent],
    [undefined, "22.17.0", ".ts", absent],
  ])("typescript %j on Node %s refuses a %s program and says why", async (typescript, node, ext, why) => {
    const file = put(`strip-${++count}${ext}`, "export function program(): number {\n  return 1;\n}\n");
    expect(await asNode(typescript, node, () => failure(file))).toBe(
      `${file} is TypeScript and ${why}; or compile it to JavaScript and name the .js as the program`,
    );
  });

  it.each([".js", ".ts.mjs"])("loads a %s program all the same", async (ext) => {
    const file = put(`plain-${++count}${ext}`, "export function program() {\n  return 'plain';\n}\n");
    const fn = await asNode(false, "22.20.0", () => loadProgram(file));
    expect(await fn()).toBe("plain");
  });
});

it('leaves out Node\'s "type": "module" advice for a program loaded on its own, and keeps other warnings', async () => {
  const folder = `typeless-${++count}`;
  put(`${folder}/package.json`, '{ "name": "typeless" }\n');
  const file = put(
    `${folder}/site.js`,
    'process.emitWarning("kept", { code: "KEPT" });\nexport function program() {\n  return "typeless";\n}\n',
  );
  const original = process.emitWarning;
  const seen: unknown[][] = [];
  const recorder = ((...args: unknown[]) => {
    seen.push(args);
  }) as typeof process.emitWarning;
  process.emitWarning = recorder;
  try {
    const fn = await loadProgram(file);
    expect(await fn()).toBe("typeless");
    expect(process.emitWarning).toBe(recorder);
  } finally {
    process.emitWarning = original;
  }
  // The test's own import (the Function proxy above) warns once per process, in whichever test loads first.
  const harness = (args: unknown[]) => String(args[0]).startsWith("vm.USE_MAIN_CONTEXT_DEFAULT_LOADER is an experimental feature");
  expect(seen.filter((args) => !harness(args))).toEqual([["kept", { code: "KEPT" }]]);
});
