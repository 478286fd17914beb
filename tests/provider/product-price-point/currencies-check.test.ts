import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { mutations, pathsOf, UNKNOWN, unnested } from "../support";
import { annual, pricePointSite } from "./site";

/**
 * ProductPricePoint check() of `currencyPrices` and `useSiteExchangeRate`: the mirror of the pricing, the exchange
 * rate's rule and the site's currencies are check failures naming the field, before anything is sent; the site is
 * read once per site, and not while it is unknown; a change of currency amounts is a pricing change in money.
 */

const own = { ...annual, useSiteExchangeRate: false };
const siteReads = (sim: Simulator) => sim.requests.filter((r) => r.path === "/site.json").length;

describe("ProductPricePoint check of currency prices", () => {
  let sim: Simulator;
  const { setup } = pricePointSite((started) => {
    sim = started;
    started.configureSite({ nonPrimaryCurrencies: ["EUR", "GBP"] });
  });

  it.each([
    [
      "a trial without its amount",
      { trialPriceInCents: 100, trialInterval: 7, trialIntervalUnit: "day" },
      { EUR: { baseline: 9 } },
      "currencyPrices.EUR.trial",
      "is required: the price point has a trial (trialPriceInCents), and each currency must define it too (currency prices mirror the primary pricing)",
    ],
    [
      "an initial amount without an initial charge",
      {},
      { GBP: { baseline: 8, initial: 20 } },
      "currencyPrices.GBP.initial",
      "must be left out: the price point has no initial charge (initialChargeInCents), and currency prices mirror the primary pricing (roles: baseline)",
    ],
    [
      "the site's primary currency",
      {},
      { USD: { baseline: 8 } },
      "currencyPrices.USD",
      "is the site's primary currency: the object's own prices are in it; currency prices are for its other currencies (EUR, GBP)",
    ],
    [
      "a currency the site does not have",
      {},
      { JPY: { baseline: 800 } },
      "currencyPrices.JPY",
      "is not one of the site's currencies: the site's other currencies are EUR, GBP (its primary currency is USD); a currency is added to the site in its settings (Multi-Currency) first",
    ],
  ])("%s: a failure naming the currency and the role", async (_, pricing, currencyPrices, property, reason) => {
    const { points } = await setup();
    const { failures } = await points.check!({}, { ...own, ...pricing, currencyPrices });
    expect(unnested(failures)).toStrictEqual([{ property, reason }]);
    expect(mutations(sim)).toEqual([]);
  });

  it("currency prices while following the exchange rate (the service's default): refused naming useSiteExchangeRate", async () => {
    const { points } = await setup();
    const { failures } = await points.check!({}, { ...annual, currencyPrices: { EUR: { baseline: 9 } } });
    expect(pathsOf(failures)).toEqual(["useSiteExchangeRate"]);
    expect(failures![0].reason).toMatch(/^must be false with currencyPrices: /);
  });

  it("a malformed map: the schema's failure, nothing read", async () => {
    const { points } = await setup();
    const { failures } = await points.check!({}, { ...own, currencyPrices: { eur: { baseline: -1 } } });
    expect(unnested(failures)).toEqual([
      { property: "currencyPrices.eur", reason: "must be an object from currency code to { baseline, trial?, initial? }, e.g. { EUR: … }" },
    ]);
    expect(siteReads(sim)).toBe(0);
  });

  // Found by the catalog check fuzz: a key no currency's amounts take was only "is not a known property", saying
  // nothing of what is (the runtime listed the accepted keys of the inputs' own objects, not of a record's values).
  it("an unknown role in a currency's amounts: the failure names the roles accepted", async () => {
    const { points } = await setup();
    const { failures } = await points.check!({}, { ...own, currencyPrices: { EUR: { baseline: 9, setup: 1 } } });
    expect(unnested(failures)).toEqual([
      { property: "currencyPrices.EUR.setup", reason: "is not a known property (accepted: baseline, trial, initial)" },
    ]);
    expect(mutations(sim)).toEqual([]);
  });

  it("the site's currencies are read once per site, and not while the site is unknown", async () => {
    const { points } = await setup();
    const declared = { ...own, currencyPrices: { EUR: { baseline: 9 } } };
    expect((await points.check!({}, { ...declared, site: UNKNOWN })).failures).toEqual([]);
    expect(siteReads(sim)).toBe(0);
    for (const handle of ["a", "b", "c"]) expect((await points.check!({}, { ...declared, handle })).failures).toEqual([]);
    expect(siteReads(sim)).toBe(1);
  });

  it("a role's presence not known until up: only the site is checked", async () => {
    const { points } = await setup();
    const { failures } = await points.check!(
      {},
      { ...own, initialChargeInCents: UNKNOWN, currencyPrices: { EUR: { baseline: 9 }, XTS: { baseline: 1 } } },
    );
    expect(pathsOf(failures)).toEqual(["currencyPrices.XTS"]);
  });

  it("a change of currency amounts: a pricing change in money, per currency, applied in place", async () => {
    const { points } = await setup();
    const olds = { ...own, currencyPrices: { EUR: { baseline: 9 }, GBP: { baseline: 8 } } };
    const news = { ...own, currencyPrices: { EUR: { baseline: 9.5 } } };
    const checked = await points.check!(olds, news);
    expect(checked.failures).toEqual([]);
    expect(checked.inputs.preview).toEqual({
      pricingChange: {
        fields: ["currencyPrices"],
        from: { currencyPrices: olds.currencyPrices },
        to: { currencyPrices: news.currencyPrices },
        currencies: ["EUR baseline EUR 9.00 → baseline EUR 9.50", "GBP left out: kept: the service has no delete of a currency price"],
        effect:
          "in place: its prices in those currencies change in place (the price point stays); a currency left out keeps its prices: the service has no delete of a currency price",
      },
    });
    expect((await points.diff!("1", { ...olds, args: olds, handle: olds.handle }, news)).replaces).toEqual([]);
  });

  it("a price change with currency amounts: the replacement, both listed", async () => {
    const { points } = await setup();
    const olds = { ...own, currencyPrices: { EUR: { baseline: 9 } } };
    const news = { ...own, priceInCents: 59000, currencyPrices: { EUR: { baseline: 11 } } };
    const { pricingChange } = (await points.check!(olds, news)).inputs.preview as { pricingChange: Record<string, unknown> };
    expect(pricingChange).toMatchObject({
      fields: ["priceInCents", "currencyPrices"],
      currencies: ["EUR baseline EUR 9.00 → baseline EUR 11.00"],
      effect: expect.stringMatching(/^replaced: /),
    });
  });

  it("useSiteExchangeRate changed: a replacement (the service's update does not take it)", async () => {
    const { points } = await setup();
    const { id, outs } = await points.create(own);
    expect((await points.diff!(id, outs, { ...own, useSiteExchangeRate: true })).replaces).toEqual(["useSiteExchangeRate"]);
  });

  it("adopting a price point whose own prices differ: the preview's pricing change in money, nothing sent", async () => {
    const { points } = await setup();
    await points.create({ ...own, currencyPrices: { EUR: { baseline: 9 }, GBP: { baseline: 8 } } });
    sim.reset();
    // Another stack's declaration of the same handle: adopted, its EUR amount converged in place.
    const news = { ...own, currencyPrices: { EUR: { baseline: 9.5 }, GBP: { baseline: 8 } } };
    const checked = await points.check!({}, news);
    expect(checked.failures).toEqual([]);
    expect((checked.inputs.preview as { pricingChange?: unknown }).pricingChange).toEqual({
      fields: ["currencyPrices"],
      from: { currencyPrices: { EUR: { baseline: 9 }, GBP: { baseline: 8 } } },
      to: { currencyPrices: news.currencyPrices },
      currencies: ["EUR baseline EUR 9.00 → baseline EUR 9.50"],
      effect:
        "in place on the adopted price point: its prices in those currencies change in place (the price point stays); a currency left out keeps its prices: the service has no delete of a currency price",
    });
    expect(mutations(sim)).toEqual([]);
    // The same amounts: an adoption with no pricing change.
    const same = await points.check!({}, { ...own, currencyPrices: { EUR: { baseline: 9 }, GBP: { baseline: 8 } } });
    expect((same.inputs.preview as { pricingChange?: unknown }).pricingChange).toBeUndefined();
  });
});
