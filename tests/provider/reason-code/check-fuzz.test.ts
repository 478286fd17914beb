/**
 * Fuzz of the ReasonCode kind's `check()` with fast-check: codes and descriptions empty, blank, too long or of
 * another type, positions of 0, negative, fractional, huge or non-finite, unknown keys, the engine's UNKNOWN
 * anywhere; on a first deploy (check reads the service: a code held is adopted, or refused with `adopt: false`)
 * and on an update that changes the code (the new one must be free). For every input check answers
 * `{ inputs, failures }` and never throws; every failure names a declared input (or the unknown key given) and
 * says what would be accepted; an input an independent oracle knows to be valid gets no failure, one it knows
 * invalid a failure on that field. Nothing is ever sent but reads.
 *
 * It shares the catalog kinds' seed. Reproducing: `CATALOG_FUZZ_SEED=<n> npx vitest run tests/provider/reason-code/check-fuzz.test.ts`.
 */

import fc from "fast-check";
import { seedOf } from "../../seeds";
import {
  describeFuzz,
  earlier,
  isBool,
  isInt,
  isName,
  isSite,
  Judge,
  judgeKeys,
  junk,
  mutated,
  opt,
  orUnknown,
  own,
  type Props,
  scalar,
  UNKNOWN,
  validSite,
} from "../check-fuzz-kit";

const SEED = seedOf("CATALOG_FUZZ_SEED");
const RUNS = 1000;
const KEY = "sk_reason_code_fuzz";
const INPUTS = ["code", "description", "position", "adopt", "site"];
/** The codes the fuzz site holds: a first deploy adopts one (or is refused it with adopt: false); a renamed code may not take one. */
const HELD = ["TOO_EXPENSIVE", "NOT_USING"];
/** What an update's earlier inputs held: its code differs, so check asks whether the new one is free. */
const EARLIER_CODE = "fz-earlier";

const validCode = fc.oneof(
  { weight: 6, arbitrary: fc.string({ minLength: 1, maxLength: 40 }).filter((s) => /\S/.test(s) && !HELD.includes(s)) },
  { weight: 1, arbitrary: fc.constantFrom(...HELD, "x".repeat(255), "Ünïcode ✓", "a b") },
);
const valid: fc.Arbitrary<Props> = fc
  .record({
    code: orUnknown(validCode),
    description: orUnknown(fc.string({ minLength: 1, maxLength: 60 }).filter((s) => /\S/.test(s))),
    position: opt(fc.integer({ min: 1, max: 10_000 })),
    adopt: opt(fc.boolean()),
    site: validSite,
  })
  .map((r) => Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)));
const bad = fc.oneof(junk, fc.constantFrom<unknown>("", "   ", "\t\n", "x".repeat(256), 0, -3, 2.5, 1e21, "2"));
const inputs = mutated(valid, INPUTS, bad, ["reasonCode", "Code", "reason_code", "id"]);

function judge(news: Props, update: boolean): Judge {
  const j = new Judge();
  const v = (k: string) => own(news, k);
  judgeKeys(j, news, INPUTS);
  j.field("code", scalar(v("code"), false, isName(255)));
  // The service refuses a blank description ("Description: cannot be blank."), as it does an empty one.
  j.field("description", scalar(v("description"), false, isName(255)));
  j.field("position", scalar(v("position"), true, isInt(1)));
  j.field("adopt", scalar(v("adopt"), true, isBool));
  if (!isSite(v("site"))) j.mustFail.add("site");
  // What check reads, once the rest is valid and the site and code are known.
  if (j.valid && v("site") !== UNKNOWN && HELD.includes(v("code") as string) && (update || v("adopt") === false)) j.mustFail.add("code");
  return j;
}

describeFuzz(
  "ReasonCode",
  KEY,
  (sim) => {
    for (const [i, code] of HELD.entries()) sim.addReasonCode({ code, description: `Held ${i}` });
  },
  {
    kind: "reasonCode",
    names: INPUTS,
    inputs,
    judge,
    olds: (news) => earlier(news, { code: EARLIER_CODE }),
    examples: [
      { code: "TOO_EXPENSIVE", description: "Too expensive", adopt: false },
      { code: "fz-new", description: " ", position: 0 },
      { code: UNKNOWN, description: UNKNOWN, position: 1.5, site: UNKNOWN },
      { code: "   ", description: "x".repeat(256), colour: "red" },
    ],
    runs: RUNS,
    seed: SEED,
    seedName: "CATALOG_FUZZ_SEED",
  },
);
