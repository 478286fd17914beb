import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { typeStripping } from "../../fleet/program";
import { PROGRAM_FILES, programProject, ROOT } from "./program-fixture";

/**
 * Module programs as billing-fleet loads them: the compiled loader (dist/fleet/program.js, `npm run build`)
 * in a Node process of its own, on files in a fresh project (a package.json without "type", the packages
 * linked into its node_modules), so Node's own type stripping and module detection are what is tested.
 */
const LOADER = path.join(ROOT, "dist/fleet/program.js");

const FILES = PROGRAM_FILES;

/** Loads each file with the compiled loader; per file, its program's result (a function's name) or the error's message. */
const RUNNER = `
const path = require("node:path");
const { loadProgram } = require(process.argv[2]);
const pulumi = require(require.resolve("@pulumi/pulumi", { paths: [path.dirname(process.argv[2])] }));
(async () => {
  const out = {};
  for (const f of process.argv.slice(3)) {
    try {
      const fn = await loadProgram(path.resolve(f));
      const r = await fn();
      out[f] = { ok: true, sameConfig: r === pulumi.Config };
    } catch (e) {
      out[f] = { ok: false, name: e.name, message: e.message };
    }
  }
  process.stdout.write(JSON.stringify(out));
})();
`;

type Outcome = { ok: true; sameConfig: boolean } | { ok: false; name: string; message: string };

let dir: string;
let results: Record<string, Outcome>;
let stderr: string;

function run(files: string[], nodeArgs: string[] = [], node = process.execPath): { results: Record<string, Outcome>; stderr: string } {
  const r = spawnSync(node, [...nodeArgs, path.join(dir, "runner.cjs"), LOADER, ...files], { cwd: dir, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`the loader exited ${r.status}: ${r.stderr}`);
  return { results: JSON.parse(r.stdout), stderr: r.stderr };
}
const load = (files: string[], nodeArgs: string[] = [], node = process.execPath) => run(files, nodeArgs, node).results;

const failure = (file: string): string => {
  const r = results[file];
  if (!r || r.ok) throw new Error(`${file} loaded: ${JSON.stringify(r)}`);
  expect(r.name).toBe("ProgramLoadError");
  // Never a path of this package's own code: the user's files and what to do only.
  expect(r.message).not.toMatch(/dist[/\\]|fleet[/\\]program|node:internal/);
  return r.message;
};

beforeAll(async () => {
  if (!existsSync(LOADER)) throw new Error(`${LOADER} is missing: run npm run build first`);
  dir = await programProject("billing-fleet-program-", FILES);
  await writeFile(path.join(dir, "runner.cjs"), RUNNER);
  ({ results, stderr } = run(Object.keys(FILES).filter((f) => !f.includes("@pulumi") && f !== "helpers.ts")));
}, 60_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("loading a fleet's module program with Node's own type stripping", () => {
  it('loads the README\'s site.ts (ES module syntax, no "type": "module"), with no ts-node or TypeScript installed', () => {
    expect(results["site.ts"]).toMatchObject({ ok: true });
    expect(existsSync(path.join(dir, "node_modules/typescript"))).toBe(false);
  });

  it('leaves out Node\'s advice to add "type": "module" to the project (the program loads as it is)', () => {
    expect(stderr).not.toMatch(/MODULE_TYPELESS_PACKAGE_JSON|"type": "module"/);
  });

  it("gives the program the runner's own @pulumi/pulumi", () => {
    expect(results["same.ts"]).toEqual({ ok: true, sameConfig: true });
  });

  it("loads a default export and a CommonJS .cts", () => {
    expect(results["default.ts"]).toMatchObject({ ok: true });
    expect(results["common.cts"]).toMatchObject({ ok: true });
  });

  it("a syntax error names the file, line and column", () => {
    expect(failure("syntax.ts")).toBe("syntax.ts:3:21: syntax error: Expression expected");
  });

  it("a syntax error in an ES module in JavaScript names the file and line too", () => {
    expect(failure("broken.mjs")).toBe("broken.mjs:2: syntax error: Unexpected token ';'");
  });

  it.each([
    ["enum.ts", "enum.ts:1:1: TypeScript enum", /an enum as a const object/],
    ["namespace.ts", "namespace.ts:1: TypeScript namespace declaration", /a namespace as a module of its own/],
    ["property.ts", "property.ts:2:23: TypeScript parameter property", /a parameter property as a field assigned in the constructor/],
  ])("TypeScript that needs compiling (%s) says what Node refused, where, and what to do", (file, head, rewrite) => {
    const message = failure(file);
    expect(message.startsWith(`${head} needs compiling, and Node runs TypeScript by stripping its types only: rewrite it (`)).toBe(true);
    expect(message).toMatch(rewrite);
    expect(message).toMatch(/or compile the program with tsc and name the \.js as the program$/);
  });

  it("a package that is not installed is named, with where Node looked and the command that installs it", () => {
    expect(failure("missing.ts")).toBe(
      `missing.ts imports "left-pad-nope", which is not installed where Node looks for it: node_modules/left-pad-nope in ${dir} or a folder above it; install it in the program's project (npm i left-pad-nope)`,
    );
  });

  it("a relative import without its extension, or with .js for a .ts file, says the name Node needs", () => {
    expect(failure("no-extension.ts")).toBe(
      'no-extension.ts imports "./helpers" without its file extension, which Node needs in an ES module: import "./helpers.ts"',
    );
    expect(failure("js-extension.ts")).toBe(
      'js-extension.ts imports "./helpers.js", which is helpers.ts: Node loads a file by its real name: import "./helpers.ts"',
    );
    expect(failure("gone.ts")).toBe(`gone.ts imports "./nowhere.ts", which does not exist (${path.join(dir, "nowhere.ts")})`);
  });

  it("a module that exports no program says what to export", () => {
    expect(failure("no-program.ts")).toBe(
      "no-program.ts exports no program: export a function as `program` (or as the default export) that declares the site's resources",
    );
  });

  it("an error thrown while loading names the program's own line", () => {
    expect(failure("thrower.ts")).toBe("thrower.ts failed while loading, at thrower.ts:2:7: no receiver configured");
  });

  it("a TypeScript program under node_modules, where Node strips no types, says to move it", () => {
    expect(failure("node_modules/vendored/site.ts")).toMatch(
      /^node_modules\/vendored\/site\.ts is under a node_modules folder, where Node does not strip types: move the program out/,
    );
  });

  it("a program that would declare its resources with another copy of @pulumi/pulumi names both", () => {
    const message = failure("copy/site.ts");
    expect(message).toContain(`copy/site.ts loads @pulumi/pulumi from ${path.join(dir, "copy/node_modules/@pulumi/pulumi")}`);
    expect(message).toContain(`but billing-fleet runs with the one in ${path.join(ROOT, "node_modules/@pulumi/pulumi")}`);
  });

  it("a Node with type stripping turned off says so, and what to do", () => {
    const off = load(["site.ts"], ["--no-experimental-strip-types"])["site.ts"];
    expect(off).toMatchObject({ ok: false, name: "ProgramLoadError" });
    expect((off as { message: string }).message).toBe(
      `site.ts is TypeScript and Node ${process.version} has its type stripping turned off (--no-experimental-strip-types, in NODE_OPTIONS?): remove that flag; or compile it to JavaScript and name the .js as the program`,
    );
  });

  // The machine's own Node, when it is older than 22.18 (the package's engines say 22.18 or later).
  const older = ["/usr/bin/node", "/usr/local/bin/node"].find((n) => {
    if (!existsSync(n)) return false;
    const v = spawnSync(n, ["-p", "process.versions.node"], { encoding: "utf8" }).stdout.trim();
    return v !== "" && typeStripping({}, v) === "absent";
  });
  it.skipIf(!older)("a Node without type stripping says which Node is needed", () => {
    const r = load(["site.ts"], [], older)["site.ts"] as { message: string };
    expect(r.message).toMatch(
      /^site\.ts is TypeScript and Node v\d+\.\d+\.\d+ cannot run TypeScript by itself: run billing-fleet with Node 22\.18 or later, which strips the types \(no TypeScript or ts-node needed\); or compile it to JavaScript/,
    );
  });

  it("knows which Node releases strip types", () => {
    expect(typeStripping({ typescript: "strip" }, "22.23.3")).toBe("on");
    expect(typeStripping({}, "22.17.1")).toBe("absent");
    expect(typeStripping({}, "20.19.0")).toBe("absent");
    expect(typeStripping({}, "23.5.0")).toBe("absent");
    expect(typeStripping({ typescript: false }, "22.18.0")).toBe("off");
    expect(typeStripping({}, "23.6.0")).toBe("off");
    expect(typeStripping({}, "24.0.0")).toBe("off");
  });
});
