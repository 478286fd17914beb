import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { pathsOf } from "../support";
import { declared, offerSite } from "./site";

/**
 * Offer check(): each field's bad value is a failure naming it, before anything is sent; a reference that names
 * nothing at the site is a failure naming its input; references in another form or order check the same.
 */

describe("Offer check", () => {
  let sim: Simulator;
  const { setup } = offerSite((started) => {
    sim = started;
  });

  it.each([
    ["handle", { handle: "Launch Bundle" }, /handle|lowercase/i],
    // Found by the check fuzz: a catalog handle's '.' and ':' passed check, and the service refused the create
    // ("Handles can only contain lowercase letters, numbers, dashes and underscores.").
    ["handle", { handle: "launch.bundle" }, /only lowercase letters, numbers, '-' and '_'/],
    ["handle", { handle: "launch:bundle" }, /refuses '\.' and ':' in an offer's handle/],
    ["name", { name: "   " }, /only spaces/],
    ["description", { description: 7 }, /string|text|description/i],
    ["product", { product: "launch-pro" }, /handle:<handle>/],
    ["product", { product: 0 }, /product's id/],
    ["productPricePoint", { productPricePoint: -3 }, /price point's id/],
    ["components", { components: "seats" }, /list of \{ component/],
    ["components.0.component", { components: [{ component: "seats", startingQuantity: 1 }] }, /handle:<handle>/],
    ["components.0.startingQuantity", { components: [{ component: "handle:seats", startingQuantity: -1 }] }, /0 or more/],
    ["components.0.startingQuantity", { components: [{ component: "handle:seats", startingQuantity: 1.5 }] }, /no fractions/],
    [
      "components",
      {
        components: [
          { component: 3, startingQuantity: 1 },
          { component: 3, startingQuantity: 2 },
        ],
      },
      /twice/,
    ],
    ["coupons.0", { coupons: ["spring25"] }, /coupon's code/],
    ["coupons", { coupons: ["SPRING25", "handle:SPRING25"] }, /twice/],
    ["adopt", { adopt: "yes" }, /./],
    ["site", { site: "" }, /billing:sites/],
  ])("a bad %s: %j", async (property, bad, reason) => {
    const { offers } = await setup();
    const { failures } = await offers.check!({}, { ...declared, ...bad });
    expect(pathsOf(failures)).toEqual([property]);
    expect(failures?.[0]?.reason).toMatch(reason);
    expect(sim.requests.filter((r) => r.path.startsWith("/offers"))).toEqual([]);
  });

  it.each([
    ["product", { product: "handle:nope" }, /no product has the handle `nope`/],
    ["productPricePoint", { productPricePoint: "handle:nope" }, /no price point of product `launch-pro` has the handle `nope`/],
    ["components", { components: [{ component: "handle:nope", startingQuantity: 1 }] }, /no component has the handle `nope`/],
    [
      "components",
      { components: [{ component: "handle:seats", pricePoint: "handle:nope", startingQuantity: 1 }] },
      /price point of component/,
    ],
    ["coupons", { coupons: [987654] }, /no coupon has the id 987654 .*: name a coupon the site holds/],
    ["coupons", { coupons: ["NOPE"] }, /no coupon has the code `?NOPE/],
    ["product", { product: 987654 }, /no product has the id 987654 .*: name a product the site holds/],
    // Found by the check fuzz: an id of no component, with a price point, made check throw the price point list's 404.
    [
      "components",
      { components: [{ component: 987654, pricePoint: "handle:nope", startingQuantity: 1 }] },
      /no component has the id 987654 .*: name a component the site holds/,
    ],
    [
      "components",
      { components: [{ component: "handle:support", startingQuantity: 2 }] },
      /component `support` is on\/off: it starts at 0 or 1/,
    ],
  ])("a %s that names nothing at the site: %j", async (property, bad, reason) => {
    const { offers } = await setup();
    const { failures } = await offers.check!({}, { ...declared, ...bad });
    expect(pathsOf(failures)).toEqual([property]);
    expect(failures?.[0]?.reason).toMatch(reason);
    expect(sim.requests.filter((r) => r.method !== "GET")).toEqual([]);
  });

  it("a missing product and name are named", async () => {
    const { offers } = await setup();
    const { failures } = await offers.check!({}, { handle: "x" });
    expect(pathsOf(failures).sort()).toEqual(["name", "product"]);
  });

  it("references by id, in another order, diff as the same offer", async () => {
    const { offers, catalog } = await setup();
    const made = await offers.create({
      ...declared,
      components: [
        { component: "handle:support", startingQuantity: 1 },
        { component: "handle:seats", pricePoint: "handle:seats-bulk", startingQuantity: 5 },
      ],
      coupons: ["WELCOME", "SPRING25"],
    });
    const reordered = {
      ...declared,
      components: [
        { component: "handle:seats", pricePoint: "handle:seats-bulk", startingQuantity: 5 },
        { component: "handle:support", startingQuantity: 1 },
      ],
      coupons: ["handle:SPRING25", "WELCOME"],
    };
    expect(await offers.diff!(made.id, made.outs, reordered)).toMatchObject({ changes: false });
    // The same product by its id: no service change, so in place (nothing is sent), never a replacement.
    const byId = { ...reordered, product: catalog.product.id };
    expect((await offers.check!(made.outs, byId)).failures).toEqual([]);
    expect(await offers.diff!(made.id, made.outs, byId)).toMatchObject({ changes: true, replaces: [] });
  });
});
