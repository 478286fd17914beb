/**
 * Fuzz of the Component kind's `check()` with fast-check: inputs of each of the five kinds, valid
 * or with one to three keys set to a bad value, removed, or added (another kind's field, wrong
 * types, tiers with gaps, overlaps or an open tier before the last, the engine's UNKNOWN anywhere),
 * on a first deploy (check reads the service to preview an adoption) and on an update. For every
 * input check answers `{ inputs, failures }` and never throws; every failure names a declared
 * input (or the unknown key given) and says what would be accepted; an input known valid gets no
 * failure, and tiers known broken get one on `prices`. Nothing is ever sent but reads.
 *
 * It shares the catalog kinds' seed. Reproducing:
 * `CATALOG_FUZZ_SEED=<n> npx vitest run tests/provider/component/check-fuzz.test.ts`.
 */

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { kinds } from "../../../provider/runtime";
import { seedOf } from "../../seeds";
import { fuzzSite } from "../check-fuzz-kit";

const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const SEED = seedOf("CATALOG_FUZZ_SEED");
const RUNS = 800;
const KEY = "sk_component_fuzz";

type Props = Record<string, unknown>;
type Failure = { property: string; reason: string };

const INPUTS = [
  "productFamily",
  "kind",
  "handle",
  "name",
  "unitName",
  "description",
  "pricingScheme",
  "prices",
  "unitPrice",
  "overagePricing",
  "rolloverPrepaidRemainder",
  "renewPrepaidAllocation",
  "expirationInterval",
  "expirationIntervalUnit",
  "recurring",
  "eventBasedBillingMetricId",
  "allowFractionalQuantities",
  "interval",
  "intervalUnit",
  "taxable",
  "taxCode",
  "accountingCode",
  "itemCategory",
  "hideDateRangeOnInvoice",
  "displayOnHostedPage",
  "upgradeCharge",
  "downgradeCredit",
  "adopt",
  "site",
];

const compact = (o: Props): Props => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
const orUnknown = <T>(a: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 8, arbitrary: a as fc.Arbitrary<unknown> }, { weight: 1, arbitrary: fc.constant<unknown>(UNKNOWN) });
const opt = <T>(a: fc.Arbitrary<T>) => fc.option(orUnknown(a), { nil: undefined, freq: 2 });

const price = fc.oneof(
  fc.integer({ min: 0, max: 10_000 }).map((c) => c / 100),
  fc.integer({ min: 0, max: 99_999_999 }).map((n) => `0.${String(n).padStart(8, "0")}`),
  fc.constantFrom("25", "0.5", "10.00"),
);

/** Contiguous tiers: the first at 1, each next one past the previous end, only the last open. */
const tiers = (max: number) =>
  fc.array(fc.integer({ min: 1, max: 500 }), { minLength: 0, maxLength: max - 1 }).chain((spans) =>
    fc.array(price, { minLength: spans.length + 1, maxLength: spans.length + 1 }).map((prices) => {
      let start = 1;
      return prices.map((unitPrice, i) => {
        if (i === spans.length) return { startingQuantity: start, unitPrice };
        const t = { startingQuantity: start, endingQuantity: start + (spans[i] as number), unitPrice };
        start = t.endingQuantity + 1;
        return t;
      });
    }),
  );
const scheme = (t: unknown[]) => (t.length === 1 ? fc.constant("per_unit") : fc.constantFrom("volume", "tiered", "stairstep"));
const pricing = tiers(4).chain((prices) => scheme(prices).map((pricingScheme) => ({ pricingScheme, prices })));

const freshHandle = fc.stringMatching(/^fz[a-z0-9][a-z0-9.:_-]{0,20}$/);
const common = {
  productFamily: fc.oneof(fc.constant("handle:launch"), fc.integer({ min: 1, max: 999_999 }), fc.constant(UNKNOWN)),
  handle: orUnknown(freshHandle),
  // A name of spaces only is refused as blank (as the service does): not a valid input.
  name: orUnknown(fc.string({ minLength: 1, maxLength: 40 }).filter((n) => /\S/.test(n))),
  description: opt(fc.string({ maxLength: 40 })),
  taxable: opt(fc.boolean()),
  accountingCode: opt(fc.string({ maxLength: 20 })),
  itemCategory: opt(fc.constantFrom("Business Software", "Digital Services", "Other")),
  displayOnHostedPage: opt(fc.boolean()),
  upgradeCharge: opt(fc.constantFrom("full", "prorated", "none")),
  adopt: opt(fc.boolean()),
  site: fc.option(fc.constantFrom("eu-shop", UNKNOWN), { nil: undefined, freq: 3 }),
};
const tiered = { unitName: orUnknown(fc.constantFrom("message", "seat", "call")), allowFractionalQuantities: opt(fc.boolean()) };
const frequency = fc.option(fc.record({ interval: fc.integer({ min: 1, max: 12 }), intervalUnit: fc.constantFrom("day", "month") }), {
  nil: undefined,
});

const withPricing = (kind: string, extra: Record<string, fc.Arbitrary<unknown>>, freq = true) =>
  fc.tuple(fc.record({ ...common, ...tiered, ...extra }), pricing, freq ? frequency : fc.constant(undefined)).map(([base, p, f]) => {
    // An event-based component takes no fractional quantities (the contract's create has no such field).
    const { allowFractionalQuantities, ...rest } = base as Record<string, unknown>;
    return compact({ kind, ...rest, ...(kind === "event_based" ? {} : { allowFractionalQuantities }), ...p, ...f });
  });

const validComponent: fc.Arbitrary<Props> = fc.oneof(
  withPricing("metered", {}),
  withPricing("quantity_based", { recurring: opt(fc.boolean()) }),
  withPricing("event_based", { eventBasedBillingMetricId: fc.integer({ min: 1, max: 99 }) }),
  fc
    .tuple(
      withPricing("prepaid_usage", { rolloverPrepaidRemainder: opt(fc.boolean()), renewPrepaidAllocation: opt(fc.boolean()) }, false),
      pricing,
    )
    .map(([c, overagePricing]) => ({ ...c, overagePricing })),
  fc.tuple(fc.record(common), price, frequency).map(([base, unitPrice, f]) => compact({ kind: "on_off", ...base, unitPrice, ...f })),
);

/** Tiers that break a rule: a gap, an overlap, a first tier past 1, or an open tier before the last. */
const brokenTiers = fc.constantFrom(
  [
    { startingQuantity: 1, endingQuantity: 10, unitPrice: 1 },
    { startingQuantity: 12, unitPrice: 1 },
  ],
  [
    { startingQuantity: 1, endingQuantity: 10, unitPrice: 1 },
    { startingQuantity: 10, unitPrice: 1 },
  ],
  [{ startingQuantity: 2, unitPrice: 1 }],
  [
    { startingQuantity: 1, unitPrice: 1 },
    { startingQuantity: 2, unitPrice: 1 },
  ],
  [],
);
const junk = fc.oneof(
  fc.constantFrom<unknown>(null, NaN, -1, 0.5, "", "x", true, [], {}, [1], { a: 1 }, "handle:", "Metered", "per unit", -0.01),
  fc.string({ maxLength: 8 }),
  fc.constant(UNKNOWN),
);

type Mutation = { key: string; value: unknown };
function mutated(): fc.Arbitrary<{ news: Props; brokePrices: boolean }> {
  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    { weight: 3, arbitrary: fc.record({ key: fc.constantFrom(...INPUTS), value: junk }) },
    { weight: 1, arbitrary: fc.record({ key: fc.constantFrom(...INPUTS), value: fc.constant<unknown>(undefined) }) },
    { weight: 2, arbitrary: fc.record({ key: fc.constant("prices"), value: brokenTiers as fc.Arbitrary<unknown> }) },
    { weight: 1, arbitrary: fc.record({ key: fc.constantFrom("colour", "unit_price", "Handle", "__proto__"), value: junk }) },
  );
  return fc.oneof(
    { weight: 2, arbitrary: validComponent.map((news) => ({ news, brokePrices: false })) },
    {
      weight: 3,
      arbitrary: fc.tuple(validComponent, fc.array(mutation, { minLength: 1, maxLength: 3 })).map(([base, ms]) => {
        const entries = new Map(Object.entries(base));
        for (const m of ms) {
          if (m.value === undefined) entries.delete(m.key);
          else entries.set(m.key, m.value);
        }
        const news = Object.fromEntries(entries);
        const last = [...ms].reverse().find((m) => m.key === "prices");
        // Known broken: the last write to prices was broken tiers, on a kind that takes tiers.
        const brokePrices = last !== undefined && Array.isArray(last.value) && news.kind !== "on_off" && news.kind !== UNKNOWN;
        return { news, brokePrices };
      }),
    },
  );
}

const SAYS_WHAT_IS_ACCEPTED = /entries|must|expected|one of|accepted|is required|required with|needs?|choose|declare|set adopt/i;
const text = (v: unknown) => JSON.stringify(v, (_k, x) => (typeof x === "number" && !Number.isFinite(x) ? String(x) : x));

describe(`Component check() under fuzz (CATALOG_FUZZ_SEED=${SEED})`, () => {
  const fuzz = fuzzSite(KEY, (sim) => {
    // Objects a first deploy may meet: adopted at preview (no failure), or refused with adopt: false or archived.
    sim.addProductFamily({ handle: "launch", name: "Launch" });
    sim.addComponent({ familyHandle: "launch", kind: "metered", handle: "fz-sms", unitName: "message" });
    sim.addComponent({ familyHandle: "launch", kind: "on_off", handle: "fz-old", archived: true });
  });

  const examples: Props[] = [
    {
      productFamily: "handle:launch",
      kind: "metered",
      handle: "fz-sms",
      name: "SMS",
      unitName: "message",
      pricingScheme: "per_unit",
      prices: [{ startingQuantity: 1, unitPrice: 1 }],
    },
    { productFamily: "handle:launch", kind: "on_off", handle: "fz-old", name: "Old", unitPrice: 3 },
    { productFamily: UNKNOWN, kind: UNKNOWN, handle: "fz-x", name: "X", prices: UNKNOWN, recurring: true, unitPrice: 1 },
  ];

  it(`${RUNS} inputs of every kind, first deploys and updates; reads only`, async () => {
    const before = fuzz.sim.requests.length;
    try {
      await fc.assert(
        fc.asyncProperty(mutated(), fc.boolean(), async ({ news, brokePrices }, update) => {
          const olds = update ? { ...Object.fromEntries(Object.entries(news).filter(([, v]) => v !== UNKNOWN)), name: "earlier" } : {};
          let answer: { inputs?: unknown; failures?: Failure[] };
          try {
            answer = await kinds.component.check(fuzz.provider, olds, news);
          } catch (err) {
            throw new Error(`check threw on ${text(news)}: ${err instanceof Error ? err.message : String(err)}`);
          }
          expect(typeof answer?.inputs).toBe("object");
          expect(Array.isArray(answer.failures)).toBe(true);
          for (const f of answer.failures ?? []) {
            const top = f.property.split(/[.[]/)[0] as string;
            expect(INPUTS.includes(top) || Object.hasOwn(news, f.property), `failure names no input: ${text(f)}`).toBe(true);
            expect(f.reason, `reason does not say what is accepted: ${text(f)}`).toMatch(SAYS_WHAT_IS_ACCEPTED);
          }
          if (brokePrices)
            expect(
              answer.failures?.some((f) => f.property.split(".")[0] === "prices"),
              text(news),
            ).toBe(true);
        }),
        {
          numRuns: RUNS,
          seed: SEED,
          examples: examples.flatMap((e): [{ news: Props; brokePrices: boolean }, boolean][] => [
            [{ news: e, brokePrices: false }, false],
            [{ news: e, brokePrices: false }, true],
          ]),
        },
      );
    } catch (err) {
      console.error(`component check fuzz: failed with CATALOG_FUZZ_SEED=${SEED}`);
      throw err;
    }
    const sent = fuzz.sim.requests.slice(before).filter((r) => r.method !== "GET");
    expect(sent, "check sent something other than reads").toEqual([]);
  }, 60_000);

  it("valid inputs of every kind get no failure, on first deploys and updates", async () => {
    await fc.assert(
      fc.asyncProperty(validComponent, fc.boolean(), async (news, update) => {
        const olds = update ? { ...Object.fromEntries(Object.entries(news).filter(([, v]) => v !== UNKNOWN)), name: "earlier" } : {};
        const { failures } = await kinds.component.check(fuzz.provider, olds, news);
        expect(failures, text(news)).toEqual([]);
      }),
      { numRuns: 300, seed: SEED },
    );
  }, 60_000);
});
