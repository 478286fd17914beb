import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Simulator } from "../../simulator";
import { CONTRACT } from "../contract/validator";
import { call, start } from "./helpers";

// The vendor's published examples, read from the contract itself: every request example of the component,
// component price point and coupon operations is accepted (2xx, the answer checked against the contract by call()),
// and every published response example's keys are among the keys the simulator writes for the same operation.

const doc = JSON.parse(readFileSync(CONTRACT, "utf8"));
const requestExamples = (path: string, method: string): [string, any][] =>
  Object.entries<any>(doc.paths[path][method].requestBody.content["application/json"].examples).map(([name, e]) => [name, e.value]);
const responseExample = (path: string, method: string, status: string): any => {
  const ex = doc.paths[path][method].responses[status].content["application/json"].examples;
  return (Object.values(ex)[0] as any).value;
};

/**
 * Family 9001 "Cloud Compute Servers"; product 1; components 1 (metered) and 2 (on/off), which the coupon examples
 * restrict; component 74 (metered, brackets 1 and 2), whose price point the update example edits; 75 (prepaid), 76 (on/off).
 * The clock is in 2012: the coupon examples end on 2012-08-29, and the service refuses an end date in the past.
 */
async function site(): Promise<Simulator> {
  const sim = await start({ now: () => new Date("2012-01-01T00:00:00Z") });
  sim.addProductFamily({ id: 9001, handle: "cloud", name: "Cloud Compute Servers" });
  sim.addProduct({ id: 1, handle: "basic", familyHandle: "cloud" });
  sim.addComponent({ id: 1, familyHandle: "cloud", kind: "metered", handle: "c1" });
  sim.addComponent({ id: 2, familyHandle: "cloud", kind: "on_off", handle: "c2" });
  sim.addComponent({
    id: 74,
    familyHandle: "cloud",
    kind: "metered",
    handle: "texts",
    pricingScheme: "stairstep",
    prices: [
      { id: 1, startingQuantity: 1, endingQuantity: 50, unitPrice: 5 },
      { id: 2, startingQuantity: 51, unitPrice: 4 },
    ],
  });
  sim.addComponent({ id: 75, familyHandle: "cloud", kind: "prepaid_usage", handle: "minutes" });
  sim.addComponent({ id: 76, familyHandle: "cloud", kind: "on_off", handle: "support", unitPrice: 100 });
  return sim;
}

const keysOf = (o: object) => Object.keys(o).sort();
/** Every key the published example shows is one the simulator writes (it writes every key of the schema it has a value for). */
function covers(ours: object, published: object): void {
  expect(keysOf(ours)).toEqual(expect.arrayContaining(keysOf(published).filter((k) => !OPTIONAL_KEYS.has(k))));
}
// Keys the schema types without null, written only when they have a value (see render-components.ts).
const OPTIONAL_KEYS = new Set(["event_based_billing_metric_id", "interval", "interval_unit", "subscription_id"]);

const KINDS = ["metered", "quantity_based", "on_off", "prepaid_usage", "event_based"];

describe("component create examples", () => {
  for (const kind of KINDS) {
    const path = `/product_families/{product_family_id}/${kind}_components.json`;
    it.each(requestExamples(path, "post"))(`${kind}: %s is accepted`, async (_name, body) => {
      const sim = await site();
      const res = await call(sim, "POST", `/product_families/9001/${kind}_components.json`, { body });
      expect(res.status).toBe(201);
      expect(res.body.component.kind).toBe(`${kind}_component`);
      expect(res.body.component.name).toBe(body[`${kind}_component`].name);
      covers(res.body.component, responseExample(path, "post", "201").component);
    });
  }

  it("the published answer to the metered example: its values where the simulator models them", async () => {
    const sim = await site();
    const [[, body]] = requestExamples("/product_families/{product_family_id}/metered_components.json", "post");
    const res = await call(sim, "POST", "/product_families/9001/metered_components.json", { body });
    const published = responseExample("/product_families/{product_family_id}/metered_components.json", "post", "201").component;
    for (const k of [
      "name",
      "pricing_scheme",
      "kind",
      "archived",
      "taxable",
      "description",
      "price_point_count",
      "recurring",
      "upgrade_charge",
      "downgrade_credit",
      "archived_at",
      "hide_date_range_on_invoice",
      "allow_fractional_quantities",
      "use_site_exchange_rate",
      "item_category",
      "accounting_code",
      "price_per_unit_in_cents",
      "product_family_name",
      "tax_code",
    ])
      expect([k, res.body.component[k]]).toEqual([k, published[k]]);
    expect(res.body.component.prices[0]).toMatchObject({
      starting_quantity: 1,
      ending_quantity: null,
      unit_price: "1.0",
      formatted_unit_price: "$1.00",
      segment_id: null,
    });
  });
});

describe("component price point examples", () => {
  const target: Record<string, number> = { Example: 74, "Prepaid Usage Component": 75, "On Off Component": 76 };
  it.each(requestExamples("/components/{component_id}/price_points.json", "post"))("create: %s is accepted", async (name, body) => {
    const sim = await site();
    const res = await call(sim, "POST", `/components/${target[name]}/price_points.json`, { body });
    expect(res.status).toBe(200);
    expect(res.body.price_point).toMatchObject({
      name: body.price_point.name,
      handle: body.price_point.handle,
      pricing_scheme: body.price_point.pricing_scheme,
    });
    covers(
      res.body.price_point,
      responseExample("/components/{component_id}/price_points/{price_point_id}.json", "delete", "200").price_point,
    );
  });

  it("update: the published example edits bracket 1, destroys bracket 2 and adds one from 101", async () => {
    const sim = await site();
    const [[, body]] = requestExamples("/components/{component_id}/price_points/{price_point_id}.json", "put");
    const pp = sim.components().find((c) => c.id === 74)!.pricePoints[0];
    const res = await call(sim, "PUT", `/components/74/price_points/${pp.id}.json`, { body });
    expect(res.status).toBe(200);
    expect(res.body.price_point.name).toBe("Default");
    expect(res.body.price_point.prices.map((p: any) => [p.starting_quantity, p.ending_quantity, p.unit_price])).toEqual([
      [1, 100, "5.0"],
      [101, null, "4.0"],
    ]);
  });

  it("list and archive answers carry the published keys", async () => {
    const sim = await site();
    const list = await call(sim, "GET", "/components/74/price_points.json");
    covers(list.body.price_points[0], responseExample("/components/{component_id}/price_points.json", "get", "201").price_points[0]);
    const made = await call(sim, "POST", "/components/74/price_points.json", {
      body: { price_point: { name: "W", handle: "w", pricing_scheme: "per_unit", prices: [{ starting_quantity: 1, unit_price: 1 }] } },
    });
    const archived = await call(sim, "DELETE", `/components/74/price_points/${made.body.price_point.id}.json`);
    covers(
      archived.body.price_point,
      responseExample("/components/{component_id}/price_points/{price_point_id}.json", "delete", "200").price_point,
    );
    const lookup = await call(sim, "GET", "/components/lookup.json?handle=support");
    covers(lookup.body.component, responseExample("/components/lookup.json", "get", "200").component);
  });
});

describe("coupon examples", () => {
  it.each(requestExamples("/product_families/{product_family_id}/coupons.json", "post"))("create: %s is accepted", async (_name, body) => {
    const sim = await site();
    const res = await call(sim, "POST", "/product_families/9001/coupons.json", { body });
    expect(res.status).toBe(201);
    const c = res.body.coupon;
    expect(c).toMatchObject({
      code: body.coupon.code,
      name: body.coupon.name,
      stackable: true,
      compounding_strategy: "compound",
      exclude_mid_period_allocations: true,
      apply_on_cancel_at_end_of_period: true,
      product_family_id: 9001,
    });
    // restricted_components {"1": true, "2": false}: only component 1 is restricted.
    expect(c.coupon_restrictions.map((r: any) => [r.item_type, r.item_id])).toEqual([
      ["Product", 1],
      ["Component", 1],
    ]);
    covers(c, responseExample("/product_families/{product_family_id}/coupons/{coupon_id}.json", "get", "200").coupon);
  });

  it("update: the published example is accepted", async () => {
    const sim = await site();
    const c = sim.addCoupon({ familyHandle: "cloud", code: "OLD", amountInCents: 100 });
    const [[, body]] = requestExamples("/product_families/{product_family_id}/coupons/{coupon_id}.json", "put");
    const res = await call(sim, "PUT", `/product_families/9001/coupons/${c.id}.json`, { body });
    expect(res.status).toBe(200);
    expect(res.body.coupon).toMatchObject({ code: "15OFF", percentage: "15", amount_in_cents: null, end_date: "2012-08-29T16:00:00Z" });
    const list = await call(sim, "GET", "/coupons.json");
    covers(list.body[0].coupon, responseExample("/coupons.json", "get", "200")[0].coupon);
  });
});
