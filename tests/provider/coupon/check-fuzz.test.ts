/**
 * Fuzz of the Coupon kind's `check()` with fast-check: arbitrary inputs (wrong types, lowercase and
 * foreign codes, percentages out of range or non-finite, fractional and negative amounts, both discounts
 * or neither, a duration on a one-off coupon, bad dates, bad references and lists of them, unknown keys,
 * the engine's UNKNOWN placeholder anywhere, a list element included), on a first deploy (check reads the
 * service to preview an adoption and to resolve restricted handles) and on an update (olds given). For
 * every input check must answer `{ inputs, failures }` and never throw; every failure names a declared
 * input (or the unknown key given) and says what would be accepted; an input an independent oracle knows
 * to be valid gets no failure, and a field it knows to be invalid gets one on that field. Nothing is ever
 * sent but reads.
 *
 * Its `currencyPrices` (issue 41) are judged by the shared currency oracle (check-fuzz-kit.ts) against a site with
 * EUR and GBP besides USD: a flat-amount coupon's, in whole units of the currency; a percentage coupon takes none.
 *
 * Reproducing: `CATALOG_FUZZ_SEED=<n> npx vitest run tests/provider/coupon/check-fuzz.test.ts`
 * (fast-check's error carries the seed and shrink path too).
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { seedOf } from "../../seeds";
import {
  breakCurrencies,
  couponCurrencies,
  fuzzSite,
  Judge,
  judgeCurrencies,
  mutated,
  namesNothing,
  SITE_CURRENCIES,
  violations,
} from "../check-fuzz-kit";

const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const SEED = seedOf("CATALOG_FUZZ_SEED");
const RUNS = 1000;
const KEY = "sk_coupon_fuzz";

type Props = Record<string, unknown>;

const compact = (o: Props): Props => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

const FLAGS = [
  "recurring",
  "stackable",
  "allowNegativeBalance",
  "excludeMidPeriodAllocations",
  "applyOnCancelAtEndOfPeriod",
  "applyOnSubscriptionExpiration",
  "adopt",
];
const INPUTS = [
  "productFamily",
  "code",
  "name",
  "description",
  "percentage",
  "amountInCents",
  "durationPeriodCount",
  "endDate",
  "compoundingStrategy",
  "restrictedProducts",
  "restrictedComponents",
  "currencyPrices",
  "site",
  ...FLAGS,
];

// ---------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------

const CODE = /^[A-Z0-9%@+\-_.]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/;
const HANDLE = /^[a-z0-9][a-z0-9.:_-]*$/;
/** Codes no coupon of the fuzz site has (`FZ` starts none of them). */
const freshCode = fc.stringMatching(/^FZ[A-Z0-9%@+\-_.]{0,20}$/);
const badCode = fc.oneof(
  fc.constantFrom("", "spring25", "Spring25", "SPRING 25", "CAFÉ", "A/B", "A,B", "A#1", " A", "A\n", "X".repeat(256)),
  fc.string({ maxLength: 12 }).filter((s) => !CODE.test(s)),
);
const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(null, NaN, Infinity, -Infinity, -0, 0, 1, -1, 0.5, 100.5, 2 ** 53, 1e308, true, false, "", "1", "15", "true"),
  fc.constantFrom<unknown>("compound", "full-price", "Compound", "handle:", "handle:Pro", "handle:basic", [], {}, [1], [1.5], ["pro"], {
    a: 1,
  }),
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 12 }),
  fc.constant(UNKNOWN),
);
const orUnknown = <T>(a: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 8, arbitrary: a as fc.Arbitrary<unknown> }, { weight: 1, arbitrary: fc.constant<unknown>(UNKNOWN) });
const opt = <T>(a: fc.Arbitrary<T>) => fc.option(orUnknown(a), { nil: undefined, freq: 2 });

const reference = fc.oneof(
  fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
  fc.integer({ min: 1, max: 999_999 }).map(String),
  fc.stringMatching(/^fz[a-z0-9][a-z0-9.:_-]{0,20}$/).map((h) => `handle:${h}`),
  fc.constant(UNKNOWN),
);
/** Restrictions the site can resolve: ids (never checked before apply), its own handles, or unknown. */
const restrictions = (handles: readonly string[]) =>
  fc.array(fc.oneof(fc.integer({ min: 1, max: 999_999 }), fc.constantFrom(...handles.map((h) => `handle:${h}`)), fc.constant(UNKNOWN)), {
    maxLength: 4,
  });

const validCoupon: fc.Arbitrary<Props> = fc
  .record({
    productFamily: reference,
    code: orUnknown(freshCode),
    name: orUnknown(fc.string({ minLength: 1, maxLength: 40 })),
    description: opt(fc.string({ maxLength: 40 })),
    discount: fc.oneof(
      fc.record({ percentage: orUnknown(fc.oneof(fc.integer({ min: 1, max: 100 }), fc.double({ min: 0.01, max: 100, noNaN: true }))) }),
      fc.record({ amountInCents: orUnknown(fc.integer({ min: 1, max: 10_000_000 })) }),
    ),
    duration: fc.option(
      fc.oneof(
        fc.record({ recurring: fc.constant<unknown>(true), durationPeriodCount: orUnknown(fc.integer({ min: 1, max: 36 })) }),
        fc.record({ recurring: orUnknown(fc.boolean()) }),
      ),
      { nil: undefined },
    ),
    endDate: opt(fc.constantFrom("2099-12-31", "2099-12-31T23:59:59Z", "2099-01-01T00:00+02:00", "2099-06-30T12:00:00.5-04:00")),
    stackable: opt(fc.boolean()),
    compoundingStrategy: opt(fc.constantFrom("compound", "full-price")),
    allowNegativeBalance: opt(fc.boolean()),
    excludeMidPeriodAllocations: opt(fc.boolean()),
    applyOnCancelAtEndOfPeriod: opt(fc.boolean()),
    applyOnSubscriptionExpiration: opt(fc.boolean()),
    restrictedProducts: fc.option(orUnknown(restrictions(["basic", "pro"])), { nil: undefined }),
    restrictedComponents: fc.option(orUnknown(restrictions(["support"])), { nil: undefined }),
    adopt: opt(fc.boolean()),
    site: fc.option(fc.constantFrom("eu-shop", UNKNOWN), { nil: undefined, freq: 3 }),
  })
  .map(({ discount, duration, ...rest }) => compact({ ...rest, ...discount, ...duration }))
  // A flat amount's prices in some of the site's other currencies, whole units.
  .chain((c) =>
    c.amountInCents === undefined
      ? fc.constant(c)
      : fc.option(couponCurrencies, { nil: undefined, freq: 2 }).map((currencyPrices) => compact({ ...c, currencyPrices })),
  );

const bad = fc.oneof(
  junk,
  badCode,
  fc.constantFrom<unknown>(
    -1,
    -15,
    0.5,
    1e21,
    150,
    "25",
    "2099-13",
    "31/12/2099",
    "handle:",
    "handle: fz",
    ["handle:"],
    [0],
    [-1],
    "nowhere",
  ),
);
/** A valid input; one with its currency prices broken; or one with one to three keys set to a bad or arbitrary value, removed, or added. */
const inputs: fc.Arbitrary<Props> = fc.oneof(
  { weight: 5, arbitrary: mutated(validCoupon, INPUTS, bad, ["percent", "amount", "amount_in_cents", "restricted_products", "Code"]) },
  { weight: 1, arbitrary: validCoupon.chain((v) => breakCurrencies("coupon", v)) },
);

// ---------------------------------------------------------------------------
// Oracle: what the kind accepts, stated independently of the schemas
// ---------------------------------------------------------------------------

const own = (o: Props, k: string) => (Object.hasOwn(o, k) ? o[k] : undefined);

function scalar(v: unknown, optional: boolean, accept: (v: unknown) => boolean): "ok" | "bad" | "either" {
  if (v === undefined) return optional ? "ok" : "bad";
  if (v === UNKNOWN) return "ok";
  if (v === null) return optional ? "either" : "bad";
  return accept(v) ? "ok" : "bad";
}
const isText =
  (max: number, min = 0) =>
  (v: unknown) =>
    typeof v === "string" && v.length >= min && v.length <= max;
const isInt = (min: number) => (v: unknown) => typeof v === "number" && Number.isSafeInteger(v) && v >= min;
const isBool = (v: unknown) => typeof v === "boolean";
const isReference = (v: unknown) =>
  (typeof v === "number" && Number.isSafeInteger(v) && v > 0) ||
  (typeof v === "string" && (/^[1-9][0-9]{0,15}$/.test(v) || (v.startsWith("handle:") && v.length <= 7 + 255 && HANDLE.test(v.slice(7)))));

/** A list of references: each entry judged on its own (UNKNOWN passes); a failing entry is named `<list>.<index>`. */
function judgeList(j: Judge, name: string, v: unknown) {
  if (v === undefined || v === UNKNOWN) return;
  if (v === null) return j.field(name, "either");
  if (!Array.isArray(v)) return j.field(name, "bad");
  v.forEach((x, i) => {
    if (x !== UNKNOWN && !isReference(x)) j.mustFail.add(`${name}.${i}`);
  });
}

function expectCoupon(news: Props): Judge {
  const j = new Judge();
  const v = (k: string) => own(news, k);
  for (const k of Object.keys(news)) if (!INPUTS.includes(k)) j.mustFail.add(k);
  j.field("productFamily", scalar(v("productFamily"), false, isReference));
  j.field(
    "code",
    scalar(v("code"), false, (x) => typeof x === "string" && x.length >= 1 && x.length <= 255 && CODE.test(x)),
  );
  // Not only spaces: the service refuses such a name as blank.
  j.field(
    "name",
    scalar(v("name"), false, (x) => isText(255, 1)(x) && /\S/.test(x as string)),
  );
  j.field(
    "description",
    scalar(v("description"), true, (x) => typeof x === "string"),
  );
  j.field(
    "percentage",
    scalar(v("percentage"), true, (x) => typeof x === "number" && Number.isFinite(x) && x > 0 && x <= 100),
  );
  j.field("amountInCents", scalar(v("amountInCents"), true, isInt(1)));
  j.field("durationPeriodCount", scalar(v("durationPeriodCount"), true, isInt(1)));
  j.field(
    "endDate",
    scalar(v("endDate"), true, (x) => typeof x === "string" && DATE.test(x)),
  );
  j.field(
    "compoundingStrategy",
    scalar(v("compoundingStrategy"), true, (x) => x === "compound" || x === "full-price"),
  );
  for (const k of FLAGS) j.field(k, scalar(v(k), true, isBool));
  judgeList(j, "restrictedProducts", v("restrictedProducts"));
  judgeList(j, "restrictedComponents", v("restrictedComponents"));
  const site = v("site");
  j.field("site", site === undefined || site === UNKNOWN || site === "eu-shop" ? "ok" : "bad");
  // The rules across fields, on presence (UNKNOWN is present); a failing field never hides them.
  const has = (k: string) => v(k) !== undefined;
  if ([v("percentage"), v("amountInCents"), v("durationPeriodCount"), v("recurring")].includes(null)) j.unsure = true;
  if (has("percentage") && has("amountInCents") && v("amountInCents") !== UNKNOWN) j.mustFail.add("amountInCents");
  if (!has("percentage") && !has("amountInCents")) j.mustFail.add("percentage");
  if (has("durationPeriodCount") && v("recurring") !== true && v("recurring") !== UNKNOWN) j.mustFail.add("recurring");
  judgeCurrencies(j, { kind: "coupon", percentage: v("percentage") }, v("currencyPrices"), site);
  return j;
}

describe(`Coupon check() under fuzz (CATALOG_FUZZ_SEED=${SEED})`, () => {
  const fuzz = fuzzSite(KEY, (sim) => {
    sim.configureSite({ nonPrimaryCurrencies: [...SITE_CURRENCIES] });
    // What a first deploy may meet: restricted handles that resolve, a code to adopt (or refuse with adopt: false), an archived one.
    sim.addProductFamily({ handle: "launch", name: "Launch" });
    sim.addProduct({ id: 1, handle: "basic", familyHandle: "launch" });
    sim.addProduct({ id: 2, handle: "pro", familyHandle: "launch" });
    sim.addComponent({ familyHandle: "launch", kind: "on_off", handle: "support" });
    sim.addCoupon({ familyHandle: "launch", code: "WEB10", percentage: 10 });
    sim.addCoupon({ familyHandle: "launch", code: "OLD5", amountInCents: 500, archived: true });
  });

  const examples: Props[] = [
    { productFamily: "handle:launch", code: "FZ25", name: "A", percentage: 25, restrictedProducts: ["handle:pro", 1, UNKNOWN] },
    { productFamily: "handle:launch", code: "WEB10", name: "Web", percentage: 10, adopt: false },
    { productFamily: "handle:launch", code: "OLD5", name: "Old", amountInCents: 500 },
    { productFamily: 1, code: "fz25", name: "", percentage: 25, amountInCents: 5.5, durationPeriodCount: 2 },
    { productFamily: UNKNOWN, code: UNKNOWN, name: "U", percentage: UNKNOWN, restrictedComponents: [UNKNOWN, "handle:support"] },
  ];

  it(`${RUNS} inputs, first deploys and updates; reads only`, async () => {
    const before = fuzz.sim.requests.length;
    const currencies = { valid: 0, bad: 0 };
    try {
      await fc.assert(
        fc.asyncProperty(inputs, fc.boolean(), async (news, update) => {
          // An update: the earlier inputs were the same but for the name (in place). Recorded inputs are always known.
          const olds = update ? { ...Object.fromEntries(Object.entries(news).filter(([, v]) => v !== UNKNOWN)), name: "earlier" } : {};
          const j = expectCoupon(news);
          if (j.valid && Object.keys((own(news, "currencyPrices") as object | undefined) ?? {}).length > 0) currencies.valid++;
          if ([...j.mustFail].some((f) => f.startsWith("currencyPrices"))) currencies.bad++;
          // A first deploy reads the service: an existing code is adopted, unless it is archived or adopt is false.
          const code = own(news, "code");
          if (!update && j.mustFail.size === 0 && !j.unsure && own(news, "site") !== UNKNOWN) {
            if (code === "OLD5" || (code === "WEB10" && own(news, "adopt") === false)) j.mustFail.add("code");
            // Else its references are read: a family handle the site has none for fails on it.
            else if (namesNothing(own(news, "productFamily"), ["launch"])) j.mustFail.add("productFamily");
          }
          expect(await violations("coupon", fuzz.provider, INPUTS, olds, news, j)).toEqual([]);
        }),
        { numRuns: RUNS, seed: SEED, examples: examples.flatMap((e) => [[e, false] as [Props, boolean], [e, true] as [Props, boolean]]) },
      );
    } catch (err) {
      console.error(`coupon check fuzz: failed with CATALOG_FUZZ_SEED=${SEED}`);
      throw err;
    }
    // Neither side of the currency prices vacuous.
    expect(currencies.valid).toBeGreaterThan(RUNS / 20);
    expect(currencies.bad).toBeGreaterThan(RUNS / 20);
    const sent = fuzz.sim.requests.slice(before).filter((r) => r.method !== "GET");
    expect(sent, "check sent something other than reads").toEqual([]);
  }, 60_000);
});
