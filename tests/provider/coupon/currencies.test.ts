import { describe, expect, it } from "vitest";
import { captureOutput, unnested } from "../support";
import { couponSite, label, steps } from "./site";

/**
 * Coupon `currencyPrices`: a percentage coupon and a currency the site does not have are check failures before
 * anything is sent; a flat-amount coupon's are set after its create, changed in place, a currency left out kept and
 * said, read by refresh; an amount change is a pricing change in money at preview.
 */

const flat = { productFamily: "handle:plans", code: "TENOFF", name: "Ten off", amountInCents: 1000 };
const currencyPath = (id: number | string) => `/coupons/${id}/currency_prices.json`;

describe("Coupon currency prices", () => {
  const { setup } = couponSite();
  const site = async () => {
    const s = await setup();
    s.sim.configureSite({ nonPrimaryCurrencies: ["EUR", "GBP"] });
    return s;
  };

  it.each([
    [
      "a percentage coupon",
      { ...flat, amountInCents: undefined, percentage: 10, currencyPrices: { EUR: 9 } },
      "currencyPrices",
      /^must be left out for a percentage coupon \(percentage 10\): the service takes currency prices only for an amount-based coupon/,
    ],
    [
      "a currency the site does not have",
      { ...flat, currencyPrices: { CHF: 9 } },
      "currencyPrices.CHF",
      /^is not one of the site's currencies: the site's other currencies are EUR, GBP/,
    ],
  ])("%s: a failure naming the field, nothing sent", async (_, inputs, property, reason) => {
    const { coupons, sim } = await site();
    const { failures } = await coupons.check!({}, inputs);
    expect(unnested(failures)).toEqual([{ property, reason: expect.stringMatching(reason) }]);
    expect(steps(sim)).toEqual([]);
  });

  it("create, then update in place, a currency left out kept and said, refresh reads them", async () => {
    const { coupons, sim } = await site();
    const inputs = { ...flat, currencyPrices: { EUR: 9, GBP: 8 } };
    const { id, outs } = await coupons.create(inputs);
    expect(steps(sim).slice(-1)).toEqual([`PUT ${currencyPath(id)}`]);
    expect(outs.currencyPrices).toEqual({ EUR: 9, GBP: 8 });
    expect((await coupons.diff!(id, outs, inputs)).changes).toBe(false);

    sim.reset();
    const after = { ...flat, currencyPrices: { EUR: 10 } };
    const checked = await coupons.check!(inputs, after);
    expect(checked.inputs.preview).toMatchObject({
      pricingChange: {
        fields: ["currencyPrices"],
        currencies: ["EUR EUR 9.00 → EUR 10.00", "GBP left out: kept: the service has no delete of a currency price"],
      },
    });
    expect(await coupons.diff!(id, outs, after)).toMatchObject({ changes: true, replaces: [] });
    const { result, text } = await captureOutput(() => coupons.update!(id, outs, after));
    expect(steps(sim)).toEqual([`PUT ${currencyPath(id)}`]);
    expect(text).toContain(`Coupon: ${label("TENOFF", id)} keeps its GBP price: the declaration leaves it out`);
    expect(result?.outs.currencyPrices).toEqual({ EUR: 10, GBP: 8 });
    expect((await coupons.diff!(id, result!.outs, after)).changes).toBe(false);

    // Changed in the web UI: refresh sees it, and the diff names it.
    sim.addCouponCurrencyPrices(Number(id), [{ currency: "EUR", price: 7 }]);
    const { props } = await coupons.read!(id, result!.outs);
    expect(props.currencyPrices).toMatchObject({ EUR: 7 });
    expect((await coupons.diff!(id, props, after)).changes).toBe(true);
  });
});
