/**
 * Fuzz of the CustomField kind's `check()` with fast-check: resource types and input types not the service's,
 * names empty, blank or too long, values (`enum`) empty, repeated, of another type, given to a text field or
 * missing from a radio or dropdown one, scopes with unknown flags or flags of another type, `deleteData` not a
 * flag, unknown keys, the engine's UNKNOWN anywhere; on a first deploy (check reads the service: a name held is
 * adopted, or refused with `adopt: false`) and on an update that renames the field (the new name must be free).
 * For every input check answers `{ inputs, failures }` and never throws; every failure names a declared input (or
 * a path under it, or the unknown key given) and says what would be accepted; an input an independent oracle
 * knows to be valid gets no failure, one it knows invalid a failure on that field. Nothing is ever sent but reads.
 *
 * It shares the catalog kinds' seed. Reproducing: `CATALOG_FUZZ_SEED=<n> npx vitest run tests/provider/custom-field/check-fuzz.test.ts`.
 */

import fc from "fast-check";
import { seedOf } from "../../seeds";
import {
  compact,
  describeFuzz,
  earlier,
  isBool,
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
const KEY = "sk_custom_field_fuzz";
const INPUTS = ["resourceType", "name", "inputType", "enum", "scope", "deleteData", "adopt", "site"];
const TYPES = ["subscriptions", "customers"];
const INPUT_TYPES = ["text", "radio", "dropdown"];
const FLAGS = ["csv", "invoices", "statements", "portal", "publicShow", "publicEdit"];
/** The fields the fuzz site holds, one of each resource type: a first deploy adopts one (or is refused it), a rename may not take one. */
const HELD: Record<string, string> = { subscriptions: "Region", customers: "Segment" };

const name = fc.oneof(
  { weight: 6, arbitrary: fc.string({ minLength: 1, maxLength: 40 }).filter((s) => /\S/.test(s) && !Object.values(HELD).includes(s)) },
  { weight: 1, arbitrary: fc.constantFrom("Region", "Segment", "x".repeat(255), "Ünïcode ✓") },
);
const choices = fc.uniqueArray(fc.string({ minLength: 1, maxLength: 20 }), { minLength: 1, maxLength: 5 });
const scope = fc
  .record({
    ...Object.fromEntries(FLAGS.map((f) => [f, opt(fc.boolean())])),
    hosted: fc.option(fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }), { nil: undefined, freq: 2 }),
  })
  .map(compact);
const valid: fc.Arbitrary<Props> = fc
  .record({
    resourceType: orUnknown(fc.constantFrom(...TYPES)),
    name: orUnknown(name),
    values: fc.oneof(
      fc.record({ inputType: fc.option(fc.constant<unknown>("text"), { nil: undefined }) }),
      fc.record({ inputType: orUnknown(fc.constantFrom("radio", "dropdown")), enum: orUnknown(choices) }),
    ),
    scope: opt(scope),
    deleteData: opt(fc.boolean()),
    adopt: opt(fc.boolean()),
    site: validSite,
  })
  .map(({ values, ...rest }) => compact({ ...rest, ...values }));
const bad = fc.oneof(
  junk,
  fc.constantFrom<unknown>(
    "subscription",
    "Customers",
    "checkbox",
    "balance_tracker",
    "   ",
    "x".repeat(256),
    ["a", ""],
    ["x".repeat(256)],
  ),
  fc.constantFrom<unknown>({ csv: "yes" }, { colour: true }, { hosted: [1] }, { hosted: "1" }, { csv: true, publicShow: null }),
);
const inputs = mutated(valid, INPUTS, bad, ["metafield", "Name", "input_type", "resource_type", "data_count"]);

function judgeEnum(j: Judge, v: unknown) {
  if (v === undefined || v === UNKNOWN) return;
  if (v === null) return j.field("enum", "either");
  if (!Array.isArray(v) || v.length === 0) return j.mustFail.add("enum");
  const known = v.filter((x) => x !== UNKNOWN);
  if (known.some((x) => typeof x !== "string" || x.length === 0 || x.length > 255)) j.mustFail.add("enum");
  else if (known.length < v.length) j.unsure = true;
  else if (new Set(v).size !== v.length) j.mustFail.add("enum");
}

function judgeScope(j: Judge, v: unknown) {
  if (v === undefined || v === UNKNOWN) return;
  if (v === null) return j.field("scope", "either");
  if (typeof v !== "object" || Array.isArray(v)) return j.mustFail.add("scope");
  for (const [k, x] of Object.entries(v as Props)) {
    if (k === "hosted") {
      if (x === null) j.unsure = true;
      else if (x !== undefined && x !== UNKNOWN && (!Array.isArray(x) || x.some((h) => h !== UNKNOWN && typeof h !== "string")))
        j.mustFail.add("scope");
    } else if (!FLAGS.includes(k)) j.mustFail.add("scope");
    else j.field(`scope.${k}`, scalar(x, true, isBool));
  }
}

function judge(news: Props, update: boolean): Judge {
  const j = new Judge();
  const v = (k: string) => own(news, k);
  judgeKeys(j, news, INPUTS);
  j.field(
    "resourceType",
    scalar(v("resourceType"), false, (x) => TYPES.includes(x as string)),
  );
  j.field("name", scalar(v("name"), false, isName(255)));
  j.field(
    "inputType",
    scalar(v("inputType"), true, (x) => INPUT_TYPES.includes(x as string)),
  );
  judgeEnum(j, v("enum"));
  judgeScope(j, v("scope"));
  j.field("deleteData", scalar(v("deleteData"), true, isBool));
  j.field("adopt", scalar(v("adopt"), true, isBool));
  if (!isSite(v("site"))) j.mustFail.add("site");
  // Values go with a choice: required by radio and dropdown (even while unknown), refused with text (once known).
  const type = v("inputType") ?? "text";
  if ((type === "radio" || type === "dropdown") && v("enum") === undefined) j.mustFail.add("enum");
  if (type === "text" && v("enum") !== undefined && v("enum") !== UNKNOWN) j.mustFail.add("enum");
  if ([v("inputType"), v("enum")].includes(null)) j.unsure = true;
  // What check reads, once the rest is valid and the field's key and site are known.
  const held = HELD[v("resourceType") as string] === v("name");
  if (j.valid && ![v("site"), v("name"), v("resourceType")].includes(UNKNOWN) && held && (update || v("adopt") === false))
    j.mustFail.add("name");
  return j;
}

describeFuzz(
  "CustomField",
  KEY,
  (sim) => {
    sim.addMetafield({ resourceType: "subscriptions", name: "Region", inputType: "dropdown", enum: ["EU", "US"], dataCount: 3 });
    sim.addMetafield({ resourceType: "customers", name: "Segment" });
  },
  {
    kind: "customField",
    names: INPUTS,
    inputs,
    judge,
    olds: (news) => earlier(news, { name: "fz-earlier" }),
    examples: [
      { resourceType: "subscriptions", name: "Region", inputType: "dropdown", enum: ["EU", "US"], adopt: false },
      { resourceType: "customers", name: "Plan", inputType: "radio" },
      { resourceType: "customers", name: "Plan", enum: ["a", "a"], scope: { csv: "yes", colour: true } },
      { resourceType: UNKNOWN, name: UNKNOWN, inputType: UNKNOWN, enum: [UNKNOWN, ""], deleteData: 1 },
    ],
    runs: RUNS,
    seed: SEED,
    seedName: "CATALOG_FUZZ_SEED",
  },
);
