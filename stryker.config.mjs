// @ts-check
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
/**
 * Mutation testing (issue 24): `npm run mutate` (scripts/mutate.ts; not part of `npm test`: a full run takes
 * hours). It runs Stryker once per folder with BILLING_MUTATE_FOLDER set, each folder incremental on its own
 * file in mutation/incremental/ (a copy of the branch mutation-data). Scores, times and every survivor:
 * mutation/scores.md (the table also in docs/development.md); the explained survivors of the critical files:
 * mutation/survivors.md.
 *
 * Part of a folder (one comma-separated --mutate: a second one replaces the first, and braces do not expand):
 *   npm run mutate -- sdk --mutate 'sdk/transport.ts,sdk/retry.ts'
 *
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */

// tests/dist-guard.cjs fails a load of a dist/ file older than its source. In the sandbox every
// mutated source is rewritten (instrumented) after dist/ was copied, so each test that loads dist/
// on purpose would fail the initial run. The guard stands down when this is set; the tests that
// only see dist/ are left out of the run instead (mutation/vitest.config.mts says which and why).
// Stryker's workers inherit this process's environment.
process.env.BILLING_DIST_GUARD = "off";
// tests/provider/check-fuzz.test.ts runs 10,000 inputs a property; every mutant it reaches re-runs it, instrumented,
// and at that size the initial test run passed the test's 180 s timeout beside another folder's run (26 Nov, 23:37).
process.env.BILLING_FUZZ_RUNS ??= "2000";

/**
 * Why Stryker cannot start here, or undefined: the checker runs on TypeScript 7, which `npm run mutate`
 * (scripts/mutate.ts) installs from mutation/native and links as node_modules/@typescript/native. Run without
 * the wrapper, Stryker's own error suggests an npm alias, which would put TypeScript 7's `tsc` over the repo's 5.x.
 * @param {string} root
 */
export function checkerTypescriptMissing(root) {
  if (existsSync(path.join(root, "node_modules", "@typescript", "native", "package.json"))) return undefined;
  return "the mutation checker needs TypeScript 7 (mutation/native), which `npm run mutate -- <folder>` installs and links; run it instead of `npx stryker run` (do not add an npm alias: it replaces the repo's tsc)";
}

// Loaded by Stryker's CLI (not by scripts/mutate.ts or a test reading mutatePatterns): say what to run instead.
if (/stryker/.test(process.argv[1] ?? "")) {
  const missing = checkerTypescriptMissing(path.dirname(fileURLToPath(import.meta.url)));
  if (missing) throw new Error(missing);
}

const FOLDERS = ["sdk", "provider", "fleet", "plugin"];
const folder = process.env.BILLING_MUTATE_FOLDER;
if (folder !== undefined && !FOLDERS.includes(folder)) throw new Error(`BILLING_MUTATE_FOLDER: ${folder} is not one of ${FOLDERS.join(", ")}`);

/**
 * What a run mutates in the given folders: their TypeScript, less generated code (tested by its staleness
 * checks: npm run sdk-gen, npm run docs), the bins (process entry points: only the e2e tests run them, in
 * child processes no mutant reaches) and declaration-only files. scripts/mutate.ts counts a folder's
 * untested mutants over the same files.
 * @param {readonly string[]} folders
 */
export const mutatePatterns = (folders) => [
  ...folders.map((f) => `${f}/**/*.ts`),
  "!sdk/generated/**",
  "!provider/kinds/generated/**",
  "!**/bin.ts",
  "!**/*.d.ts",
];

export default {
  packageManager: "npm",
  testRunner: "vitest",
  // The unit suite's config minus the test files that cannot see a mutant (the list, with reasons).
  vitest: { configFile: "mutation/vitest.config.mts", related: true },
  coverageAnalysis: "perTest",
  checkers: ["typescript"],
  // A folder's run checks that folder and what it imports (mutation/tsconfig.<folder>.json): each check re-checks the
  // whole project, and sdk/ alone takes half the time of all four.
  tsconfigFile: folder ? `mutation/tsconfig.${folder}.json` : "mutation/tsconfig.json",
  // TypeScript 7 (the Go compiler; scripts/mutate.ts installs it from mutation/native as @typescript/native),
  // one mutant per compile. TypeScript 5's checker grouped mutants but compiled provider/kinds and sdk/ ones
  // alone anyway (their importers overlap), each a re-check of zod-inferred types: ~12 a minute. TypeScript
  // 7 checked 2 kinds files' 524 mutants, with their tests, in 5 min 22 s (mutation/README.md).
  typescriptChecker: { experimentalNativePreview: true },
  mutate: mutatePatterns(folder ? [folder] : FOLDERS),
  // The machine has 2 cores; tests start simulators and servers of their own.
  concurrency: 2,
  // A static mutant (module-level code: constants, the kinds' runtimes built at load) needs a fresh
  // environment and every test: ~2 minutes each here, hours for all. Ignored, so reported as such and
  // not in the score; mutation/survivors.md says what that leaves out.
  ignoreStatic: true,
  // The initial run is the whole mutation suite, instrumented, in one vitest worker: minutes, more on a busy machine.
  dryRunTimeoutMinutes: 40,
  // Fault-injection tests wait on purpose; a mutant that makes a loop endless is still cut off.
  timeoutMS: 20_000,
  timeoutFactor: 2,
  // A change re-tests only the mutants and tests it touched. The files are kept on the branch mutation-data, not in
  // main's tree: scripts/mutate.ts reads it into the ignored mutation/incremental/ before a run and commits each
  // folder's results back to it after that folder's run (see mutation/README.md).
  incremental: true,
  incrementalFile: `mutation/incremental/${folder ?? "all"}.json`,
  // Not copied into the sandbox: tool caches and state the mutation run's tests do not use.
  ignorePatterns: [".cache", ".pulumi-state", ".billing-fleet", "*.tgz", "reports", "mutation/*.md", "mutation/incremental"],
  // vitest transpiles without type checks; the checker above does the compiling. Not the generated files: they are
  // not mutated, and their in-process staleness tests (tests/provider/kinds-tsdoc.test.ts) compare them byte for
  // byte with what the generators write, which a `// @ts-nocheck` line on top would fail.
  disableTypeChecks: "{sdk,provider,fleet,plugin}/{*.ts,**/!(generated)/*.ts}",
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: `reports/mutation/${folder ?? "all"}.html` },
  jsonReporter: { fileName: `reports/mutation/${folder ?? "all"}.json` },
  thresholds: { high: 85, low: 70, break: null },
  tempDirName: ".stryker-tmp",
  cleanTempDir: true,
};
