/**
 * `npm run test:random`: the randomized tests with fresh seeds. `npm test` runs them with the fixed seeds
 * of tests/seeds.ts (the same cases every run); this draws a new seed for each variable not already set,
 * prints them with the command that replays the run, and runs those tests (or the vitest arguments given,
 * e.g. `npm run test:random -- tests/provider/check-fuzz.test.ts`). Exits with vitest's status.
 */
import { spawnSync } from "node:child_process";
import { randomInt } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { FIXED_SEEDS, type SeedVariable } from "./seeds";

const ROOT = path.resolve(__dirname, "..");

/**
 * The tests whose cases come from the seeds: every test file that draws with fast-check (its properties take
 * FC_SEED, or a seed of tests/seeds.ts) or reads a seed variable. Found in the tree rather than listed, so a new
 * randomized test is never left out (a list here once missed tests/sdk/component-inputs.test.ts).
 */
function randomizedTests(root = ROOT): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith(".test.ts") && /from "fast-check"|\bseedOf\(/.test(readFileSync(path.join(root, rel), "utf8")))
        found.push(rel);
    }
  };
  walk("tests");
  // The engine and e2e tests run under mocha (npm run test:engine / test:e2e), not vitest.
  return found.filter((f) => !/^tests\/(engine|e2e)\//.test(f)).sort();
}

const seeds = Object.fromEntries(
  (Object.keys(FIXED_SEEDS) as SeedVariable[]).map((v) => [
    v,
    process.env[v]?.trim() ? process.env[v]!.trim() : String(randomInt(2 ** 31)),
  ]),
);
const args = process.argv.slice(2);
const files = args.length > 0 ? args : randomizedTests();
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
