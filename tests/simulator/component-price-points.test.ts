import { describe, expect, it } from "vitest";
import type { Simulator } from "../../simulator";
import { call, start } from "./helpers";

// A component's price points over real HTTP: create (per scheme, prepaid overage), list (pages, filter[type],
// archived), read by id or handle:, update with prices edited in place, archive, unarchive, default.

/** Component "calls" (31, metered, stairstep 1–100 at 5, 101+ at 4), price point "wholesale" (4102); "minutes" (32, prepaid). */
async function site(): Promise<Simulator> {
  const sim = await start();
  sim.addProductFamily({ id: 9001, handle: "saas" });
  sim.addComponent({
    id: 31,
    familyHandle: "saas",
    kind: "metered",
    handle: "calls",
    pricingScheme: "stairstep",
    prices: [
      { startingQuantity: 1, endingQuantity: 100, unitPrice: 5 },
      { startingQuantity: 101, unitPrice: 4 },
    ],
    pricePoints: [
      { id: 4102, handle: "wholesale", name: "Wholesale", pricingScheme: "per_unit", prices: [{ startingQuantity: 1, unitPrice: "3.25" }] },
    ],
  });
  sim.addComponent({
    id: 32,
    familyHandle: "saas",
    kind: "prepaid_usage",
    handle: "minutes",
    unitPrice: 2,
    overagePricing: { pricingScheme: "per_unit", prices: [{ startingQuantity: 1, unitPrice: 3 }] },
  });
  return sim;
}

const tiers = (...t: [number, number | null, number | string][]) =>
  t.map(([s, e, p]) => ({ starting_quantity: s, ...(e === null ? {} : { ending_quantity: e }), unit_price: p }));

describe("POST /components/{id}/price_points.json", () => {
  it.each(["per_unit", "volume", "tiered", "stairstep"] as const)("%s: 200 with its brackets, type catalog", async (scheme) => {
    const sim = await site();
    const prices = scheme === "per_unit" ? tiers([1, null, 2]) : tiers([1, 10, 2], [11, 50, "1.5"], [51, null, 1]);
    const res = await call(sim, "POST", "/components/31/price_points.json", {
      body: {
        price_point: { name: `By ${scheme}`, handle: `by-${scheme}`, pricing_scheme: scheme, prices, interval: 3, interval_unit: "month" },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.price_point).toMatchObject({
      name: `By ${scheme}`,
      handle: `by-${scheme}`,
      pricing_scheme: scheme,
      type: "catalog",
      default: false,
      component_id: 31,
      archived_at: null,
      interval: 3,
      interval_unit: "month",
      use_site_exchange_rate: true,
      tax_included: false,
    });
    expect(res.body.price_point.prices.map((p: any) => [p.starting_quantity, p.ending_quantity])).toEqual(
      prices.map((p: any) => [p.starting_quantity, p.ending_quantity ?? null]),
    );
  });

  it("by handle: too; a handle taken on the component (archived ones too) is refused, on another component it is free", async () => {
    const sim = await site();
    await call(sim, "DELETE", "/components/31/price_points/4102.json");
    const taken = await call(sim, "POST", "/components/handle:calls/price_points.json", {
      body: { price_point: { name: "W", handle: "wholesale", pricing_scheme: "per_unit", prices: tiers([1, null, 1]) } },
    });
    expect(taken.status).toBe(422);
    // An object of field lists, as the vendor's client reads this create's 422 (ErrorArrayMapResponse) and the
    // contract publishes the same price point's update's.
    expect(taken.body).toEqual({ errors: { handle: ["Handle: This handle is already in use."] } });
    const other = await call(sim, "POST", "/components/32/price_points.json", {
      body: {
        price_point: {
          name: "W",
          handle: "wholesale",
          pricing_scheme: "per_unit",
          prices: tiers([1, null, 1]),
          overage_pricing: { pricing_scheme: "per_unit", prices: tiers([1, null, 2]) },
        },
      },
    });
    expect(other.status).toBe(200);
  });

  it("a prepaid usage component's price point needs its overage pricing; an archived component takes none", async () => {
    const sim = await site();
    const res = await call(sim, "POST", "/components/32/price_points.json", {
      body: { price_point: { name: "X", pricing_scheme: "per_unit", prices: tiers([1, null, 1]) } },
    });
    expect(res.body).toEqual({ errors: { overage_pricing: ["Overage pricing: cannot be blank."] } });
    sim.addComponent({ familyHandle: "saas", kind: "metered", handle: "old", archived: true });
    const archived = await call(sim, "POST", "/components/handle:old/price_points.json", {
      body: { price_point: { name: "X", pricing_scheme: "per_unit", prices: tiers([1, null, 1]) } },
    });
    expect(archived.status).toBe(422);
  });
});

describe("GET /components/{id}/price_points.json", () => {
  it("answers 201 as published; 20 a page; filter[type]; archived ones only when asked", async () => {
    const sim = await site();
    for (let i = 0; i < 25; i++) sim.addComponentPricePoint({ componentHandle: "calls" }, { handle: `pp${i}`, archived: i % 10 === 9 });
    const page = async (q: string) => {
      const res = await call(sim, "GET", `/components/31/price_points.json${q}`);
      expect(res.status).toBe(201);
      return res.body.price_points.map((pp: any) => pp.handle);
    };
    const first = await page("");
    expect(first).toHaveLength(20);
    expect(first[1]).toBe("wholesale");
    expect(await page("?page=2")).toHaveLength(5); // 27 made, 2 archived: 25 listed
    expect(await page("?archived=true&per_page=200")).toHaveLength(27);
    expect(await page("?filter[type]=default")).toHaveLength(1);
    expect((await call(sim, "GET", "/components/31/price_points.json?filter[type]=bogus")).status).toBe(422);
  });
});

describe("PUT /components/{id}/price_points/{id}.json", () => {
  it("the published example: bracket 1 updated, bracket 2 destroyed, a new one added", async () => {
    const sim = await site();
    const [a, b] = sim.components()[0].pricePoints[0].prices;
    const res = await call(sim, "PUT", "/components/31/price_points/handle:wholesale.json", {
      body: { price_point: { name: "Wholesale 2" } },
    });
    expect(res.body.price_point.name).toBe("Wholesale 2");
    const def = sim.components()[0].pricePoints[0];
    const upd = await call(sim, "PUT", `/components/31/price_points/${def.id}.json`, {
      body: {
        price_point: {
          name: "Default",
          prices: [
            { id: a.id, ending_quantity: 50, unit_price: 6 },
            { id: b.id, _destroy: true },
            { starting_quantity: 51, unit_price: 4 },
          ],
        },
      },
    });
    expect(upd.status).toBe(200);
    expect(upd.body.price_point.prices.map((p: any) => [p.id === a.id, p.starting_quantity, p.ending_quantity, p.unit_price])).toEqual([
      [true, 1, 50, "6.0"],
      [false, 51, null, "4.0"],
    ]);
    // The component shows its default price point's brackets.
    const c = await call(sim, "GET", "/product_families/9001/components/31.json");
    expect(c.body.component.prices.map((p: any) => p.unit_price)).toEqual(["6.0", "4.0"]);
    expect(c.body.component.default_price_point_name).toBe("Default");
  });

  it.each([
    [
      "a gap",
      (a: number) => [{ id: a, ending_quantity: 90 }],
      {
        prices: [
          "Successive brackets may not have gaps in quantity (i.e. if one bracket ends at quantity 10, the next must begin at quantity 11)",
        ],
      },
    ],
    ["an overlap", (a: number) => [{ id: a, ending_quantity: 120 }], { prices: ["There cannot be any overlapping bracket ranges"] }],
    [
      "an end below the start",
      (a: number) => [{ id: a, starting_quantity: 100, ending_quantity: 100 }],
      { "prices.ending_quantity": ["Ending quantity: must be greater than the low end bracket quantity, if given"] },
    ],
    [
      "every bracket destroyed",
      (a: number, b: number) => [
        { id: a, _destroy: true },
        { id: b, _destroy: true },
      ],
      { prices: ["At least 1 price bracket must be defined"] },
    ],
    ["another price point's bracket", () => [{ id: 1, unit_price: 1 }], { base: ["all prices must belong to the price point"] }],
    [
      "a second open bracket",
      () => [{ starting_quantity: 200, unit_price: 1 }],
      { prices: ["There cannot be any overlapping bracket ranges"] },
    ],
  ])("%s is the published 422 (an object of field lists), and nothing changes", async (_what, prices, errors) => {
    const sim = await site();
    const def = sim.components()[0].pricePoints[0];
    const [a, b] = def.prices;
    const res = await call(sim, "PUT", `/components/31/price_points/${def.id}.json`, {
      body: { price_point: { prices: prices(a.id, b.id) } },
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ errors });
    expect(sim.components()[0].pricePoints[0]).toEqual(def);
  });

  it("a handle taken by a sibling is the published 422", async () => {
    const sim = await site();
    const def = sim.components()[0].pricePoints[0];
    const res = await call(sim, "PUT", `/components/31/price_points/${def.id}.json`, { body: { price_point: { handle: "wholesale" } } });
    expect(res.body).toEqual({ errors: { handle: ["Handle: This handle is already in use."] } });
  });
});

describe("archive, unarchive, default", () => {
  it("the default cannot be archived; archive twice is the published 422; unarchive; promote answers the component", async () => {
    const sim = await site();
    const def = sim.components()[0].pricePoints[0];
    const no = await call(sim, "DELETE", `/components/31/price_points/${def.id}.json`);
    expect(no.body).toEqual({ errors: ["Cannot archive the default price point."] });
    const yes = await call(sim, "DELETE", "/components/31/price_points/4102.json");
    expect(yes.body.price_point.archived_at).toEqual(expect.any(String));
    expect((await call(sim, "DELETE", "/components/31/price_points/4102.json")).body).toEqual({
      errors: ["Price point is already archived."],
    });
    const promoteArchived = await call(sim, "PUT", "/components/31/price_points/4102/default.json");
    expect(promoteArchived.status).toBe(422);
    const back = await call(sim, "PUT", "/components/31/price_points/4102/unarchive.json");
    expect(back.body.price_point.archived_at).toBeNull();
    const promoted = await call(sim, "PUT", "/components/31/price_points/handle:wholesale/default.json");
    expect(promoted.status).toBe(200);
    expect(promoted.body.component).toMatchObject({
      default_price_point_id: 4102,
      default_price_point_name: "Wholesale",
      pricing_scheme: "per_unit",
      unit_price: "3.25",
    });
    const types = (await call(sim, "GET", "/components/31/price_points.json")).body.price_points.map((pp: any) => [pp.id, pp.type]);
    expect(types).toEqual([
      [def.id, "catalog"],
      [4102, "default"],
    ]);
    // The old default can be archived now.
    expect((await call(sim, "DELETE", `/components/31/price_points/${def.id}.json`)).status).toBe(200);
  });

  it("unknown component or price point: 404", async () => {
    const sim = await site();
    expect((await call(sim, "GET", "/components/999/price_points/4102.json")).status).toBe(404);
    expect((await call(sim, "GET", "/components/31/price_points/999.json")).status).toBe(404);
    expect((await call(sim, "GET", "/components/31/price_points/handle:wholesale.json")).body.price_point.id).toBe(4102);
  });
});
