import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { componentInput, componentPricePointInput, componentPricePointUpdateInput, couponInput, problemsOf } from "../../sdk";

/**
 * The component, price point and coupon inputs, checked before anything is sent: the tier rules
 * (ascending, contiguous, the first at 1, only the last open-ended, per_unit with one tier) as a
 * table and as a property (any valid list passes; any single perturbation fails naming the tier),
 * each kind's fields, and the coupon's code and discount.
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

describe("component inputs", () => {
  const tiers = [{ startingQuantity: 1, unitPrice: 1 }];
  it.each([
    { kind: "metered", handle: "sms", name: "SMS", unitName: "message", pricingScheme: "per_unit", prices: tiers },
    { kind: "quantity_based", handle: "seats", name: "Seats", unitName: "seat", pricingScheme: "volume", prices: tiers, recurring: true },
    { kind: "on_off", handle: "support", name: "Support", unitPrice: "100.00" },
    {
      kind: "prepaid_usage",
      handle: "minutes",
      name: "Minutes",
      unitName: "minute",
      pricingScheme: "per_unit",
      prices: tiers,
      overagePricing: { pricingScheme: "per_unit", prices: tiers },
      rolloverPrepaidRemainder: true,
      expirationInterval: 15,
      expirationIntervalUnit: "day",
    },
    {
      kind: "event_based",
      handle: "api-calls",
      name: "API calls",
      unitName: "call",
      pricingScheme: "tiered",
      prices: tiers,
      eventBasedBillingMetricId: 7,
    },
  ])("$kind is accepted", (input) => {
    expect(problems(componentInput, input)).toStrictEqual([]);
  });

  it("an unknown kind is named with the accepted ones", () => {
    expect(problems(componentInput, { kind: "usage", handle: "x", name: "X" })).toStrictEqual([
      'kind: must be one of "metered", "quantity_based", "on_off", "prepaid_usage", "event_based", got "usage"',
    ]);
  });

  it("a field of another kind is refused by name; a missing handle and bad tiers are reported together", () => {
    const found = problems(componentInput, {
      kind: "metered",
      name: "SMS",
      unitName: "message",
      pricingScheme: "tiered",
      recurring: true,
      prices: [{ startingQuantity: 2, unitPrice: 1 }],
    });
    expect(found.some((p) => p.startsWith("handle:"))).toBe(true);
    expect(found.some((p) => p.includes("recurring"))).toBe(true);
    expect(found.some((p) => p.startsWith("prices.0.startingQuantity: must be 1"))).toBe(true);
  });

  it("the overage tiers are checked under their own path", () => {
    const found = problems(componentInput, {
      kind: "prepaid_usage",
      handle: "m",
      name: "M",
      unitName: "minute",
      pricingScheme: "per_unit",
      prices: tiers,
      overagePricing: { pricingScheme: "tiered", prices: [{ startingQuantity: 1, endingQuantity: 5, unitPrice: 1 }] },
    });
    expect(found).toStrictEqual([
      "overagePricing.prices.1.endingQuantity: must be left out: the last tier (overagePricing.prices[0]) is open-ended, pricing every quantity from its startingQuantity up".replace(
        "prices.1",
        "prices.0",
      ),
    ]);
  });

  it("a price point update checks tiers only when given, and an interval needs its unit", () => {
    expect(problems(componentPricePointUpdateInput, { name: "New" })).toStrictEqual([]);
    expect(problems(componentPricePointUpdateInput, { interval: 2 })).toStrictEqual([
      'intervalUnit: is required with interval: "day" or "month"',
    ]);
  });
});

describe("coupon inputs", () => {
  const base = { code: "SPRING-15%", name: "Spring", percentage: 15 };
  it("a percentage or an amount, exactly one", () => {
    expect(problems(couponInput, base)).toStrictEqual([]);
    expect(problems(couponInput, { ...base, percentage: undefined, amountInCents: 500 })).toStrictEqual([]);
    expect(problems(couponInput, { ...base, amountInCents: 500 })).toStrictEqual([
      "amountInCents: must be left out with percentage: a coupon is a percentage or an amount, not both",
    ]);
    expect(problems(couponInput, { code: "X", name: "X" })).toStrictEqual([
      "percentage: or amountInCents is required: a percentage (15 for 15%) or an amount in integer cents",
    ]);
  });

  it.each([
    ["BOB@EXAMPLE.COM", true],
    ["A+B_C.D-E%", true],
    ["spring", false],
    ["SPRING SALE", false],
    ["", false],
  ])("code %j accepted: %s", (code, ok) => {
    expect(problems(couponInput, { ...base, code }).length === 0).toBe(ok);
  });

  it("a lowercase code is refused with its uppercase form", () => {
    expect(problems(couponInput, { ...base, code: "spring" })).toStrictEqual([
      'code: must be only uppercase letters, digits and "%", "@", "+", "-", "_", "." (uppercase: "SPRING"), got "spring"',
    ]);
  });

  it("a duration needs recurring; restrictions are distinct ids", () => {
    expect(problems(couponInput, { ...base, durationPeriodCount: 3 })).toStrictEqual([
      "recurring: must be true with durationPeriodCount: only a recurring coupon lasts several periods",
    ]);
    expect(problems(couponInput, { ...base, restrictedProducts: [1, 1] })).toStrictEqual([
      "restrictedProducts: must not name a product twice",
    ]);
  });
});
