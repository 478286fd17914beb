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
 * Only the files that drive the shells load the runtime (`SHELL_TESTS`): loading it took about 2.5 s of
 * CPU in each of the ~170 other files, about a quarter of the unit suite's time. Any other file that calls a
 * shell fails with a message saying to add it there, rather than silently running dist/.
 *
 * Tests that run the build on purpose (a bin, the host) are checked by
 * `dist-guard.cjs`: a compiled file older than its source fails the load and
 * says to run `npm run build`.
 */
import { createRequire } from "node:module";
import fc from "fast-check";
import { beforeAll, expect } from "vitest";
import { seedOf } from "./seeds";

createRequire(__filename)("./dist-guard.cjs");

/** The test files that call provider shells (the provider's and the fault matrices', and the catalog round trip). */
const SHELL_TESTS = /\/tests\/(provider|reliability)\/|\/tests\/catalog\/round-trip\.test\.ts$/;

const SHELL_RUNTIME = Symbol.for("pulumi-subscription-billing/provider/runtime");
const testPath = expect.getState().testPath ?? "";
if (SHELL_TESTS.test(testPath)) {
  // A root hook of the setup file runs before the test file's own hooks and tests.
  beforeAll(async () => {
    (globalThis as { [k: symbol]: unknown })[SHELL_RUNTIME] = await import("../provider/runtime");
  }, 60_000);
} else {
  Object.defineProperty(globalThis, SHELL_RUNTIME, {
    configurable: true,
    get() {
      throw new Error(
        `${testPath} calls a provider shell: add it to SHELL_TESTS in tests/setup-source.ts, so that the shell runs the source runtime and not dist/`,
      );
    },
  });
}

fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: seedOf("FC_SEED", false) });
