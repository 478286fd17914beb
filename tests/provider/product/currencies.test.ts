import { describe, expect, it } from "vitest";
import { productProvider } from "../../../provider";
import type { Simulator } from "../../../simulator";
import { captureOutput, changeBaselineOutside, configureRequest, KEY, mutations, pathsOf, unnested } from "../support";
import { auth, type Json, launch, productSite, steps } from "./site";

/**
 * Product `currencyPrices`, its default price point's: checked at preview before anything is sent; the default
 * the service makes follows the exchange rate and no call changes that, so `useSiteExchangeRate: false` gives the
 * product a default of its own prices (made once, even across a failure); its currency prices are set after it,
 * changed in place, read by refresh, and carried to the new default a pricing change makes.
 */

const own = { ...launch, useSiteExchangeRate: false, trialPriceInCents: 0, trialInterval: 7, trialIntervalUnit: "day" as const };
const currencyPath = (id: number | string) => `/product_price_points/${id}/currency_prices.json`;
type Failed = Error & { id: string; properties: Json };

describe("Product currency prices", () => {
  let sim: Simulator;
  let familyId: number;
  const { setup, made, proxy } = productSite((started) => {
    sim = started.sim;
    familyId = started.rockets.id;
    sim.configureSite({ nonPrimaryCurrencies: ["EUR", "GBP"], exchangeRates: { EUR: 0.9, GBP: 0.8 } });
  });

  /** What the service holds: the product's default price point, with `?currency_prices=true`. */
  async function held(productId: number | string) {
    const { product } = (await (await fetch(`${sim.url}/products/${productId}.json`, { headers: auth })).json()) as { product: Json };
    const ppId = product.default_product_price_point_id;
    const { price_point } = (await (
      await fetch(`${sim.url}/products/${productId}/price_points/${ppId}.json?currency_prices=true`, { headers: auth })
    ).json()) as { price_point: Json & { currency_prices: Json[] } };
    return {
      id: ppId as number,
      handle: price_point.handle,
      useSiteExchangeRate: price_point.use_site_exchange_rate,
      prices: price_point.currency_prices.map((p) => `${p.currency} ${p.role} ${p.price}`).sort(),
    };
  }

  /** Every price point of the product, live or not, as `handle archived?`. */
  async function pricePoints(productId: number | string) {
    const answer = await fetch(`${sim.url}/products/${productId}/price_points.json?archived=true`, { headers: auth });
    const { price_points } = (await answer.json()) as { price_points: Json[] };
    return price_points.map((p) => `${p.handle}${p.archived_at ? " (archived)" : ""}`);
  }

  /** A second provider that talks to the simulator itself: the next `up`, after one through a failing proxy. */
  async function direct() {
    const p = { ...productProvider };
    await p.configure!(configureRequest({ "billing:baseUrl": sim.url, "billing:apiKey": KEY }));
    return p;
  }

  describe("check, before anything is sent", () => {
    it.each([
      [
        "a trial without its amount",
        { EUR: { baseline: 9 } },
        own,
        "currencyPrices.EUR.trial",
        "is required: the price point has a trial (trialPriceInCents), and each currency must define it too (currency prices mirror the primary pricing)",
      ],
      [
        "an initial amount without an initial charge",
        { GBP: { baseline: 8, trial: 0, initial: 20 } },
        own,
        "currencyPrices.GBP.initial",
        "must be left out: the price point has no initial charge (initialChargeInCents), and currency prices mirror the primary pricing (roles: baseline, trial)",
      ],
      [
        "a currency the site does not have",
        { JPY: { baseline: 800, trial: 0 } },
        own,
        "currencyPrices.JPY",
        "is not one of the site's currencies: the site's other currencies are EUR, GBP (its primary currency is USD); a currency is added to the site in its settings (Multi-Currency) first",
      ],
    ])("%s: a failure naming the currency and the role", async (_, currencyPrices, base, property, reason) => {
      const products = await setup();
      const { failures } = await products.check!({}, { ...base, currencyPrices });
      expect(unnested(failures)).toStrictEqual([{ property, reason }]);
      expect(mutations(sim)).toEqual([]);
    });

    it("currency prices on a default that follows the exchange rate (the service's default): refused naming useSiteExchangeRate", async () => {
      const products = await setup();
      const { failures } = await products.check!({}, { ...launch, currencyPrices: { EUR: { baseline: 9 } } });
      expect(pathsOf(failures)).toEqual(["useSiteExchangeRate"]);
      expect(failures![0].reason).toMatch(/^must be false with currencyPrices: /);
      expect(mutations(sim)).toEqual([]);
    });

    it("a change of amounts: a pricing change per currency in money, in place, and said", async () => {
      const products = await setup();
      const olds = { ...own, currencyPrices: { EUR: { baseline: 9, trial: 0 }, GBP: { baseline: 8, trial: 0 } } };
      const news = { ...own, currencyPrices: { EUR: { baseline: 9.5, trial: 0 }, GBP: { baseline: 8, trial: 0 } } };
      const { result, text } = await captureOutput(() => products.check!(olds, news));
      expect(result!.failures).toEqual([]);
      expect(result!.inputs.preview).toEqual({
        pricingChange: {
          fields: ["currencyPrices"],
          from: { currencyPrices: olds.currencyPrices },
          to: { currencyPrices: news.currencyPrices },
          currencies: ["EUR baseline EUR 9.00 → baseline EUR 9.50"],
          effect:
            "in place: its default price point's prices in those currencies change in place (the product and its default stay); a currency left out keeps its prices: the service has no delete of a currency price",
        },
      });
      expect(text).toBe(
        "Product `rocket`: currency prices of its default price point: EUR baseline EUR 9.00 → baseline EUR 9.50 (in place).\n",
      );
    });

    it("a price change with currency amounts: both listed, the new default gets the currency prices", async () => {
      const products = await setup();
      const olds = { ...own, currencyPrices: { EUR: { baseline: 9, trial: 0 } } };
      const news = { ...own, priceInCents: 5900, currencyPrices: { EUR: { baseline: 11, trial: 0 } } };
      const { result, text } = await captureOutput(() => products.check!(olds, news));
      expect(result!.inputs.preview).toMatchObject({
        pricingChange: {
          fields: ["priceInCents", "currencyPrices"],
          currencies: ["EUR baseline EUR 9.00 → baseline EUR 11.00"],
          effect: "the service creates a new default price point; existing subscriptions keep theirs",
        },
      });
      expect(text).toContain("its currency prices are set on it");
      expect(text).toContain("EUR baseline EUR 9.00 → baseline EUR 11.00 (on the new default price point)");
    });
  });

  it("useSiteExchangeRate changed on a product: an update in place, said at preview; up replaces the default, not the product", async () => {
    const products = await setup();
    const { id, outs } = await products.create(launch);
    expect(outs).toMatchObject({ useSiteExchangeRate: true, currencyPrices: null });
    const flagOnly = { ...launch, useSiteExchangeRate: false };
    const { result, text } = await captureOutput(() => products.check!({ ...launch, useSiteExchangeRate: true }, flagOnly));
    expect(result!.failures).toEqual([]);
    expect(text).toContain(
      "Product `rocket`: useSiteExchangeRate true → false: the service cannot change it on the default price point, so a new default price point with the same pricing and this setting replaces it",
    );
    expect(await products.diff!(id, outs, flagOnly)).toMatchObject({ changes: true, replaces: [] });
    sim.reset();
    const { outs: updated } = await products.update!(id, outs, flagOnly);
    const now = await held(id);
    expect(steps(sim)).toEqual([
      `POST /products/${id}/price_points.json`,
      `PATCH /products/${id}/price_points/${now.id}/default.json`,
      `DELETE /products/${id}/price_points/${outs.defaultPricePointId}.json`,
    ]);
    expect(updated).toMatchObject({ productId: Number(id), defaultPricePointId: now.id, useSiteExchangeRate: false, currencyPrices: {} });
  });

  it("adopting a product made in the web UI: preview names the default's replacement and the new currencies; up makes them", async () => {
    const products = await setup();
    const p = made();
    const inputs = { ...launch, useSiteExchangeRate: false, currencyPrices: { EUR: { baseline: 45 } } };
    const { result, text } = await captureOutput(() => products.check!({}, inputs));
    expect(result!.failures).toEqual([]);
    expect(result!.inputs.preview).toMatchObject({
      adopt: { id: p.id, handle: "rocket" },
      pricingChange: { fields: ["currencyPrices"], currencies: ["EUR (new) baseline EUR 45.00"] },
    });
    expect(text).toContain("Product `rocket`: useSiteExchangeRate true → false: the service cannot change it on the default price point");
    expect(mutations(sim)).toEqual([]);
    const { id, outs } = (await captureOutput(() => products.create(inputs))).result!;
    expect(id).toBe(String(p.id));
    const now = await held(id);
    expect(steps(sim)).toEqual([
      `POST /products/${id}/price_points.json`,
      `PATCH /products/${id}/price_points/${now.id}/default.json`,
      `DELETE /products/${id}/price_points/${p.pricePoints[0]?.id}.json`,
      `POST ${currencyPath(now.id)}`,
    ]);
    expect(outs).toMatchObject({ defaultPricePointId: now.id, currencyPrices: inputs.currencyPrices });
  });

  it("create: the product, a default of its own prices in place of the service's, then its currency prices", async () => {
    const products = await setup();
    const inputs = { ...own, currencyPrices: { EUR: { baseline: 44.1, trial: 0 }, GBP: { baseline: 39.25, trial: 0 } } };
    const { result, text } = await captureOutput(() => products.create(inputs));
    const { id, outs } = result!;
    const first = (sim.requests.find((r) => r.method === "POST" && r.path.endsWith("/products.json"))?.body ?? {}) as Json;
    // The service's create takes neither: the provider sets them after it.
    expect(Object.keys(first.product as Json)).not.toContain("use_site_exchange_rate");
    const after = await held(id);
    const replaced = Number(/-default-(\d+)$/.exec(String(after.handle))?.[1]);
    expect(steps(sim)).toEqual([
      `POST /product_families/${familyId}/products.json`,
      `POST /products/${id}/price_points.json`,
      `PATCH /products/${id}/price_points/${after.id}/default.json`,
      `DELETE /products/${id}/price_points/${replaced}.json`,
      `POST ${currencyPath(after.id)}`,
    ]);
    expect(after).toEqual({
      id: after.id,
      handle: `rocket-default-${replaced}`,
      useSiteExchangeRate: false,
      prices: ["EUR baseline 44.1", "EUR trial 0", "GBP baseline 39.25", "GBP trial 0"],
    });
    expect(text).toContain("its default price point has prices of its own in other currencies as declared (useSiteExchangeRate: false)");
    expect(outs).toMatchObject({
      defaultPricePointId: after.id,
      useSiteExchangeRate: false,
      currencyPrices: inputs.currencyPrices,
      trialPriceInCents: 0,
    });
    // Recorded as declared: the next preview has nothing to do.
    expect((await products.diff!(id, outs, inputs)).changes).toBe(false);
  });

  it("update: a changed amount is a PUT in place (no new default, no replacement), a new currency a POST", async () => {
    const products = await setup();
    const before = { ...own, currencyPrices: { EUR: { baseline: 44, trial: 0 } } };
    const { id, outs } = await products.create(before);
    sim.reset();
    const after = { ...own, currencyPrices: { EUR: { baseline: 45, trial: 1 }, GBP: { baseline: 39, trial: 0 } } };
    expect(await products.diff!(id, outs, after)).toMatchObject({ changes: true, replaces: [] });
    const { outs: updated } = await products.update!(id, outs, after);
    const ppId = outs.defaultPricePointId as number;
    expect(steps(sim)).toEqual([`POST ${currencyPath(ppId)}`, `PUT ${currencyPath(ppId)}`]);
    expect((await held(id)).prices).toEqual(["EUR baseline 45", "EUR trial 1", "GBP baseline 39", "GBP trial 0"]);
    expect(updated).toMatchObject({ productId: Number(id), defaultPricePointId: ppId, currencyPrices: after.currencyPrices });
  });

  it("refresh reads them: an amount changed outside is drift", async () => {
    const products = await setup();
    const inputs = { ...own, currencyPrices: { EUR: { baseline: 44, trial: 0 } } };
    const { id, outs } = await products.create(inputs);
    const ppId = outs.defaultPricePointId as number;
    await changeBaselineOutside(sim, id, ppId, 40);
    const { props } = await products.read!(id, outs);
    expect(props.currencyPrices).toEqual({ EUR: { baseline: 40, trial: 0 } });
    expect(await products.diff!(id, props, inputs)).toMatchObject({ changes: true, replaces: [] });
  });

  it("a pricing change: the service's new default is replaced by one of its own prices, and the currency prices are carried to it", async () => {
    const products = await setup();
    const before = { ...own, currencyPrices: { EUR: { baseline: 44, trial: 0 } } };
    const { id, outs } = await products.create(before);
    const oldDefault = outs.defaultPricePointId as number;
    sim.reset();
    const after = { ...before, priceInCents: 5900 };
    const { outs: updated } = await products.update!(id, outs, after);
    const now = await held(id);
    const made = Number(/-default-(\d+)$/.exec(String(now.handle))?.[1]);
    expect(steps(sim)).toEqual([
      `PUT /products/${id}.json`,
      `POST /products/${id}/price_points.json`,
      `PATCH /products/${id}/price_points/${now.id}/default.json`,
      `DELETE /products/${id}/price_points/${made}.json`,
      `POST ${currencyPath(now.id)}`,
    ]);
    expect(now).toMatchObject({ useSiteExchangeRate: false, prices: ["EUR baseline 44", "EUR trial 0"] });
    expect(updated).toMatchObject({ priceInCents: 5900, defaultPricePointId: now.id, currencyPrices: before.currencyPrices });
    // The old default stays live for the subscriptions on it, with its prices.
    expect(await pricePoints(id)).toContain(String(outs.defaultPricePointHandle));
    expect(now.id).not.toBe(oldDefault);
    expect((await products.diff!(id, updated, after)).changes).toBe(false);
  });

  it("the currency prices' set fails after the create: recorded, said, and the next up sets only them", async () => {
    const products = await setup(() =>
      proxy(undefined, (method, path) =>
        method === "POST" && path.endsWith("/currency_prices.json") ? "/products/1/default.json" : undefined,
      ),
    );
    const inputs = { ...own, currencyPrices: { EUR: { baseline: 44, trial: 0 } } };
    const { error } = await captureOutput(() => products.create(inputs));
    const partial = error as Failed;
    expect(partial.message).toMatch(
      /^product `rocket` \(id \d+\) was created and recorded; setting what its create could not carry failed: its EUR prices were not all set: .*\. The next `pulumi up` sends it\.$/,
    );
    expect(partial.properties).toMatchObject({ productId: Number(partial.id), currencyPrices: null, args: inputs });
    const next = await direct();
    expect(await next.diff!(partial.id, partial.properties, inputs)).toMatchObject({ changes: true, replaces: [] });
    sim.reset();
    const { outs } = await next.update!(partial.id, partial.properties, inputs);
    const ppId = (await held(partial.id)).id;
    expect(steps(sim)).toEqual([`POST ${currencyPath(ppId)}`]);
    expect(outs).toMatchObject({ defaultPricePointId: ppId, useSiteExchangeRate: false, currencyPrices: inputs.currencyPrices });
    // One product, one default of its own, the service's archived: nothing made twice.
    expect(sim.requests.filter((r) => r.method === "POST" && r.path.endsWith("/products.json"))).toEqual([]);
    expect((await pricePoints(partial.id)).sort()).toEqual([
      expect.stringMatching(/^rocket-default-\d+$/),
      expect.stringMatching(/^uuid:.* \(archived\)$/),
    ]);
  });

  it("the promotion fails after the create: the next up promotes the default it made, and makes no other", async () => {
    const products = await setup(() =>
      proxy(undefined, (method, path) => (method === "PATCH" && path.endsWith("/default.json") ? "/products/1/nothing.json" : undefined)),
    );
    const inputs = { ...own, currencyPrices: { EUR: { baseline: 44, trial: 0 } } };
    const { error } = await captureOutput(() => products.create(inputs));
    const partial = error as Failed;
    expect(partial.message).toMatch(/was created and recorded; setting what its create could not carry failed: /);
    expect(partial.properties).toMatchObject({ useSiteExchangeRate: true, currencyPrices: null });
    const next = await direct();
    expect(await next.diff!(partial.id, partial.properties, inputs)).toMatchObject({ changes: true, replaces: [] });
    sim.reset();
    const { outs } = await next.update!(partial.id, partial.properties, inputs);
    const now = await held(partial.id);
    const replaced = Number(/-default-(\d+)$/.exec(String(now.handle))?.[1]);
    expect(steps(sim)).toEqual([
      `PATCH /products/${partial.id}/price_points/${now.id}/default.json`,
      `DELETE /products/${partial.id}/price_points/${replaced}.json`,
      `POST ${currencyPath(now.id)}`,
    ]);
    expect(outs).toMatchObject({ defaultPricePointId: now.id, useSiteExchangeRate: false, currencyPrices: inputs.currencyPrices });
    expect((await pricePoints(partial.id)).length).toBe(2);
  });
});
