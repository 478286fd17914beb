import { describe, expect, it } from "vitest";
import type { Simulator } from "../../simulator";
import { call, DUPLICATE, migration, start } from "./helpers";

// A product's price points over real HTTP: create (one and bulk), list, read, update (handle and price only),
// archive, unarchive, promote to default.

const monthly = (name: string, handle: string | undefined, price = 1000, extra: Record<string, unknown> = {}) => ({
  name,
  ...(handle === undefined ? {} : { handle }),
  price_in_cents: price,
  interval: 1,
  interval_unit: "month",
  ...extra,
});

/** Product "pro" (id 2): pro-monthly (201, default), pro-annual (202); product "basic" (id 1). */
async function site(): Promise<Simulator> {
  const sim = await start();
  sim.addProduct({ id: 1, handle: "basic", pricePoints: [{ id: 101, handle: "basic-default", default: true }] });
  sim.addProduct({
    id: 2,
    handle: "pro",
    priceInCents: 5000,
    pricePoints: [
      { id: 201, handle: "pro-monthly", default: true },
      { id: 202, handle: "pro-annual", priceInCents: 50000, intervalMonths: 12 },
    ],
  });
  return sim;
}

const list = async (sim: Simulator, q = "") =>
  (await call(sim, "GET", `/products/2/price_points.json${q}`)).body.price_points.map((pp: any) => [pp.id, pp.handle, pp.type]);

describe("POST /products/{id}/price_points.json", () => {
  it("201 with every term, type catalog, and no archived_at", async () => {
    const sim = await site();
    const res = await call(sim, "POST", "/products/2/price_points.json", {
      body: {
        price_point: monthly("Educational", "educational", 1000, {
          trial_price_in_cents: 4900,
          trial_interval: 1,
          trial_interval_unit: "month",
          trial_type: "payment_expected",
          initial_charge_in_cents: 120000,
          initial_charge_after_trial: false,
          expiration_interval: 12,
          expiration_interval_unit: "month",
          use_site_exchange_rate: false,
        }),
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.price_point).toMatchObject({
      id: expect.any(Number),
      name: "Educational",
      handle: "educational",
      price_in_cents: 1000,
      trial_type: "payment_expected",
      initial_charge_in_cents: 120000,
      expiration_interval: 12,
      expiration_interval_unit: "month",
      product_id: 2,
      archived_at: null,
      use_site_exchange_rate: false,
      type: "catalog",
    });
    expect(await list(sim)).toEqual([
      [201, "pro-monthly", "default"],
      [202, "pro-annual", "catalog"],
      [res.body.price_point.id, "educational", "catalog"],
    ]);
  });

  it("takes the product as handle:<handle>; without a handle, makes a uuid: one", async () => {
    const sim = await site();
    const res = await call(sim, "POST", "/products/handle:pro/price_points.json", { body: { price_point: monthly("Anon", undefined) } });
    expect(res.body.price_point.handle).toMatch(/^uuid:[0-9a-f-]{36}$/);
  });

  it("a handle is unique within its product (archived ones keep theirs), not across products", async () => {
    const sim = await site();
    const taken = await call(sim, "POST", "/products/2/price_points.json", { body: { price_point: monthly("Again", "pro-annual") } });
    expect(taken).toMatchObject({ status: 422, body: { errors: { handle: ["API Handle: must be unique - that value has been taken."] } } });
    await call(sim, "DELETE", "/products/2/price_points/202.json");
    const stillTaken = await call(sim, "POST", "/products/2/price_points.json", { body: { price_point: monthly("Again", "pro-annual") } });
    expect(stillTaken.status).toBe(422);
    expect(
      (await call(sim, "POST", "/products/1/price_points.json", { body: { price_point: monthly("Same", "pro-annual") } })).status,
    ).toBe(201);
  });

  it.each<{ what: string; body: unknown; errors: unknown }>([
    { what: "no price_point (the published string)", body: {}, errors: { price_point: "can't be blank" } },
    {
      what: "nothing but a name (the published example 2's fields)",
      body: { price_point: { handle: "x" } },
      errors: {
        interval: ["Recurring Interval: cannot be blank."],
        interval_unit: ["Interval unit: cannot be blank.", "Interval unit: must be 'month' or 'day'."],
        name: ["Name: cannot be blank."],
        price: ["Price: is not a number."],
        price_in_cents: ["Price in cents: cannot be blank."],
      },
    },
    {
      what: "interval 0 (example 3)",
      body: { price_point: monthly("X", "x", 1, { interval: 0 }) },
      errors: { interval: ["Recurring Interval: must be greater than or equal to 1."] },
    },
    {
      what: "a negative price (example 4)",
      body: { price_point: monthly("X", "x", -1) },
      errors: { price: ["Price: must be greater than or equal to 0."] },
    },
    {
      what: "a price that is text",
      body: { price_point: monthly("X", "x", "10" as unknown as number) },
      errors: { price: ["Price: is not a number."] },
    },
    {
      what: "a bad handle (the rules between terms are checked once the fields are right)",
      body: { price_point: monthly("X", "X!", 1, { trial_interval: 3, trial_price_in_cents: 0 }) },
      errors: {
        handle: [
          "API Handle: must start with a letter or number and may only contain lowercase letters, numbers, or the characters '.', ':', '-', or '_'.",
        ],
      },
    },
    {
      what: "a trial without its unit",
      body: { price_point: monthly("X", "x", 1, { trial_interval: 3, trial_price_in_cents: 0 }) },
      errors: { trial_interval_unit: ["Trial interval unit: cannot be blank."] },
    },
  ])("422 object of field lists for $what", async ({ body, errors }) => {
    const sim = await site();
    const res = await call(sim, "POST", "/products/2/price_points.json", { body });
    expect(res.status).toBe(422);
    expect(res.body).toStrictEqual({ errors });
    expect(await list(sim)).toHaveLength(2);
  });

  it("404 for an unknown product whatever the body; 409 for a repeated token", async () => {
    const sim = await site();
    expect((await call(sim, "POST", "/products/99/price_points.json", { body: {} })).status).toBe(404);
    const body = { price_point: monthly("Once", "once"), uniqueness_token: "pp-1" };
    expect((await call(sim, "POST", "/products/2/price_points.json", { body })).status).toBe(201);
    expect(await call(sim, "POST", "/products/2/price_points.json", { body })).toMatchObject({
      status: 409,
      body: { errors: [DUPLICATE] },
    });
    expect(await list(sim)).toHaveLength(3);
  });
});

describe("POST /products/{id}/price_points/bulk.json", () => {
  it("201 with every price point made, in order", async () => {
    const sim = await site();
    const res = await call(sim, "POST", "/products/2/price_points/bulk.json", {
      body: { price_points: [monthly("A", "a"), monthly("B", "b", 2000)] },
    });
    expect(res.status).toBe(201);
    expect(res.body.price_points.map((pp: any) => [pp.handle, pp.price_in_cents, pp.type])).toEqual([
      ["a", 1000, "catalog"],
      ["b", 2000, "catalog"],
    ]);
  });

  it("all or nothing: problems keyed price_points[i].field at the top level, by index; a handle taken in the product or earlier in the batch", async () => {
    const sim = await site();
    const res = await call(sim, "POST", "/products/2/price_points/bulk.json", {
      body: { price_points: [monthly("A", "a"), monthly("B", "pro-annual"), monthly("C", "a")] },
    });
    expect(res.status).toBe(422);
    expect(res.body).toStrictEqual({
      "price_points[1].handle": ["API Handle: must be unique - that value has been taken."],
      "price_points[2].handle": ["API Handle: must be unique - that value has been taken."],
    });
    expect(await list(sim)).toHaveLength(2);
  });

  it("field problems of several entries, in the published examples' words and order", async () => {
    const sim = await site();
    const res = await call(sim, "POST", "/products/2/price_points/bulk.json", {
      body: { price_points: Array.from({ length: 11 }, (_, i) => (i === 10 || i === 2 ? { name: "" } : monthly(`P${i}`, `p${i}`))) },
    });
    expect(Object.keys(res.body)).toEqual([
      "price_points[2].interval",
      "price_points[2].interval_unit",
      "price_points[2].name",
      "price_points[2].price",
      "price_points[2].price_in_cents",
      "price_points[10].interval",
      "price_points[10].interval_unit",
      "price_points[10].name",
      "price_points[10].price",
      "price_points[10].price_in_cents",
    ]);
    expect(res.body["price_points[10].name"]).toEqual(["Name: cannot be blank."]);
  });

  it("422 for a body without price_points; 404 for an unknown product", async () => {
    const sim = await site();
    const res = await call(sim, "POST", "/products/2/price_points/bulk.json", { body: { price_points: [] } });
    expect(res.status).toBe(422);
    expect(res.body.price_points[0]).toMatch(/price_points must be an Array/);
    expect((await call(sim, "POST", "/products/99/price_points/bulk.json", { body: { price_points: [] } })).status).toBe(404);
  });
});

describe("GET /products/{id}/price_points.json and …/{price_point_id}.json", () => {
  it("archived price points are left out unless include_archived=true; filter[type] still applies", async () => {
    const sim = await site();
    await call(sim, "DELETE", "/products/2/price_points/202.json");
    expect(await list(sim)).toEqual([[201, "pro-monthly", "default"]]);
    expect(await list(sim, "?include_archived=true")).toEqual([
      [201, "pro-monthly", "default"],
      [202, "pro-annual", "catalog"],
    ]);
    expect(await list(sim, "?include_archived=true&filter[type]=catalog")).toEqual([[202, "pro-annual", "catalog"]]);
    // The vendor's later SDKs name it `archived`.
    expect(await list(sim, "?archived=true")).toHaveLength(2);
    expect(await list(sim, "?archived=false")).toHaveLength(1);
    expect((await call(sim, "GET", "/products/2/price_points.json?include_archived=yes")).status).toBe(422);
  });

  it("per_page over 200 is 200", async () => {
    const sim = await site();
    const many = Array.from({ length: 230 }, (_, i) => ({ handle: `t${i}`, default: i === 0 }));
    const p = sim.addProduct({ handle: "tiers", pricePoints: many });
    const got = (await call(sim, "GET", `/products/${p.id}/price_points.json?per_page=1000`)).body.price_points;
    expect(got).toHaveLength(200);
    expect((await call(sim, "GET", `/products/${p.id}/price_points.json?per_page=200&page=2`)).body.price_points).toHaveLength(30);
  });

  it("reads one by id or handle:<handle>, archived ones too; 404 for one of another product", async () => {
    const sim = await site();
    await call(sim, "DELETE", "/products/2/price_points/202.json");
    for (const ref of ["202", "handle:pro-annual"]) {
      const res = await call(sim, "GET", `/products/handle:pro/price_points/${ref}.json`);
      expect(res.body.price_point).toMatchObject({ id: 202, handle: "pro-annual", interval: 12, archived_at: expect.any(String) });
    }
    expect(await call(sim, "GET", "/products/2/price_points/101.json")).toMatchObject({
      status: 404,
      body: { errors: ["Price point not found"] },
    });
  });
});

describe("PUT /products/{id}/price_points/{price_point_id}.json", () => {
  it("changes the handle and the price, in place", async () => {
    const sim = await site();
    const res = await call(sim, "PUT", "/products/2/price_points/202.json", {
      body: { price_point: { handle: "pro-yearly", price_in_cents: 45000 } },
    });
    expect(res.status).toBe(200);
    expect(res.body.price_point).toMatchObject({ id: 202, handle: "pro-yearly", price_in_cents: 45000, interval: 12, type: "catalog" });
  });

  it("refuses any other field, naming it, and changes nothing", async () => {
    const sim = await site();
    const res = await call(sim, "PUT", "/products/2/price_points/202.json", {
      body: { price_point: { price_in_cents: 1, interval: 3, name: "x" } },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      "interval: cannot be changed; a price point update takes only handle and price_in_cents (make a new price point for other terms).",
      "name: cannot be changed; a price point update takes only handle and price_in_cents (make a new price point for other terms).",
    ]);
    expect((await call(sim, "GET", "/products/2/price_points/202.json")).body.price_point.price_in_cents).toBe(50000);
  });

  it.each<{ what: string; body: unknown; errors: string[] }>([
    {
      what: "a handle of another price point of the product",
      body: { price_point: { handle: "pro-monthly" } },
      errors: ["API Handle: must be unique - that value has been taken."],
    },
    { what: "a negative price", body: { price_point: { price_in_cents: -1 } }, errors: ["Price: must be greater than or equal to 0."] },
    { what: "no price_point", body: {}, errors: ["price_point must be an Object"] },
  ])("422 error list for $what", async ({ body, errors }) => {
    const sim = await site();
    expect(await call(sim, "PUT", "/products/2/price_points/202.json", { body })).toMatchObject({ status: 422, body: { errors } });
  });
});

describe("archive, unarchive, promote", () => {
  it("the default price point cannot be archived (the published 422); one archived twice is refused", async () => {
    const sim = await site();
    expect(await call(sim, "DELETE", "/products/2/price_points/201.json")).toMatchObject({
      status: 422,
      body: { errors: ["Cannot archive the default price point."] },
    });
    const archived = await call(sim, "DELETE", "/products/2/price_points/202.json");
    expect(archived.body.price_point).toMatchObject({ id: 202, archived_at: expect.any(String), type: "catalog" });
    expect(await call(sim, "DELETE", "/products/2/price_points/202.json")).toMatchObject({
      status: 422,
      body: { errors: ["Price point is already archived."] },
    });
  });

  it("an archived price point keeps its subscriptions and takes no migrations; unarchived, it does", async () => {
    const sim = await site();
    const on = sim.addSubscription({ productHandle: "pro", pricePointId: 202, state: "active" });
    const moving = sim.addSubscription({ productHandle: "basic", state: "active" });
    await call(sim, "DELETE", "/products/2/price_points/202.json");
    expect(sim.getSubscription(on.id)?.pricePointId).toBe(202);
    const body = migration({ product_handle: "pro", product_price_point_handle: "pro-annual" });
    expect(await call(sim, "POST", `/subscriptions/${moving.id}/migrations.json`, { body })).toMatchObject({
      status: 422,
      body: { errors: ["Price point 'pro-annual' is archived: subscriptions cannot be moved onto it."] },
    });
    const back = await call(sim, "PATCH", "/products/2/price_points/202/unarchive.json");
    expect(back.body.price_point).toMatchObject({ id: 202, archived_at: null });
    expect((await call(sim, "POST", `/subscriptions/${moving.id}/migrations.json`, { body })).status).toBe(200);
  });

  it("unarchiving one that is not archived answers it as it is", async () => {
    const sim = await site();
    const res = await call(sim, "PATCH", "/products/2/price_points/202/unarchive.json");
    expect(res).toMatchObject({ status: 200, body: { price_point: { id: 202, archived_at: null } } });
  });

  it("promote: answered with the product, whose default and terms are now this price point's; the old default is catalog", async () => {
    const sim = await site();
    const res = await call(sim, "PATCH", "/products/2/price_points/202/default.json");
    expect(res.status).toBe(200);
    expect(res.body.product).toMatchObject({
      id: 2,
      default_product_price_point_id: 202,
      product_price_point_id: 202,
      product_price_point_handle: "pro-annual",
      price_in_cents: 50000,
      interval: 12,
    });
    expect(await list(sim)).toEqual([
      [201, "pro-monthly", "catalog"],
      [202, "pro-annual", "default"],
    ]);
    // The old default can be archived now; the new one cannot.
    expect((await call(sim, "DELETE", "/products/2/price_points/201.json")).status).toBe(200);
    expect((await call(sim, "DELETE", "/products/2/price_points/202.json")).status).toBe(422);
    // Promoting the default again changes nothing.
    expect((await call(sim, "PATCH", "/products/2/price_points/202/default.json")).body.product.default_product_price_point_id).toBe(202);
  });

  it("an archived price point cannot be promoted before it is unarchived", async () => {
    const sim = await site();
    await call(sim, "DELETE", "/products/2/price_points/202.json");
    const res = await call(sim, "PATCH", "/products/2/price_points/202/default.json");
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatch(/archived: unarchive it/);
  });

  it("PATCH is not guarded by uniqueness tokens (the service documents them for POST and PUT); 404s for unknown ids", async () => {
    const sim = await site();
    for (const path of [
      "/products/2/price_points/999/unarchive.json",
      "/products/2/price_points/999/default.json",
      "/products/99/price_points/202/default.json",
    ]) {
      expect((await call(sim, "PATCH", path)).status).toBe(404);
    }
    expect((await call(sim, "DELETE", "/products/2/price_points/999.json")).status).toBe(404);
  });
});
