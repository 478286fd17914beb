import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { declared, type Json, offerSite, steps } from "./site";

/** Offer create: every reference resolved to the site's ids before one POST; the outputs as the service holds them. */

describe("Offer create", () => {
  let sim: Simulator;
  const { setup, held } = offerSite((started) => {
    sim = started;
  });

  it("sends the references as the site's ids and coupon codes, once, and records what the service holds", async () => {
    const { offers, catalog } = await setup();
    const { id, outs } = await offers.create({ ...declared, description: "Pro with seats", coupons: [catalog.welcome.id, "SPRING25"] });
    const posts = sim.requests.filter((r) => r.method === "POST");
    expect(posts.map((r) => (r.body as Json).offer)).toEqual([
      {
        name: "Launch bundle",
        handle: "launch-bundle",
        description: "Pro with seats",
        product_id: catalog.product.id,
        product_price_point_id: catalog.annual,
        components: [{ component_id: catalog.seats.id, price_point_id: catalog.bulk.id, starting_quantity: 5 }],
        coupons: ["WELCOME", "SPRING25"],
      },
    ]);
    expect(outs).toMatchObject({
      offerId: Number(id),
      handle: "launch-bundle",
      productId: catalog.product.id,
      productPricePointId: catalog.annual,
      productFamilyId: catalog.family.id,
      components: [{ componentId: catalog.seats.id, pricePointId: catalog.bulk.id, startingQuantity: 5 }],
      couponCodes: ["SPRING25", "WELCOME"],
      signupPages: [],
      archivedAt: null,
    });
    expect(held("launch-bundle")?.couponIds.sort()).toEqual([catalog.spring.id, catalog.welcome.id].sort());
    expect(steps(sim)).toEqual(["POST /offers.json"]);
  });

  it("left out, the price points are the defaults the service chose, and the offer lives on the named site", async () => {
    const { offers, catalog } = await setup();
    const { outs } = await offers.create({
      handle: "plain",
      name: "Plain",
      product: catalog.product.id,
      components: [{ component: catalog.support.id, startingQuantity: 1 }],
      site: "eu",
    });
    const product = sim.offers().find((o) => o.handle === "plain");
    expect(outs).toMatchObject({ site: "eu", productPricePointId: product?.pricePointId, couponCodes: [] });
    expect(outs.productPricePointId).not.toBe(catalog.annual);
  });

  it("the service's refusal (an on/off component by id, starting at 2) says what it refused; nothing is recorded", async () => {
    const { offers, catalog } = await setup();
    await expect(offers.create({ ...declared, components: [{ component: catalog.support.id, startingQuantity: 2 }] })).rejects.toThrow(
      /On\/Off component can only be '1' or '0'/,
    );
    expect(held("launch-bundle")).toBeUndefined();
  });
});
