import { describe, expect, it } from "vitest";
import { pricingChangeText, pricingFieldChange, tierChanges, unitPriceText } from "../../provider/kinds/pricing-text";

/**
 * A pricing change in money (provider/kinds/pricing-text.ts), as the preview's notices, the review and the policy pack
 * say it (issue 42): each case exact, so a changed word, separator or amount fails it.
 */

const T = (...prices: string[]) =>
  prices.map((unitPrice, i) =>
    i === prices.length - 1
      ? { startingQuantity: i * 1000 + 1, unitPrice }
      : { startingQuantity: i * 1000 + 1, endingQuantity: (i + 1) * 1000, unitPrice },
  );

describe("tierChanges: tier by tier while the ranges stay, else the whole lists", () => {
  it.each([
    ["one tier's price", T("0.05", "0.03"), T("0.04", "0.03"), ["1–1000 $0.05 → $0.04"]],
    ["two tiers' prices", T("0.05", "0.03"), T("0.04", "0.02"), ["1–1000 $0.05 → $0.04", "1001+ $0.03 → $0.02"]],
    ["the same prices written otherwise (0.05 as 0.050, 5 as 5.00)", T("0.05", "5"), T("0.050", "5.00"), []],
    ["more decimals kept", T("0.0125"), T("0.01"), ["1+ $0.0125 → $0.01"]],
    ["a tier added: the lists", T("0.05"), T("0.05", "0.03"), ["1+ at $0.05 → 1–1000 at $0.05; 1001+ at $0.03"]],
    ["none before", undefined, T("0.05"), ["none → 1+ at $0.05"]],
  ])("%s", (_, from, to, expected) => {
    expect(tierChanges(from, to)).toEqual(expected);
  });
});

describe("pricingFieldChange and pricingChangeText: each field old → new in its money", () => {
  it.each([
    ["cents", "priceInCents", 4900, 5900, "priceInCents $49.00 → $59.00"],
    ["a coupon's amount", "amountInCents", 500, 600, "amountInCents $5.00 → $6.00"],
    ["a coupon's amount removed", "amountInCents", 500, null, "amountInCents $5.00 → none"],
    ["a percentage", "percentage", 10, 15, "percentage 10% → 15%"],
    ["an on/off unit price", "unitPrice", "25", "30", "unitPrice $25.00 → $30.00"],
    ["a scheme", "pricingScheme", "volume", "tiered", "pricingScheme volume → tiered"],
    ["tiers", "prices", T("0.05", "0.03"), T("0.04", "0.03"), "prices 1–1000 $0.05 → $0.04"],
  ])("%s", (_, field, from, to, expected) => {
    expect(pricingFieldChange(field, from, to)).toBe(expected);
  });

  it("a preview's pricingChange: its fields in order, currencies each in their money", () => {
    const change = {
      fields: ["prices", "currencyPrices"],
      from: { prices: T("0.05", "0.03"), currencyPrices: { EUR: [0.8, 0.5] } },
      to: { prices: T("0.04", "0.03"), currencyPrices: { EUR: [0.7, 0.5] } },
    };
    expect(pricingChangeText(change)).toBe("prices 1–1000 $0.05 → $0.04, currencyPrices EUR tier 1 EUR 0.80 → tier 1 EUR 0.70");
  });

  it("unit prices: negative, text that is no number", () => {
    expect([unitPriceText("-0.5"), unitPriceText("abc"), unitPriceText(undefined)]).toEqual(["-$0.50", "abc", "undefined"]);
  });
});
