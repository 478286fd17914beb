/**
 * Vitest setup (every test file): the unit tests run the code in the tree.
 *
 * The provider objects are serialized shells whose methods load
 * `pulumi-subscription-billing/provider/runtime` at call time, by the
 * package's own name, which resolves through the exports map to `dist/`. Left
 * alone, every provider unit test would run the last build. The shell keeps
 * what it loaded under a global symbol and looks there first (once per
 * process), so putting the source runtime there makes the shells delegate to
 * the source, as the plugin already does; the shell itself is unchanged (the
 * engine tests serialize it and run it in the real host, which loads dist/).
 *
 * Every fast-check property without a seed of its own runs with FC_SEED (tests/seeds.ts): fixed,
 * unless the variable (or `npm run test:random`) says otherwise.
 *
 * Tests that run the build on purpose (a bin, the host) are checked by
 * `dist-guard.cjs`: a compiled file older than its source fails the load and
 * says to run `npm run build`.
 */
import { createRequire } from "node:module";
import fc from "fast-check";
import * as runtime from "../provider/runtime";
import { seedOf } from "./seeds";

createRequire(__filename)("./dist-guard.cjs");

const SHELL_RUNTIME = Symbol.for("pulumi-subscription-billing/provider/runtime");
(globalThis as { [k: symbol]: unknown })[SHELL_RUNTIME] = runtime;

fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: seedOf("FC_SEED", false) });
