/**
 * The vitest config of `npm run mutate` (stryker.config.mjs): the unit suite's config
 * (vitest.config.mts), less the test files that cannot see a mutant in Stryker's sandbox.
 *
 * Stryker instruments the sources in a copy of the tree and switches mutants on inside the vitest
 * worker. A test file is left out here when what it checks runs outside that process or outside the
 * sources (it would pass against every mutant, or fail for a reason that is not the mutant):
 */
import path from "node:path";
import { defineConfig, mergeConfig } from "vitest/config";
import base from "../vitest.config.mts";

export const NOT_IN_THE_MUTATION_RUN: Record<string, string> = {
  // Compile the docs' TypeScript, Go and Python examples with tsc, go and pyright against dist/ and
  // the generated SDKs (child processes, .cache/ toolchains that the sandbox does not copy).
  "tests/docs/**": "compiles the docs' examples against dist/ and sdk-gen/ in child processes (tsc, go, pyright)",
  // npm pack and API Extractor over the build: what ships, not what the sources do.
  "tests/package/**": "packs and reads dist/ (npm pack, publint, attw, API Extractor) in child processes",
  // The generated SDKs (Go builds, the generator's staleness check against the committed output).
  "tests/sdk-gen/**": "builds and diffs the generated SDKs (go, the generator) in child processes; generated code is not mutated",
  // Release workflow, assets and changelog: scripts/ and .github/, not the mutated folders.
  "tests/release/**": "checks scripts/, .github/ and the project files with actionlint/git; no mutated code runs",
  // Type-checks a program against dist/*.d.ts: sees declarations, never a mutant.
  "tests/provider/published-types.test.ts": "type-checks a program against dist/ declarations; no code runs",
  // Reads dist/sdk/*.d.ts, and its own staleness check fails in the sandbox, whose instrumented
  // sources are newer than the copied dist/.
  "tests/sdk/published-docs.test.ts": "reads dist/ declarations, and its own dist-staleness check fails on the sandbox's instrumented sources",
  // Loads dist/provider/typescript-guard.js: the compiled copy, never the mutated one.
  "tests/provider/typescript-guard.test.ts": "requires the compiled dist/provider/typescript-guard.js, not the source",
  // Runs the compiled loader dist/fleet/program.js in a child node process.
  "tests/fleet/program.test.ts": "runs the compiled dist/fleet/program.js in a child process",
  // Registers resources under pulumi.runtime.setMocks: each dynamic resource serializes its provider's
  // closure (serializeFunction), which over the sandbox's instrumented modules took past the 20 s timeout
  // in the initial run. It checks the classes' wiring of outputs to inputs; the runtime it would reach is
  // covered by the provider tests.
  "tests/provider/coupon/program.test.ts": "serializes the dynamic provider's closure over instrumented code (past the timeout); checks class wiring only",
  // The same for WebhookEndpoint's program rules: a registration never resolved in the sandbox (past 180 s, 27 Nov 02:20),
  // outside it the file takes under a second. The kind's provider operations are in tests/provider/webhook-endpoint/, run here.
  "tests/provider/webhook-endpoint/program.test.ts": "registers dynamic resources under mocks; serializing their provider over instrumented code never resolved (past 180 s)",
  "tests/provider/component-price-point/program.test.ts": "awaits dynamic resources' registration under mocks, which never resolved in the sandbox (past 180 s, 02:35)",
  // Does not await the registrations: in the sandbox they failed after the test, an unhandled error that crashed Stryker's
  // vitest runner in the initial run (03:01, "Cannot convert object to primitive value" stringifying it).
  "tests/provider/product-price-point/program.test.ts": "registers dynamic resources under mocks; in the sandbox the registrations fail after the test, an unhandled error that crashes the run",
  // Spawn the simulator's bin (dist/ or ts-node) in a child process; the simulator is not mutated.
  "tests/simulator/persistence.test.ts": "spawns dist/simulator/bin.js; the simulator is not mutated",
  "tests/simulator/server.test.ts": "spawns simulator/bin.ts under ts-node; the simulator is not mutated",
};

export default mergeConfig(
  base,
  defineConfig({
    root: path.resolve(import.meta.dirname, ".."),
    test: {
      exclude: Object.keys(NOT_IN_THE_MUTATION_RUN),
      // Isolated (vitest's default), on purpose. Not isolated, a worker keeps its modules between the runs
      // Stryker starts for each mutant: 1.3x faster on one file, but over a folder, mutants whose covering
      // tests were known "survived" with no test run (vite's module graph, which `related` filters by, no
      // longer sees a test file import a module the worker already holds). scripts/mutate.ts counts such
      // results apart, should they come back.
      isolate: true,
      // A test that registers a dynamic resource (under pulumi.runtime.setMocks) has Pulumi serialize its provider's
      // closure, which over the sandbox's instrumented modules took past the suite's 20 s (27 Nov, 02:09: a WebhookEndpoint
      // registration, in tests/provider/webhook-endpoint/program.test.ts today, 0.8 s for the whole file outside the sandbox).
      // Stryker bounds each mutant's run with its own timeout (timeoutMS, from the initial run's times), not this one.
      testTimeout: 180_000,
      hookTimeout: 60_000,
    },
  }),
);
