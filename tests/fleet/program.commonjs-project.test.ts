import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { programProject, ROOT } from "./program-fixture";

/**
 * Module programs in a project made the usual way: `npm init -y` (npm 11) writes `"type": "commonjs"`, under
 * which Node loads every `.ts` as CommonJS. The compiled loader (dist/fleet/program.js, `npm run build`) runs
 * in a Node process of its own, as billing-fleet does, so Node's own loading is what is tested.
 */
const LOADER = path.join(ROOT, "dist/fleet/program.js");

/** The package.json `npm init -y` writes with npm 11.19, in the folder `project`. */
const NPM_INIT = {
  name: "project",
  version: "1.0.0",
  description: "",
  main: "index.js",
  scripts: { test: 'echo "Error: no test specified" && exit 1' },
  keywords: [],
  author: "",
  license: "ISC",
  type: "commonjs",
};

const FILES: Record<string, string> = {
  "site.ts": "", // the README's example, copied from examples/fleet
  "helpers.ts": "export const x: number = 1;\n",
  "uses-helpers.ts": 'import { x } from "./helpers.ts";\nexport function program() {\n  return { x };\n}\n',
  "top-level-await.ts": "const x: number = await Promise.resolve(2);\nexport function program() {\n  return { x };\n}\n",
  "common.ts": 'const path = require("node:path");\nmodule.exports = { program: (): object => ({ x: path.basename("/a/b") }) };\n',
  "dynamic-import.ts":
    'exports.program = async (): Promise<object> => {\n  const path = await import("node:path");\n  return { x: path.basename("/a/c") };\n};\n',
  "requires-helpers.cts": 'const helpers = require("./helpers.ts");\nmodule.exports = { program: () => ({ x: helpers.x }) };\n',
  "enum.ts": "export enum Color { Red, Green }\nexport function program() {\n  return { c: Color.Red };\n}\n",
};

/** Loads and runs each program with the compiled loader; per file, what its program returned or the error's message. */
const RUNNER = `
const path = require("node:path");
const { loadProgram } = require(process.argv[2]);
(async () => {
  const out = {};
  for (const f of process.argv.slice(3)) {
    try {
      const fn = await loadProgram(path.resolve(f));
      out[f] = { ok: true, returned: f === "site.ts" ? undefined : await fn() };
    } catch (e) {
      out[f] = { ok: false, name: e.name, message: e.message };
    }
  }
  process.stdout.write(JSON.stringify(out));
})();
`;

type Outcome = { ok: true; returned?: unknown } | { ok: false; name: string; message: string };

let dir: string;
let results: Record<string, Outcome>;
let stderr: string;

beforeAll(async () => {
  if (!existsSync(LOADER)) throw new Error(`${LOADER} is missing: run npm run build first`);
  dir = await programProject("billing-fleet-npm-init-", FILES);
  await writeFile(path.join(dir, "package.json"), `${JSON.stringify(NPM_INIT, null, 2)}\n`);
  await writeFile(path.join(dir, "runner.cjs"), RUNNER);
  const files = Object.keys(FILES).filter((f) => f !== "helpers.ts");
  const r = spawnSync(process.execPath, [path.join(dir, "runner.cjs"), LOADER, ...files], { cwd: dir, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`the loader exited ${r.status}: ${r.stderr}`);
  results = JSON.parse(r.stdout);
  stderr = r.stderr;
}, 60_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('a .ts program in a project whose package.json says "type": "commonjs" (npm init -y)', () => {
  it("loads the README's site.ts (import … from)", () => {
    expect(results["site.ts"]).toEqual({ ok: true });
  });

  it("loads a program's .ts helpers in module syntax, and a program with top-level await", () => {
    expect(results["uses-helpers.ts"]).toEqual({ ok: true, returned: { x: 1 } });
    expect(results["top-level-await.ts"]).toEqual({ ok: true, returned: { x: 2 } });
  });

  it("keeps a .ts in CommonJS syntax CommonJS, dynamic import() included, and lets a .cts require a module-syntax .ts", () => {
    expect(results["common.ts"]).toEqual({ ok: true, returned: { x: "b" } });
    expect(results["dynamic-import.ts"]).toEqual({ ok: true, returned: { x: "c" } });
    expect(results["requires-helpers.cts"]).toEqual({ ok: true, returned: { x: 1 } });
  });

  it("TypeScript that needs compiling still says what Node refused, and where", () => {
    const r = results["enum.ts"];
    expect(r).toMatchObject({ ok: false, name: "ProgramLoadError" });
    expect((r as { message: string }).message).toMatch(/^enum\.ts:1:\d+: TypeScript enum needs compiling/);
  });

  it('prints neither Node\'s advice to set "type": "module" nor a warning of the loader\'s own', () => {
    expect(stderr).not.toMatch(/Failed to load the ES module|"type": "module"|ExperimentalWarning|stripTypeScriptTypes/);
  });
});
