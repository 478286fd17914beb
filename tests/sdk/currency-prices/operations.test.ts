import { describe, expect, it } from "vitest";
import { BillingApiError, BillingValidationError, componentCurrencyPricesOf, pricePointCurrencyPricesOf } from "../../../sdk";
import { contractRequestCheck } from "../catalog/request-contract";
import { clientOf, rejection, scripted } from "../helpers";
import { configService } from "../site-config/config-service";

/**
 * Currency prices of product price points, component price points and coupons (sdk/catalog/currency-prices.ts)
 * against a small service written from the contract (the simulator has no routes for them yet): what is sent, what
 * is read back, a create whose answer was lost making exactly one set of prices, and every request validating
 * against the contract.
 */

async function contractClean(svc: { sent: { method: string; url: string; text: string }[] }) {
  const { problems } = await contractRequestCheck(svc.sent);
  expect(problems).toStrictEqual([]);
}

describe("a product price point's currency prices", () => {
  it("creates one record per currency and role, reads them back, updates amounts in place by id", async () => {
    const svc = await configService();
    const billing = clientOf(svc.url);
    const made = await billing.createPricePointCurrencyPrices(1, 10, { EUR: { baseline: 9, trial: 1 } });
    expect(made.map((p) => [p.currency, p.role, p.price])).toStrictEqual([
      ["EUR", "baseline", 9],
      ["EUR", "trial", 1],
    ]);
    const body = JSON.parse(svc.sent[0].text);
    expect(body.currency_prices).toStrictEqual([
      { currency: "EUR", price: 9, role: "baseline" },
      { currency: "EUR", price: 1, role: "trial" },
    ]);
    expect(typeof body.uniqueness_token).toBe("string");
    const ids = made.map((p) => p.id);
    const updated = await billing.updatePricePointCurrencyPrices(1, 10, { EUR: { baseline: 10, trial: 1 } });
    expect(updated.map((p) => [p.id, p.price])).toStrictEqual([
      [ids[0], 10],
      [ids[1], 1],
    ]);
    expect(pricePointCurrencyPricesOf(await billing.readPricePointCurrencyPrices(1, 10))).toStrictEqual({
      EUR: { baseline: 10, trial: 1 },
    });
    expect(svc.seen()).toStrictEqual([
      "POST /product_price_points/10/currency_prices.json",
      "GET /products/1/price_points/10.json",
      "PUT /product_price_points/10/currency_prices.json",
      "GET /products/1/price_points/10.json",
    ]);
    expect(svc.sent[1].url).toBe("/products/1/price_points/10.json?currency_prices=true");
    await contractClean(svc);
  });

  it("a create whose answer is lost (applied, then the connection reset) makes exactly one set, found by reading back", async () => {
    const svc = await configService();
    const billing = clientOf(svc.url);
    svc.fault({ method: "POST", path: /currency_prices/, kind: "reset-after" });
    const made = await billing.createPricePointCurrencyPrices(1, 10, { GBP: { baseline: 8, trial: 1 } });
    expect(made.map((p) => [p.currency, p.role, p.price])).toStrictEqual([
      ["GBP", "baseline", 8],
      ["GBP", "trial", 1],
    ]);
    expect(svc.productPoints.get(10)?.currency).toHaveLength(2);
    expect(svc.seen()).toStrictEqual(["POST /product_price_points/10/currency_prices.json", "GET /products/1/price_points/10.json"]);
    await contractClean(svc);
  });

  it("a create lost before it applied is sent again with the same token, and makes one set", async () => {
    const svc = await configService();
    const billing = clientOf(svc.url);
    svc.fault({ method: "POST", path: /currency_prices/, kind: "reset-before" });
    await billing.createPricePointCurrencyPrices(1, 10, { EUR: { baseline: 9, trial: 1 } });
    const posts = svc.sent.filter((r) => r.method === "POST");
    expect(posts).toHaveLength(2);
    expect(JSON.parse(posts[1].text).uniqueness_token).toBe(JSON.parse(posts[0].text).uniqueness_token);
    expect(svc.productPoints.get(10)?.currency).toHaveLength(2);
  });

  it("a create whose read-back finds other amounts is not taken as made: the service's refusal of the resend is the answer", async () => {
    const svc = await configService();
    const billing = clientOf(svc.url, { maxRetries: 1 });
    await billing.createPricePointCurrencyPrices(1, 10, { EUR: { baseline: 7, trial: 1 } });
    // The service refuses the POST (EUR exists) and the answer is lost as a 503: reading back finds EUR at another
    // create's amounts, which this create did not make; the resend is refused, and that refusal is the outcome.
    svc.fault({ method: "POST", path: /currency_prices/, kind: "503-after" });
    const err = await rejection(billing.createPricePointCurrencyPrices(1, 10, { EUR: { baseline: 9, trial: 1 } }));
    expect(err).toBeInstanceOf(BillingApiError);
    expect((err as Error).message).toBe(
      "POST /product_price_points/10/currency_prices.json failed with 422: currencyPrices.EUR: Pricing already exists for this currency.",
    );
    expect(svc.productPoints.get(10)?.currency.map((c) => c.price)).toStrictEqual([7, 1]);
    expect(svc.seen().slice(1)).toStrictEqual([
      "POST /product_price_points/10/currency_prices.json",
      "GET /products/1/price_points/10.json",
      "POST /product_price_points/10/currency_prices.json",
      "GET /products/1/price_points/10.json",
    ]);
  });

  it("set: creates what is missing, updates what differs, sends nothing when all holds, names the currencies it keeps", async () => {
    const svc = await configService();
    const billing = clientOf(svc.url);
    await billing.createPricePointCurrencyPrices(1, 10, { GBP: { baseline: 8, trial: 1 } });
    const r = await billing.setPricePointCurrencyPrices(1, 10, { EUR: { baseline: 9.5, trial: 1 } });
    expect(r.undeclared).toStrictEqual(["GBP"]);
    expect(pricePointCurrencyPricesOf(r.prices)).toStrictEqual({ GBP: { baseline: 8, trial: 1 }, EUR: { baseline: 9.5, trial: 1 } });
    const before = svc.sent.length;
    const again = await billing.setPricePointCurrencyPrices(1, 10, { EUR: { baseline: 9.5, trial: 1 }, GBP: { baseline: 8, trial: 1 } });
    expect(again.undeclared).toStrictEqual([]);
    expect(svc.seen().slice(before)).toStrictEqual(["GET /products/1/price_points/10.json"]);
    await billing.setPricePointCurrencyPrices(1, 10, { EUR: { baseline: 9.5, trial: 2 } });
    expect(svc.seen().slice(before + 1)).toStrictEqual([
      "GET /products/1/price_points/10.json",
      "GET /products/1/price_points/10.json",
      "PUT /product_price_points/10/currency_prices.json",
      "GET /products/1/price_points/10.json",
    ]);
    const { problems, deviations } = await contractRequestCheck(svc.sent);
    expect(problems).toStrictEqual([]);
    expect(deviations).toStrictEqual([
      "createProductCurrencyPrices: a fractional price",
      "updateProductCurrencyPrices: a fractional price",
    ]);
  });

  it("with the price point's pricing, a currency that does not mirror it is refused before anything is sent", async () => {
    const svc = await configService();
    const billing = clientOf(svc.url);
    const err = await rejection(
      billing.createPricePointCurrencyPrices(1, 10, { EUR: { baseline: 9 } }, { pricing: { trialPriceInCents: 100, trialInterval: 7 } }),
    );
    expect(err).toBeInstanceOf(BillingValidationError);
    expect((err as BillingValidationError).problems.map((p) => p.property)).toStrictEqual(["currencyPrices.EUR.trial"]);
    expect(svc.sent).toStrictEqual([]);
  });

  it("an update of a currency the price point has no price in is refused, saying to create it", async () => {
    const svc = await configService();
    const billing = clientOf(svc.url);
    const err = await rejection(billing.updatePricePointCurrencyPrices(1, 10, { EUR: { baseline: 9, trial: 1 } }));
    expect((err as BillingValidationError).problems).toStrictEqual([
      {
        property: "currencyPrices.EUR.baseline",
        message: "has no price on price point 10 yet: create it (an update changes existing prices only)",
      },
      {
        property: "currencyPrices.EUR.trial",
        message: "has no price on price point 10 yet: create it (an update changes existing prices only)",
      },
    ]);
    expect(svc.seen()).toStrictEqual(["GET /products/1/price_points/10.json"]);
  });

  it("a currency the site does not have: the service's refusal in the caller's words", async () => {
    const svc = await configService();
    const billing = clientOf(svc.url);
    const err = await rejection(billing.createPricePointCurrencyPrices(1, 10, { JPY: { baseline: 900, trial: 100 } }));
    expect((err as Error).message).toBe(
      "POST /product_price_points/10/currency_prices.json failed with 422: currencyPrices.JPY: is not one of the allowed values.",
    );
  });
});

describe("a component price point's currency prices", () => {
  it("creates one per tier (read first for the tiers' ids), reads them per tier, updates in place", async () => {
    const svc = await configService();
    const billing = clientOf(svc.url);
    await billing.createComponentPricePointCurrencyPrices(2, 20, { EUR: [1.8, "1.25"] });
    expect(JSON.parse(svc.sent[1].text).currency_prices).toStrictEqual([
      { currency: "EUR", price: 1.8, price_id: 201 },
      { currency: "EUR", price: 1.25, price_id: 202 },
    ]);
    const read = await billing.readComponentPricePointCurrencyPrices(2, 20);
    expect(componentCurrencyPricesOf(read.prices, read.tierIds)).toStrictEqual({ EUR: ["1.8", "1.25"] });
    await billing.updateComponentPricePointCurrencyPrices(2, 20, { EUR: [2, 1] });
    const after = await billing.readComponentPricePointCurrencyPrices(2, 20);
    expect(componentCurrencyPricesOf(after.prices, after.tierIds)).toStrictEqual({ EUR: ["2", "1"] });
    expect(svc.seen()).toStrictEqual([
      "GET /components/2/price_points/20.json",
      "POST /price_points/20/currency_prices.json",
      "GET /components/2/price_points.json",
      "GET /components/2/price_points.json",
      "PUT /price_points/20/currency_prices.json",
      "GET /components/2/price_points.json",
    ]);
    const { problems } = await contractRequestCheck(svc.sent);
    expect(problems).toStrictEqual([]);
  });

  it("a list of unit prices that does not mirror the tiers is refused after reading them, before the POST", async () => {
    const svc = await configService();
    const billing = clientOf(svc.url);
    const err = await rejection(billing.createComponentPricePointCurrencyPrices(2, 20, { EUR: [1] }));
    expect((err as BillingValidationError).problems).toStrictEqual([
      {
        property: "currencyPrices.EUR",
        message:
          "must hold 2 unit prices, one per tier of prices in their order, then one per tier of a prepaid price point's overagePricing.prices (currency prices mirror the tiers), got 1",
      },
    ]);
    expect(svc.seen()).toStrictEqual(["GET /components/2/price_points/20.json"]);
  });

  it("a create whose answer is lost makes exactly one set", async () => {
    const svc = await configService();
    const billing = clientOf(svc.url);
    svc.fault({ method: "POST", path: /currency_prices/, kind: "reset-after" });
    const made = await billing.createComponentPricePointCurrencyPrices(2, 20, { GBP: [1.5, 1] });
    expect(made.map((p) => [p.currency, p.priceId, p.price])).toStrictEqual([
      ["GBP", 201, "1.5"],
      ["GBP", 202, "1"],
    ]);
    expect(svc.componentPoints.get(20)?.currency).toHaveLength(2);
    expect(svc.sent.filter((r) => r.method === "POST")).toHaveLength(1);
  });
});

describe("a coupon's currency prices", () => {
  it("sets amounts by currency (create or update in one PUT), reads them back, keeps and names the undeclared", async () => {
    const svc = await configService();
    const billing = clientOf(svc.url);
    const first = await billing.setCouponCurrencyPrices(30, { EUR: 9, GBP: 8 });
    expect(first).toStrictEqual({
      prices: [
        { id: expect.any(Number), currency: "EUR", price: 9 },
        { id: expect.any(Number), currency: "GBP", price: 8 },
      ],
      undeclared: [],
    });
    const second = await billing.setCouponCurrencyPrices(30, { EUR: 10 });
    expect(second.undeclared).toStrictEqual(["GBP"]);
    expect(JSON.parse(svc.sent.at(-1)?.text ?? "")).toStrictEqual({ currency_prices: [{ currency: "EUR", price: 10 }] });
    expect((await billing.readCouponCurrencyPrices(30)).map((p) => [p.currency, p.price])).toStrictEqual([
      ["EUR", 10],
      ["GBP", 8],
    ]);
    expect(svc.sent[0].url).toBe("/coupons.json?filter%5Bids%5D=30&currency_prices=true");
    const { problems, deviations } = await contractRequestCheck(svc.sent);
    expect(problems).toStrictEqual([]);
    expect(deviations).toStrictEqual([]);
  });

  it("a fraction of a currency unit is refused, naming the currency, before anything is sent: the coupon's price is an integer", async () => {
    const svc = await configService();
    const billing = clientOf(svc.url);
    const err = await rejection(billing.setCouponCurrencyPrices(30, { EUR: 9, GBP: 8.5 }));
    expect(err).toBeInstanceOf(BillingValidationError);
    expect((err as BillingValidationError).problems).toStrictEqual([
      {
        property: "currencyPrices.GBP",
        message: "must be a whole amount in the currency's own units (not cents), 0 or more: 9 for 9.00, got 8.5",
      },
    ]);
    expect(svc.sent).toStrictEqual([]);
  });

  it("a percentage coupon is refused with the service's reason, before the PUT", async () => {
    const svc = await configService();
    const billing = clientOf(svc.url);
    const err = await rejection(billing.setCouponCurrencyPrices(31, { EUR: 5 }));
    expect((err as BillingValidationError).problems[0].message).toMatch(/^must be left out for a percentage coupon \(percentage 15\)/);
    expect(svc.seen()).toStrictEqual(["GET /coupons.json"]);
  });
});

describe("the service's refusals of currency prices, named as the caller declared them", () => {
  it("an indexed record's field is named by its currency, and a trial's by its role", async () => {
    const svc = await scripted([
      {
        status: 422,
        json: {
          errors: {
            "currency_prices[0].currency": ["Currency: is not one of the allowed values."],
            "currency_prices[1].price": ["Price: must be greater than or equal to 0."],
            base: ["This product price point requires that prices are defined for: [baseline, trial]."],
          },
        },
      },
    ]);
    const err = await rejection(clientOf(svc.url).createPricePointCurrencyPrices(1, 10, { EUR: { baseline: 9, trial: 1 } }));
    expect((err as BillingApiError).errors).toStrictEqual([
      "currencyPrices.EUR: is not one of the allowed values.",
      "currencyPrices.EUR.trial: must be greater than or equal to 0.",
      "This product price point requires that prices are defined for: [baseline, trial].",
    ]);
  });
});

describe("a component price point's refused tier", () => {
  it("is named by its currency and tier", async () => {
    const svc = await scripted([
      {
        status: 200,
        json: {
          price_point: {
            id: 20,
            prices: [
              { id: 201, starting_quantity: 1, ending_quantity: 10, unit_price: "2.0" },
              { id: 202, starting_quantity: 11, unit_price: "1.5" },
            ],
          },
        },
      },
      { status: 422, json: { errors: { "currency_prices[1].price": ["Price: must be greater than or equal to 0."] } } },
    ]);
    const err = await rejection(clientOf(svc.url).createComponentPricePointCurrencyPrices(2, 20, { EUR: [1, 0.5] }));
    expect((err as BillingApiError).errors).toStrictEqual(["currencyPrices.EUR[1]: must be greater than or equal to 0."]);
  });
});
