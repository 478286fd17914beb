import { describe, expect, it } from "vitest";
import type { Simulator } from "../../simulator";
import { call, start } from "./helpers";
import { notFound } from "./lookup-helpers";

// Components over real HTTP: the five kinds' creates, lookup by handle, read/update/archive under the family,
// update by id, the lists (pages, include_archived, filter[ids]); every answer checked against the contract by call().

const KINDS = ["metered", "quantity_based", "on_off", "prepaid_usage", "event_based"] as const;

/** Family "saas" (9001) with product "pro"; family "other" (9002). */
async function site(): Promise<Simulator> {
  const sim = await start();
  sim.addProductFamily({ id: 9001, handle: "saas", name: "SaaS" });
  sim.addProductFamily({ id: 9002, handle: "other", name: "Other" });
  sim.addProduct({ handle: "pro", familyHandle: "saas" });
  return sim;
}

const body = (kind: string, extra: Record<string, unknown> = {}) => {
  const base: Record<string, unknown> = { name: `A ${kind}`, handle: `${kind.replace(/_/g, "-")}-x`, ...extra };
  if (kind !== "on_off") Object.assign(base, { unit_name: "unit", pricing_scheme: "per_unit", unit_price: "1.5" });
  else base.prices = [{ starting_quantity: 0, unit_price: "100.00" }];
  if (kind === "event_based") base.event_based_billing_metric_id = 7;
  if (kind === "prepaid_usage") base.overage_pricing = { pricing_scheme: "per_unit", prices: [{ starting_quantity: 1, unit_price: 3 }] };
  return { [`${kind}_component`]: base };
};

describe("POST /product_families/{id}/<kind>_components.json", () => {
  it.each(KINDS)("%s: 201 with its kind, an Original default price point, and its family", async (kind) => {
    const sim = await site();
    const res = await call(sim, "POST", `/product_families/9001/${kind}_components.json`, { body: body(kind) });
    expect(res.status).toBe(201);
    const c = res.body.component;
    expect(c).toMatchObject({
      kind: `${kind}_component`,
      product_family_id: 9001,
      product_family_name: "SaaS",
      archived: false,
      archived_at: null,
      default_price_point_name: "Original",
      price_point_count: 1,
    });
    expect(c.pricing_scheme).toBe(kind === "on_off" ? null : "per_unit");
    expect(c.unit_price).toBe(kind === "on_off" ? "100.0" : "1.5");
    expect(c.prices).toHaveLength(1);
    expect(c.prices[0]).toMatchObject({ component_id: c.id, price_point_id: c.default_price_point_id, ending_quantity: null });
    expect(c.overage_prices === null).toBe(kind !== "prepaid_usage");
    if (kind === "event_based") expect(c.event_based_billing_metric_id).toBe(7);
    else expect(c).not.toHaveProperty("event_based_billing_metric_id");
    const pps = await call(sim, "GET", `/components/${c.id}/price_points.json`);
    expect(pps.body.price_points.map((pp: any) => [pp.id, pp.type, pp.name])).toEqual([[c.default_price_point_id, "default", "Original"]]);
  });

  it("tiers: the brackets as given, prices as decimal text, formatted in dollars", async () => {
    const sim = await site();
    const prices = [
      { starting_quantity: 1, ending_quantity: 10, unit_price: 10 },
      { starting_quantity: 11, ending_quantity: "20", unit_price: "5.5" },
      { starting_quantity: "21", unit_price: "0.00000065" },
    ];
    const res = await call(sim, "POST", "/product_families/9001/metered_components.json", {
      body: { metered_component: { name: "Calls", unit_name: "call", handle: "calls", pricing_scheme: "tiered", prices } },
    });
    expect(res.status).toBe(201);
    expect(res.body.component.unit_price).toBeNull();
    expect(
      res.body.component.prices.map((p: any) => [p.starting_quantity, p.ending_quantity, p.unit_price, p.formatted_unit_price]),
    ).toEqual([
      [1, 10, "10.0", "$10.00"],
      [11, 20, "5.5", "$5.50"],
      [21, null, "0.00000065", "$0.00000065"],
    ]);
  });

  it("inline price_points become catalog price points after the default", async () => {
    const sim = await site();
    const res = await call(sim, "POST", "/product_families/9001/quantity_based_components.json", {
      body: {
        quantity_based_component: {
          name: "Seats",
          unit_name: "seat",
          handle: "seats",
          pricing_scheme: "volume",
          prices: [
            { starting_quantity: 1, ending_quantity: 10, unit_price: 10 },
            { starting_quantity: 11, unit_price: 8 },
          ],
          price_points: [
            { name: "Wholesale", handle: "wholesale", pricing_scheme: "per_unit", prices: [{ starting_quantity: 1, unit_price: 7 }] },
          ],
        },
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.component.price_point_count).toBe(2);
    const list = await call(sim, "GET", "/components/handle:seats/price_points.json");
    expect(list.status).toBe(201);
    expect(list.body.price_points.map((pp: any) => [pp.handle.startsWith("uuid:") ? "uuid" : pp.handle, pp.type])).toEqual([
      ["uuid", "default"],
      ["wholesale", "catalog"],
    ]);
  });

  it("an unknown family is a 404 whatever the body; an unknown kind is not a path", async () => {
    const sim = await site();
    expect((await call(sim, "POST", "/product_families/4242/metered_components.json", { body: {} })).status).toBe(404);
    expect((await call(sim, "POST", "/product_families/9001/bogus_components.json", { body: body("metered") })).status).toBe(404);
  });

  it("a handle is unique within the site, across families, archived components included", async () => {
    const sim = await site();
    sim.addComponent({ familyHandle: "other", kind: "metered", handle: "old", archived: true });
    const res = await call(sim, "POST", "/product_families/9001/metered_components.json", { body: body("metered", { handle: "old" }) });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ errors: ["Handle must be unique within a Site."] });
  });

  it("a taken handle comes first, as in the contract's example (createPrepaidUsageComponent's 422)", async () => {
    const sim = await site();
    sim.addComponent({ familyHandle: "saas", kind: "metered", handle: "texts" });
    const res = await call(sim, "POST", "/product_families/9001/metered_components.json", {
      body: body("metered", { handle: "texts", pricing_scheme: "tiered", unit_price: undefined, prices: [] }),
    });
    expect(res).toMatchObject({
      status: 422,
      body: { errors: ["Handle must be unique within a Site.", "At least 1 price bracket must be defined"] },
    });
  });
});

describe("reading, updating and archiving a component", () => {
  it("lookup by handle, read under its family (by id or handle:), 404 under another family", async () => {
    const sim = await site();
    const c = sim.addComponent({ id: 31, familyHandle: "saas", kind: "on_off", handle: "support", name: "Support", unitPrice: 100 });
    expect((await call(sim, "GET", "/components/lookup.json?handle=support")).body.component.id).toBe(c.id);
    expect((await call(sim, "GET", "/product_families/9001/components/31.json")).body.component.handle).toBe("support");
    expect((await call(sim, "GET", "/product_families/9001/components/handle:support.json")).body.component.id).toBe(31);
    expect((await call(sim, "GET", "/product_families/9002/components/31.json")).status).toBe(404);
    await notFound(sim, "/components/lookup.json?handle=nope");
  });

  it("PUT changes what Update Component names, by either path; a blank name is the published 422", async () => {
    const sim = await site();
    sim.addComponent({ id: 31, familyHandle: "saas", kind: "metered", handle: "calls", name: "Calls" });
    const a = await call(sim, "PUT", "/components/31.json", {
      body: {
        component: { name: "API calls", description: "per call", taxable: true, tax_code: "D0000000", item_category: "Digital Services" },
      },
    });
    expect(a.status).toBe(200);
    expect(a.body.component).toMatchObject({
      name: "API calls",
      description: "per call",
      taxable: true,
      tax_code: "D0000000",
      item_category: "Digital Services",
    });
    const b = await call(sim, "PUT", "/product_families/9001/components/31.json", {
      body: { component: { handle: "api-calls", upgrade_charge: "full" } },
    });
    expect(b.body.component).toMatchObject({ handle: "api-calls", upgrade_charge: "full", name: "API calls" });
    const blank = await call(sim, "PUT", "/components/31.json", { body: { component: { name: "" } } });
    expect(blank.status).toBe(422);
    expect(blank.body).toEqual({ errors: ["Name: cannot be blank."] });
  });

  it("DELETE archives: a bare component, archived; twice is the published 422; the handle stays taken", async () => {
    const sim = await site();
    sim.addComponent({ id: 31, familyHandle: "saas", kind: "metered", handle: "calls" });
    const res = await call(sim, "DELETE", "/product_families/9001/components/31.json");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: 31, archived: true, archived_at: expect.any(String) });
    expect(res.body).not.toHaveProperty("component");
    const again = await call(sim, "DELETE", "/product_families/9001/components/31.json");
    expect(again.body).toEqual({ errors: ["Component cannot be archived. Please make sure it hasn't already been archived."] });
    expect((await call(sim, "GET", "/components/lookup.json?handle=calls")).body.component.archived).toBe(true);
    expect(sim.components()[0].archivedAt).not.toBeNull();
  });
});

describe("GET /components.json and /product_families/{id}/components.json", () => {
  it("pages of 20 by default, per_page up to 200, oldest first, archived only with include_archived", async () => {
    const sim = await site();
    for (let i = 1; i <= 45; i++)
      sim.addComponent({ familyHandle: i % 2 ? "saas" : "other", kind: "metered", handle: `c${i}`, archived: i % 5 === 0 });
    const ids = async (q: string) => (await call(sim, "GET", `/components.json${q}`)).body.map((x: any) => x.component.handle);
    const live = Array.from({ length: 45 }, (_, i) => `c${i + 1}`).filter((_, i) => (i + 1) % 5 !== 0);
    expect(await ids("")).toEqual(live.slice(0, 20));
    expect(await ids("?page=2")).toEqual(live.slice(20, 36));
    expect(await ids("?page=3")).toEqual([]);
    expect(await ids("?include_archived=true&per_page=500")).toHaveLength(45);
    const fam = (await call(sim, "GET", "/product_families/9002/components.json?include_archived=1&per_page=7&page=2")).body;
    expect(fam.map((x: any) => x.component.product_family_id)).toEqual(Array(7).fill(9002));
    expect((await call(sim, "GET", "/product_families/4242/components.json")).status).toBe(404);
  });

  it("filter[ids]", async () => {
    const sim = await site();
    const a = sim.addComponent({ familyHandle: "saas", kind: "metered", handle: "a" });
    sim.addComponent({ familyHandle: "saas", kind: "metered", handle: "b" });
    const c = sim.addComponent({ familyHandle: "saas", kind: "metered", handle: "c" });
    const res = await call(sim, "GET", `/components.json?filter[ids]=${c.id},${a.id}`);
    expect(res.body.map((x: any) => x.component.handle)).toEqual(["a", "c"]);
    expect((await call(sim, "GET", "/components.json?filter[ids]=x")).status).toBe(422);
  });
});

describe("seeding: addComponent", () => {
  it("checks tiers as the API does, and wants a family and an event metric", async () => {
    const sim = await site();
    expect(() =>
      sim.addComponent({
        familyHandle: "saas",
        kind: "metered",
        handle: "gap",
        pricingScheme: "tiered",
        prices: [
          { startingQuantity: 1, endingQuantity: 10, unitPrice: 1 },
          { startingQuantity: 12, unitPrice: 1 },
        ],
      }),
    ).toThrow(/gaps/);
    expect(() => sim.addComponent({ kind: "metered", handle: "nofamily" })).toThrow(/familyId or familyHandle/);
    expect(() => sim.addComponent({ familyHandle: "saas", kind: "event_based", handle: "ev" })).toThrow(/eventBasedBillingMetricId/);
    expect(sim.components()).toEqual([]);
  });
});

describe("seeding: default price points", () => {
  it("a given default replaces Original; addComponentPricePoint with default: true promotes it; archived ones are listed only when asked", async () => {
    const sim = await site();
    const c = sim.addComponent({
      id: 41,
      familyHandle: "saas",
      kind: "quantity_based",
      handle: "seats",
      pricingScheme: "volume",
      prices: [
        { startingQuantity: 1, endingQuantity: 10, unitPrice: 10 },
        { startingQuantity: 11, unitPrice: 8 },
      ],
      pricePoints: [
        { id: 4101, handle: "list", default: true },
        { id: 4102, handle: "old", archived: true, pricingScheme: "per_unit", unitPrice: 9 },
      ],
    });
    expect(c.pricePoints.map((pp) => [pp.handle, pp.default, pp.name])).toEqual([
      ["list", true, "list"],
      ["old", false, "old"],
    ]);
    expect(c.pricePoints[0].prices.map((p) => p.unitPrice)).toEqual(["10.0", "8.0"]);
    sim.addComponentPricePoint(
      { componentHandle: "seats" },
      { id: 4103, handle: "promo", name: "Promo", default: true, pricingScheme: "per_unit", unitPrice: "7" },
    );
    const read = (await call(sim, "GET", "/components/lookup.json?handle=seats")).body.component;
    expect(read).toMatchObject({
      default_price_point_id: 4103,
      default_price_point_name: "Promo",
      pricing_scheme: "per_unit",
      unit_price: "7.0",
      price_point_count: 3,
    });
    const listed = async (q: string) =>
      (await call(sim, "GET", `/components/41/price_points.json${q}`)).body.price_points.map((pp: any) => pp.handle);
    expect(await listed("")).toEqual(["list", "promo"]);
    expect(await listed("?include_archived=true")).toEqual(["list", "old", "promo"]);
    expect(() => sim.addComponentPricePoint({ componentHandle: "seats" }, { handle: "promo" })).toThrow(/exists/);
    expect(() => sim.addComponentPricePoint({ componentHandle: "nope" }, { handle: "x" })).toThrow(/no component/);
  });
});
