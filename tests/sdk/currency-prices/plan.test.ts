import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { planCurrencyPrices } from "../../../sdk";
import { samePricePointAmounts } from "../../../sdk/catalog/currency-prices";

/**
 * planCurrencyPrices (sdk/catalog/currency-prices.ts), the pure split that `set…CurrencyPrices` acts on: what a
 * declaration creates, updates, leaves alone, and the currencies held that it leaves out (kept: the service has no
 * way to remove them).
 */

const same = (a: number, h: unknown) => a === h;

describe("planCurrencyPrices", () => {
  it("splits by currency: missing created, differing updated, equal left alone, held but undeclared named", () => {
    expect(planCurrencyPrices({ EUR: 9, GBP: 8, CHF: 10 }, { GBP: 8, CHF: 11, JPY: 1000 }, same)).toStrictEqual({
      create: { EUR: 9 },
      update: { CHF: 10 },
      undeclared: ["JPY"],
    });
  });

  it("property: every declared currency is in exactly one of create, update and unchanged; undeclared is held minus declared", () => {
    const prices = fc.dictionary(fc.constantFrom("EUR", "GBP", "CHF", "JPY", "SEK"), fc.integer({ min: 0, max: 3 }));
    fc.assert(
      fc.property(prices, prices, (declared, held) => {
        const plan = planCurrencyPrices(declared, held, same);
        for (const code of Object.keys(declared)) {
          const inCreate = code in plan.create;
          const inUpdate = code in plan.update;
          const unchanged = code in held && held[code] === declared[code];
          expect([inCreate, inUpdate, unchanged].filter(Boolean)).toHaveLength(1);
          expect(inCreate).toBe(!(code in held));
        }
        expect([...plan.undeclared].sort()).toStrictEqual(
          Object.keys(held)
            .filter((c) => !(c in declared))
            .sort(),
        );
      }),
    );
  });

  it("a product price point's amounts compare role by role, as numbers", () => {
    expect(samePricePointAmounts({ baseline: 9, trial: 1 }, { baseline: 9, trial: 1 })).toBe(true);
    expect(samePricePointAmounts({ baseline: 9 }, { baseline: 9, trial: 1 })).toBe(false);
    expect(samePricePointAmounts({ baseline: 9.5 }, { baseline: 9.5 })).toBe(true);
    expect(samePricePointAmounts({ baseline: 9 }, undefined)).toBe(false);
  });
});
