// Fails loudly when a test loads compiled code older than its source.
//
// Some tests run the build on purpose: the dynamic-provider host, the bins
// (`dist/simulator/bin.js`, `dist/fleet/bin.js`), the plugin, anything that
// resolves the package by its own name goes through the exports map to
// `dist/`. `npm test` builds first; `npx vitest run` (or mocha) on an edited
// tree would quietly test the last build instead. Required by the vitest
// setup and the mocha configs, this checks every file of `dist/` as Node loads
// it: when its source (`dist/a/b.js` ← `a/b.ts`) was changed after it was
// compiled, the load throws and says to run `npm run build`. It adds itself to
// NODE_OPTIONS, so the processes a test starts (the host, a bin) check too.
// Plain CommonJS, so a bare `node` can `--require` it.
//
// Timestamps, not contents: `tsc` rewrites every output on each build, so
// after a build no output is older than its source (a fresh clone has no
// dist/ at all until `npm run build`, which `npm test` runs first).
"use strict";

const fs = require("node:fs");
const path = require("node:path");
const Module = require("node:module");

const ROOT = path.resolve(__dirname, "..");
const DIST = path.join(ROOT, "dist") + path.sep;
const INSTALLED = Symbol.for("pulumi-subscription-billing/tests/dist-guard");

/** The source of a compiled file under dist/, or undefined when it has none (a copied .json, a .d.ts). */
function sourceOf(file) {
  if (!file.startsWith(DIST) || !file.endsWith(".js")) return undefined;
  const source = path.join(ROOT, file.slice(DIST.length, -".js".length) + ".ts");
  return fs.existsSync(source) ? source : undefined;
}

/** Why `file` (an absolute path under dist/) is stale, or undefined when it is not. */
function staleness(file) {
  const source = sourceOf(file);
  if (source === undefined) return undefined;
  const built = fs.statSync(file).mtimeMs;
  const changed = fs.statSync(source).mtimeMs;
  if (changed <= built) return undefined;
  return (
    `${path.relative(ROOT, file)} is older than its source ${path.relative(ROOT, source)} ` +
    `(changed ${new Date(changed).toISOString()}, built ${new Date(built).toISOString()}): ` +
    "the tests would run the last build, not the code in the tree. Run `npm run build`."
  );
}

function install() {
  // Mutation runs (stryker.config.mjs) rewrite the sources in a sandbox after copying dist/.
  if (process.env.BILLING_DIST_GUARD === "off") return;
  if (globalThis[INSTALLED]) return;
  globalThis[INSTALLED] = true;
  const checked = new Set();
  const load = Module._extensions[".js"];
  Module._extensions[".js"] = function guardedLoad(module, filename) {
    if (!checked.has(filename)) {
      const reason = staleness(filename);
      if (reason !== undefined) throw new Error(`Stale build: ${reason}`);
      checked.add(filename);
    }
    return load.call(this, module, filename);
  };
  const flag = /\s/.test(__filename) ? `--require ${JSON.stringify(__filename)}` : `--require ${__filename}`;
  const options = process.env.NODE_OPTIONS ?? "";
  if (!options.includes(flag)) process.env.NODE_OPTIONS = `${options} ${flag}`.trim();
}

install();

module.exports = { staleness, sourceOf };
