import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Simulator } from "../../simulator";
import { CONTRACT } from "../contract/validator";
import { call, start } from "./helpers";

// The vendor's published examples of a site's configuration (tests/fixtures/vendor/site-config/): every request
// example is accepted by the simulator (its answer checked against the contract by call()), every published answer's
// keys are among the simulator's for the same operation and its values where the simulator models them, and every
// published refusal is provoked and compared with the simulator's.

const DIR = path.resolve(__dirname, "../fixtures/vendor/site-config");
const index: { file: string; kind: string; operationId: string; contract: { pointer: string[] } }[] = JSON.parse(
  readFileSync(path.join(DIR, "index.json"), "utf8"),
);
const fixture = (file: string): any => JSON.parse(readFileSync(path.join(DIR, file), "utf8"));
const doc = JSON.parse(readFileSync(CONTRACT, "utf8"));

/**
 * What the examples name: EUR and GBP beside USD; product 31 "30-Day Square Trial" ($20, price point 102 "Default")
 * in family "Chargify"; product 2 with price points 32669 (a trial and a setup fee) and 32670 (a trial; EUR prices
 * 200 and 201); component 24 "Invoices" ($3, price point 104 "Original"); component 25 with price points 25554
 * (brackets 20, 21) and 25555 (brackets 22, 23; EUR prices 100 and 101); coupons DEF456 "IB Loyalty" and FLAT (162).
 */
async function site(): Promise<Simulator> {
  const sim = await start({ nonPrimaryCurrencies: ["EUR", "GBP"] });
  sim.addProductFamily({ id: 4, handle: "chargify", name: "Chargify" });
  sim.addProduct({
    id: 31,
    handle: "square-trial",
    name: "30-Day Square Trial",
    familyHandle: "chargify",
    pricePoints: [{ id: 102, handle: "default", name: "Default", default: true, priceInCents: 2000 }],
  });
  const trial = { trialPriceInCents: 1000, trialInterval: 30, trialIntervalUnit: "day" as const, useSiteExchangeRate: false };
  sim.addProduct({
    id: 2,
    handle: "trials",
    familyHandle: "chargify",
    pricePoints: [
      { id: 32669, handle: "with-setup", default: true, priceInCents: 6000, ...trial, initialChargeInCents: 10000 },
      { id: 32670, handle: "trial-only", priceInCents: 1500, ...trial },
    ],
  });
  sim.addProductCurrencyPrices(32670, [
    { id: 200, currency: "EUR", role: "baseline", price: 14 },
    { id: 201, currency: "EUR", role: "trial", price: 9 },
  ]);
  sim.addComponent({
    id: 24,
    familyHandle: "chargify",
    kind: "quantity_based",
    handle: "invoices",
    name: "Invoices",
    unitPrice: 3,
    pricePoints: [{ id: 104, default: true }],
  });
  sim.addComponent({
    id: 25,
    familyHandle: "chargify",
    kind: "metered",
    handle: "calls",
    pricingScheme: "tiered",
    prices: [
      { id: 20, startingQuantity: 1, endingQuantity: 100, unitPrice: 1 },
      { id: 21, startingQuantity: 101, unitPrice: "0.8" },
    ],
    pricePoints: [
      { id: 25554, handle: "tiered", default: true, useSiteExchangeRate: false },
      {
        id: 25555,
        handle: "other",
        useSiteExchangeRate: false,
        prices: [
          { id: 22, startingQuantity: 1, endingQuantity: 100, unitPrice: 2 },
          { id: 23, startingQuantity: 101, unitPrice: 1 },
        ],
      },
    ],
  });
  sim.addComponentCurrencyPrices(25555, [
    { id: 100, currency: "EUR", priceId: 22, price: 2 },
    { id: 101, currency: "EUR", priceId: 23, price: 1 },
  ]);
  sim.addCoupon({ id: 3, familyHandle: "chargify", code: "DEF456", name: "IB Loyalty", amountInCents: 500 });
  sim.addCoupon({ id: 162, familyHandle: "chargify", code: "FLAT", amountInCents: 1000 });
  return sim;
}

const keysOf = (o: object) => Object.keys(o).sort();
/** Every key the published example shows is one the simulator writes. */
function covers(ours: object, published: object): void {
  expect(keysOf(ours)).toEqual(expect.arrayContaining(keysOf(published)));
}

describe("the fixtures", () => {
  it.each(index.map((e) => [e.file, e] as const))("%s is the contract's value, verbatim", (_f, e) => {
    expect(fixture(e.file)).toEqual(e.contract.pointer.reduce((o: any, k) => o?.[k], doc));
  });

  it("every example of the operations served is kept", () => {
    const served = new Set(index.map((e) => e.operationId));
    for (const op of [
      "createProductCurrencyPrices",
      "createCurrencyPrices",
      "createMetafields",
      "createReasonCode",
      "createOffer",
      "listOffers",
    ])
      expect(served).toContain(op);
  });
});

describe("the published requests are accepted", () => {
  const cases: [file: string, method: string, path: string, status: number][] = [
    ["create-product-currency-prices.request.json", "POST", "/product_price_points/32669/currency_prices.json", 200],
    ["update-product-currency-prices.request.json", "PUT", "/product_price_points/32670/currency_prices.json", 200],
    ["create-currency-prices.request.json", "POST", "/price_points/25554/currency_prices.json", 200],
    ["update-currency-prices.request.json", "PUT", "/price_points/25555/currency_prices.json", 200],
    ["create-or-update-coupon-currency-prices.request.json", "PUT", "/coupons/162/currency_prices.json", 200],
    ["create-metafields.request.single-metafield.json", "POST", "/subscriptions/metafields.json", 200],
    ["create-metafields.request.multiple-metafields.json", "POST", "/customers/metafields.json", 200],
    ["create-reason-code.request.json", "POST", "/reason_codes.json", 201],
    ["create-offer.request.json", "POST", "/offers.json", 201],
  ];
  it.each(cases)("%s: %s %s → %i", async (file, method, p, status) => {
    const sim = await site();
    const res = await call(sim, method, p, { body: fixture(file) });
    expect(res.status).toBe(status);
  });

  it("the product price point's: each role in EUR; a price of 123 reads as the published example writes it", async () => {
    const sim = await site();
    const made = (
      await call(sim, "POST", "/product_price_points/32669/currency_prices.json", {
        body: fixture("create-product-currency-prices.request.json"),
      })
    ).body.currency_prices;
    expect(made.map((p: any) => [p.currency, p.role, p.price])).toEqual([
      ["EUR", "baseline", 60],
      ["EUR", "trial", 30],
      ["EUR", "initial", 100],
    ]);
    const [published] = fixture("create-product-currency-prices.200.json").currency_prices;
    const updated = (
      await call(sim, "PUT", "/product_price_points/32669/currency_prices.json", {
        body: { currency_prices: [{ id: made[0].id, price: 123 }] },
      })
    ).body.currency_prices;
    covers(updated[0], published);
    expect({ ...updated[0], id: published.id }).toEqual(published);
    covers(updated[0], fixture("update-product-currency-prices.200.json").currency_prices[0]);
  });

  it("the update example changes the two prices it names by id", async () => {
    const sim = await site();
    const res = await call(sim, "PUT", "/product_price_points/32670/currency_prices.json", {
      body: fixture("update-product-currency-prices.request.json"),
    });
    expect(res.body.currency_prices.map((p: any) => [p.id, p.price])).toEqual([
      [200, 15],
      [201, 5],
    ]);
  });

  it("the component price point's: one price per bracket; a price of 123 reads as published", async () => {
    const sim = await site();
    const made = (
      await call(sim, "POST", "/price_points/25554/currency_prices.json", { body: fixture("create-currency-prices.request.json") })
    ).body.currency_prices;
    expect(made.map((p: any) => [p.price_id, p.price])).toEqual([
      [20, "50"],
      [21, "40"],
    ]);
    const [published] = fixture("create-currency-prices.200.json").currency_prices;
    const updated = (
      await call(sim, "PUT", "/price_points/25554/currency_prices.json", { body: { currency_prices: [{ id: made[0].id, price: 123 }] } })
    ).body.currency_prices;
    covers(updated[0], published);
    expect({ ...updated[0], id: published.id, price_id: published.price_id }).toEqual(published);
    const update = await call(sim, "PUT", "/price_points/25555/currency_prices.json", {
      body: fixture("update-currency-prices.request.json"),
    });
    expect(update.body.currency_prices.map((p: any) => [p.id, p.price])).toEqual([
      [100, "51"],
      [101, "41"],
    ]);
  });

  it("the coupon's: EUR and GBP amounts", async () => {
    const sim = await site();
    const res = await call(sim, "PUT", "/coupons/162/currency_prices.json", {
      body: fixture("create-or-update-coupon-currency-prices.request.json"),
    });
    expect(res.body.currency_prices.map((p: any) => [p.currency, p.price, p.coupon_id])).toEqual([
      ["EUR", 10, 162],
      ["GBP", 9, 162],
    ]);
  });

  it("the metafields': the published answer to the multiple example, key for key (its scope shows fewer options)", async () => {
    const sim = await site();
    const res = await call(sim, "POST", "/subscriptions/metafields.json", {
      body: fixture("create-metafields.request.multiple-metafields.json"),
    });
    const published = fixture("create-metafields.200.json");
    expect(res.body).toHaveLength(published.length);
    res.body.forEach((ours: any, i: number) => {
      covers(ours, published[i]);
      expect(ours).toMatchObject(published[i]);
    });
    const listed = await call(sim, "GET", "/subscriptions/metafields.json");
    const placeholder = fixture("list-metafields.200.json");
    covers(listed.body, placeholder);
    covers(listed.body.metafields[0], placeholder.metafields[0]);
    covers(listed.body.metafields[0].scope, placeholder.metafields[0].scope);
  });

  it("the offer's: the published answer, value for value where the simulator models it", async () => {
    const sim = await site();
    const res = await call(sim, "POST", "/offers.json", { body: fixture("create-offer.request.json") });
    const published = fixture("create-offer.201.json").offer;
    covers(res.body.offer, published);
    const modelled = [
      "product_family_name",
      "product_id",
      "product_name",
      "product_price_in_cents",
      "product_revisable_number",
      "name",
      "handle",
      "description",
      "archived_at",
      "product_price_point_name",
      "offer_discounts",
    ];
    for (const k of modelled) expect([k, res.body.offer[k]]).toEqual([k, published[k]]);
    expect(res.body.offer.offer_items).toHaveLength(1);
    covers(res.body.offer.offer_items[0], published.offer_items[0]);
    expect(res.body.offer.offer_items[0]).toMatchObject(published.offer_items[0]);
  });

  it("the offers list's: every key of the published offer, item and signup page", async () => {
    const sim = await site();
    sim.addOffer({
      handle: "third",
      productId: 31,
      components: [{ componentId: 24, startingQuantity: 0 }],
      couponCodes: ["DEF456"],
      signupPages: [{ nickname: "ggoods" }],
    });
    const [ours] = (await call(sim, "GET", "/offers.json")).body.offers;
    const [published] = fixture("list-offers.200.json").offers;
    covers(ours, published);
    covers(ours.offer_items[0], published.offer_items[0]);
    covers(ours.offer_discounts[0], published.offer_discounts[0]);
    covers(ours.offer_signup_pages[0], published.offer_signup_pages[0]);
  });

  it("the reason codes list's: the published list, in its order (by position), every value but the times", async () => {
    const sim = await site();
    const published = fixture("list-reason-codes.200.json");
    for (const { reason_code: r } of [...published].reverse())
      sim.addReasonCode({ id: r.id, code: r.code, description: r.description, position: r.position });
    const res = await call(sim, "GET", "/reason_codes.json");
    expect(res.body.map((r: any) => ({ ...r.reason_code, site_id: 2, created_at: "", updated_at: "" }))).toEqual(
      published.map((r: any) => ({ ...r.reason_code, created_at: "", updated_at: "" })),
    );
    expect((await call(sim, "DELETE", "/reason_codes/2.json")).body).toEqual(fixture("delete-reason-code.200.json"));
  });
});

describe("the published refusals", () => {
  it("createProductCurrencyPrices: the roles a price point requires (a trial price for one without a trial)", async () => {
    const sim = await site();
    const res = await call(sim, "POST", "/product_price_points/102/currency_prices.json", {
      body: {
        currency_prices: [
          { currency: "EUR", price: 18, role: "baseline" },
          { currency: "EUR", price: 1, role: "trial" },
        ],
      },
    });
    expect([res.status, res.body]).toEqual([422, fixture("create-product-currency-prices.422.json")]);
    expect(fixture("update-product-currency-prices.422.json")).toEqual(fixture("create-product-currency-prices.422.json"));
  });

  it("createCurrencyPrices: a price without its currency", async () => {
    const sim = await site();
    const res = await call(sim, "POST", "/price_points/25554/currency_prices.json", {
      body: { currency_prices: [{ price: 50, price_id: 20 }] },
    });
    expect([res.status, res.body]).toEqual([422, fixture("create-currency-prices.422.json")]);
  });

  it("updateCurrencyPrices' wording for a currency priced already (the simulator gives it to a create; its PUT names ids)", async () => {
    const sim = await site();
    const res = await call(sim, "POST", "/price_points/25555/currency_prices.json", {
      body: {
        currency_prices: [
          { currency: "EUR", price: 1, price_id: 22 },
          { currency: "EUR", price: 1, price_id: 23 },
        ],
      },
    });
    expect([res.status, { errors: { "currency_prices[0].currency": res.body.errors["currency_prices[0].currency"] } }]).toEqual([
      422,
      fixture("update-currency-prices.422.json"),
    ]);
  });

  it("createMetafields: a field without a name", async () => {
    const sim = await site();
    const res = await call(sim, "POST", "/subscriptions/metafields.json", { body: { metafields: { input_type: "text" } } });
    expect([res.status, res.body]).toEqual([422, fixture("create-metafields.422.json")]);
  });

  it("updateMetafield: a name another field has", async () => {
    const sim = await site();
    sim.addMetafield({ resourceType: "customers", name: "Color" });
    sim.addMetafield({ resourceType: "customers", name: "Brand" });
    const res = await call(sim, "PUT", "/customers/metafields.json", { body: { metafields: { current_name: "Brand", name: "Color" } } });
    expect([res.status, res.body]).toEqual([422, fixture("update-metafield.422.json")]);
  });

  it("createReasonCode: each message the simulator gives is one of the published ones, in their order", async () => {
    const sim = await site();
    sim.addReasonCode({ code: "TAKEN", description: "x" });
    const published: string[] = fixture("create-reason-code.422.json").errors;
    for (const body of [{ reason_code: {} }, { reason_code: { code: "TAKEN", description: "y" } }]) {
      const res = await call(sim, "POST", "/reason_codes.json", { body });
      expect(res.status).toBe(422);
      expect(published).toEqual(expect.arrayContaining(res.body.errors));
      expect(res.body.errors).toEqual([...res.body.errors].sort((a, b) => published.indexOf(a) - published.indexOf(b)));
    }
  });

  it("createOffer: an on/off component starting at 2", async () => {
    const sim = await site();
    sim.addComponent({ id: 26, familyHandle: "chargify", kind: "on_off", handle: "support" });
    const body = fixture("create-offer.request.json");
    body.offer.components = [{ component_id: 26, starting_quantity: 2 }];
    const res = await call(sim, "POST", "/offers.json", { body });
    const published = fixture("create-offer.422.json");
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ errors: { components: [published.errors.components[0].replace(": 24", ": 26")] } });
  });
});
