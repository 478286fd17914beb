import { describe, expect, it } from "vitest";
import { describeChanges, money, pricingOf, pricingText } from "../../provider/kinds/catalog";

/**
 * The catalog kinds' pricing helpers, called directly (provider/kinds/catalog.ts): the pricing subset sent to the SDK,
 * money with its thousands separators, a pricing field's text in messages ("(none)" when unset), and the changes
 * text. Each case is exact: a changed key, separator or word fails it.
 */

describe("pricingOf: the pricing fields that are set, in PRICING_FIELDS order, nothing else", () => {
  it.each([
    ["nothing set", {}, {}],
    ["unset (undefined) fields left out", { priceInCents: 4900, interval: undefined, trialInterval: undefined }, { priceInCents: 4900 }],
    [
      "falsy values kept: 0, false, null",
      { trialPriceInCents: 0, initialChargeAfterTrial: false, expirationInterval: null },
      { trialPriceInCents: 0, initialChargeAfterTrial: false, expirationInterval: null },
    ],
    [
      "fields that are not pricing left out",
      { handle: "basic", name: "Basic", priceInCents: 4900, intervalUnit: "month" },
      { priceInCents: 4900, intervalUnit: "month" },
    ],
  ])("%s", (_, input, expected) => {
    const out = pricingOf(input as Record<string, unknown>);
    expect(out).toStrictEqual(expected);
    expect(Object.keys(out)).toEqual(Object.keys(expected));
  });

  it("every field set: all eleven, in PRICING_FIELDS order whatever the input's order", () => {
    const out = pricingOf({
      expirationIntervalUnit: "day",
      expirationInterval: 90,
      initialChargeAfterTrial: true,
      initialChargeInCents: 500,
      trialType: "payment_expected",
      trialIntervalUnit: "day",
      trialInterval: 14,
      trialPriceInCents: 0,
      intervalUnit: "month",
      interval: 1,
      priceInCents: 4900,
    });
    expect(Object.entries(out)).toEqual([
      ["priceInCents", 4900],
      ["interval", 1],
      ["intervalUnit", "month"],
      ["trialPriceInCents", 0],
      ["trialInterval", 14],
      ["trialIntervalUnit", "day"],
      ["trialType", "payment_expected"],
      ["initialChargeInCents", 500],
      ["initialChargeAfterTrial", true],
      ["expirationInterval", 90],
      ["expirationIntervalUnit", "day"],
    ]);
  });
});

describe("money: cents as dollars with two decimals and a comma every three integer digits, the sign in front; anything else as its text", () => {
  it.each([
    [0, "$0.00"],
    [5, "$0.05"],
    [4900, "$49.00"],
    [99999, "$999.99"],
    [100000, "$1,000.00"],
    [123456, "$1,234.56"],
    [12345678, "$123,456.78"],
    [123456789, "$1,234,567.89"],
    [100000000000, "$1,000,000,000.00"],
    [-100, "-$1.00"],
    [-99999, "-$999.99"],
    [-123456789, "-$1,234,567.89"],
    [-0.4, "$0.00"],
    [0.4, "$0.00"],
    [Number.NaN, "NaN"],
    [Number.POSITIVE_INFINITY, "Infinity"],
    [Number.NEGATIVE_INFINITY, "-Infinity"],
    ["4900", "4900"],
    ["123456789", "123456789"],
    [undefined, "undefined"],
    [null, "null"],
  ])("%j → %s", (cents, expected) => {
    expect(money(cents)).toBe(expected);
  });
});

describe("pricingText: (none) when unset or null, money for an …InCents field, else the value's text", () => {
  it.each([
    ["priceInCents", undefined, "(none)"],
    ["priceInCents", null, "(none)"],
    ["interval", undefined, "(none)"],
    ["trialType", null, "(none)"],
    ["priceInCents", 123456, "$1,234.56"],
    ["trialPriceInCents", 0, "$0.00"],
    ["initialChargeInCents", 4900, "$49.00"],
    ["priceInCents", "4900", "4900"],
    ["interval", 1234, "1234"],
    ["expirationInterval", 0, "0"],
    ["intervalUnit", "month", "month"],
    ["initialChargeAfterTrial", false, "false"],
    ["initialChargeAfterTrial", true, "true"],
  ] as const)("%s %j → %s", (k, v, expected) => {
    expect(pricingText(k, v)).toBe(expected);
  });
});

describe("describeChanges: `field old → new` for each listed field, joined by a comma", () => {
  it.each([
    ["no fields", [], { priceInCents: 4900 }, { priceInCents: 5900 }, ""],
    [
      "money and a plain value, only the listed fields",
      ["priceInCents", "interval"],
      { priceInCents: 4900, interval: 1, intervalUnit: "month" },
      { priceInCents: 123456, interval: 12, intervalUnit: "day" },
      "priceInCents $49.00 → $1,234.56, interval 1 → 12",
    ],
    [
      "a trial added and removed: (none) on the unset side",
      ["trialInterval", "trialPriceInCents"],
      { trialPriceInCents: 0 },
      { trialInterval: 14, trialPriceInCents: null },
      "trialInterval (none) → 14, trialPriceInCents $0.00 → (none)",
    ],
  ] as const)("%s", (_, fields, from, to, expected) => {
    expect(describeChanges(fields, from, to)).toBe(expected);
  });
});
