import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DATA_VERSION, DataFileError, type Simulator, startSimulator } from "../../simulator";
import { call } from "./helpers";

// Components and coupons in the data file (version 3): a restarted simulator answers every read as the stopped one
// did and hands out no id twice; version 2 files (before components and coupons) are still read and upgraded.

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "sim-components-"));
  file = path.join(dir, "site.json");
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** Every component and coupon read a client can make, archived ones included. */
async function everything(sim: Simulator) {
  const components = (await call(sim, "GET", "/components.json?include_archived=true&per_page=200")).body;
  const pricePoints = [];
  for (const { component } of components)
    pricePoints.push((await call(sim, "GET", `/components/${component.id}/price_points.json?archived=true&per_page=200`)).body);
  const coupons = (await call(sim, "GET", "/coupons.json?per_page=200")).body;
  // price_points_url names the simulator's own address, which a restart on another port changes.
  return JSON.parse(JSON.stringify({ components, pricePoints, coupons }).replaceAll(sim.url, "URL"));
}

describe("components and coupons across a restart", () => {
  it("keeps components (archived, repriced, promoted), their price points and brackets, coupons and restrictions, and their ids", async () => {
    const first = await startSimulator({ dataFile: file });
    first.addProductFamily({ id: 9001, handle: "saas" });
    first.addProduct({ handle: "pro", familyHandle: "saas" });
    first.addComponent({
      familyHandle: "saas",
      kind: "prepaid_usage",
      handle: "minutes",
      unitPrice: 2,
      overagePricing: { pricingScheme: "stairstep", prices: [{ startingQuantity: 1, endingQuantity: 100, unitPrice: 3 }] },
      rolloverPrepaidRemainder: true,
      expirationInterval: 2,
      expirationIntervalUnit: "month",
    });
    first.addComponent({ familyHandle: "saas", kind: "on_off", handle: "legacy", archived: true, unitPrice: 5 });
    const seats = (
      await call(first, "POST", "/product_families/9001/quantity_based_components.json", {
        body: {
          quantity_based_component: {
            name: "Seats",
            unit_name: "seat",
            handle: "seats",
            pricing_scheme: "tiered",
            prices: [
              { starting_quantity: 1, ending_quantity: 10, unit_price: 10 },
              { starting_quantity: 11, unit_price: 8 },
            ],
          },
        },
      })
    ).body.component;
    const pp = (
      await call(first, "POST", `/components/${seats.id}/price_points.json`, {
        body: {
          price_point: {
            name: "Annual",
            handle: "annual",
            pricing_scheme: "per_unit",
            prices: [{ starting_quantity: 1, unit_price: 90 }],
            interval: 12,
            interval_unit: "month",
          },
        },
      })
    ).body.price_point;
    await call(first, "PUT", `/components/${seats.id}/price_points/${seats.default_price_point_id}.json`, {
      body: { price_point: { prices: [{ id: seats.prices[1].id, unit_price: "7.5" }] } },
    });
    await call(first, "PUT", `/components/${seats.id}/price_points/${pp.id}/default.json`);
    await call(first, "DELETE", `/components/${seats.id}/price_points/${seats.default_price_point_id}.json`);
    await call(first, "POST", "/product_families/9001/coupons.json", {
      body: { coupon: { name: "Ten", code: "TEN", percentage: "33.3333", recurring: true }, restricted_components: { [seats.id]: true } },
    });
    first.addCoupon({ familyHandle: "saas", code: "OLD", amountInCents: 500, restrictedProducts: ["pro"], archived: true });
    const before = await everything(first);
    await first.close();

    const stored = JSON.parse(await readFile(file, "utf8"));
    // Version 4 (issue 41) added the site's settings and configuration; components and coupons are as version 3 kept them.
    expect(stored.version).toBe(4);
    expect(DATA_VERSION).toBe(4);
    expect(stored.site.components).toHaveLength(3);
    expect(stored.site.coupons).toHaveLength(2);

    const second = await startSimulator({ dataFile: file });
    try {
      expect(second.restored).toBe(true);
      expect(await everything(second)).toEqual(before);
      expect(second.components()).toHaveLength(3);
      // No id is handed out twice: a new component, price point, bracket, coupon and restriction each get a new one.
      const next = (
        await call(second, "POST", "/product_families/9001/metered_components.json", {
          body: { metered_component: { name: "N", unit_name: "n", pricing_scheme: "per_unit", unit_price: 1 } },
        })
      ).body.component;
      const allComponents = before.components.map((c: any) => c.component.id);
      expect(allComponents).not.toContain(next.id);
      const oldPricePoints = before.pricePoints.flatMap((l: any) => l.price_points.map((x: any) => x.id));
      const oldPrices = before.pricePoints.flatMap((l: any) => l.price_points.flatMap((x: any) => x.prices.map((y: any) => y.id)));
      expect(oldPricePoints).not.toContain(next.default_price_point_id);
      expect(oldPrices).not.toContain(next.prices[0].id);
      const coupon = (
        await call(second, "POST", "/product_families/9001/coupons.json", {
          body: { coupon: { name: "N", code: "NEW", amount_in_cents: 1 }, restricted_components: { [next.id]: true } },
        })
      ).body.coupon;
      expect(before.coupons.map((c: any) => c.coupon.id)).not.toContain(coupon.id);
      const oldRestrictions = before.coupons.flatMap((c: any) => c.coupon.coupon_restrictions.map((r: any) => r.id));
      expect(oldRestrictions).not.toContain(coupon.coupon_restrictions[0].id);
    } finally {
      await second.close();
    }
  });

  it("reads a version 2 file: no components or coupons, and the file becomes the current version at the first change", async () => {
    const first = await startSimulator({ dataFile: file });
    first.addProductFamily({ id: 9001, handle: "saas" });
    first.addProduct({ handle: "pro", familyHandle: "saas" });
    await first.close();
    const current = JSON.parse(await readFile(file, "utf8"));
    // Version 2 had neither version 3's components and coupons nor version 4's settings and configuration.
    const {
      components: _c,
      coupons: _k,
      settings: _s,
      productCurrencyPrices: _p,
      componentCurrencyPrices: _q,
      couponCurrencyPrices: _r,
      metafields: _m,
      reasonCodes: _o,
      offers: _f,
      ...site
    } = current.site;
    const {
      component: _1,
      componentPricePoint: _2,
      price: _3,
      coupon: _4,
      couponRestriction: _5,
      currencyPrice: _6,
      metafield: _7,
      reasonCode: _8,
      offer: _9,
      offerSignupPage: _10,
      ...nextIds
    } = site.nextIds;
    await writeFile(file, JSON.stringify({ format: current.format, version: 2, site: { ...site, nextIds } }));

    const second = await startSimulator({ dataFile: file });
    try {
      expect(second.components()).toEqual([]);
      expect((await call(second, "GET", "/products.json")).body).toHaveLength(1);
      expect(JSON.parse(await readFile(file, "utf8")).version).toBe(2);
      second.addComponent({ familyHandle: "saas", kind: "metered", handle: "calls" });
      const now = JSON.parse(await readFile(file, "utf8"));
      expect(now.version).toBe(DATA_VERSION);
      expect(now.site.components.map((c: any) => c.handle)).toEqual(["calls"]);
    } finally {
      await second.close();
    }
  });

  it.each([
    [
      "a coupon restricted to a component that is not there",
      (s: any) => s.coupons[0].restrictions.push({ id: 99999, itemType: "Component", itemId: 4242 }),
      /no component has id 4242/,
    ],
    ["a component with two defaults", (s: any) => (s.components[0].pricePoints[1].default = true), /exactly one default/],
    [
      "a coupon with both a percentage and an amount",
      (s: any) => (s.coupons[0].percentage = "5"),
      /exactly one of percentage and amountInCents/,
    ],
    ["a coupon code in lowercase", (s: any) => (s.coupons[0].code = "ten"), /coupons\[0\]\.code/],
  ])("refuses a file with %s, naming it, and leaves it as it was", async (_what, spoil, message) => {
    const first = await startSimulator({ dataFile: file });
    first.addProductFamily({ id: 9001, handle: "saas" });
    first.addComponent({ familyHandle: "saas", kind: "metered", handle: "calls", pricePoints: [{ handle: "b" }] });
    first.addCoupon({ familyHandle: "saas", code: "TEN", amountInCents: 100 });
    await first.close();
    const data = JSON.parse(await readFile(file, "utf8"));
    spoil(data.site);
    const text = JSON.stringify(data);
    await writeFile(file, text);
    const err = await startSimulator({ dataFile: file }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DataFileError);
    expect((err as Error).message).toMatch(message);
    expect(await readFile(file, "utf8")).toBe(text);
  });
});
