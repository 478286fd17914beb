import { describe, expect, it } from "vitest";
import { wire } from "../../../sdk";
import { componentCurrencyPricesOf, pricePointCurrencyPricesOf } from "../../../sdk/catalog/currency-results";
import { responseExamples } from "../../contract/examples";

/**
 * The vendor's published currency price answers (the contract's examples, read from contract/ directly) parse
 * with the SDK's wire schemas and read as its results; nulls and omitted fields are tolerated where the result
 * stays right, and what would make it wrong (no currency, no amount, an amount that is not one) is refused.
 */

describe("the contract's currency price answers", () => {
  it.each([
    ["createProductCurrencyPrices", { EUR: { baseline: 123 } }],
    ["updateProductCurrencyPrices", { EUR: { baseline: 100 } }],
  ] as const)("%s 200 reads as the product price point's prices", (operationId, declared) => {
    for (const example of Object.values(responseExamples(operationId, 200))) {
      const r = wire.productCurrencyPricesResponse.parse(example);
      expect(
        pricePointCurrencyPricesOf(
          r.currency_prices.map((p) => ({ id: p.id ?? undefined, currency: p.currency, role: p.role ?? undefined, price: p.price })),
        ),
      ).toStrictEqual(declared);
    }
  });

  it.each(["createCurrencyPrices", "updateCurrencyPrices"])(
    "%s 200 reads as the component price point's prices, per tier",
    (operationId) => {
      for (const example of Object.values(responseExamples(operationId, 200))) {
        const r = wire.componentCurrencyPricesResponse.parse(example);
        expect(r.currency_prices).toStrictEqual([
          { id: 100, currency: "EUR", price: "123", formatted_price: "€123,00", price_id: 32669, price_point_id: 25554 },
        ]);
        expect(componentCurrencyPricesOf([{ id: 100, currency: "EUR", price: "123", priceId: 32669 }], [32669, 32670])).toStrictEqual({
          EUR: ["123", undefined],
        });
      }
    },
  );

  it("the offers' items carry product-shaped currency prices (listOffers' example: an empty list)", () => {
    const r = wire.offerListResponse.parse(Object.values(responseExamples("listOffers", 200))[0]);
    expect(r.offers[0].offer_items?.[0].currency_prices).toStrictEqual([]);
  });

  it("the coupon's answer has no published example: the shape of `Coupon Currency Response` reads, and an answer without the list too", () => {
    expect(
      wire.couponCurrencyPricesResponse.parse({ currency_prices: [{ id: 1, currency: "EUR", price: 10, coupon_id: 30 }] }),
    ).toStrictEqual({
      currency_prices: [{ id: 1, currency: "EUR", price: 10, coupon_id: 30 }],
    });
    expect(wire.couponCurrencyPricesResponse.parse({})).toStrictEqual({});
  });
});

describe("leniency where the result stays right, refusal where it would not", () => {
  it("nulls and omitted ids, roles and formatted prices are read as absent", () => {
    expect(wire.productCurrencyPrice.parse({ currency: "EUR", price: 9.5, id: null, role: null, formatted_price: null })).toStrictEqual({
      currency: "EUR",
      price: 9.5,
      id: null,
      role: null,
      formatted_price: null,
    });
    expect(wire.componentCurrencyPrice.parse({ currency: "EUR", price: 1.25 }).price).toBe("1.25");
    expect(wire.productCurrencyPrice.parse({ currency: "EUR", price: "9.50" }).price).toBe(9.5);
  });

  it.each([
    ["no currency", { price: 1 }],
    ["no amount", { currency: "EUR" }],
    ["an amount that is not one", { currency: "EUR", price: "nine" }],
  ])("%s is refused", (_, row) => {
    expect(wire.productCurrencyPrice.safeParse(row).success).toBe(false);
    expect(wire.couponCurrencyPrice.safeParse(row).success).toBe(false);
  });

  it("a price point's and a coupon's read carry their currency prices when asked, and read without them otherwise", () => {
    expect(
      wire.pricePoint.parse({ id: 1, currency_prices: [{ currency: "EUR", price: 9, role: "baseline" }] }).currency_prices,
    ).toHaveLength(1);
    expect(wire.pricePoint.parse({ id: 1 }).currency_prices).toBeUndefined();
    expect(wire.coupon.parse({ id: 1, currency_prices: null }).currency_prices).toBeNull();
    expect(
      wire.componentPricePoint.parse({ id: 1, currency_prices: [{ currency: "EUR", price: "1.0", price_id: 3 }] }).currency_prices,
    ).toHaveLength(1);
  });
});
