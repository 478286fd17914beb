import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { KEY } from "../support";
import { declared, offerSite } from "./site";

/**
 * What the service makes no new offer of (an archived product, price point, component or coupon: they take no new
 * subscribers) is refused at preview for a new offer, naming the input, before anything is sent; an offer the site
 * holds already may name what was archived since, and is adopted. A price point of another product is never one.
 */

describe("Offer references to archived objects", () => {
  let sim: Simulator;
  const { setup } = offerSite((started) => {
    sim = started;
  });

  it.each([
    [
      "product",
      () => sim.addProduct({ handle: "old-pro", familyHandle: "plans", priceInCents: 100, archived: true }),
      { product: "handle:old-pro", productPricePoint: undefined },
      /product `old-pro` \(id \d+\) is archived/,
    ],
    [
      "coupons",
      () => sim.addCoupon({ familyHandle: "plans", code: "GONE10", percentage: 10, archived: true }),
      { coupons: ["GONE10"] },
      /coupon `GONE10` is archived/,
    ],
    [
      "components",
      () => sim.addComponent({ familyHandle: "plans", kind: "on_off", handle: "fax", unitPrice: 1, archived: true }),
      { components: [{ component: "handle:fax", startingQuantity: 1 }] },
      /component `fax` \(id \d+\) is archived/,
    ],
  ])("an archived %s is refused for a new offer, naming it; nothing is sent", async (property, make, change, reason) => {
    const { offers } = await setup();
    make();
    const { failures } = await offers.check!({}, { ...declared, ...change });
    expect(failures?.map((f) => f.property)).toEqual([property]);
    expect(failures?.[0]?.reason).toMatch(reason);
    expect(failures?.[0]?.reason).toMatch(/the service makes no new offer of it/);
    expect(sim.requests.filter((r) => r.method !== "GET")).toEqual([]);
  });

  it("an archived price point is refused for a new offer; an offer holding it already is adopted", async () => {
    const { offers, catalog } = await setup();
    sim.addOffer({
      handle: "launch-bundle",
      name: "Launch bundle",
      productHandle: "launch-pro",
      pricePointHandle: "launch-pro-annual",
      components: [{ componentHandle: "seats", pricePointHandle: "seats-bulk", startingQuantity: 5 }],
      couponCodes: ["SPRING25"],
    });
    // Archived since, in the web UI (the API's archive of a price point).
    await fetch(`${sim.url}/products/${catalog.product.id}/price_points/${catalog.annual}.json`, {
      method: "DELETE",
      headers: { authorization: `Basic ${Buffer.from(`${KEY}:x`).toString("base64")}` },
    });
    const adopted = await offers.check!({}, declared);
    expect(adopted.failures).toEqual([]);
    expect(adopted.inputs.preview).toMatchObject({ adopt: { handle: "launch-bundle" } });
    const fresh = await offers.check!({}, { ...declared, handle: "launch-bundle-2" });
    expect(fresh.failures).toEqual([
      {
        property: "productPricePoint",
        reason: expect.stringMatching(
          /price point `launch-pro-annual` of product `launch-pro` is archived .*the service makes no new offer of it/,
        ),
      },
    ]);
  });

  it("a price point of another product, by id, is never the offer's", async () => {
    const { offers } = await setup();
    const other = sim.addProduct({ handle: "other", familyHandle: "plans", priceInCents: 100 });
    const { failures } = await offers.check!({}, { ...declared, productPricePoint: other.pricePoints[0]?.id });
    expect(failures).toEqual([
      {
        property: "productPricePoint",
        reason: `price point ${other.pricePoints[0]?.id} is not one of product \`launch-pro\`'s: name one of its price points (its id, or "handle:<handle>")`,
      },
    ]);
  });
});
