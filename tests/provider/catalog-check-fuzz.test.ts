/**
 * Fuzz of the catalog kinds' `check()` (ProductFamily, Product, ProductPricePoint) with fast-check:
 * arbitrary inputs (wrong types, negative, fractional, huge and non-finite prices, bad handles,
 * intervals without their units, trials without their prices, bad references, unknown keys, the
 * engine's UNKNOWN placeholder anywhere), on a first deploy (check reads the service to preview an
 * adoption) and on an update (olds given). For every input check must answer `{ inputs, failures }`
 * and never throw; every failure names a declared input (or the unknown key given) and says what
 * would be accepted; an input an independent oracle knows to be valid gets no failure, and a field
 * it knows to be invalid gets one on that field. Nothing is ever sent but reads.
 *
 * A product's and a price point's `currencyPrices` (issue 41) are judged by the shared currency oracle
 * (check-fuzz-kit.ts) against a site with EUR and GBP besides USD: the roles mirror the pricing (baseline, trial
 * with a trial, initial with an initial charge), amounts in the currency's units, `useSiteExchangeRate` false.
 *
 * Reproducing: `CATALOG_FUZZ_SEED=<n> npx vitest run tests/provider/catalog-check-fuzz.test.ts`
 * (fast-check's error carries the seed and shrink path too).
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { kinds } from "../../provider/runtime";
import { seedOf } from "../seeds";
import {
  breakCurrencies,
  fuzzSite,
  Judge,
  judgeCurrencies,
  mutated,
  namesNothing,
  pricePointCurrencies,
  rolesOf,
  SITE_CURRENCIES,
  violations,
} from "./check-fuzz-kit";

const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const SEED = seedOf("CATALOG_FUZZ_SEED");
const RUNS = 1500;
const KEY = "sk_catalog_fuzz";

type Props = Record<string, unknown>;

/** A record without its `undefined` values (an absent optional input). */
const compact = (o: Props): Props => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

const FAMILY_INPUTS = ["handle", "name", "description", "adopt", "site"];
const PRICING = [
  "priceInCents",
  "interval",
  "intervalUnit",
  "trialPriceInCents",
  "trialInterval",
  "trialIntervalUnit",
  "trialType",
  "initialChargeInCents",
  "initialChargeAfterTrial",
  "expirationInterval",
  "expirationIntervalUnit",
];
const PRODUCT_INPUTS = [
  "productFamily",
  "handle",
  "name",
  "description",
  "accountingCode",
  "taxCode",
  "requireCreditCard",
  "requestCreditCard",
  "requestBillingAddress",
  "requireBillingAddress",
  "requireShippingAddress",
  ...PRICING,
  "useSiteExchangeRate",
  "currencyPrices",
  "adopt",
  "pricingChangeAcknowledged",
  "site",
];
const PRICE_POINT_INPUTS = [
  "product",
  "handle",
  "name",
  ...PRICING,
  "useSiteExchangeRate",
  "currencyPrices",
  "default",
  "adopt",
  "pricingChangeAcknowledged",
  "site",
];

// ---------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------

const HANDLE = /^[a-z0-9][a-z0-9.:_-]*$/;
/** Handles no object of the fuzz site has (`fz` never starts a seeded one). */
const freshHandle = fc.stringMatching(/^fz[a-z0-9][a-z0-9.:_-]{0,20}$/);
const badHandle = fc.oneof(
  fc.constantFrom("", "Pro", "pro plan", "-pro", "_pro", ".pro", "pro/annual", "pró", "PRO", " pro", "pro\n", "x".repeat(256)),
  fc.string({ maxLength: 12 }).filter((s) => !HANDLE.test(s)),
);
const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    NaN,
    Infinity,
    -Infinity,
    -0,
    0,
    1,
    -1,
    0.5,
    1.5,
    2 ** 53,
    1e308,
    true,
    false,
    "",
    "1",
    "-1",
    "1.5",
    "true",
  ),
  fc.constantFrom<unknown>(
    "month",
    "day",
    "never",
    "monthly",
    "Month",
    "no_obligation",
    "handle:",
    "handle:Pro",
    "handle:fz1",
    [],
    {},
    [1],
    { a: 1 },
  ),
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 12 }),
  fc.constant(UNKNOWN),
);
const cents = fc.oneof(fc.constantFrom(0, 1, 4900, 99_999_999), fc.nat({ max: 10_000_000 }));
const count = fc.integer({ min: 1, max: 1000 });
const unit = fc.constantFrom("day", "month");
const orUnknown = <T>(a: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 8, arbitrary: a as fc.Arbitrary<unknown> }, { weight: 1, arbitrary: fc.constant<unknown>(UNKNOWN) });
const opt = <T>(a: fc.Arbitrary<T>) => fc.option(orUnknown(a), { nil: undefined, freq: 2 });

/** Pricing that keeps every rule across fields. */
const validPricing: fc.Arbitrary<Props> = fc
  .record({
    priceInCents: orUnknown(cents),
    interval: orUnknown(count),
    intervalUnit: orUnknown(unit),
    trial: fc.option(
      fc.record({ trialPriceInCents: orUnknown(cents), trialInterval: orUnknown(count), trialIntervalUnit: orUnknown(unit) }),
      {
        nil: undefined,
      },
    ),
    trialType: opt(fc.constantFrom("no_obligation", "payment_expected")),
    initialChargeInCents: opt(cents),
    initialChargeAfterTrial: opt(fc.boolean()),
    expiration: fc.option(
      fc.oneof(
        fc.record({ expirationInterval: orUnknown(count), expirationIntervalUnit: orUnknown(unit) }),
        fc.constant({ expirationIntervalUnit: "never" }),
      ),
      { nil: undefined },
    ),
  })
  .map(({ trial, expiration, ...rest }) => compact({ ...rest, ...trial, ...expiration }))
  .chain(withCurrencies);

/**
 * The pricing with prices in some of the site's other currencies mirroring its roles, and `useSiteExchangeRate`
 * false (or unknown) with them; without them, any choice of it. While a role's field is unknown, any roles.
 */
function withCurrencies(pricing: Props): fc.Arbitrary<Props> {
  const roles = rolesOf(pricing);
  const currencies = roles ? pricePointCurrencies(roles) : fc.boolean().chain((trial) => pricePointCurrencies({ trial, initial: trial }));
  return fc
    .option(currencies, { nil: undefined, freq: 2 })
    .chain((cp) =>
      cp !== undefined && Object.keys(cp).length > 0
        ? orUnknown(fc.constant(false)).map((useSiteExchangeRate) => ({ ...pricing, currencyPrices: cp, useSiteExchangeRate }))
        : opt(fc.boolean()).map((useSiteExchangeRate) => compact({ ...pricing, currencyPrices: cp, useSiteExchangeRate })),
    );
}

const validSite = fc.option(fc.constantFrom("eu-shop", UNKNOWN), { nil: undefined, freq: 3 });
const reference = fc.oneof(
  fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
  fc.integer({ min: 1, max: 999_999 }).map(String),
  freshHandle.map((h) => `handle:${h}`),
  fc.constant(UNKNOWN),
);

const validFamily = fc
  .record({
    handle: orUnknown(freshHandle),
    name: orUnknown(fc.string({ minLength: 1, maxLength: 40 })),
    description: opt(fc.string({ maxLength: 40 })),
    adopt: opt(fc.boolean()),
    site: validSite,
  })
  .map(compact);
const validProduct = fc
  .tuple(
    fc.record({
      productFamily: reference,
      handle: orUnknown(freshHandle),
      name: orUnknown(fc.string({ minLength: 1, maxLength: 40 })),
      description: opt(fc.string({ maxLength: 40 })),
      accountingCode: opt(fc.string({ maxLength: 20 })),
      taxCode: opt(fc.string({ maxLength: 10 })),
      requireCreditCard: opt(fc.boolean()),
      requestBillingAddress: opt(fc.boolean()),
      adopt: opt(fc.boolean()),
      pricingChangeAcknowledged: opt(fc.boolean()),
      site: validSite,
    }),
    validPricing,
  )
  .map(([p, pricing]) => compact({ ...p, ...pricing }));
const validPricePoint = fc
  .tuple(
    fc.record({
      product: reference,
      handle: orUnknown(freshHandle),
      name: orUnknown(fc.string({ minLength: 1, maxLength: 40 })),
      default: opt(fc.boolean()),
      adopt: opt(fc.boolean()),
      site: validSite,
    }),
    validPricing,
  )
  .map(([p, pricing]) => compact({ ...p, ...pricing }));

/** A valid input; one with its currency prices broken; or one with one to three keys set to a bad or arbitrary value, removed, or added. */
function inputs(valid: fc.Arbitrary<Props>, names: readonly string[]): fc.Arbitrary<Props> {
  const bad = fc.oneof(
    junk,
    badHandle,
    fc.constantFrom<unknown>(-1, -4900, 0.5, 49.99, 1e21, -0.0001, "4900", "handle:", "handle: fz", "nowhere", "wrongkey"),
  );
  return fc.oneof(
    { weight: 5, arbitrary: mutated(valid, names, bad, ["colour", "price", "price_in_cents", "interval_unit", "Handle"]) },
    { weight: 1, arbitrary: valid.chain((v) => breakCurrencies("product price point", v)) },
  );
}

// ---------------------------------------------------------------------------
// Oracle: what each kind accepts, stated independently of the schemas
// ---------------------------------------------------------------------------

const own = (o: Props, k: string) => (Object.hasOwn(o, k) ? o[k] : undefined);

type Verdict = "ok" | "bad" | "either";

/** A scalar input: UNKNOWN passes; absent passes when optional. */
function scalar(v: unknown, optional: boolean, accept: (v: unknown) => boolean): Verdict {
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
const isUnit = (v: unknown) => v === "day" || v === "month";
const isHandle = (v: unknown) => typeof v === "string" && v.length <= 255 && HANDLE.test(v);
const isReference = (v: unknown) =>
  (typeof v === "number" && Number.isSafeInteger(v) && v > 0) ||
  (typeof v === "string" && (/^[1-9][0-9]{0,15}$/.test(v) || (v.startsWith("handle:") && isHandle(v.slice(7)))));

function judgeCommon(j: Judge, news: Props, names: readonly string[]) {
  for (const k of Object.keys(news)) if (!names.includes(k)) j.mustFail.add(k);
  j.field("handle", scalar(own(news, "handle"), false, isHandle));
  // Not only spaces: the service refuses such a name as blank.
  j.field(
    "name",
    scalar(own(news, "name"), false, (x) => isText(255, 1)(x) && /\S/.test(x as string)),
  );
  j.field("adopt", scalar(own(news, "adopt"), true, isBool));
  const site = own(news, "site");
  j.field(
    "site",
    site === undefined || site === UNKNOWN || site === "eu-shop" ? "ok" : typeof site === "string" && site !== "" ? "bad" : "bad",
  );
}

function judgePricing(j: Judge, news: Props) {
  const v = (k: string) => own(news, k);
  j.field("priceInCents", scalar(v("priceInCents"), false, isInt(0)));
  j.field("interval", scalar(v("interval"), false, isInt(1)));
  j.field("intervalUnit", scalar(v("intervalUnit"), false, isUnit));
  j.field("trialPriceInCents", scalar(v("trialPriceInCents"), true, isInt(0)));
  j.field("trialInterval", scalar(v("trialInterval"), true, isInt(1)));
  j.field("trialIntervalUnit", scalar(v("trialIntervalUnit"), true, isUnit));
  j.field(
    "trialType",
    scalar(v("trialType"), true, (x) => x === "no_obligation" || x === "payment_expected"),
  );
  j.field("initialChargeInCents", scalar(v("initialChargeInCents"), true, isInt(0)));
  j.field("initialChargeAfterTrial", scalar(v("initialChargeAfterTrial"), true, isBool));
  j.field("expirationInterval", scalar(v("expirationInterval"), true, isInt(1)));
  j.field(
    "expirationIntervalUnit",
    scalar(v("expirationIntervalUnit"), true, (x) => isUnit(x) || x === "never"),
  );
  // The rules across fields: on presence (UNKNOWN is present). Known defect, not asserted here: a field failing its own
  // check with an abort (a fraction where an integer is due) hides them (zod's \`.int()\` aborts the object's refinements).
  if (PRICING.some((k) => j.mustFail.has(k))) return;
  const has = (k: string) => v(k) !== undefined;
  if (has("trialInterval") && !has("trialIntervalUnit")) j.mustFail.add("trialIntervalUnit");
  if (has("trialIntervalUnit") && !has("trialInterval")) j.mustFail.add("trialInterval");
  if (has("trialInterval") && !has("trialPriceInCents")) j.mustFail.add("trialPriceInCents");
  if (has("trialPriceInCents") && !has("trialInterval")) j.mustFail.add("trialInterval");
  if (has("expirationInterval") && !has("expirationIntervalUnit")) j.mustFail.add("expirationIntervalUnit");
  const unit = v("expirationIntervalUnit");
  if (isUnit(unit) && !has("expirationInterval")) j.mustFail.add("expirationInterval");
  if (unit === "never" && has("expirationInterval") && v("expirationInterval") !== UNKNOWN) j.mustFail.add("expirationInterval");
}

function expectFamily(news: Props): Judge {
  const j = new Judge();
  judgeCommon(j, news, FAMILY_INPUTS);
  j.field("description", scalar(own(news, "description"), true, isText(4096)));
  return j;
}
/** The currency prices last: their rules read at preview wait for every other field to pass. */
function judgeCurrencyPrices(j: Judge, news: Props) {
  j.field("useSiteExchangeRate", scalar(own(news, "useSiteExchangeRate"), true, isBool));
  const owner = { kind: "product price point" as const, roles: rolesOf(news), useSiteExchangeRate: own(news, "useSiteExchangeRate") };
  judgeCurrencies(j, owner, own(news, "currencyPrices"), own(news, "site"));
}

function expectProduct(news: Props): Judge {
  const j = new Judge();
  judgeCommon(j, news, PRODUCT_INPUTS);
  judgePricing(j, news);
  j.field("productFamily", scalar(own(news, "productFamily"), false, isReference));
  j.field("description", scalar(own(news, "description"), true, isText(4096)));
  j.field("accountingCode", scalar(own(news, "accountingCode"), true, isText(255)));
  j.field("taxCode", scalar(own(news, "taxCode"), true, isText(10)));
  for (const k of [
    "requireCreditCard",
    "requestCreditCard",
    "requestBillingAddress",
    "requireBillingAddress",
    "requireShippingAddress",
    "pricingChangeAcknowledged",
  ])
    j.field(k, scalar(own(news, k), true, isBool));
  judgeCurrencyPrices(j, news);
  return j;
}
function expectPricePoint(news: Props): Judge {
  const j = new Judge();
  judgeCommon(j, news, PRICE_POINT_INPUTS);
  judgePricing(j, news);
  j.field("product", scalar(own(news, "product"), false, isReference));
  j.field("default", scalar(own(news, "default"), true, isBool));
  j.field("pricingChangeAcknowledged", scalar(own(news, "pricingChangeAcknowledged"), true, isBool));
  judgeCurrencyPrices(j, news);
  return j;
}

describe(`catalog kinds' check() under fuzz (CATALOG_FUZZ_SEED=${SEED})`, () => {
  const fuzz = fuzzSite(KEY, (sim) => {
    sim.configureSite({ nonPrimaryCurrencies: [...SITE_CURRENCIES] });
    // Objects a first deploy may meet: adopted at preview (no failure), or refused with adopt: false.
    sim.addProductFamily({ handle: "launch", name: "Launch" });
    sim.addProduct({ id: 1, handle: "basic", familyHandle: "launch", pricePoints: [{ handle: "basic-monthly", default: true }] });
  });

  const cases: [keyof typeof kinds, fc.Arbitrary<Props>, readonly string[], (n: Props) => Judge, Props[]][] = [
    [
      "productFamily",
      inputs(validFamily, FAMILY_INPUTS),
      FAMILY_INPUTS,
      expectFamily,
      [
        { handle: "fz-a", name: "A" },
        { handle: "Bad Handle", name: "" },
        { handle: UNKNOWN, name: UNKNOWN, site: UNKNOWN },
      ],
    ],
    [
      "product",
      inputs(validProduct, PRODUCT_INPUTS),
      PRODUCT_INPUTS,
      expectProduct,
      [
        { productFamily: "handle:launch", handle: "fz-p", name: "P", priceInCents: 4900, interval: 1, intervalUnit: "month" },
        { productFamily: 1, handle: "fz-p", name: "P", priceInCents: -1, interval: 0.5, trialInterval: 7 },
        {
          productFamily: UNKNOWN,
          handle: "fz-p",
          name: "P",
          priceInCents: 49.5,
          interval: 1,
          intervalUnit: "month",
          expirationIntervalUnit: "day",
        },
      ],
    ],
    [
      "productPricePoint",
      inputs(validPricePoint, PRICE_POINT_INPUTS),
      PRICE_POINT_INPUTS,
      expectPricePoint,
      [
        { product: "handle:basic", handle: "fz-pp", name: "Annual", priceInCents: 49000, interval: 12, intervalUnit: "month" },
        { product: 1, handle: "fz-pp", name: "Annual", priceInCents: UNKNOWN, interval: 12, intervalUnit: "month", trialPriceInCents: 0 },
        { product: "plans", handle: "-x", name: "", priceInCents: 1, interval: 1, intervalUnit: "year" },
      ],
    ],
  ];

  for (const [kind, arb, names, oracle, examples] of cases) {
    it(`${kind}: ${RUNS} inputs, first deploys and updates; reads only`, async () => {
      const before = fuzz.sim.requests.length;
      const currencies = { valid: 0, bad: 0 };
      try {
        await fc.assert(
          fc.asyncProperty(arb, fc.boolean(), async (news, update) => {
            // An update: the earlier inputs were the same but for the name (in place for every kind but a price point).
            // Recorded inputs are always known: the UNKNOWN ones left out.
            const olds = update ? { ...Object.fromEntries(Object.entries(news).filter(([, v]) => v !== UNKNOWN)), name: "earlier" } : {};
            const j = oracle(news);
            // Neither side of the currency prices vacuous: some declared and valid, some known bad.
            if (j.mustFail.size === 0 && !j.unsure && Object.keys((own(news, "currencyPrices") as object | undefined) ?? {}).length > 0)
              currencies.valid++;
            if ([...j.mustFail].some((f) => f.startsWith("currencyPrices") || f === "useSiteExchangeRate")) currencies.bad++;
            // A first deploy's price point reads its product (ids 1 exists, others do not): a known id of no product fails on product.
            const product = own(news, "product");
            if (
              kind === "productPricePoint" &&
              !update &&
              j.mustFail.size === 0 &&
              !j.unsure &&
              ![own(news, "handle"), own(news, "site")].includes(UNKNOWN) &&
              (typeof product === "number" || (typeof product === "string" && /^[0-9]+$/.test(product))) &&
              Number(product) !== 1
            )
              j.mustFail.add("product");
            // A first deploy's `handle:` reference the site has nothing for fails on it, once the site is known.
            const [reference, held] = kind === "product" ? ["productFamily", ["launch"]] : ["product", ["basic"]];
            if (kind !== "productFamily" && !update && j.valid && own(news, "site") !== UNKNOWN && namesNothing(own(news, reference), held))
              j.mustFail.add(reference);
            expect(await violations(kind, fuzz.provider, names, olds, news, j)).toEqual([]);
          }),
          { numRuns: RUNS, seed: SEED, examples: examples.flatMap((e) => [[e, false] as [Props, boolean], [e, true] as [Props, boolean]]) },
        );
      } catch (err) {
        console.error(`catalog check fuzz ${kind}: failed with CATALOG_FUZZ_SEED=${SEED}`);
        throw err;
      }
      if (kind !== "productFamily") {
        expect(currencies.valid).toBeGreaterThan(RUNS / 20);
        expect(currencies.bad).toBeGreaterThan(RUNS / 20);
      }
      const sent = fuzz.sim.requests.slice(before).filter((r) => r.method !== "GET");
      expect(sent, "check sent something other than reads").toEqual([]);
    }, 120_000); // a hang guard, not a speed claim (5.8 s on a loaded 2-core machine)
  }
});
