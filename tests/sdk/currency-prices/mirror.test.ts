import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type CurrencyPricesOwner, currencyCode, currencyPricesProblems, problemsOf, rolesOf, siteCurrencyProblems } from "../../../sdk";

/**
 * The pure checks of a declared `currencyPrices` (sdk/catalog/currency-inputs.ts) that the providers call at
 * preview: the mirror of the primary pricing (a product price point's roles, a component price point's tiers),
 * the objects that take no currency prices (a custom price point, a percentage coupon), a price point that follows
 * the exchange rate, and the site's currencies. Each problem names the currency and the role, and what is accepted.
 */

const SITE = { currency: "USD", nonPrimaryCurrencies: ["EUR", "GBP"] };
const point = (pricing: Record<string, unknown>, more: Partial<CurrencyPricesOwner> = {}): CurrencyPricesOwner =>
  ({ kind: "product price point", pricing, useSiteExchangeRate: false, ...more }) as CurrencyPricesOwner;

describe("a product price point's currency prices mirror its pricing, role by role", () => {
  it("names the currency and the role a trial asks for, and the one the pricing does not have", () => {
    const owner = point({ trialPriceInCents: 100, trialInterval: 7 });
    expect(currencyPricesProblems(owner, { EUR: { baseline: 9 }, GBP: { baseline: 8, trial: 1, initial: 20 } }, SITE)).toStrictEqual([
      {
        property: "currencyPrices.EUR.trial",
        message:
          "is required: the price point has a trial (trialPriceInCents), and each currency must define it too (currency prices mirror the primary pricing)",
      },
      {
        property: "currencyPrices.GBP.initial",
        message:
          "must be left out: the price point has no initial charge (initialChargeInCents), and currency prices mirror the primary pricing (roles: baseline, trial)",
      },
    ]);
  });

  it("a missing baseline is the shape's own problem, named by currency", () => {
    expect(currencyPricesProblems(point({}), { EUR: {} })).toStrictEqual([
      {
        property: "currencyPrices.EUR.baseline",
        message: "is required: an amount in the currency's own units (not cents), 0 or more, at most 2 decimal places (9.5 for 9.50)",
      },
    ]);
  });

  it("a declaration that mirrors the pricing has no problem; none declared has none either", () => {
    const owner = point({ trialPriceInCents: 0, trialInterval: 1, initialChargeInCents: 500 });
    expect(currencyPricesProblems(owner, { EUR: { baseline: 9.5, trial: 0, initial: 4 } }, SITE)).toStrictEqual([]);
    expect(currencyPricesProblems(owner, undefined, SITE)).toStrictEqual([]);
    expect(currencyPricesProblems(owner, {}, SITE)).toStrictEqual([]);
  });

  it("property: a problem exactly for each role the currency has and the pricing does not, or lacks and the pricing has", () => {
    const roleSet = fc.record({ trial: fc.boolean(), initial: fc.boolean() });
    fc.assert(
      fc.property(roleSet, fc.dictionary(fc.constantFrom("EUR", "GBP"), roleSet, { minKeys: 1 }), (primary, declared) => {
        const pricing = {
          ...(primary.trial ? { trialPriceInCents: 100, trialInterval: 1 } : {}),
          ...(primary.initial ? { initialChargeInCents: 1 } : {}),
        };
        const input = Object.fromEntries(
          Object.entries(declared).map(([code, r]) => [
            code,
            { baseline: 1, ...(r.trial ? { trial: 1 } : {}), ...(r.initial ? { initial: 2 } : {}) },
          ]),
        );
        const expected = Object.entries(declared)
          .flatMap(([code, r]) => [
            ...(r.trial !== primary.trial ? [`currencyPrices.${code}.trial`] : []),
            ...(r.initial !== primary.initial ? [`currencyPrices.${code}.initial`] : []),
          ])
          .sort();
        const got = currencyPricesProblems(point(pricing), input, SITE).map((p) => p.property);
        expect([...got].sort()).toStrictEqual(expected);
      }),
    );
  });

  it("rolesOf: baseline always, trial with a trial, initial with an initial charge", () => {
    expect(rolesOf({})).toStrictEqual(["baseline"]);
    expect(rolesOf({ trialInterval: 1, trialPriceInCents: 0, initialChargeInCents: 0 })).toStrictEqual(["baseline", "trial", "initial"]);
  });
});

describe("a component price point's currency prices mirror its tiers", () => {
  const owner = (tiers: number): CurrencyPricesOwner => ({ kind: "component price point", tiers, useSiteExchangeRate: false });

  it("names the currency whose unit prices are not one per tier", () => {
    expect(currencyPricesProblems(owner(3), { EUR: [1, "0.5"], GBP: [1, 2, 3] }, SITE)).toStrictEqual([
      {
        property: "currencyPrices.EUR",
        message:
          "must hold 3 unit prices, one per tier of prices in their order, then one per tier of a prepaid price point's overagePricing.prices (currency prices mirror the tiers), got 2",
      },
    ]);
  });

  it("property: a problem exactly for the currencies whose count differs from the tiers'", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.dictionary(fc.constantFrom("EUR", "GBP"), fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 0, maxLength: 7 }), {
          minKeys: 1,
        }),
        (tiers, declared) => {
          const got = currencyPricesProblems(owner(tiers), declared, SITE).map((p) => p.property);
          const expected = Object.entries(declared)
            .filter(([, a]) => a.length !== tiers)
            .map(([code]) => `currencyPrices.${code}`);
          expect([...got].sort()).toStrictEqual(expected.sort());
        },
      ),
    );
  });

  it("a unit price takes a tier's form: a number or decimal text, at most 8 decimal places", () => {
    expect(currencyPricesProblems(owner(1), { EUR: ["0.00000065"] })).toStrictEqual([]);
    expect(currencyPricesProblems(owner(1), { EUR: ["1,5"] }).map((p) => p.property)).toStrictEqual(["currencyPrices.EUR.0"]);
  });
});

describe("what takes no currency prices, in the service's words", () => {
  it("a percentage coupon", () => {
    expect(currencyPricesProblems({ kind: "coupon", percentage: 15 }, { EUR: 5 })).toStrictEqual([
      {
        property: "currencyPrices",
        message:
          'must be left out for a percentage coupon (percentage 15): the service takes currency prices only for an amount-based coupon ("if the primary coupon is percentage based, you will not be able to define pricing in non-primary currencies")',
      },
    ]);
    expect(currencyPricesProblems({ kind: "coupon" }, { EUR: 5, GBP: 4 }, SITE)).toStrictEqual([]);
  });

  it("a custom price point, product's or component's", () => {
    expect(currencyPricesProblems(point({}, { type: "custom" }), { EUR: { baseline: 1 } })).toStrictEqual([
      {
        property: "currencyPrices",
        message:
          'must be left out for a custom price point: the service\'s rule is "Currency Prices are not able to be created for custom product price points"',
      },
    ]);
    expect(
      currencyPricesProblems({ kind: "component price point", tiers: 1, type: "custom", useSiteExchangeRate: false }, { EUR: [1] })[0]
        .message,
    ).toContain('"Currency Prices are not able to be created for custom price points"');
  });

  it("a price point that follows the site's exchange rate (true, or left to the service's default)", () => {
    for (const useSiteExchangeRate of [true, undefined])
      expect(currencyPricesProblems(point({}, { useSiteExchangeRate }), { EUR: { baseline: 1 } })).toStrictEqual([
        {
          property: "useSiteExchangeRate",
          message:
            "must be false with currencyPrices: a price point that follows the site's exchange rate (true, the service's default) is priced by the rate in other currencies, not by prices of its own, and reads back the rate's prices",
        },
      ]);
  });
});

describe("the site's currencies", () => {
  it("a currency the site does not have names the ones it has", () => {
    expect(currencyPricesProblems(point({}), { JPY: { baseline: 1000 } }, SITE)).toStrictEqual([
      {
        property: "currencyPrices.JPY",
        message:
          "is not one of the site's currencies: the site's other currencies are EUR, GBP (its primary currency is USD); a currency is added to the site in its settings (Multi-Currency) first",
      },
    ]);
    expect(siteCurrencyProblems(["EUR"], { currency: "USD", nonPrimaryCurrencies: [] })[0].message).toBe(
      "is not one of the site's currencies: the site has no currency besides its primary one (its primary currency is USD); a currency is added to the site in its settings (Multi-Currency) first",
    );
  });

  it("the primary currency is refused: the object's own prices are in it", () => {
    expect(siteCurrencyProblems(["USD", "EUR"], SITE)).toStrictEqual([
      {
        property: "currencyPrices.USD",
        message:
          "is the site's primary currency: the object's own prices are in it; currency prices are for its other currencies (EUR, GBP)",
      },
    ]);
  });

  it("a code that is not three uppercase letters says so, with the uppercase form", () => {
    const r = currencyCode.safeParse("eur");
    expect(r.success).toBe(false);
    if (!r.success)
      expect(problemsOf(r.error, "currency")).toStrictEqual([
        {
          property: "currency",
          message: 'must be a currency\'s ISO 4217 code: three uppercase letters ("EUR") (uppercase: "EUR"), got "eur"',
        },
      ]);
    expect(currencyPricesProblems({ kind: "coupon" }, { eur: 5 }).map((p) => p.property)).toStrictEqual(["currencyPrices.eur"]);
  });

  it("an amount in cents-like form is refused with what is accepted", () => {
    expect(currencyPricesProblems(point({}), { EUR: { baseline: 9.999 } })).toStrictEqual([
      {
        property: "currencyPrices.EUR.baseline",
        message: "must be an amount in the currency's own units (not cents), 0 or more, at most 2 decimal places (9.5 for 9.50), got 9.999",
      },
    ]);
  });

  it("a coupon's amount is whole units: the service's coupon currency price is an integer", () => {
    for (const amount of [9.5, 0.01, -1])
      expect(currencyPricesProblems({ kind: "coupon" }, { EUR: amount })).toStrictEqual([
        {
          property: "currencyPrices.EUR",
          message: `must be a whole amount in the currency's own units (not cents), 0 or more: 9 for 9.00, got ${amount}`,
        },
      ]);
    expect(currencyPricesProblems({ kind: "coupon" }, { EUR: 0, GBP: 1200 })).toStrictEqual([]);
  });
});
