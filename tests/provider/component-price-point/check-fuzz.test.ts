/**
 * Fuzz of the ComponentPricePoint kind's `check()` with fast-check: price points valid or with one to
 * three keys set to a bad value, removed, or added; tiers broken the ways a hand-written tier list is
 * (a first tier not at 1, a gap, an overlap, an open tier before the last, a closed last one, an end
 * not after its start, per_unit with several tiers, prices with 9 decimals or negative), in `prices`
 * and in `overagePricing.prices`; the engine's UNKNOWN anywhere. On a first deploy (check reads the
 * service to preview an adoption) and on an update. For every input check answers
 * `{ inputs, failures }` and never throws; every failure names a declared input (or the unknown key
 * given) and says what would be accepted; an input an independent oracle knows to be valid gets no
 * failure, and a field it knows to be invalid one on that field (`prices`, `overagePricing.prices`).
 * Nothing is ever sent but reads.
 *
 * Its `currencyPrices` (issue 41) are judged by the shared currency oracle (check-fuzz-kit.ts) against a site with
 * EUR and GBP besides USD: one unit price per tier, then per overage tier, `useSiteExchangeRate` false with them.
 *
 * It shares the catalog kinds' seed. Reproducing:
 * `CATALOG_FUZZ_SEED=<n> npx vitest run tests/provider/component-price-point/check-fuzz.test.ts`.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { seedOf } from "../../seeds";
import {
  breakCurrencies,
  componentCurrencies,
  fuzzSite,
  Judge,
  judgeCurrencies,
  namesNothing,
  SITE_CURRENCIES,
  violations,
} from "../check-fuzz-kit";

const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const SEED = seedOf("CATALOG_FUZZ_SEED");
const RUNS = 1000;
const KEY = "sk_component_price_point_fuzz";
/** The one component of the fuzz site: a first deploy naming any other id fails on `component`. */
const COMPONENT_ID = 1;

type Props = Record<string, unknown>;

const INPUTS = [
  "component",
  "handle",
  "name",
  "pricingScheme",
  "prices",
  "interval",
  "intervalUnit",
  "useSiteExchangeRate",
  "currencyPrices",
  "taxIncluded",
  "overagePricing",
  "rolloverPrepaidRemainder",
  "renewPrepaidAllocation",
  "expirationInterval",
  "expirationIntervalUnit",
  "default",
  "adopt",
  "pricingChangeAcknowledged",
  "site",
];
const SCHEMES = ["per_unit", "volume", "tiered", "stairstep"];

const compact = (o: Props): Props => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
const own = (o: Props, k: string) => (Object.hasOwn(o, k) ? o[k] : undefined);

// ---------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------

const HANDLE = /^[a-z0-9][a-z0-9.:_-]*$/;
const freshHandle = fc.stringMatching(/^fz[a-z0-9][a-z0-9.:_-]{0,20}$/);
const price = fc.oneof(
  fc.constantFrom<unknown>(0, 1, 2.5, "0.00000065", "10", "0.05", 0.000001),
  fc.integer({ min: 0, max: 100_000 }),
  fc.integer({ min: 0, max: 10 ** 8 }).map((n) => `${Math.floor(n / 10 ** 4)}.${String(n % 10 ** 4).padStart(4, "0")}`),
);

/** Tiers that keep every rule: ascending from 1, contiguous, each closed one spanning two or more, the last open. */
const validTiers = (scheme: string) =>
  fc
    .array(fc.integer({ min: 1, max: 500 }), { minLength: scheme === "per_unit" ? 0 : 0, maxLength: scheme === "per_unit" ? 0 : 4 })
    .chain((spans) => fc.tuple(fc.constant(spans), fc.array(price, { minLength: spans.length + 1, maxLength: spans.length + 1 })))
    .map(([spans, prices]) => {
      const tiers: Props[] = [];
      let start = 1;
      for (const [i, span] of spans.entries()) {
        tiers.push({ startingQuantity: start, endingQuantity: start + span, unitPrice: prices[i] });
        start += span + 1;
      }
      tiers.push({ startingQuantity: start, unitPrice: prices[spans.length] });
      return tiers;
    });

const pricing = fc
  .constantFrom(...SCHEMES)
  .chain((scheme) => fc.record({ pricingScheme: fc.constant(scheme), prices: validTiers(scheme) }));

/** One way a tier list goes wrong, applied to valid tiers. */
const breakTiers = (tiers: Props[]): fc.Arbitrary<unknown> => {
  const at = fc.integer({ min: 0, max: tiers.length - 1 });
  const set = (i: number, k: string, v: unknown) => tiers.map((t, j) => (j === i ? compact({ ...t, [k]: v }) : t));
  return fc.oneof(
    fc.constant<unknown>([]),
    fc.constant<unknown>(set(0, "startingQuantity", 2)),
    fc.constant<unknown>(set(tiers.length - 1, "endingQuantity", 1_000_000)),
    fc.constant<unknown>([...tiers, { startingQuantity: 1, unitPrice: 1 }]),
    at.map((i) => set(i, "startingQuantity", Number(tiers[i]?.startingQuantity) + 1)),
    at.map((i) => set(i, "unitPrice", "0.000000001")),
    at.map((i) => set(i, "unitPrice", -1)),
    at.map((i) => set(i, "startingQuantity", 0.5)),
    at.map((i) => set(i, "colour", "red")),
    at.map((i) => tiers.map((t, j) => (j === i ? null : t))),
    fc.constantFrom<unknown>("tiers", 1, {}, null),
  );
};

const validSite = fc.option(fc.constantFrom("eu-shop", UNKNOWN), { nil: undefined, freq: 3 });
const orUnknown = <T>(a: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 8, arbitrary: a as fc.Arbitrary<unknown> }, { weight: 1, arbitrary: fc.constant<unknown>(UNKNOWN) });
const opt = <T>(a: fc.Arbitrary<T>) => fc.option(orUnknown(a), { nil: undefined, freq: 2 });
const reference = fc.oneof(
  fc.constant<unknown>(COMPONENT_ID),
  fc.constant<unknown>("handle:texts"),
  fc.integer({ min: 1, max: 999_999 }),
  fc.integer({ min: 1, max: 999_999 }).map(String),
  freshHandle.map((h) => `handle:${h}`),
  fc.constant(UNKNOWN),
);

const validPricePoint: fc.Arbitrary<Props> = fc
  .record({
    component: reference,
    handle: orUnknown(freshHandle),
    name: orUnknown(fc.string({ minLength: 1, maxLength: 40 })),
    pricing: fc.oneof({ weight: 8, arbitrary: pricing as fc.Arbitrary<unknown> }, { weight: 1, arbitrary: fc.constant<unknown>(UNKNOWN) }),
    frequency: fc.option(
      fc.record({ interval: orUnknown(fc.integer({ min: 1, max: 24 })), intervalUnit: orUnknown(fc.constantFrom("day", "month")) }),
      {
        nil: undefined,
      },
    ),
    useSiteExchangeRate: opt(fc.boolean()),
    taxIncluded: opt(fc.boolean()),
    overagePricing: fc.option(pricing, { nil: undefined, freq: 3 }),
    rolloverPrepaidRemainder: opt(fc.boolean()),
    renewPrepaidAllocation: opt(fc.boolean()),
    expiration: fc.option(
      fc.record({
        expirationInterval: orUnknown(fc.integer({ min: 1, max: 12 })),
        expirationIntervalUnit: orUnknown(fc.constantFrom("day", "month")),
      }),
      { nil: undefined },
    ),
    default: opt(fc.boolean()),
    adopt: opt(fc.boolean()),
    pricingChangeAcknowledged: opt(fc.boolean()),
    site: validSite,
  })
  .map(({ pricing: p, frequency, expiration, ...rest }) =>
    compact({ ...rest, ...(p === UNKNOWN ? { pricingScheme: UNKNOWN, prices: UNKNOWN } : (p as Props)), ...frequency, ...expiration }),
  )
  .chain(withCurrencies);

/** How many price levels currency prices mirror: the tiers, then the overage tiers; undefined while unknown. */
function levels(v: Props): number | undefined {
  const prices = own(v, "prices");
  const overage = own(v, "overagePricing");
  if (!Array.isArray(prices) || prices.some((t) => t === UNKNOWN || Object.values(t ?? {}).includes(UNKNOWN))) return undefined;
  if (overage === UNKNOWN) return undefined;
  const extra = (overage as Props | undefined)?.prices;
  if (extra === UNKNOWN || (Array.isArray(extra) && extra.some((t) => t === UNKNOWN || Object.values(t ?? {}).includes(UNKNOWN))))
    return undefined;
  return prices.length + (Array.isArray(extra) ? extra.length : 0);
}

/** Prices in some of the site's other currencies, one per level, with useSiteExchangeRate false (or unknown). */
function withCurrencies(v: Props): fc.Arbitrary<Props> {
  const n = levels(v) ?? 1;
  return fc
    .option(componentCurrencies(n), { nil: undefined, freq: 2 })
    .chain((cp) =>
      cp !== undefined && Object.keys(cp).length > 0
        ? orUnknown(fc.constant(false)).map((useSiteExchangeRate) => ({ ...v, currencyPrices: cp, useSiteExchangeRate }))
        : fc.constant(compact({ ...v, currencyPrices: cp })),
    );
}

const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    NaN,
    Infinity,
    -1,
    0,
    0.5,
    2 ** 53,
    true,
    "",
    "1",
    "month",
    "per-unit",
    "handle:",
    "handle:Bad",
    [],
    {},
    [1],
  ),
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 12 }),
  fc.constant(UNKNOWN),
);

/** A valid input; one with its tiers (or overage tiers) broken; or one with one to three keys set to junk, removed, or added. */
const inputs: fc.Arbitrary<Props> = fc.oneof(
  { weight: 2, arbitrary: validPricePoint },
  { weight: 1, arbitrary: validPricePoint.chain((v) => breakCurrencies("component price point", v)) },
  {
    weight: 2,
    arbitrary: validPricePoint
      .filter((v) => Array.isArray(v.prices))
      .chain((v) => breakTiers(v.prices as Props[]).map((prices) => ({ ...v, prices }))),
  },
  {
    weight: 1,
    arbitrary: validPricePoint
      .filter((v) => typeof v.overagePricing === "object")
      .chain((v) => {
        const o = v.overagePricing as Props;
        return breakTiers(o.prices as Props[]).map((prices) => ({ ...v, overagePricing: { ...o, prices } }));
      }),
  },
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        validPricePoint,
        fc.array(
          fc.oneof(
            { weight: 4, arbitrary: fc.record({ key: fc.constantFrom(...INPUTS), value: junk }) },
            { weight: 1, arbitrary: fc.record({ key: fc.constantFrom(...INPUTS), value: fc.constant<unknown>(undefined) }) },
            {
              weight: 1,
              arbitrary: fc.record({ key: fc.constantFrom("unitPrice", "kind", "price_points", "Handle", "__proto__"), value: junk }),
            },
          ),
          { minLength: 1, maxLength: 3 },
        ),
      )
      .map(([base, ms]) => {
        const entries = new Map(Object.entries(base));
        for (const m of ms) {
          if (m.value === undefined) entries.delete(m.key);
          else entries.set(m.key, m.value);
        }
        return Object.fromEntries(entries);
      }),
  },
);

// ---------------------------------------------------------------------------
// Oracle: what the kind accepts, stated independently of the schemas
// ---------------------------------------------------------------------------

type Verdict = "ok" | "bad" | "either";

function scalar(v: unknown, optional: boolean, accept: (v: unknown) => boolean): Verdict {
  if (v === undefined) return optional ? "ok" : "bad";
  if (v === UNKNOWN) return "ok";
  if (v === null) return optional ? "either" : "bad";
  return accept(v) ? "ok" : "bad";
}
const isInt = (min: number) => (v: unknown) => typeof v === "number" && Number.isSafeInteger(v) && v >= min;
const isBool = (v: unknown) => typeof v === "boolean";
const isUnit = (v: unknown) => v === "day" || v === "month";
const isHandle = (v: unknown) => typeof v === "string" && v.length >= 1 && v.length <= 255 && HANDLE.test(v);
const isReference = (v: unknown) =>
  (typeof v === "number" && Number.isSafeInteger(v) && v > 0) ||
  (typeof v === "string" && (/^[1-9][0-9]{0,15}$/.test(v) || (v.startsWith("handle:") && isHandle(v.slice(7)))));
const isPrice = (v: unknown) =>
  typeof v === "number"
    ? Number.isFinite(v) && v >= 0 && Math.round(v * 1e8) / 1e8 === v
    : typeof v === "string" && /^\d+(\.\d{1,8})?$/.test(v);

/** Whether a tier list breaks a rule: the tiers' own shapes, then the rules across them (the scheme's, when known). */
function tiersBroken(prices: unknown, scheme: unknown): Verdict {
  if (prices === UNKNOWN) return "ok";
  if (!Array.isArray(prices) || prices.length === 0) return "bad";
  if (prices.some((t) => t === UNKNOWN)) return "either";
  for (const t of prices) {
    if (typeof t !== "object" || t === null || Array.isArray(t)) return "bad";
    if (Object.keys(t).some((k) => !["startingQuantity", "endingQuantity", "unitPrice"].includes(k))) return "bad";
    const { startingQuantity: s, endingQuantity: e, unitPrice: u } = t as Props;
    if ([s, e, u].includes(UNKNOWN)) return "either";
    if (!isInt(1)(s) || (e !== undefined && !isInt(1)(e)) || !isPrice(u)) return "bad";
  }
  const tiers = prices as { startingQuantity: number; endingQuantity?: number }[];
  if (tiers[0]?.startingQuantity !== 1) return "bad";
  for (const [i, t] of tiers.entries()) {
    const last = i === tiers.length - 1;
    if (last !== (t.endingQuantity === undefined)) return "bad";
    if (t.endingQuantity !== undefined && t.endingQuantity <= t.startingQuantity) return "bad";
    if (i > 0 && t.startingQuantity !== (tiers[i - 1]?.endingQuantity ?? Number.NaN) + 1) return "bad";
  }
  if (scheme === "per_unit" && tiers.length > 1) return "bad";
  return "ok";
}

function expectPricePoint(news: Props): Judge {
  const j = new Judge();
  const v = (k: string) => own(news, k);
  for (const k of Object.keys(news)) if (!INPUTS.includes(k)) j.mustFail.add(k);
  j.field("component", scalar(v("component"), false, isReference));
  j.field("handle", scalar(v("handle"), false, isHandle));
  j.field(
    "name",
    scalar(v("name"), false, (x) => typeof x === "string" && x.length >= 1 && x.length <= 255 && /\S/.test(x)),
  );
  j.field(
    "pricingScheme",
    scalar(v("pricingScheme"), false, (x) => SCHEMES.includes(x as string)),
  );
  j.field("prices", v("prices") === undefined ? "bad" : tiersBroken(v("prices"), v("pricingScheme")));
  j.field("interval", scalar(v("interval"), true, isInt(1)));
  j.field("intervalUnit", scalar(v("intervalUnit"), true, isUnit));
  j.field("expirationInterval", scalar(v("expirationInterval"), true, isInt(1)));
  j.field("expirationIntervalUnit", scalar(v("expirationIntervalUnit"), true, isUnit));
  for (const k of [
    "useSiteExchangeRate",
    "taxIncluded",
    "rolloverPrepaidRemainder",
    "renewPrepaidAllocation",
    "default",
    "adopt",
    "pricingChangeAcknowledged",
  ])
    j.field(k, scalar(v(k), true, isBool));
  const o = v("overagePricing");
  if (o !== undefined && o !== UNKNOWN) {
    if (o === null) j.unsure = true;
    else if (typeof o !== "object" || Array.isArray(o)) j.mustFail.add("overagePricing");
    else {
      const op = o as Props;
      if (Object.keys(op).some((k) => k !== "pricingScheme" && k !== "prices")) j.mustFail.add("overagePricing");
      if (scalar(op.pricingScheme, false, (x) => SCHEMES.includes(x as string)) === "bad") j.mustFail.add("overagePricing.pricingScheme");
      j.field("overagePricing.prices", op.prices === undefined ? "bad" : tiersBroken(op.prices, op.pricingScheme));
    }
  }
  const site = v("site");
  j.field("site", site === undefined || site === UNKNOWN || site === "eu-shop" ? "ok" : "bad");
  // Each interval with its unit, on presence (UNKNOWN is present, and so is a bad value).
  const has = (k: string) => v(k) !== undefined;
  for (const [n, u] of [
    ["interval", "intervalUnit"],
    ["expirationInterval", "expirationIntervalUnit"],
  ]) {
    if (has(n) && !has(u)) j.mustFail.add(u as string);
    if (has(u) && !has(n)) j.mustFail.add(n as string);
  }
  const owner = { kind: "component price point" as const, tiers: levels(news), useSiteExchangeRate: v("useSiteExchangeRate") };
  judgeCurrencies(j, owner, v("currencyPrices"), site);
  return j;
}

describe(`ComponentPricePoint check() under fuzz (CATALOG_FUZZ_SEED=${SEED})`, () => {
  const fuzz = fuzzSite(KEY, (sim) => {
    sim.configureSite({ nonPrimaryCurrencies: [...SITE_CURRENCIES] });
    sim.addProductFamily({ handle: "launch", name: "Launch" });
    sim.addComponent({ id: COMPONENT_ID, familyHandle: "launch", kind: "metered", handle: "texts", unitPrice: 1 });
  });

  const examples: Props[] = [
    {
      component: "handle:texts",
      handle: "fz-v",
      name: "Volume",
      pricingScheme: "volume",
      prices: [
        { startingQuantity: 1, endingQuantity: 10, unitPrice: 1 },
        { startingQuantity: 11, unitPrice: "0.5" },
      ],
    },
    {
      component: 1,
      handle: "fz-v",
      name: "V",
      pricingScheme: "per_unit",
      prices: [
        { startingQuantity: 1, endingQuantity: 5, unitPrice: 1 },
        { startingQuantity: 7, unitPrice: 1 },
      ],
    },
    {
      component: UNKNOWN,
      handle: "fz-v",
      name: "V",
      pricingScheme: "tiered",
      prices: [{ startingQuantity: 1, unitPrice: 1 }],
      overagePricing: { pricingScheme: "volume", prices: [] },
    },
  ];

  it(`${RUNS} inputs, first deploys and updates; reads only`, async () => {
    const before = fuzz.sim.requests.length;
    const seen = { valid: 0, brokenTiers: 0, validCurrencies: 0, badCurrencies: 0 };
    try {
      await fc.assert(
        fc.asyncProperty(inputs, fc.boolean(), async (news, update) => {
          // An update: the earlier inputs were the same but for the name (in place), the UNKNOWN ones left out.
          const olds = update ? { ...Object.fromEntries(Object.entries(news).filter(([, v]) => v !== UNKNOWN)), name: "earlier" } : {};
          const j = expectPricePoint(news);
          if (j.mustFail.size === 0 && !j.unsure) seen.valid++;
          if (j.mustFail.has("prices") || j.mustFail.has("overagePricing.prices")) seen.brokenTiers++;
          if (j.mustFail.size === 0 && !j.unsure && Object.keys((own(news, "currencyPrices") as object | undefined) ?? {}).length > 0)
            seen.validCurrencies++;
          if ([...j.mustFail].some((f) => f.startsWith("currencyPrices") || f === "useSiteExchangeRate")) seen.badCurrencies++;
          // A first deploy reads its component: a known id of no component fails on `component`.
          const component = own(news, "component");
          if (
            !update &&
            j.mustFail.size === 0 &&
            !j.unsure &&
            ![own(news, "handle"), own(news, "site")].includes(UNKNOWN) &&
            (typeof component === "number" || (typeof component === "string" && /^[0-9]+$/.test(component))) &&
            Number(component) !== COMPONENT_ID
          )
            j.mustFail.add("component");
          // And a known `handle:` no component has at a known site fails on `component` too, at preview (issue 42).
          if (!update && j.mustFail.size === 0 && !j.unsure && own(news, "site") !== UNKNOWN && namesNothing(component, ["texts"]))
            j.mustFail.add("component");
          expect(await violations("componentPricePoint", fuzz.provider, INPUTS, olds, news, j)).toEqual([]);
        }),
        { numRuns: RUNS, seed: SEED, examples: examples.flatMap((e) => [[e, false] as [Props, boolean], [e, true] as [Props, boolean]]) },
      );
    } catch (err) {
      console.error(`component price point check fuzz: failed with CATALOG_FUZZ_SEED=${SEED}`);
      throw err;
    }
    // Neither side vacuous: inputs known valid (no failure allowed) and tiers known broken (a failure on them required).
    expect(seen.valid).toBeGreaterThan(RUNS / 10);
    expect(seen.brokenTiers).toBeGreaterThan(RUNS / 10);
    expect(seen.validCurrencies).toBeGreaterThan(RUNS / 20);
    expect(seen.badCurrencies).toBeGreaterThan(RUNS / 20);
    const sent = fuzz.sim.requests.slice(before).filter((r) => r.method !== "GET");
    expect(sent, "check sent something other than reads").toEqual([]);
  }, 60_000);
});
