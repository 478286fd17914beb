/**
 * The seeds of the randomized tests. `npm test` runs each with its fixed seed, so every run tests the
 * same cases and a failure is one a re-run shows again; the variable overrides it to replay another
 * run. `npm run test:random` (tests/random-run.ts) draws every seed afresh, prints them, and runs the
 * randomized tests with them: new cases, and the line to replay them.
 */
export const FIXED_SEEDS = {
  /** tests/provider/check-fuzz.test.ts, tests/provider/subscription-migration/preview-fuzz.test.ts */
  FUZZ_SEED: 24_01,
  /**
   * tests/provider/catalog-check-fuzz.test.ts, and the check-fuzz of component, component-price-point and coupon, and of the
   * site configuration's reason-code, custom-field and offer (tests/provider/<kind>/check-fuzz.test.ts)
   */
  CATALOG_FUZZ_SEED: 24_02,
  /** tests/reliability/fault-matrix.test.ts (its simulators' fault draws included) */
  FAULT_MATRIX_SEED: 24_03,
  /** tests/reliability/catalog-faults.test.ts, and component-, component-price-point- and coupon-faults */
  CATALOG_FAULTS_SEED: 24_04,
  /** tests/catalog/round-trip.test.ts: the random catalogs carried from site to site; tests/provider/catalog-convergence.test.ts: those applied and refreshed */
  ROUND_TRIP_SEED: 24_06,
  /** Every other fast-check property: fast-check's global seed, set by tests/setup-source.ts */
  FC_SEED: 24_05,
} as const;

export type SeedVariable = keyof typeof FIXED_SEEDS;

/** The seed for `variable`: its value in the environment (an integer), else the fixed one. Printed, so a run says what it tested
 * (FC_SEED is not: it is set for every test file, and fast-check prints it with any failure). */
export function seedOf(variable: SeedVariable, print = true): number {
  const text = process.env[variable];
  let seed: number = FIXED_SEEDS[variable];
  if (text !== undefined && text.trim() !== "") {
    seed = Number(text);
    if (!Number.isSafeInteger(seed)) throw new Error(`${variable} must be an integer, got ${JSON.stringify(text)}`);
  }
  if (print) console.log(`${variable}=${seed}${seed === FIXED_SEEDS[variable] ? " (fixed)" : ""}`);
  return seed;
}
