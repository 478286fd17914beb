import { afterEach, describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { captureOutput, unnested } from "../support";
import { auth, label, prepaidWithOverage, startSite, steps, volume } from "./site";

/**
 * ComponentPricePoint `currencyPrices`, one unit price per tier: a count that does not mirror the tiers and a
 * currency the site does not have are check failures before anything is sent; created after the price point,
 * changed in place, a currency left out kept and said, read by refresh; an amount change a pricing change in money.
 */

const own = { ...volume, useSiteExchangeRate: false };
const currencyPath = (id: number | string) => `/price_points/${id}/currency_prices.json`;

describe("ComponentPricePoint currency prices", () => {
  let sim: Simulator;
  afterEach(async () => sim?.close());
  async function setup() {
    const site = await startSite();
    sim = site.sim;
    sim.configureSite({ nonPrimaryCurrencies: ["EUR", "GBP"] });
    return site;
  }

  it.each([
    [
      "one price for two tiers",
      { ...own, currencyPrices: { EUR: ["0.04"] } },
      "currencyPrices.EUR",
      "must hold 2 unit prices, one per tier of prices in their order, then one per tier of a prepaid price point's overagePricing.prices (currency prices mirror the tiers), got 1",
    ],
    [
      "a currency the site does not have",
      { ...own, currencyPrices: { SEK: ["0.4", "0.3"] } },
      "currencyPrices.SEK",
      "is not one of the site's currencies: the site's other currencies are EUR, GBP (its primary currency is USD); a currency is added to the site in its settings (Multi-Currency) first",
    ],
  ])("%s: a failure naming the field, nothing sent", async (_, inputs, property, reason) => {
    const { points } = await setup();
    expect(unnested((await points.check!({}, inputs)).failures)).toStrictEqual([{ property, reason }]);
    expect(steps(sim)).toEqual([]);
  });

  it("create, then update in place, a currency left out kept and said, refresh reads them", async () => {
    const { points, texts } = await setup();
    const inputs = { ...own, currencyPrices: { EUR: ["0.045", "0.03"], GBP: [0.04, 0.02] } };
    const { id, outs } = await points.create!(inputs);
    expect(steps(sim).slice(-1)).toEqual([`POST ${currencyPath(id)}`]);
    expect(Object.keys(outs.currencyPrices as object).sort()).toEqual(["EUR", "GBP"]);
    expect((await points.diff!(id, outs, inputs)).changes).toBe(false);

    sim.reset();
    const after = { ...own, currencyPrices: { EUR: ["0.05", "0.03"] } };
    expect((await points.check!(inputs, after)).inputs.preview).toMatchObject({
      pricingChange: {
        fields: ["currencyPrices"],
        currencies: ["EUR tier 1 EUR 0.045 → tier 1 EUR 0.05", "GBP left out: kept: the service has no delete of a currency price"],
      },
    });
    expect(await points.diff!(id, outs, after)).toMatchObject({ changes: true, replaces: [] });
    const { result, text } = await captureOutput(() => points.update!(id, outs, after));
    expect(steps(sim)).toEqual([`PUT ${currencyPath(id)}`]);
    expect(text).toContain(`ComponentPricePoint: ${label("texts-volume", id)} keeps its GBP price: the declaration leaves it out`);
    expect((await points.diff!(id, result!.outs, after)).changes).toBe(false);

    // Changed outside the stack: refresh reads it, and the diff names it.
    const listed = (await (
      await fetch(`${sim.url}/components/${texts.id}/price_points.json?currency_prices=true`, { headers: auth })
    ).json()) as { price_points: { id: number; currency_prices: { id: number; currency: string }[] }[] };
    const record = listed.price_points.find((p) => p.id === Number(id))?.currency_prices.find((c) => c.currency === "EUR") as {
      id: number;
    };
    await fetch(`${sim.url}${currencyPath(id)}`, {
      method: "PUT",
      headers: auth,
      body: JSON.stringify({ currency_prices: [{ id: record.id, price: 0.01 }] }),
    });
    const { props } = await points.read!(id, result!.outs);
    expect((props.currencyPrices as Record<string, unknown[]>).EUR).toHaveLength(2);
    expect(Number((props.currencyPrices as Record<string, unknown[]>).EUR?.[0])).toBe(0.01);
    expect(await points.diff!(id, props, after)).toMatchObject({ changes: true, replaces: [] });
  });

  // The service asks a currency for "each price level defined on the component price point": a prepaid point's
  // overage tiers are price levels of their own, so a currency prices them after the tiers.
  it("a prepaid price point: one price per tier, then per overage tier; the overage's left out is a failure before anything is sent", async () => {
    const { points } = await setup();
    const own = { ...prepaidWithOverage, useSiteExchangeRate: false };
    expect(unnested((await points.check!({}, { ...own, currencyPrices: { EUR: [1.8] } })).failures)).toStrictEqual([
      {
        property: "currencyPrices.EUR",
        reason:
          "must hold 2 unit prices, one per tier of prices in their order, then one per tier of a prepaid price point's overagePricing.prices (currency prices mirror the tiers), got 1",
      },
    ]);
    expect(steps(sim)).toEqual([]);
    const inputs = { ...own, currencyPrices: { EUR: ["1.8", "0.09"] } };
    const { id, outs } = await points.create!(inputs);
    expect(steps(sim).slice(-1)).toEqual([`POST ${currencyPath(id)}`]);
    expect((outs.currencyPrices as Record<string, unknown[]>).EUR.map(Number)).toEqual([1.8, 0.09]);
    expect((await points.diff!(id, outs, inputs)).changes).toBe(false);
    const { props } = await points.read!(id, outs);
    expect((props.currencyPrices as Record<string, unknown[]>).EUR.map(Number)).toEqual([1.8, 0.09]);
  });

  it("adopting a price point whose own prices differ: the preview's pricing change per tier in money, nothing sent", async () => {
    const { points } = await setup();
    await points.create!({ ...own, currencyPrices: { EUR: ["0.045", "0.03"] } });
    sim.reset();
    const checked = await points.check!({}, { ...own, currencyPrices: { EUR: ["0.05", "0.03"] } });
    expect(checked.failures).toEqual([]);
    expect((checked.inputs.preview as { pricingChange?: unknown }).pricingChange).toMatchObject({
      fields: ["currencyPrices"],
      currencies: ["EUR tier 1 EUR 0.045 → tier 1 EUR 0.05"],
      effect: expect.stringMatching(/^the adopted price point's prices in those currencies are changed in place: /),
    });
    expect(steps(sim)).toEqual([]);
  });
});
