import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Simulator, startSimulator } from "../../simulator";
import { call } from "./helpers";

// Everything issue 41 added, across a restart on a --data file: currency prices, metafields and their data counts,
// reason codes, offers (archived ones and signup pages too), the site's settings; and no id handed out twice after.

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "sim-config-"));
  file = path.join(dir, "site.json");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Every read a client could make of what issue 41 added. */
async function everything(sim: Simulator) {
  return {
    site: (await call(sim, "GET", "/site.json")).body,
    productPrices: (await call(sim, "GET", "/products/1/price_points/101.json?currency_prices=true")).body,
    componentPrices: (await call(sim, "GET", "/components/30001/price_points.json?currency_prices=true")).body,
    coupon: (await call(sim, "GET", "/coupons.json?currency_prices=true")).body,
    subscriptionFields: (await call(sim, "GET", "/subscriptions/metafields.json")).body,
    customerFields: (await call(sim, "GET", "/customers/metafields.json")).body,
    reasonCodes: (await call(sim, "GET", "/reason_codes.json")).body,
    offers: (await call(sim, "GET", "/offers.json?include_archived=true")).body,
  };
}

describe("a site's configuration across a restart", () => {
  it("is answered alike, and what is made next gets new ids", async () => {
    const first = await startSimulator({ dataFile: file, nonPrimaryCurrencies: ["EUR", "GBP"], exchangeRates: { GBP: 0.8 }, live: true });
    first.addProductFamily({ id: 9001, handle: "saas" });
    first.addProduct({
      id: 1,
      handle: "pro",
      familyHandle: "saas",
      pricePoints: [{ id: 101, handle: "m", default: true, useSiteExchangeRate: false }],
    });
    first.addComponent({ id: 30001, familyHandle: "saas", kind: "metered", handle: "calls", pricePoints: [{ handle: "rated" }] });
    first.addCoupon({ familyHandle: "saas", code: "TEN", amountInCents: 1000 });
    await call(first, "POST", "/product_price_points/101/currency_prices.json", {
      body: { currency_prices: [{ currency: "EUR", role: "baseline", price: 9 }] },
    });
    await call(first, "PUT", "/coupons/60001/currency_prices.json", { body: { currency_prices: [{ currency: "GBP", price: 8 }] } });
    await call(first, "POST", "/subscriptions/metafields.json", {
      body: { metafields: { name: "Color", input_type: "radio", enum: ["red"] } },
    });
    first.addMetafield({ resourceType: "customers", name: "Tier", dataCount: 4, scope: { portal: "1", hosted: ["page"] } });
    await call(first, "POST", "/reason_codes.json", { body: { reason_code: { code: "PRICE", description: "Too dear", position: 3 } } });
    const offer = (
      await call(first, "POST", "/offers.json", { body: { offer: { name: "Solo", handle: "solo", product_id: 1, coupons: ["TEN"] } } })
    ).body.offer;
    await call(first, "PUT", `/offers/${offer.id}/archive.json`);
    first.addOffer({ handle: "paged", productHandle: "pro", signupPages: [{ nickname: "p" }] });
    const before = await everything(first);
    await first.close();

    const second = await startSimulator({ dataFile: file });
    try {
      expect(second.restored).toBe(true);
      expect(await everything(second)).toEqual(before);
      expect(before.site.site).toMatchObject({ non_primary_currencies: ["EUR", "GBP"], test: false });
      expect(second.siteSettings().exchangeRates).toEqual({ EUR: 1, GBP: 0.8 });
      const price = (
        await call(second, "POST", "/product_price_points/101/currency_prices.json", {
          body: { currency_prices: [{ currency: "GBP", role: "baseline", price: 7 }] },
        })
      ).body.currency_prices;
      const oldPriceIds = [...before.productPrices.price_point.currency_prices, ...before.coupon[0].coupon.currency_prices].map(
        (p: any) => p.id,
      );
      expect(oldPriceIds).not.toContain(price.find((p: any) => p.currency === "GBP").id);
      const field = (await call(second, "POST", "/subscriptions/metafields.json", { body: { metafields: { name: "Size" } } })).body[0];
      expect([...before.subscriptionFields.metafields, ...before.customerFields.metafields].map((m: any) => m.id)).not.toContain(field.id);
      const code = (await call(second, "POST", "/reason_codes.json", { body: { reason_code: { code: "NEW", description: "n" } } })).body
        .reason_code;
      expect(before.reasonCodes.map((r: any) => r.reason_code.id)).not.toContain(code.id);
      expect(code.position).toBe(4);
      const next = (await call(second, "POST", "/offers.json", { body: { offer: { name: "Duo", handle: "duo", product_id: 1 } } })).body
        .offer;
      expect(before.offers.offers.map((o: any) => o.id)).not.toContain(next.id);
      expect(
        (await call(second, "POST", "/offers.json", { body: { offer: { name: "Again", handle: "solo", product_id: 1 } } })).status,
      ).toBe(422);
    } finally {
      await second.close();
    }
  });
});
