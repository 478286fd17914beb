import fc from "fast-check";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { pricePointInput, pricingInput, productInput } from "../../../../sdk";
import { base, notCents, pricePoint, problems, product, propertiesOf, RUNS } from "./arbitraries";
import { fresh, PRICE, PRICING, PRODUCT, parse, refused, type SchemaName } from "./reloaded-product-inputs";

/**
 * The pricing of a product or price point input (sdk/catalog/inputs.ts, tiers.ts): prices, intervals and their units,
 * the trial and expiration terms, the rule on which fields go together, unit prices and tiers; what is accepted (by
 * property, with fast-check) and each refusal's property and words. The schemas are built when their modules load:
 * the tests that pin their words load them afresh (vi.resetModules, then import; mutation/README.md).
 */

describe("pricing: prices, intervals and units", () => {
  it("any integer price ≥ 0 and any interval ≥ 1 with its unit are accepted, on products and price points alike", () => {
    fc.assert(
      fc.property(pricePoint, product, (pp, p) => {
        expect(problems(pricePointInput, pp)).toStrictEqual([]);
        expect(problems(productInput, p)).toStrictEqual([]);
        expect(
          problems(pricingInput, { priceInCents: pp.priceInCents, interval: pp.interval, intervalUnit: pp.intervalUnit }),
        ).toStrictEqual([]);
      }),
      RUNS,
    );
  });

  it.each([["priceInCents"], ["trialPriceInCents"], ["initialChargeInCents"]])(
    "any fractional, negative or non-finite %s is refused, naming it, saying whole cents ≥ 0",
    (field) => {
      fc.assert(
        fc.property(pricePoint, notCents, (pp, bad) => {
          const input = { ...pp, [field]: bad };
          if (field === "trialPriceInCents") Object.assign(input, { trialInterval: 1, trialIntervalUnit: "day" });
          const found = problems(pricePointInput, input);
          expect(found.map((p) => p.property)).toStrictEqual([field]);
          expect(found[0].message).toMatch(/^must be a whole number of cents, 0 or more \(1000 for 10\.00\)( \(no fractions\))?, got /);
        }),
        RUNS,
      );
    },
  );

  it("a price given as text is refused, naming it", () => {
    fc.assert(
      fc.property(pricePoint, fc.oneof(fc.string(), fc.boolean(), fc.constant(null)), (pp, bad) => {
        const found = problems(pricePointInput, { ...pp, priceInCents: bad });
        expect(found.map((p) => p.property)).toStrictEqual(["priceInCents"]);
        expect(found[0].message).toContain("must be a whole number of cents");
      }),
      RUNS,
    );
  });

  it.each([["interval"], ["trialInterval"], ["expirationInterval"]])(
    "an interval below 1 or with a fraction is refused, naming %s",
    (field) => {
      fc.assert(
        fc.property(
          pricePoint,
          fc.oneof(
            fc.integer({ max: 0 }),
            fc.double({ min: 0.001, max: 1e6, noNaN: true }).filter((x) => !Number.isInteger(x)),
          ),
          (pp, bad) => {
            const input: Record<string, unknown> = { ...pp, [field]: bad };
            if (field === "trialInterval") Object.assign(input, { trialIntervalUnit: "day", trialPriceInCents: 0 });
            if (field === "expirationInterval") input.expirationIntervalUnit = "month";
            const found = problems(pricePointInput, input);
            expect(found.map((p) => p.property)).toStrictEqual([field]);
            expect(found[0].message).toMatch(/^must be a whole number, 1 or more/);
          },
        ),
        RUNS,
      );
    },
  );

  it("a unit other than day or month is refused, naming it and the accepted units", () => {
    fc.assert(
      fc.property(
        pricePoint,
        fc.string().filter((s) => s !== "day" && s !== "month"),
        (pp, bad) => {
          const found = problems(pricePointInput, { ...pp, intervalUnit: bad });
          expect(found.map((p) => p.property)).toStrictEqual(["intervalUnit"]);
          expect(found[0].message).toMatch(/^must be "day" or "month", got /);
        },
      ),
      RUNS,
    );
  });

  it.each<[string, string, Record<string, unknown>, RegExp]>([
    [
      "trialInterval without its unit",
      "trialIntervalUnit",
      { trialInterval: 7, trialPriceInCents: 0 },
      /^is required with trialInterval: "day" or "month"$/,
    ],
    ["trialIntervalUnit without trialInterval", "trialInterval", { trialIntervalUnit: "day" }, /^is required with trialIntervalUnit/],
    [
      "a trial without its price",
      "trialPriceInCents",
      { trialInterval: 7, trialIntervalUnit: "day" },
      /^is required with a trial \(trialInterval\): a whole number of cents/,
    ],
    ["a trial price without a trial", "trialInterval", { trialPriceInCents: 500 }, /^is required with trialPriceInCents/],
    [
      "expirationInterval without its unit",
      "expirationIntervalUnit",
      { expirationInterval: 12 },
      /^is required with expirationInterval: "day" or "month"$/,
    ],
    [
      "an expiration unit without its interval",
      "expirationInterval",
      { expirationIntervalUnit: "month" },
      /^is required with expirationIntervalUnit "month"/,
    ],
    [
      "an interval with the unit never",
      "expirationInterval",
      { expirationInterval: 3, expirationIntervalUnit: "never" },
      /^must be left out when expirationIntervalUnit is "never"/,
    ],
  ])("%s is refused, naming %s", (_what, property, extra, message) => {
    for (const schema of [pricePointInput, productInput, pricingInput]) {
      const input = schema === pricingInput ? { priceInCents: 100, interval: 1, intervalUnit: "month", ...extra } : { ...base, ...extra };
      const found = problems(schema, input);
      expect(found.map((p) => p.property)).toStrictEqual([property]);
      expect(found[0].message).toMatch(message);
    }
  });

  it("the rules on which fields are present are marked presence (a provider keeps them when a value is unknown)", () => {
    const r = pricePointInput.safeParse({ ...base, trialInterval: 7 });
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => [i.path.join("."), (i as { params?: { presence?: boolean } }).params?.presence])).toStrictEqual([
      ["trialIntervalUnit", true],
      ["trialPriceInCents", true],
    ]);
    // A value-dependent rule is not: an unknown unit at preview must not be taken for "never".
    const never = pricePointInput.safeParse({ ...base, expirationInterval: 3, expirationIntervalUnit: "never" });
    expect((never.error!.issues[0] as { params?: unknown }).params).toBeUndefined();
  });

  it("one bad value never hides a missing partner: both are named", () => {
    expect(propertiesOf(pricePointInput, { ...base, priceInCents: -1, trialInterval: 7 }).sort()).toStrictEqual([
      "priceInCents",
      "trialIntervalUnit",
      "trialPriceInCents",
    ]);
  });
});

describe("the pricing's enums: each value taken, anything else refused with the list", () => {
  beforeEach(() => {
    vi.resetModules();
  });

  it.each<[string, unknown]>([
    ["intervalUnit", "day"],
    ["intervalUnit", "month"],
    ["trialType", "no_obligation"],
    ["trialType", "payment_expected"],
  ])("%s %j is taken", async (field, value) => {
    expect(await parse("pricingInput", { ...PRICING, [field]: value })).toStrictEqual({ data: { ...PRICING, [field]: value } });
  });

  it.each(["day", "month"])('an expiration of 2 "%s", and "never" with no interval, are taken', async (unit) => {
    const expiring = { ...PRICING, expirationInterval: 2, expirationIntervalUnit: unit };
    expect(await parse("pricingInput", expiring)).toStrictEqual({ data: expiring });
    const never = { ...PRICING, expirationIntervalUnit: "never" };
    expect(await parse("pricingInput", never)).toStrictEqual({ data: never });
  });

  it.each<[string, unknown, string]>([
    ["intervalUnit", "week", 'must be "day" or "month", got "week"'],
    ["trialIntervalUnit", 1, 'must be "day" or "month", got 1'],
    ["expirationIntervalUnit", "year", 'must be "day", "month" or "never", got "year"'],
    ["trialType", "free", 'must be "no_obligation" or "payment_expected", got "free"'],
  ])("%s %j is refused: %s", async (field, value, message) => {
    const input = { ...PRICING, [field]: value, ...(field === "trialIntervalUnit" ? { trialInterval: 1, trialPriceInCents: 0 } : {}) };
    expect(await parse("pricingInput", input)).toStrictEqual(refused(field, message));
  });
});

describe("a value that is not an object: refused naming the object's fields, and the pricing rule does not run on it", () => {
  beforeEach(() => {
    vi.resetModules();
  });

  it.each<[SchemaName, unknown, string]>([
    ["productInput", null, "must be an object { handle, name, priceInCents, interval, intervalUnit, … }"],
    ["productInput", "pro", "must be an object { handle, name, priceInCents, interval, intervalUnit, … }"],
    ["productUpdateInput", null, "must be an object { handle, name, priceInCents, interval, intervalUnit, … }"],
    ["productFamilyInput", 5, "must be an object { handle, name, description? }"],
    ["pricingInput", null, "must be an object { priceInCents, interval, intervalUnit, … }"],
    ["pricePointInput", [], "must be an object { handle, name, priceInCents, interval, intervalUnit, … }"],
    ["pricePointUpdateInput", 5, "must be an object { handle?, priceInCents? }"],
    ["priceTier", 5, "must be an object { startingQuantity, endingQuantity?, unitPrice }"],
  ])("%s of %j", async (schema, value, message) => {
    expect(await parse(schema, value)).toStrictEqual(refused("(input)", message));
  });
});

describe("the pricing rule", () => {
  beforeEach(() => {
    vi.resetModules();
  });

  // A value of the wrong type ends zod's object checks unless the rule says otherwise (`when`): a negative number would not.
  it("runs beside a field that failed: a price given as text does not hide a trial's missing unit and price", async () => {
    expect(await parse("productInput", { ...PRODUCT, priceInCents: "10", trialInterval: 1 })).toStrictEqual({
      problems: [
        { property: "priceInCents", message: 'must be a whole number of cents, 0 or more (1000 for 10.00), got "10"' },
        { property: "trialIntervalUnit", message: 'is required with trialInterval: "day" or "month"' },
        {
          property: "trialPriceInCents",
          message: "is required with a trial (trialInterval): a whole number of cents, 0 or more (1000 for 10.00)",
        },
      ],
    });
  });

  it("marks rules on which fields are present, and not the ones on an expiration unit's value", async () => {
    const { pricingInput } = await fresh();
    const marks = (v: unknown) => {
      const r = pricingInput.safeParse(v);
      return r.success ? [] : r.error.issues.map((i) => [i.path.join("."), (i as { params?: unknown }).params]);
    };
    expect(marks({ ...PRICING, trialInterval: 1 })).toStrictEqual([
      ["trialIntervalUnit", { presence: true }],
      ["trialPriceInCents", { presence: true }],
    ]);
    expect(marks({ ...PRICING, expirationIntervalUnit: "day" })).toStrictEqual([["expirationInterval", undefined]]);
    expect(marks({ ...PRICING, expirationIntervalUnit: "never", expirationInterval: 1 })).toStrictEqual([
      ["expirationInterval", undefined],
    ]);
  });
});

describe("unit prices and tiers", () => {
  beforeEach(() => {
    vi.resetModules();
  });

  it.each<[unknown]>([[0], [2.5], [6.5e-7], ["0.00000065"], ["12"], ["3.14"]])("unit price %j is taken as given", async (price) => {
    expect(await parse("unitPrice", price)).toStrictEqual({ data: price });
  });

  it.each<[unknown, string]>([
    [true, "true"],
    [null, "null"],
    [-1, "-1"],
    [1e-9, "1e-9"],
    ["1e-9", '"1e-9"'],
    ["-1", '"-1"'],
  ])("unit price %j is refused saying what a price is", async (price, got) => {
    expect(await parse("unitPrice", price)).toStrictEqual(refused("(input)", `must be ${PRICE}, got ${got}`));
  });

  it.each(["per_unit", "volume", "tiered", "stairstep"])("pricing scheme %j is taken", async (scheme) => {
    expect(await parse("pricingScheme", scheme)).toStrictEqual({ data: scheme });
  });

  it("another pricing scheme is refused with the four", async () => {
    expect(await parse("pricingScheme", "flat")).toStrictEqual(
      refused("(input)", 'must be "per_unit", "volume", "tiered" or "stairstep", got "flat"'),
    );
  });

  it("a tier followed by something that is not a tier: its end is required, and the rule reads no start from it", async () => {
    const { tierRule, problemsOf } = await fresh();
    const { z } = await import("zod");
    const prices = z.array(z.unknown()).superRefine((v, ctx) => tierRule(v, "tiered", ctx));
    const r = prices.safeParse([{ startingQuantity: 1, unitPrice: 1 }, null]);
    expect(r.success ? [] : problemsOf(r.error)).toStrictEqual([
      {
        property: "prices.0.endingQuantity",
        message: "is required: only the last tier is open-ended, and prices[0] is followed by prices[1]",
      },
    ]);
  });
});
