import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEMO_SITE, type Simulator, startSimulator } from "../../simulator";
import { contractCheck, PATCHES } from "../contract/validator";
import { basic, call, migration } from "./helpers";

// Every answer in these tests goes through the contract check in call(); this
// file makes sure each operation and each kind of failure is exercised at
// least once, and that the patches are neither vacuous nor too wide.

const auth = basic(DEMO_SITE.apiKey);

describe("every served operation answers within the patched contract", () => {
  // A fresh demo site for each case: a migration or a fault of one case must not change what another is answered.
  let sim: Simulator;
  beforeEach(async () => {
    sim = await startSimulator({ seed: "demo" });
  });
  afterEach(async () => {
    await sim.close();
  });

  const cases: { method: string; path: string; body?: unknown; status: number }[] = [
    { method: "POST", path: "/webhooks/replay.json", body: { ids: [5005, 5006] }, status: 200 },
    { method: "POST", path: "/webhooks/replay.json", body: { ids: [] }, status: 422 },
    { method: "PUT", path: "/webhooks/settings.json", body: { webhooks_enabled: true }, status: 200 },
    { method: "GET", path: "/webhooks.json?per_page=200", status: 200 },
    { method: "GET", path: "/webhooks.json?status=lost", status: 422 },
    { method: "GET", path: "/subscriptions/1002.json", status: 200 },
    { method: "GET", path: "/subscriptions/1004.json", status: 200 },
    { method: "GET", path: "/subscriptions/9.json", status: 404 },
    { method: "POST", path: "/subscriptions/1001/migrations/preview.json", body: migration({ product_handle: "pro" }), status: 200 },
    { method: "POST", path: "/subscriptions/1001/migrations/preview.json", body: migration({ product_handle: "basic" }), status: 422 },
    {
      method: "POST",
      path: "/subscriptions/1001/migrations.json",
      body: migration({ product_handle: "pro", product_price_point_handle: "pro-annual" }),
      status: 200,
    },
    { method: "POST", path: "/subscriptions/1003/migrations.json", body: migration({ product_id: 4 }), status: 200 },
    { method: "POST", path: "/subscriptions/1004/migrations.json", body: migration({ product_id: 2 }), status: 422 },
    { method: "POST", path: "/subscriptions/1005/migrations.json", body: migration({ product_id: 2 }), status: 422 },
    { method: "POST", path: "/subscriptions/9/migrations.json", body: migration({ product_id: 2 }), status: 404 },
    { method: "GET", path: "/products/2.json", status: 200 },
    { method: "GET", path: "/products/4.json", status: 200 },
    { method: "GET", path: "/products/99.json", status: 404 },
    { method: "GET", path: "/products/handle/pro.json", status: 200 },
    { method: "GET", path: "/products/handle/gold.json", status: 404 },
    { method: "GET", path: "/products/2/price_points.json", status: 200 },
    { method: "GET", path: "/products/handle:pro/price_points.json?filter[type]=catalog", status: 200 },
    { method: "GET", path: "/products/2/price_points.json?filter[type]=gold", status: 422 },
    { method: "GET", path: "/products/99/price_points.json", status: 404 },
    { method: "GET", path: "/site.json", status: 200 },
    { method: "GET", path: "/endpoints.json", status: 200 },
    {
      method: "POST",
      path: "/endpoints.json",
      body: { endpoint: { url: "https://h.example/w", webhook_subscriptions: ["payment_success"] } },
      status: 200,
    },
    { method: "POST", path: "/endpoints.json", body: { endpoint: { url: "ftp://h.example/w", webhook_subscriptions: [] } }, status: 422 },
    {
      method: "PUT",
      path: "/endpoints/1.json",
      body: { endpoint: { url: "https://h.example/w", webhook_subscriptions: [] } },
      status: 200,
    },
    {
      method: "PUT",
      path: "/endpoints/1.json",
      body: { endpoint: { url: "https://h.example/w", webhook_subscriptions: ["foobar"] } },
      status: 422,
    },
    {
      method: "PUT",
      path: "/endpoints/99.json",
      body: { endpoint: { url: "https://h.example/w", webhook_subscriptions: [] } },
      status: 404,
    },
  ];
  it.each(cases)("$method $path → $status", async ({ method, path, body, status }) => {
    expect((await call(sim, method, path, { body, auth })).status).toBe(status);
  });

  // The catalogue, on the demo site (its products are in the default family "plans"): each operation's
  // success and the refusals it can give, `prepare` run first when the answer needs an earlier request.
  const pp = (handle: string, extra: Record<string, unknown> = {}) => ({
    name: handle,
    handle,
    price_in_cents: 100,
    interval: 1,
    interval_unit: "month",
    ...extra,
  });
  const product = { name: "Gold", handle: "gold", price_in_cents: 1000, interval: 1, interval_unit: "month" };
  const catalogCases: {
    method: string;
    path: string;
    body?: unknown;
    status: number;
    prepare?: (s: Simulator) => Promise<unknown>;
  }[] = [
    { method: "POST", path: "/product_families.json", body: { product_family: { name: "Acme Projects" } }, status: 201 },
    { method: "POST", path: "/product_families.json", body: { product_family: { name: "P", handle: "plans" } }, status: 422 },
    { method: "GET", path: "/product_families.json", status: 200 },
    { method: "GET", path: "/product_families/handle:plans.json", status: 200 },
    { method: "GET", path: "/product_families/1.json", status: 404 },
    { method: "POST", path: "/product_families/handle:plans/products.json", body: { product }, status: 201 },
    { method: "POST", path: "/product_families/handle:plans/products.json", body: { product: { handle: "x" } }, status: 422 },
    { method: "POST", path: "/product_families/77/products.json", body: { product }, status: 404 },
    { method: "GET", path: "/product_families/handle:plans/products.json?include_archived=true", status: 200 },
    { method: "GET", path: "/product_families/77/products.json", status: 404 },
    { method: "GET", path: "/products.json?per_page=2&page=2", status: 200 },
    { method: "GET", path: "/products.json?page=0", status: 422 },
    {
      method: "PUT",
      path: "/products/2.json",
      body: { product: { price_in_cents: 6000, trial_interval: 7, trial_interval_unit: "day", trial_price_in_cents: 0 } },
      status: 200,
    },
    { method: "PUT", path: "/products/2.json", body: { product: { name: "" } }, status: 422 },
    { method: "PUT", path: "/products/99.json", body: { product: { name: "x" } }, status: 404 },
    { method: "DELETE", path: "/products/3.json", status: 200 },
    { method: "DELETE", path: "/products/3.json", status: 422, prepare: (s) => call(s, "DELETE", "/products/3.json", { auth }) },
    { method: "DELETE", path: "/products/99.json", status: 404 },
    {
      method: "POST",
      path: "/products/2/price_points.json",
      body: {
        price_point: pp("edu", {
          trial_price_in_cents: 0,
          trial_interval: 1,
          trial_interval_unit: "month",
          trial_type: "payment_expected",
        }),
      },
      status: 201,
    },
    { method: "POST", path: "/products/2/price_points.json", body: {}, status: 422 },
    { method: "POST", path: "/products/2/price_points.json", body: { price_point: pp("pro-annual") }, status: 422 },
    {
      method: "POST",
      path: "/products/3/price_points.json",
      body: { price_point: pp("late") },
      status: 422,
      prepare: (s) => call(s, "DELETE", "/products/3.json", { auth }),
    },
    { method: "POST", path: "/products/99/price_points.json", body: { price_point: pp("x") }, status: 404 },
    { method: "POST", path: "/products/2/price_points/bulk.json", body: { price_points: [pp("b1"), pp("b2")] }, status: 201 },
    { method: "POST", path: "/products/2/price_points/bulk.json", body: { price_points: [pp("b1"), { name: "" }] }, status: 422 },
    { method: "POST", path: "/products/99/price_points/bulk.json", body: { price_points: [pp("b1")] }, status: 404 },
    { method: "GET", path: "/products/2/price_points.json?include_archived=true", status: 200 },
    { method: "GET", path: "/products/2/price_points/202.json", status: 200 },
    { method: "GET", path: "/products/handle:pro/price_points/handle:pro-annual.json", status: 200 },
    { method: "GET", path: "/products/2/price_points/999.json", status: 404 },
    {
      method: "PUT",
      path: "/products/2/price_points/202.json",
      body: { price_point: { handle: "pro-yearly", price_in_cents: 1 } },
      status: 200,
    },
    { method: "PUT", path: "/products/2/price_points/202.json", body: { price_point: { interval: 2 } }, status: 422 },
    { method: "PUT", path: "/products/2/price_points/999.json", body: { price_point: { price_in_cents: 1 } }, status: 404 },
    { method: "DELETE", path: "/products/2/price_points/202.json", status: 200 },
    { method: "DELETE", path: "/products/2/price_points/201.json", status: 422 },
    {
      method: "PATCH",
      path: "/products/2/price_points/202/unarchive.json",
      status: 200,
      prepare: (s) => call(s, "DELETE", "/products/2/price_points/202.json", { auth }),
    },
    { method: "PATCH", path: "/products/2/price_points/999/unarchive.json", status: 404 },
    { method: "PATCH", path: "/products/2/price_points/202/default.json", status: 200 },
    {
      method: "PATCH",
      path: "/products/2/price_points/202/default.json",
      status: 422,
      prepare: (s) => call(s, "DELETE", "/products/2/price_points/202.json", { auth }),
    },
    { method: "PATCH", path: "/products/2/price_points/999/default.json", status: 404 },
  ];
  it.each(catalogCases)("catalog: $method $path → $status", async ({ method, path, body, status, prepare }) => {
    await prepare?.(sim);
    expect((await call(sim, method, path, { body, auth })).status).toBe(status);
  });

  it("the catalogue's cases cover every catalogue operation the simulator serves, each with a success", async () => {
    const check = await contractCheck();
    const served = new Set(catalogCases.filter((c) => c.status < 300).map((c) => check.operationOf(c.method, c.path)));
    for (const op of [
      "createProductFamily",
      "listProductFamilies",
      "readProductFamily",
      "createProduct",
      "listProductsForProductFamily",
      "listProducts",
      "updateProduct",
      "archiveProduct",
      "createProductPricePoint",
      "bulkCreateProductPricePoints",
      "listProductPricePoints",
      "readProductPricePoint",
      "updateProductPricePoint",
      "archiveProductPricePoint",
      "unarchiveProductPricePoint",
      "promoteProductPricePointToDefault",
    ])
      expect(served, op).toContain(op);
  });

  it("401, 400 and 409 are error lists", async () => {
    expect((await call(sim, "GET", "/site.json", { auth: null })).status).toBe(401);
    expect((await call(sim, "POST", "/webhooks/replay.json", { raw: "{", auth })).status).toBe(400);
    const body = { ids: [5005], uniqueness_token: "contract-409" };
    await call(sim, "POST", "/webhooks/replay.json", { body, auth });
    expect((await call(sim, "POST", "/webhooks/replay.json", { body, auth })).status).toBe(409);
    for (const [path, made] of [
      ["/product_families.json", { product_family: { name: "Twice" } }],
      ["/products/2/price_points.json", { price_point: { name: "t", price_in_cents: 1, interval: 1, interval_unit: "month" } }],
      ["/products/2/price_points/bulk.json", { price_points: [{ name: "u", price_in_cents: 1, interval: 1, interval_unit: "month" }] }],
    ] as const) {
      const once = { ...made, uniqueness_token: `contract-409-${path}` };
      expect((await call(sim, "POST", path, { body: once, auth })).status).toBe(201);
      expect((await call(sim, "POST", path, { body: once, auth })).status).toBe(409);
    }
  });

  it.each([429, 500, 502, 503, 504] as const)("an injected %i is within the patched contract on every operation kind", async (status) => {
    sim.injectFault({ kind: "status", status, times: 3 });
    expect((await call(sim, "GET", "/site.json", { auth })).status).toBe(status);
    expect((await call(sim, "GET", "/webhooks.json", { auth })).status).toBe(status);
    expect((await call(sim, "POST", "/subscriptions/1002/migrations.json", { body: migration({ product_id: 3 }), auth })).status).toBe(
      status,
    );
  });
});

describe("issue 41's operations answer within the patched contract", () => {
  // A demo site that also sells in EUR, with a coupon, a component and a metafield to work on; fresh for each case.
  let sim: Simulator;
  beforeEach(async () => {
    sim = await startSimulator({ seed: "demo", nonPrimaryCurrencies: ["EUR", "GBP"], clearDataDelayMs: 0 });
    sim.addCoupon({ id: 60001, familyHandle: "plans", code: "TEN", amountInCents: 1000 });
    sim.addComponent({
      id: 30001,
      familyHandle: "plans",
      kind: "metered",
      handle: "calls",
      pricePoints: [{ id: 40001, handle: "p", default: true }],
    });
    sim.addMetafield({ resourceType: "subscriptions", name: "Color" });
    sim.addReasonCode({ id: 1, code: "PRICE", description: "Too dear" });
    sim.addProductCurrencyPrices(201, [{ id: 500, currency: "EUR", role: "baseline", price: 45 }]);
    sim.addComponentCurrencyPrices(40001, [
      { id: 501, currency: "EUR", priceId: sim.components()[0].pricePoints[0].prices[0].id, price: 1 },
    ]);
    sim.addOffer({ id: 1, handle: "solo", productHandle: "pro" });
  });
  afterEach(async () => {
    await sim.close();
  });

  const eur = { currency_prices: [{ currency: "EUR", role: "baseline", price: 9 }] };
  const price = () => sim.components()[0].pricePoints[0].prices[0].id;
  const cases: { method: string; path: string; body?: () => unknown; status: number }[] = [
    { method: "POST", path: "/product_price_points/101/currency_prices.json", body: () => eur, status: 200 },
    { method: "POST", path: "/product_price_points/101/currency_prices.json", body: () => ({ currency_prices: [] }), status: 422 },
    { method: "POST", path: "/product_price_points/9/currency_prices.json", body: () => eur, status: 404 },
    {
      method: "PUT",
      path: "/product_price_points/101/currency_prices.json",
      body: () => ({ currency_prices: [{ id: 1, price: 1 }] }),
      status: 422,
    },
    {
      method: "PUT",
      path: "/product_price_points/201/currency_prices.json",
      body: () => ({ currency_prices: [{ id: 500, price: 46 }] }),
      status: 200,
    },
    {
      method: "POST",
      path: "/price_points/40001/currency_prices.json",
      body: () => ({ currency_prices: [{ currency: "GBP", price: 1, price_id: price() }] }),
      status: 200,
    },
    {
      method: "PUT",
      path: "/price_points/40001/currency_prices.json",
      body: () => ({ currency_prices: [{ id: 1, price: 1 }] }),
      status: 422,
    },
    {
      method: "PUT",
      path: "/price_points/40001/currency_prices.json",
      body: () => ({ currency_prices: [{ id: 501, price: 2 }] }),
      status: 200,
    },
    {
      method: "PUT",
      path: "/coupons/60001/currency_prices.json",
      body: () => ({ currency_prices: [{ currency: "EUR", price: 9 }] }),
      status: 200,
    },
    {
      method: "PUT",
      path: "/coupons/60001/currency_prices.json",
      body: () => ({ currency_prices: [{ currency: "JPY", price: 9 }] }),
      status: 422,
    },
    { method: "GET", path: "/products/2/price_points.json?currency_prices=true", status: 200 },
    { method: "GET", path: "/components/30001/price_points.json?currency_prices=true", status: 201 },
    { method: "GET", path: "/coupons.json?currency_prices=true", status: 200 },
    { method: "POST", path: "/subscriptions/metafields.json", body: () => ({ metafields: [{ name: "Size" }] }), status: 200 },
    { method: "POST", path: "/customers/metafields.json", body: () => ({ metafields: {} }), status: 422 },
    { method: "GET", path: "/subscriptions/metafields.json?direction=desc", status: 200 },
    { method: "GET", path: "/subscriptions/metafields.json?page=0", status: 422 },
    {
      method: "PUT",
      path: "/subscriptions/metafields.json",
      body: () => ({ metafields: { current_name: "Color", name: "Colour" } }),
      status: 200,
    },
    { method: "PUT", path: "/subscriptions/metafields.json", body: () => ({ metafields: { name: "x" } }), status: 422 },
    { method: "DELETE", path: "/subscriptions/metafields.json?name=Color", status: 200 },
    { method: "DELETE", path: "/subscriptions/metafields.json?name=Size", status: 404 },
    { method: "POST", path: "/reason_codes.json", body: () => ({ reason_code: { code: "NEW", description: "n" } }), status: 201 },
    { method: "POST", path: "/reason_codes.json", body: () => ({ reason_code: { code: "PRICE" } }), status: 422 },
    { method: "GET", path: "/reason_codes.json", status: 200 },
    { method: "GET", path: "/reason_codes/1.json", status: 200 },
    { method: "GET", path: "/reason_codes/9.json", status: 404 },
    { method: "PUT", path: "/reason_codes/1.json", body: () => ({ reason_code: { position: 2 } }), status: 200 },
    { method: "PUT", path: "/reason_codes/9.json", body: () => ({ reason_code: { position: 2 } }), status: 404 },
    { method: "DELETE", path: "/reason_codes/1.json", status: 200 },
    { method: "DELETE", path: "/reason_codes/9.json", status: 404 },
    { method: "POST", path: "/offers.json", body: () => ({ offer: { name: "Duo", handle: "duo", product_id: 2 } }), status: 201 },
    { method: "POST", path: "/offers.json", body: () => ({ offer: { name: "", handle: "", product_id: 2 } }), status: 422 },
    { method: "GET", path: "/offers.json?include_archived=true", status: 200 },
    { method: "GET", path: "/offers/1.json", status: 200 },
    { method: "GET", path: "/offers/9.json", status: 404 },
    { method: "PUT", path: "/offers/1/archive.json", status: 200 },
    { method: "PUT", path: "/offers/1/unarchive.json", status: 200 },
    { method: "PUT", path: "/offers/9/unarchive.json", status: 404 },
    { method: "POST", path: "/sites/clear_data.json?cleanup_scope=customers", status: 200 },
    { method: "POST", path: "/sites/clear_data.json?cleanup_scope=none", status: 422 },
  ];
  it.each(cases)("$method $path → $status", async ({ method, path, body, status }) => {
    expect((await call(sim, method, path, { body: body?.(), auth })).status).toBe(status);
  });

  it("the cases cover every operation of issue 41, each with a success", async () => {
    const check = await contractCheck();
    const served = new Set(cases.filter((c) => c.status < 300).map((c) => check.operationOf(c.method, c.path)));
    for (const op of [
      "createProductCurrencyPrices",
      "updateProductCurrencyPrices",
      "createCurrencyPrices",
      "updateCurrencyPrices",
      "createOrUpdateCouponCurrencyPrices",
      "createMetafields",
      "listMetafields",
      "updateMetafield",
      "deleteMetafield",
      "createReasonCode",
      "listReasonCodes",
      "readReasonCode",
      "updateReasonCode",
      "deleteReasonCode",
      "createOffer",
      "listOffers",
      "readOffer",
      "archiveOffer",
      "unarchiveOffer",
      "clearSite",
    ])
      expect(served, op).toContain(op);
  });
});

describe("the patches", () => {
  // A fresh demo site for each case, as above.
  let sim: Simulator;
  beforeEach(async () => {
    sim = await startSimulator({ seed: "demo" });
  });
  afterEach(async () => {
    await sim.close();
  });

  it("each has a reason", () => {
    expect(PATCHES.length).toBeGreaterThan(0);
    for (const p of PATCHES) expect(p.why.length).toBeGreaterThan(30);
  });

  /** Answers the published contract refuses and the patched one allows: one per patch that the simulator relies on. */
  const departures: {
    patch: RegExp;
    method: string;
    path: string;
    prepare?: (s: Simulator) => void;
    body?: unknown;
    raw?: string;
    auth?: string | null;
  }[] = [
    { patch: /answers 200/, method: "GET", path: "/webhooks.json?status=failed&per_page=1" },
    { patch: /may be null/, method: "GET", path: "/webhooks.json?status=pending" },
    { patch: /429/, method: "GET", path: "/site.json", prepare: (s) => s.injectFault({ kind: "status", status: 429, times: 1 }) },
    {
      patch: /409/,
      method: "PUT",
      path: "/webhooks/settings.json",
      body: { webhooks_enabled: true, uniqueness_token: "patch-409" },
      prepare: () => undefined,
    },
    { patch: /404/, method: "GET", path: "/products/77.json" },
    {
      patch: /without a body/,
      method: "PUT",
      path: "/endpoints/99.json",
      body: { endpoint: { url: "https://h.example/w", webhook_subscriptions: [] } },
    },
    { patch: /422/, method: "POST", path: "/webhooks/replay.json", body: { ids: [0] } },
    { patch: /401/, method: "GET", path: "/site.json", auth: null },
    {
      patch: /reason_codes\.json answers 201/,
      method: "POST",
      path: "/reason_codes.json",
      body: { reason_code: { code: "NOTHANKYOU", description: "No thank you!" } },
    },
    {
      patch: /clear_data\.json answers 403/,
      method: "POST",
      path: "/sites/clear_data.json",
      prepare: (s) => s.configureSite({ live: true }),
    },
    { patch: /400/, method: "POST", path: "/webhooks/replay.json", raw: "[" },
    { patch: /500/, method: "GET", path: "/site.json", prepare: (s) => s.injectFault({ kind: "status", status: 502, times: 1 }) },
  ];
  it.each(departures)("$patch: $method $path", async ({ patch, method, path, prepare, body, raw, auth: a }) => {
    expect(PATCHES.some((p) => patch.test(p.what))).toBe(true);
    prepare?.(sim);
    if (patch.source === "409") await call(sim, method, path, { body, auth }); // the first of the pair is fine as published
    const res = await fetch(sim.url + path, {
      method,
      body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
      headers: { ...(a === null ? {} : { authorization: a ?? auth }), "content-type": "application/json" },
    });
    const answer = { method, path, status: res.status, contentType: res.headers.get("content-type"), text: await res.text() };
    expect((await contractCheck(false)).problems(answer)).not.toEqual([]);
    expect((await contractCheck(true)).problems(answer)).toEqual([]);
  });

  it("patched, the contract still refuses what the service would not send", async () => {
    const check = await contractCheck(true);
    const answer = (status: number, text: string, contentType = "application/json") => ({
      method: "GET",
      path: "/webhooks.json",
      status,
      contentType,
      text,
    });
    expect(check.problems(answer(200, '[{"webhook":{"id":"5001"}}]'))).not.toEqual([]);
    expect(check.problems(answer(200, '[{"webhook":{"id":1,"successful":null}}]'))).not.toEqual([]);
    expect(check.problems(answer(429, '{"errors":["Too many"]}'))).not.toEqual([]);
    expect(check.problems(answer(429, "Slow down", "text/plain"))).not.toEqual([]);
    expect(check.problems(answer(418, '{"errors":["teapot"]}'))).not.toEqual([]);
    expect(check.problems(answer(200, '[{"webhook":{"id":9223372036854775808}}]'))).not.toEqual([]);
    expect(check.problems(answer(200, '[{"webhook":{"id":9223372036854775807}}]'))).toEqual([]);
  });
});
