import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BillingValidationError, componentPricePointInput, problemsOf } from "../../../../sdk";
import { site } from "../../helpers";

/**
 * The tier rules of a component or price point input (sdk/catalog/tiers.ts): ascending, contiguous, the first at 1,
 * only the last open-ended, per_unit with one tier; as a table and as a property (any valid list passes, any single
 * perturbation fails naming the tier).
 */

type Tier = { startingQuantity: number; endingQuantity?: number; unitPrice: number | string };

const problems = (schema: { safeParse: (v: unknown) => any }, v: unknown) => {
  const r = schema.safeParse(v);
  return r.success ? [] : problemsOf(r.error).map((p: { property: string; message: string }) => `${p.property}: ${p.message}`);
};

const point = (prices: unknown, pricingScheme = "tiered") => ({ handle: "wholesale", name: "Wholesale", pricingScheme, prices });

describe("tier rules", () => {
  it.each<[string, unknown, string | RegExp | undefined, string?]>([
    ["one open tier", [{ startingQuantity: 1, unitPrice: 1 }], undefined],
    [
      "three contiguous tiers",
      [
        { startingQuantity: 1, endingQuantity: 100, unitPrice: "5.00" },
        { startingQuantity: 101, endingQuantity: 200, unitPrice: "4.5" },
        { startingQuantity: 201, unitPrice: 0.00000065 },
      ],
      undefined,
    ],
    ["no tiers", [], "prices: must hold at least one tier"],
    [
      "first starts at 2",
      [{ startingQuantity: 2, unitPrice: 1 }],
      "prices.0.startingQuantity: must be 1: the first tier (prices[0]) starts at 1, got 2",
    ],
    [
      "a gap",
      [
        { startingQuantity: 1, endingQuantity: 10, unitPrice: 1 },
        { startingQuantity: 12, unitPrice: 1 },
      ],
      "prices.1.startingQuantity: must be 11 (one past prices[0]'s endingQuantity 10): prices[1] starting at 12 leaves quantities 11–11 unpriced",
    ],
    [
      "an overlap",
      [
        { startingQuantity: 1, endingQuantity: 10, unitPrice: 1 },
        { startingQuantity: 10, unitPrice: 1 },
      ],
      "prices.1.startingQuantity: must be 11 (one past prices[0]'s endingQuantity 10): prices[1] starting at 10 overlaps prices[0]",
    ],
    [
      "a tier ending before it starts",
      [
        { startingQuantity: 1, endingQuantity: 0, unitPrice: 1 },
        { startingQuantity: 1, unitPrice: 1 },
      ],
      /prices\.0\.endingQuantity: must be a whole number, 1 or more/,
    ],
    [
      "a tier of one quantity (the service wants the end greater than the start)",
      [
        { startingQuantity: 1, endingQuantity: 1, unitPrice: 1 },
        { startingQuantity: 2, unitPrice: 1 },
      ],
      "prices.0.endingQuantity: must be greater than prices[0]'s startingQuantity 1 (a tier spans at least two quantities; tiers ascend), got 1",
    ],
    [
      "the last one closed",
      [
        { startingQuantity: 1, endingQuantity: 10, unitPrice: 1 },
        { startingQuantity: 11, endingQuantity: 20, unitPrice: 1 },
      ],
      "prices.1.endingQuantity: must be left out: the last tier (prices[1]) is open-ended, pricing every quantity from its startingQuantity up",
    ],
    [
      "a middle one open",
      [
        { startingQuantity: 1, unitPrice: 1 },
        { startingQuantity: 11, unitPrice: 1 },
      ],
      "prices.0.endingQuantity: is required: only the last tier is open-ended, and prices[0] is followed by prices[1] (starting at 11, so prices[0] would end at 10)",
    ],
    [
      "per_unit with two tiers",
      [
        { startingQuantity: 1, endingQuantity: 10, unitPrice: 1 },
        { startingQuantity: 11, unitPrice: 1 },
      ],
      'prices: must hold exactly one tier with pricingScheme "per_unit"',
      "per_unit",
    ],
    [
      "a price with 9 decimals",
      [{ startingQuantity: 1, unitPrice: "0.000000001" }],
      /prices\.0\.unitPrice: must be a price of at least 0 with at most 8 decimal places/,
    ],
    ["a negative price", [{ startingQuantity: 1, unitPrice: -1 }], /prices\.0\.unitPrice: must be a price/],
    [
      "a fractional quantity",
      [{ startingQuantity: 1.5, unitPrice: 1 }],
      /prices\.0\.startingQuantity: must be a whole number, 1 or more \(no fractions\)/,
    ],
  ])("%s", (_, prices, expected, scheme) => {
    const found = problems(componentPricePointInput, point(prices, scheme));
    if (expected === undefined) expect(found).toStrictEqual([]);
    else if (typeof expected === "string")
      expect(
        found.some((p) => p.startsWith(expected)),
        found.join("\n"),
      ).toBe(true);
    else
      expect(
        found.some((p) => expected.test(p)),
        found.join("\n"),
      ).toBe(true);
  });

  it("a bad unit price does not hide a gap, nor a gap a missing name", () => {
    const found = problems(componentPricePointInput, {
      handle: "x",
      pricingScheme: "tiered",
      prices: [
        { startingQuantity: 1, endingQuantity: 10, unitPrice: "ten" },
        { startingQuantity: 20, unitPrice: 1 },
      ],
    });
    expect(found.map((p) => p.split(":")[0]).sort()).toStrictEqual(["name", "prices.0.unitPrice", "prices.1.startingQuantity"]);
  });

  /** A valid tier list: the lengths of all tiers but the last, and a price for each. */
  const validTiers = fc.array(fc.integer({ min: 2, max: 1000 }), { maxLength: 6 }).chain((lengths) =>
    fc
      .array(fc.oneof(fc.integer({ min: 0, max: 10_000 }), fc.constantFrom("0.0012", "5.00", "10")), {
        minLength: lengths.length + 1,
        maxLength: lengths.length + 1,
      })
      .map((prices) => {
        const tiers: Tier[] = [];
        let start = 1;
        lengths.forEach((n, i) => {
          tiers.push({ startingQuantity: start, endingQuantity: start + n - 1, unitPrice: prices[i] });
          start += n;
        });
        tiers.push({ startingQuantity: start, unitPrice: prices[lengths.length] });
        return tiers;
      }),
  );

  it("property: any valid tier list passes, for every tiered scheme", () => {
    fc.assert(
      fc.property(validTiers, fc.constantFrom("volume", "tiered", "stairstep"), (tiers, scheme) => {
        expect(problems(componentPricePointInput, point(tiers, scheme))).toStrictEqual([]);
      }),
      { numRuns: 300 }, // seeded by FC_SEED (tests/seeds.ts): fixed in npm test, fresh in npm run test:random
    );
  });

  it("property: any single perturbation of a valid list fails, naming the tier it touched", () => {
    const perturbation = validTiers.chain((tiers) =>
      fc.record({
        tiers: fc.constant(tiers),
        at: fc.integer({ min: 0, max: tiers.length - 1 }),
        how: fc.constantFrom("start+1", "start-1", "end+1", "end-1", "open", "close", "drop"),
      }),
    );
    fc.assert(
      fc.property(perturbation, ({ tiers, at, how }) => {
        const t = tiers.map((x) => ({ ...x }));
        const last = t.length - 1;
        const tier = t[at];
        switch (how) {
          case "start+1":
            tier.startingQuantity += 1;
            break;
          case "start-1":
            if (tier.startingQuantity === 1) return; // 0 is refused by the field itself; covered by the table
            tier.startingQuantity -= 1;
            break;
          case "end+1":
          case "end-1":
            if (at === last) return; // the last has no end to move: "close" covers it
            tier.endingQuantity = (tier.endingQuantity as number) + (how === "end+1" ? 1 : -1);
            break;
          case "open":
            if (at === last) return;
            delete tier.endingQuantity;
            break;
          case "close":
            if (at !== last) return;
            tier.endingQuantity = tier.startingQuantity + 5;
            break;
          case "drop":
            if (at === last || t.length === 1) return; // dropping the last leaves the one before it closed: "close" of that one
            t.splice(at, 1);
            break;
        }
        const found = problems(componentPricePointInput, point(t));
        expect(found.length, `${how} at ${at}: ${JSON.stringify(t)}`).toBeGreaterThan(0);
        // The touched tier, or the one whose start it moved (its neighbour), is named by its index.
        const named = [at - 1, at, at + 1]
          .filter((i) => i >= 0)
          .some((i) => found.some((p) => p.includes(`prices[${i}]`) || p.startsWith(`prices.${i}.`)));
        expect(named, `${how} at ${at}: ${found.join("\n")}`).toBe(true);
      }),
      { numRuns: 500 }, // FC_SEED, as above
    );
  });
});

describe("tier rules: an open tier followed by one whose start is not a number", () => {
  const metered = { kind: "metered", handle: "sms", name: "SMS", unitName: "message", pricingScheme: "tiered" } as const;
  const OPEN = "is required: only the last tier is open-ended, and prices[0] is followed by prices[1]";

  it.each([
    [
      "a start that is text",
      { startingQuantity: "two", unitPrice: 1 },
      "prices.1.startingQuantity",
      'must be a whole number, 1 or more, got "two"',
    ],
    ["no tier at all", null, "prices.1", "must be an object { startingQuantity, endingQuantity?, unitPrice }"],
  ] as const)("%s: the end is required, with no end to suggest", async (_, next, property, message) => {
    const { sim, billing } = await site();
    const prices = [{ startingQuantity: 1, unitPrice: 1 }, next] as never;
    const err = await billing.createComponent(1, { ...metered, prices }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BillingValidationError);
    expect((err as BillingValidationError).problems).toStrictEqual([
      { property, message },
      { property: "prices.0.endingQuantity", message: OPEN },
    ]);
    expect((err as Error).message).toBe(`invalid component: ${property}: ${message}; prices.0.endingQuantity: ${OPEN}`);
    expect(sim.requests).toStrictEqual([]);
  });

  it("a start that is a whole number: the end it would have suggested", async () => {
    const { billing } = await site();
    const prices = [
      { startingQuantity: 1, unitPrice: 1 },
      { startingQuantity: 11, unitPrice: 1 },
    ];
    const err = await billing.createComponent(1, { ...metered, prices }).catch((e: unknown) => e);
    expect((err as BillingValidationError).problems).toStrictEqual([
      { property: "prices.0.endingQuantity", message: `${OPEN} (starting at 11, so prices[0] would end at 10)` },
    ]);
  });
});
