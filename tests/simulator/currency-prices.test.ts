import { describe, expect, it } from "vitest";
import type { Simulator } from "../../simulator";
import { call, start } from "./helpers";

// Prices in a site's other currencies, over real HTTP: product price points (one price per currency and role),
// component price points (one per currency and price level), flat-amount coupons; the service's rules as tables of
// 422s in its published shapes; what a PUT leaves out is kept; the reads' ?currency_prices=true by use_site_exchange_rate.

/**
 * A USD site that also sells in EUR (1 USD = 0.9 EUR) and GBP. Product "pro": 101 "plain" ($10, defined prices),
 * 102 "trial" ($20, a $5 trial and a $30 setup fee, defined prices), 103 "rated" ($10, priced by the exchange rate).
 * Component "calls": price point 40001 with brackets 50001 (1-10, $1) and 50002 (11+, $0.50), defined prices; and
 * 40002, priced by the exchange rate. Coupons TEN ($10 off) and HALF (50%).
 */
async function site(o: { nonPrimaryCurrencies?: string[] } = {}): Promise<Simulator> {
  const currencies = o.nonPrimaryCurrencies ?? ["EUR", "GBP"];
  const sim = await start({ nonPrimaryCurrencies: currencies, exchangeRates: currencies.includes("EUR") ? { EUR: 0.9 } : {} });
  sim.addProductFamily({ id: 9001, handle: "saas" });
  sim.addProduct({
    id: 1,
    handle: "pro",
    familyHandle: "saas",
    pricePoints: [
      { id: 101, handle: "plain", default: true, priceInCents: 1000, useSiteExchangeRate: false },
      {
        id: 102,
        handle: "trial",
        priceInCents: 2000,
        trialPriceInCents: 500,
        trialInterval: 7,
        trialIntervalUnit: "day",
        initialChargeInCents: 3000,
        useSiteExchangeRate: false,
      },
      { id: 103, handle: "rated", priceInCents: 1000 },
    ],
  });
  sim.addComponent({
    id: 30001,
    familyHandle: "saas",
    kind: "metered",
    handle: "calls",
    pricingScheme: "tiered",
    prices: [
      { id: 50001, startingQuantity: 1, endingQuantity: 10, unitPrice: 1 },
      { id: 50002, startingQuantity: 11, unitPrice: "0.5" },
    ],
    pricePoints: [
      { id: 40001, handle: "defined", default: true, useSiteExchangeRate: false },
      { id: 40002, handle: "rated" },
    ],
  });
  sim.addCoupon({ id: 60001, familyHandle: "saas", code: "TEN", amountInCents: 1000 });
  sim.addCoupon({ id: 60002, familyHandle: "saas", code: "HALF", percentage: 50 });
  return sim;
}

const eur = (role: string, price: number) => ({ currency: "EUR", role, price });

describe("POST /product_price_points/{id}/currency_prices.json", () => {
  it("prices a price point in a currency, one price per role of its primary pricing", async () => {
    const sim = await site();
    const res = await call(sim, "POST", "/product_price_points/102/currency_prices.json", {
      body: { currency_prices: [eur("baseline", 18), eur("trial", 4.5), eur("initial", 27)] },
    });
    expect(res.status).toBe(200);
    expect(res.body.currency_prices.map((p: any) => [p.currency, p.role, p.price, p.formatted_price, p.product_price_point_id])).toEqual([
      ["EUR", "baseline", 18, "€18,00", 102],
      ["EUR", "trial", 4.5, "€4,50", 102],
      ["EUR", "initial", 27, "€27,00", 102],
    ]);
    expect(new Set(res.body.currency_prices.map((p: any) => p.id)).size).toBe(3);
  });

  const RULES: [string, number, unknown, unknown][] = [
    [
      "a currency the site does not have (the published refusal's second message)",
      101,
      { currency_prices: [{ currency: "JPY", role: "baseline", price: 1000 }] },
      { "currency_prices[0].currency": ["Currency: is not one of the allowed values."] },
    ],
    [
      "the primary currency (not a non-primary one)",
      101,
      { currency_prices: [{ currency: "USD", role: "baseline", price: 10 }] },
      { "currency_prices[0].currency": ["Currency: is not one of the allowed values."] },
    ],
    [
      "no currency (the published pair)",
      101,
      { currency_prices: [{ role: "baseline", price: 10 }] },
      { "currency_prices[0].currency": ["Currency: cannot be blank.", "Currency: is not one of the allowed values."] },
    ],
    [
      "a trial price for a price point without a trial (the published message: the roles it requires)",
      101,
      { currency_prices: [eur("baseline", 9), eur("trial", 1)] },
      { base: ["This product price point requires that prices are defined for: [baseline]."] },
    ],
    [
      "no trial or setup fee for a price point that has both",
      102,
      { currency_prices: [eur("baseline", 18)] },
      { base: ["This product price point requires that prices are defined for: [baseline, trial, initial]."] },
    ],
    [
      "one currency complete, the other not",
      102,
      {
        currency_prices: [eur("baseline", 18), eur("trial", 4), eur("initial", 27), { currency: "GBP", role: "baseline", price: 16 }],
      },
      { base: ["This product price point requires that prices are defined for: [baseline, trial, initial]."] },
    ],
    [
      "a role given twice",
      101,
      { currency_prices: [eur("baseline", 9), eur("baseline", 8)] },
      { "currency_prices[1].role": ["Role: baseline is given twice for EUR."] },
    ],
    [
      "a role that is not one",
      101,
      { currency_prices: [eur("setup", 9)] },
      { "currency_prices[0].role": ["Role: is not one of the allowed values."] },
    ],
    [
      "a negative price",
      101,
      { currency_prices: [eur("baseline", -1)] },
      { "currency_prices[0].price": ["Price: must be a number of 0 or more."] },
    ],
    ["no list", 101, {}, { currency_prices: ["Currency prices: must be a list of at least one price."] }],
  ];
  it.each(RULES)("%s: 422 with the field's problems", async (_what, pp, body, errors) => {
    const sim = await site();
    const res = await call(sim, "POST", `/product_price_points/${pp}/currency_prices.json`, { body });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ errors });
  });

  it("a currency already priced is refused ('Pricing already exists for this currency.'), and nothing else is made", async () => {
    const sim = await site();
    await call(sim, "POST", "/product_price_points/101/currency_prices.json", { body: { currency_prices: [eur("baseline", 9)] } });
    const res = await call(sim, "POST", "/product_price_points/101/currency_prices.json", {
      body: { currency_prices: [{ currency: "GBP", role: "baseline", price: 8 }, eur("baseline", 10)] },
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ errors: { "currency_prices[1].currency": ["Pricing already exists for this currency."] } });
    const read = await call(sim, "GET", "/products/1/price_points/101.json?currency_prices=true");
    expect(read.body.price_point.currency_prices.map((p: any) => [p.currency, p.price])).toEqual([["EUR", 9]]);
  });

  it("an unknown price point is a 404; a component's price point id is not a product's", async () => {
    const sim = await site();
    for (const id of [999, 40001])
      expect(
        (await call(sim, "POST", `/product_price_points/${id}/currency_prices.json`, { body: { currency_prices: [eur("baseline", 1)] } }))
          .status,
      ).toBe(404);
  });
});

describe("PUT /product_price_points/{id}/currency_prices.json", () => {
  it("changes the prices it names by id; the others (another role, another currency) are kept as they were", async () => {
    const sim = await site();
    const made = (
      await call(sim, "POST", "/product_price_points/102/currency_prices.json", {
        body: {
          currency_prices: [
            eur("baseline", 18),
            eur("trial", 4),
            eur("initial", 27),
            { currency: "GBP", role: "baseline", price: 16 },
            { currency: "GBP", role: "trial", price: 4 },
            { currency: "GBP", role: "initial", price: 25 },
          ],
        },
      })
    ).body.currency_prices;
    const baselineEur = made.find((p: any) => p.currency === "EUR" && p.role === "baseline");
    const res = await call(sim, "PUT", "/product_price_points/102/currency_prices.json", {
      body: { currency_prices: [{ id: baselineEur.id, price: 19 }] },
    });
    expect(res.status).toBe(200);
    expect(res.body.currency_prices.map((p: any) => [p.currency, p.role, p.price])).toEqual([
      ["EUR", "baseline", 19],
      ["EUR", "trial", 4],
      ["EUR", "initial", 27],
      ["GBP", "baseline", 16],
      ["GBP", "trial", 4],
      ["GBP", "initial", 25],
    ]);
    expect(res.body.currency_prices.map((p: any) => p.id)).toEqual(made.map((p: any) => p.id));
  });

  it("an id that is not one of this price point's currency prices is refused, and nothing changes", async () => {
    const sim = await site();
    const [p] = (
      await call(sim, "POST", "/product_price_points/101/currency_prices.json", { body: { currency_prices: [eur("baseline", 9)] } })
    ).body.currency_prices;
    const res = await call(sim, "PUT", "/product_price_points/101/currency_prices.json", {
      body: {
        currency_prices: [
          { id: p.id, price: 11 },
          { id: 1, price: 2 },
        ],
      },
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ errors: { "currency_prices[1].id": ["Id: 1 is not a currency price of this price point."] } });
    const read = await call(sim, "GET", "/products/1/price_points/101.json?currency_prices=true");
    expect(read.body.price_point.currency_prices[0].price).toBe(9);
  });
});

describe("reads with ?currency_prices=true, by use_site_exchange_rate", () => {
  it("a price point that defines its prices (use_site_exchange_rate false) answers them, with their ids", async () => {
    const sim = await site();
    sim.addProductCurrencyPrices(101, [{ currency: "EUR", role: "baseline", price: 9.5 }]);
    const read = await call(sim, "GET", "/products/1/price_points/101.json?currency_prices=true");
    expect(read.body.price_point.use_site_exchange_rate).toBe(false);
    expect(read.body.price_point.currency_prices).toEqual([
      { id: expect.any(Number), currency: "EUR", price: 9.5, formatted_price: "€9,50", product_price_point_id: 101, role: "baseline" },
    ]);
  });

  it("a price point on the site's rate answers every currency at that rate, computed (no id), whatever was defined", async () => {
    const sim = await site();
    sim.addProductCurrencyPrices(103, [{ currency: "EUR", role: "baseline", price: 5 }]);
    const list = await call(sim, "GET", "/products/1/price_points.json?currency_prices=true");
    const rated = list.body.price_points.find((p: any) => p.id === 103);
    expect(rated.use_site_exchange_rate).toBe(true);
    expect(rated.currency_prices).toEqual([
      { currency: "EUR", price: 9, formatted_price: "€9,00", product_price_point_id: 103, role: "baseline" },
      { currency: "GBP", price: 10, formatted_price: "£10.00", product_price_point_id: 103, role: "baseline" },
    ]);
  });

  it.each([
    ["without the flag", "/products/1/price_points/101.json", ["EUR", "GBP"]],
    ["with the flag false", "/products/1/price_points/101.json?currency_prices=false", ["EUR", "GBP"]],
    ["on a site with one currency", "/products/1/price_points/101.json?currency_prices=true", []],
  ])("%s, no currency_prices key", async (_what, path, currencies) => {
    const sim = await site({ nonPrimaryCurrencies: currencies });
    expect((await call(sim, "GET", path)).body.price_point).not.toHaveProperty("currency_prices");
  });

  it("a component price point: defined prices per bracket, or every bracket at the rate", async () => {
    const sim = await site();
    sim.addComponentCurrencyPrices(40001, [
      { currency: "EUR", priceId: 50001, price: 1 },
      { currency: "EUR", priceId: 50002, price: "0.45" },
    ]);
    const list = await call(sim, "GET", "/components/30001/price_points.json?currency_prices=true");
    const [defined, rated] = list.body.price_points;
    expect(defined.currency_prices.map((p: any) => [p.currency, p.price_id, p.price, p.formatted_price])).toEqual([
      ["EUR", 50001, "1", "€1,00"],
      ["EUR", 50002, "0.45", "€0,45"],
    ]);
    const ratedEur = rated.currency_prices.filter((p: any) => p.currency === "EUR");
    expect(ratedEur.map((p: any) => [p.price_id, p.price])).toEqual([
      [rated.prices[0].id, "0.9"],
      [rated.prices[1].id, "0.45"],
    ]);
    expect(ratedEur.every((p: any) => p.id === undefined)).toBe(true);
    const one = await call(sim, "GET", "/components/30001/price_points/40001.json?currency_prices=true");
    expect(one.body.price_point.currency_prices).toHaveLength(2);
  });
});

describe("POST and PUT /price_points/{id}/currency_prices.json (a component's)", () => {
  const both = (currency: string) => [
    { currency, price: 1, price_id: 50001 },
    { currency, price: 0.4, price_id: 50002 },
  ];

  it("prices every bracket of the price point in a currency", async () => {
    const sim = await site();
    const res = await call(sim, "POST", "/price_points/40001/currency_prices.json", { body: { currency_prices: both("GBP") } });
    expect(res.status).toBe(200);
    expect(res.body.currency_prices.map((p: any) => [p.currency, p.price_id, p.price_point_id, p.price, p.formatted_price])).toEqual([
      ["GBP", 50001, 40001, "1", "£1.00"],
      ["GBP", 50002, 40001, "0.4", "£0.40"],
    ]);
  });

  const RULES: [string, unknown, unknown][] = [
    [
      "one bracket of two (the structure must mirror the primary pricing)",
      { currency_prices: [{ currency: "EUR", price: 1, price_id: 50001 }] },
      { base: ["This price point requires that prices are defined for each of its price levels: [50001, 50002]."] },
    ],
    [
      "a bracket of another price point",
      { currency_prices: [...both("EUR"), { currency: "EUR", price: 1, price_id: 99 }] },
      { "currency_prices[2].price_id": ["Price id: 99 is not one of this price point's prices."] },
    ],
    [
      "a currency the site does not have",
      { currency_prices: both("CHF") },
      {
        "currency_prices[0].currency": ["Currency: is not one of the allowed values."],
        "currency_prices[1].currency": ["Currency: is not one of the allowed values."],
      },
    ],
    [
      "no currency (the published example)",
      { currency_prices: [{ price: 1, price_id: 50001 }] },
      { "currency_prices[0].currency": ["Currency: cannot be blank.", "Currency: is not one of the allowed values."] },
    ],
    [
      "a bracket twice",
      { currency_prices: [...both("EUR"), { currency: "EUR", price: 2, price_id: 50001 }] },
      { "currency_prices[2].price_id": ["Price id: 50001 is given twice for EUR."] },
    ],
  ];
  it.each(RULES)("%s: 422", async (_what, body, errors) => {
    const sim = await site();
    const res = await call(sim, "POST", "/price_points/40001/currency_prices.json", { body });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ errors });
  });

  it("a currency already priced: 'Pricing already exists for this currency.'", async () => {
    const sim = await site();
    await call(sim, "POST", "/price_points/40001/currency_prices.json", { body: { currency_prices: both("EUR") } });
    const res = await call(sim, "POST", "/price_points/40001/currency_prices.json", { body: { currency_prices: both("EUR") } });
    expect(res.status).toBe(422);
    expect(res.body.errors["currency_prices[0].currency"]).toEqual(["Pricing already exists for this currency."]);
  });

  it("PUT changes the prices it names; the other currency's are kept", async () => {
    const sim = await site();
    const eurPrices = (await call(sim, "POST", "/price_points/40001/currency_prices.json", { body: { currency_prices: both("EUR") } })).body
      .currency_prices;
    await call(sim, "POST", "/price_points/40001/currency_prices.json", { body: { currency_prices: both("GBP") } });
    const res = await call(sim, "PUT", "/price_points/40001/currency_prices.json", {
      body: { currency_prices: [{ id: eurPrices[1].id, price: 0.35 }] },
    });
    expect(res.status).toBe(200);
    expect(res.body.currency_prices.map((p: any) => [p.currency, p.price_id, p.price])).toEqual([
      ["EUR", 50001, "1"],
      ["EUR", 50002, "0.35"],
      ["GBP", 50001, "1"],
      ["GBP", 50002, "0.4"],
    ]);
  });

  it("an unknown price point is a 404", async () => {
    const sim = await site();
    expect((await call(sim, "POST", "/price_points/999/currency_prices.json", { body: { currency_prices: both("EUR") } })).status).toBe(
      404,
    );
  });
});

describe("PUT /coupons/{id}/currency_prices.json", () => {
  it("creates and updates by currency; a currency a later PUT does not name keeps its amount", async () => {
    const sim = await site();
    const first = await call(sim, "PUT", "/coupons/60001/currency_prices.json", {
      body: { currency_prices: [{ currency: "EUR", price: 9 }] },
    });
    expect(first.status).toBe(200);
    expect(first.body.currency_prices).toEqual([{ id: expect.any(Number), currency: "EUR", price: 9, coupon_id: 60001 }]);
    const second = await call(sim, "PUT", "/coupons/60001/currency_prices.json", {
      body: { currency_prices: [{ currency: "GBP", price: 8 }] },
    });
    expect(second.body.currency_prices.map((p: any) => [p.currency, p.price])).toEqual([
      ["EUR", 9],
      ["GBP", 8],
    ]);
    const third = await call(sim, "PUT", "/coupons/60001/currency_prices.json", {
      body: { currency_prices: [{ currency: "EUR", price: 10 }] },
    });
    expect(third.body.currency_prices.map((p: any) => [p.id, p.currency, p.price])).toEqual([
      [first.body.currency_prices[0].id, "EUR", 10],
      [second.body.currency_prices[1].id, "GBP", 8],
    ]);
  });

  it("the coupon's reads show them with ?currency_prices=true (read, find, lists)", async () => {
    const sim = await site();
    sim.addCouponCurrencyPrices(60001, [{ currency: "EUR", price: 9 }]);
    const expected = [{ id: expect.any(Number), currency: "EUR", price: 9, coupon_id: 60001 }];
    expect((await call(sim, "GET", "/product_families/9001/coupons/60001.json?currency_prices=true")).body.coupon.currency_prices).toEqual(
      expected,
    );
    expect((await call(sim, "GET", "/coupons/find.json?code=TEN&currency_prices=true")).body.coupon.currency_prices).toEqual(expected);
    const listed = (await call(sim, "GET", "/coupons.json?currency_prices=true")).body;
    expect(listed.map((c: any) => c.coupon.currency_prices)).toEqual([expected, []]);
    expect((await call(sim, "GET", "/product_families/9001/coupons/60001.json")).body.coupon).not.toHaveProperty("currency_prices");
  });

  const RULES: [string, number, unknown, string[]][] = [
    [
      "a percentage coupon",
      60002,
      { currency_prices: [{ currency: "EUR", price: 5 }] },
      [
        "Currency prices can only be defined for a flat amount coupon; this coupon is percentage based, and a percentage applies in every currency.",
      ],
    ],
    [
      "a currency the site does not have",
      60001,
      { currency_prices: [{ currency: "test", price: 0 }] },
      ["Currency: is not one of the allowed values."],
    ],
    ["an amount that is not whole", 60001, { currency_prices: [{ currency: "EUR", price: 9.5 }] }, ["Price: must be an integer."]],
    [
      "a currency twice",
      60001,
      {
        currency_prices: [
          { currency: "EUR", price: 9 },
          { currency: "EUR", price: 8 },
        ],
      },
      ["Currency: EUR is given twice."],
    ],
  ];
  it.each(RULES)("%s: 422, an error list (the operation publishes no 422 shape)", async (_what, id, body, errors) => {
    const sim = await site();
    const res = await call(sim, "PUT", `/coupons/${id}/currency_prices.json`, { body });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ errors });
  });

  it("an unknown coupon is a 404", async () => {
    const sim = await site();
    expect(
      (await call(sim, "PUT", "/coupons/1/currency_prices.json", { body: { currency_prices: [{ currency: "EUR", price: 1 }] } })).status,
    ).toBe(404);
  });
});

describe("seeding calls", () => {
  it.each([
    [
      "a currency the site does not have",
      (s: Simulator) => s.addProductCurrencyPrices(101, [{ currency: "JPY", role: "baseline", price: 1 }]),
      /not one of the allowed/,
    ],
    [
      "a structure that does not mirror",
      (s: Simulator) => s.addProductCurrencyPrices(102, [{ currency: "EUR", role: "baseline", price: 1 }]),
      /\[baseline, trial, initial\]/,
    ],
    ["a percentage coupon", (s: Simulator) => s.addCouponCurrencyPrices(60002, [{ currency: "EUR", price: 1 }]), /flat amount/],
    ["an unknown price point", (s: Simulator) => s.addComponentCurrencyPrices(1, []), /no component price point has id 1/],
  ])("refuse %s as the API would", async (_what, seed, message) => {
    const sim = await site();
    expect(() => seed(sim)).toThrow(message);
  });

  it("a currency that prices something cannot be removed from the site", async () => {
    const sim = await site();
    sim.addCouponCurrencyPrices(60001, [{ currency: "GBP", price: 8 }]);
    expect(() => sim.configureSite({ nonPrimaryCurrencies: ["EUR"] })).toThrow(/GBP prices catalogue items/);
    expect(sim.configureSite({ nonPrimaryCurrencies: ["GBP"] }).nonPrimaryCurrencies).toEqual(["GBP"]);
  });
});
