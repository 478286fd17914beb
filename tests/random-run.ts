/**
 * `npm run test:random`: the randomized tests with fresh seeds. `npm test` runs them with the fixed seeds
 * of tests/seeds.ts (the same cases every run); this draws a new seed for each variable not already set,
 * prints them with the command that replays the run, and runs those tests (or the vitest arguments given,
 * e.g. `npm run test:random -- tests/provider/check-fuzz.test.ts`). Exits with vitest's status.
 */
import { spawnSync } from "node:child_process";
import { randomInt } from "node:crypto";
import path from "node:path";
import { FIXED_SEEDS, type SeedVariable } from "./seeds";

/** The tests whose cases come from the seeds. */
const RANDOMIZED = [
  "tests/provider/check-fuzz.test.ts",
  "tests/provider/migration-preview-fuzz.test.ts",
  "tests/provider/catalog-check-fuzz.test.ts",
  "tests/provider/subscription-migration.test.ts",
  "tests/reliability/fault-matrix.test.ts",
  "tests/reliability/catalog-faults.test.ts",
  "tests/provider/component-check-fuzz.test.ts",
  "tests/provider/component-price-point-check-fuzz.test.ts",
  "tests/provider/coupon-check-fuzz.test.ts",
  "tests/reliability/component-faults.test.ts",
  "tests/reliability/component-price-point-faults.test.ts",
  "tests/reliability/coupon-faults.test.ts",
  "tests/sdk/replay.test.ts",
  "tests/sdk/catalog-inputs.test.ts",
];

const ROOT = path.resolve(__dirname, "..");
const seeds = Object.fromEntries(
  (Object.keys(FIXED_SEEDS) as SeedVariable[]).map((v) => [
    v,
    process.env[v]?.trim() ? process.env[v]!.trim() : String(randomInt(2 ** 31)),
  ]),
);
const args = process.argv.slice(2);
const files = args.length > 0 ? args : RANDOMIZED;
const assignments = Object.entries(seeds).map(([k, v]) => `${k}=${v}`);
console.log(`test:random seeds: ${assignments.join(" ")}`);
console.log(`replay: ${assignments.join(" ")} npx vitest run ${files.join(" ")}`);
// The package's own bin (its exports map does not publish the file).
const vitest = path.join(path.dirname(require.resolve("vitest/package.json")), "vitest.mjs");
const run = spawnSync(process.execPath, [vitest, "run", ...files], {
  cwd: ROOT,
  env: { ...process.env, ...seeds },
  stdio: "inherit",
});
console.log(`test:random seeds: ${assignments.join(" ")} (${run.status === 0 ? "passed" : "failed"})`);
process.exit(run.status ?? 1);
