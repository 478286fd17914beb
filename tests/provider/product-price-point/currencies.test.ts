import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { captureOutput, changeBaselineOutside, mutations } from "../support";
import { annual, auth, type Failed, type Json, LAUNCH, label, pricePointSite } from "./site";

/**
 * ProductPricePoint `currencyPrices` at the service: created after the price point (a failure between records the
 * price point and says what was not set; the next up sets it), changed in place, a currency left out kept and said,
 * read by refresh (drift), and not read while the price point follows the exchange rate.
 */

const own = { ...annual, useSiteExchangeRate: false, trialPriceInCents: 0, trialInterval: 7, trialIntervalUnit: "day" as const };
const currencyPath = (id: number | string) => `/product_price_points/${id}/currency_prices.json`;

describe("ProductPricePoint currency prices", () => {
  let sim: Simulator;
  const { setup, proxy } = pricePointSite((started) => {
    sim = started;
    started.configureSite({ nonPrimaryCurrencies: ["EUR", "GBP"], exchangeRates: { EUR: 0.9, GBP: 0.8 } });
  });

  /** What the service holds: GET …?currency_prices=true. */
  async function held(id: number | string) {
    const answer = await fetch(`${sim.url}/products/${LAUNCH}/price_points/${id}.json?currency_prices=true`, { headers: auth });
    const { price_point } = (await answer.json()) as { price_point: { currency_prices: Json[] } };
    return price_point.currency_prices.map((p) => `${p.currency} ${p.role} ${p.price}`).sort();
  }

  it("create: the price point, then its currency prices; the outputs hold them", async () => {
    const { points } = await setup();
    const inputs = { ...own, currencyPrices: { EUR: { baseline: 441, trial: 0 }, GBP: { baseline: 392.5, trial: 0 } } };
    const { id, outs } = await points.create(inputs);
    expect(mutations(sim).map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST /products/${LAUNCH}/price_points.json`,
      `POST ${currencyPath(id)}`,
    ]);
    expect(mutations(sim)[0].body).toMatchObject({ price_point: { use_site_exchange_rate: false } });
    expect(await held(id)).toEqual(["EUR baseline 441", "EUR trial 0", "GBP baseline 392.5", "GBP trial 0"]);
    expect(outs).toMatchObject({ useSiteExchangeRate: false, currencyPrices: inputs.currencyPrices });
    // Recorded as declared: no diff on the next preview.
    expect((await points.diff!(id, outs, inputs)).changes).toBe(false);
  });

  it("a failure after the price point exists: recorded, says what was not set, and the next up sets only that", async () => {
    const { points, connect } = await setup();
    const inputs = { ...own, currencyPrices: { EUR: { baseline: 441, trial: 0 } } };
    // Refused: sent to a path that takes no POST.
    await connect({
      "billing:baseUrl": await proxy((method, path) =>
        method === "POST" && path.endsWith("/currency_prices.json") ? `/products/${LAUNCH}/price_points/1/default.json` : undefined,
      ),
    });
    const { error } = await captureOutput(() => points.create(inputs));
    await connect({ "billing:baseUrl": sim.url });
    const partial = error as Failed;
    expect(partial.message).toMatch(
      new RegExp(
        `^${label("launch-annual", partial.id).replace(/[`()]/g, "\\$&")} was created and recorded; setting what its create could not carry failed: its EUR prices were not all set: .*\\. The next \`pulumi up\` sends it\\.$`,
      ),
    );
    expect(partial.properties).toMatchObject({ pricePointId: Number(partial.id), currencyPrices: null, args: inputs });
    expect(await held(partial.id)).toEqual([]);
    const diff = await points.diff!(partial.id, partial.properties, inputs);
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    sim.reset();
    const { outs } = await points.update!(partial.id, partial.properties, inputs);
    expect(mutations(sim).map((r) => `${r.method} ${r.path}`)).toEqual([`POST ${currencyPath(partial.id)}`]);
    expect(outs.currencyPrices).toEqual(inputs.currencyPrices);
  });

  it("update: a changed amount is a PUT in place, a new currency a POST, nothing else sent", async () => {
    const { points } = await setup();
    const before = { ...own, currencyPrices: { EUR: { baseline: 441, trial: 0 } } };
    const { id, outs } = await points.create(before);
    sim.reset();
    const after = { ...own, currencyPrices: { EUR: { baseline: 450, trial: 1 }, GBP: { baseline: 392, trial: 0 } } };
    expect(await points.diff!(id, outs, after)).toMatchObject({ changes: true, replaces: [] });
    const { outs: updated } = await points.update!(id, outs, after);
    expect(mutations(sim).map((r) => `${r.method} ${r.path}`)).toEqual([`POST ${currencyPath(id)}`, `PUT ${currencyPath(id)}`]);
    expect(await held(id)).toEqual(["EUR baseline 450", "EUR trial 1", "GBP baseline 392", "GBP trial 0"]);
    expect(updated.currencyPrices).toEqual(after.currencyPrices);
    expect(updated.pricePointId).toBe(Number(id));
  });

  it("a currency left out: kept by the service, said, and no diff after", async () => {
    const { points } = await setup();
    const before = { ...own, currencyPrices: { EUR: { baseline: 441, trial: 0 }, GBP: { baseline: 392, trial: 0 } } };
    const { id, outs } = await points.create(before);
    sim.reset();
    const after = { ...own, currencyPrices: { EUR: { baseline: 441, trial: 0 } } };
    expect((await points.diff!(id, outs, after)).changes).toBe(true);
    const { result, text } = await captureOutput(() => points.update!(id, outs, after));
    expect(mutations(sim)).toEqual([]);
    expect(text).toBe(
      `ProductPricePoint: ${label("launch-annual", id)} keeps its GBP price: the declaration leaves it out, and the service has no delete of a currency price (they stay until changed in its web UI).\n`,
    );
    expect(await held(id)).toContain("GBP baseline 392");
    expect((await points.diff!(id, result!.outs, after)).changes).toBe(false);
  });

  it("currencyPrices removed from the declaration: nothing sent, the kept currencies said, no diff after", async () => {
    const { points } = await setup();
    const before = { ...own, currencyPrices: { EUR: { baseline: 441, trial: 0 } } };
    const { id, outs } = await points.create(before);
    sim.reset();
    const { result, text } = await captureOutput(() => points.update!(id, outs, own));
    expect(mutations(sim)).toEqual([]);
    expect(text).toBe(
      `ProductPricePoint: ${label("launch-annual", id)} keeps its EUR price: the declaration leaves it out, and the service has no delete of a currency price (they stay until changed in its web UI).\n`,
    );
    expect(await held(id)).toEqual(["EUR baseline 441", "EUR trial 0"]);
    expect((await points.diff!(id, result!.outs, own)).changes).toBe(false);
  });

  it("refresh reads them: an amount changed outside is drift", async () => {
    const { points } = await setup();
    const inputs = { ...own, currencyPrices: { EUR: { baseline: 441, trial: 0 } } };
    const { id, outs } = await points.create(inputs);
    await changeBaselineOutside(sim, LAUNCH, id, 400);
    const { props } = await points.read!(id, outs);
    expect(props.currencyPrices).toEqual({ EUR: { baseline: 400, trial: 0 } });
    expect(await points.diff!(id, props, inputs)).toMatchObject({ changes: true, replaces: [] });
  });

  it("a price point that follows the exchange rate: its rate prices are not read as its own", async () => {
    const { points } = await setup();
    const { id, outs } = await points.create(annual);
    expect(outs).toMatchObject({ useSiteExchangeRate: true, currencyPrices: null });
    sim.reset();
    const { props } = await points.read!(id, outs);
    expect(props.currencyPrices).toBeNull();
    expect(sim.requests.some((r) => r.query?.currency_prices !== undefined)).toBe(false);
  });
});
