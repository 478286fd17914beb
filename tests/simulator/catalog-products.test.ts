import { describe, expect, it } from "vitest";
import type { Simulator } from "../../simulator";
import { call, DUPLICATE, migration, start } from "./helpers";

// Products over real HTTP: create in a family, list (per family and site-wide, paged, include_archived),
// read, update (a change of terms makes a new default price point), archive.

const product = (p: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ product: p, ...extra });
const gold = {
  name: "Gold Plan",
  handle: "gold",
  description: "This is our gold plan.",
  price_in_cents: 1000,
  interval: 1,
  interval_unit: "month",
};

/** A site with one family ("saas"), answering the helpers' key. */
async function site(): Promise<{ sim: Simulator; familyId: number }> {
  const sim = await start();
  return { sim, familyId: sim.addProductFamily({ handle: "saas", name: "SaaS" }).id };
}

async function create(sim: Simulator, familyId: number, p: Record<string, unknown>) {
  const res = await call(sim, "POST", `/product_families/${familyId}/products.json`, { body: product(p) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.product;
}

const ids = (body: any[]) => body.map((r) => r.product.id);

describe("POST /product_families/{id}/products.json", () => {
  it("201: the product, its family, and its default price point's terms, id, name and a uuid: handle", async () => {
    const { sim, familyId } = await site();
    const p = await create(sim, familyId, { ...gold, accounting_code: "123", tax_code: "D0000000", require_credit_card: false });
    expect(p).toMatchObject({
      name: "Gold Plan",
      handle: "gold",
      description: "This is our gold plan.",
      accounting_code: "123",
      tax_code: "D0000000",
      taxable: false,
      require_credit_card: false,
      request_credit_card: true,
      price_in_cents: 1000,
      interval: 1,
      interval_unit: "month",
      trial_price_in_cents: null,
      trial_interval: null,
      trial_interval_unit: null,
      initial_charge_in_cents: null,
      initial_charge_after_trial: false,
      expiration_interval: null,
      expiration_interval_unit: "never",
      archived_at: null,
      version_number: 1,
      product_price_point_name: "Default",
      product_price_point_handle: expect.stringMatching(/^uuid:[0-9a-f-]{36}$/),
      product_family: { id: familyId, handle: "saas", name: "SaaS" },
      public_signup_pages: [],
    });
    expect(p.default_product_price_point_id).toBe(p.product_price_point_id);
    const pps = (await call(sim, "GET", `/products/${p.id}/price_points.json`)).body.price_points;
    expect(pps).toMatchObject([{ id: p.default_product_price_point_id, type: "default", name: "Default", price_in_cents: 1000 }]);
  });

  it("takes the family as handle:<handle>, and the full terms: trial, initial charge, expiration in days", async () => {
    const { sim } = await site();
    const p = await create(sim, "handle:saas" as unknown as number, {
      ...gold,
      interval: 30,
      interval_unit: "day",
      trial_price_in_cents: 0,
      trial_interval: 14,
      trial_interval_unit: "day",
      trial_type: "no_obligation",
      initial_charge_in_cents: 4900,
      initial_charge_after_trial: true,
      expiration_interval: 12,
      expiration_interval_unit: "month",
    });
    expect(p).toMatchObject({
      interval: 30,
      interval_unit: "day",
      trial_price_in_cents: 0,
      trial_interval: 14,
      trial_interval_unit: "day",
      initial_charge_in_cents: 4900,
      initial_charge_after_trial: true,
      expiration_interval: 12,
      expiration_interval_unit: "month",
    });
    const [pp] = (await call(sim, "GET", `/products/${p.id}/price_points.json`)).body.price_points;
    expect(pp).toMatchObject({ trial_type: "no_obligation", expiration_interval_unit: "month" });
  });

  it("without a handle: handle null (the contract's nullable handle), reachable by id only; description null", async () => {
    const { sim, familyId } = await site();
    const { handle: _h, description: _d, ...rest } = gold;
    const p = await create(sim, familyId, rest);
    expect(p).toMatchObject({ handle: null, description: null });
  });

  it("auto_create_signup_page makes a public signup page", async () => {
    const { sim, familyId } = await site();
    const p = await create(sim, familyId, { ...gold, auto_create_signup_page: true });
    expect(p.public_signup_pages).toEqual([
      { id: expect.any(Number), return_url: null, return_params: null, url: expect.stringMatching(/\/subscribe\/[0-9a-f]+\/gold$/) },
    ]);
  });

  it("a handle is unique among the site's products, archived ones included (archiving does not free it)", async () => {
    const { sim, familyId } = await site();
    const other = sim.addProductFamily({ handle: "other" });
    sim.addProduct({ handle: "old", familyId: other.id, archived: true });
    for (const handle of ["gold", "old"]) {
      if (handle === "gold") await create(sim, familyId, gold);
      const res = await call(sim, "POST", `/product_families/${familyId}/products.json`, { body: product({ ...gold, handle }) });
      expect(res).toMatchObject({ status: 422, body: { errors: ["API Handle: must be unique - that value has been taken."] } });
    }
  });

  it.each<{ what: string; body: Record<string, unknown>; errors: string[] }>([
    { what: "no name", body: { ...gold, name: undefined }, errors: ["Name: cannot be blank."] },
    {
      what: "no terms",
      body: { name: "X" },
      errors: [
        "Recurring Interval: cannot be blank.",
        "Interval unit: cannot be blank.",
        "Interval unit: must be 'month' or 'day'.",
        "Price: is not a number.",
        "Price in cents: cannot be blank.",
      ],
    },
    { what: "a negative price", body: { ...gold, price_in_cents: -1 }, errors: ["Price: must be greater than or equal to 0."] },
    { what: "a fractional price", body: { ...gold, price_in_cents: 10.5 }, errors: ["Price: must be an integer."] },
    { what: "interval 0", body: { ...gold, interval: 0 }, errors: ["Recurring Interval: must be greater than or equal to 1."] },
    { what: "interval unit week", body: { ...gold, interval_unit: "week" }, errors: ["Interval unit: must be 'month' or 'day'."] },
    {
      what: "a tax code over 10 characters",
      body: { ...gold, tax_code: "D00000000000" },
      errors: ["Tax code: is too long (maximum is 10 characters)."],
    },
    {
      what: "a trial without its unit and price",
      body: { ...gold, trial_interval: 7 },
      errors: ["Trial interval unit: cannot be blank.", "Trial price in cents: cannot be blank."],
    },
    { what: "a trial price without a trial", body: { ...gold, trial_price_in_cents: 100 }, errors: ["Trial interval: cannot be blank."] },
    {
      what: "an expiration without its unit",
      body: { ...gold, expiration_interval: 2 },
      errors: ["Expiration interval unit: must be 'month' or 'day'."],
    },
    {
      what: "an unknown trial type",
      body: { ...gold, trial_type: "free" },
      errors: ["Trial type: must be 'no_obligation' or 'payment_expected'."],
    },
    {
      what: "a boolean that is not one",
      body: { ...gold, require_credit_card: "yes" },
      errors: ["Require credit card: must be true or false."],
    },
  ])("422 error list for $what, in the vendor's words", async ({ body, errors }) => {
    const { sim, familyId } = await site();
    const res = await call(sim, "POST", `/product_families/${familyId}/products.json`, { body: product(body) });
    expect(res).toMatchObject({ status: 422, body: { errors } });
    expect((await call(sim, "GET", "/products.json")).body).toEqual([]);
  });

  it("an unknown family is a 404 whatever the body", async () => {
    const { sim } = await site();
    for (const ref of ["4242", "handle:nope"]) {
      const res = await call(sim, "POST", `/product_families/${ref}/products.json`, { body: product({}) });
      expect(res).toMatchObject({ status: 404, body: { errors: ["Product family not found"] } });
    }
  });

  it("a repeated uniqueness_token is a 409 that makes nothing", async () => {
    const { sim, familyId } = await site();
    const body = product(gold, { uniqueness_token: "prod-1" });
    expect((await call(sim, "POST", `/product_families/${familyId}/products.json`, { body })).status).toBe(201);
    const again = await call(sim, "POST", `/product_families/${familyId}/products.json`, { body });
    expect(again).toMatchObject({ status: 409, body: { errors: [DUPLICATE] } });
    expect((await call(sim, "GET", "/products.json")).body).toHaveLength(1);
  });
});

describe("GET /products.json and /product_families/{id}/products.json", () => {
  it("lists oldest first, per family or site-wide; archived ones only with include_archived=true", async () => {
    const { sim, familyId } = await site();
    const other = sim.addProductFamily({ handle: "other" });
    const a = sim.addProduct({ handle: "a", familyId });
    const b = sim.addProduct({ handle: "b", familyId: other.id });
    const c = sim.addProduct({ handle: "c", familyId, archived: true });
    expect(ids((await call(sim, "GET", "/products.json")).body)).toEqual([a.id, b.id]);
    expect(ids((await call(sim, "GET", "/products.json?include_archived=true")).body)).toEqual([a.id, b.id, c.id]);
    expect(ids((await call(sim, "GET", "/products.json?include_archived=false")).body)).toEqual([a.id, b.id]);
    expect(ids((await call(sim, "GET", `/product_families/${familyId}/products.json`)).body)).toEqual([a.id]);
    expect(ids((await call(sim, "GET", "/product_families/handle:saas/products.json?include_archived=true")).body)).toEqual([a.id, c.id]);
    const archived = (await call(sim, "GET", "/products.json?include_archived=true")).body[2].product;
    expect(archived.archived_at).toEqual(expect.any(String));
  });

  it("pages 20 at a time by default; per_page over 200 is 200", async () => {
    const { sim, familyId } = await site();
    const made = Array.from({ length: 230 }, (_, i) => sim.addProduct({ handle: `p${i}`, familyId }).id);
    const page = async (q: string) => ids((await call(sim, "GET", `/products.json?${q}`)).body);
    expect(await page("")).toEqual(made.slice(0, 20));
    expect(await page("page=2")).toEqual(made.slice(20, 40));
    expect(await page("per_page=500")).toEqual(made.slice(0, 200));
    expect(await page("per_page=200&page=2")).toEqual(made.slice(200));
    expect(await page("per_page=200&page=3")).toEqual([]);
    expect(ids((await call(sim, "GET", `/product_families/${familyId}/products.json?per_page=7&page=2`)).body)).toEqual(made.slice(7, 14));
  });

  it.each(["page=0", "per_page=x", "include_archived=maybe"])("422 for %s", async (q) => {
    const { sim } = await site();
    const res = await call(sim, "GET", `/products.json?${q}`);
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toContain(q.split("=")[0]);
  });

  it("an unknown family: the published 404, a bare JSON string", async () => {
    const { sim } = await site();
    const res = await call(sim, "GET", "/product_families/4242/products.json");
    expect(res.status).toBe(404);
    expect(res.text).toBe('"A valid product_family_id is required"');
  });
});

describe("PUT /products/{id}.json", () => {
  it("without a change of terms: changes what it names, in place (same default price point, same version)", async () => {
    const { sim, familyId } = await site();
    const p = await create(sim, familyId, gold);
    const res = await call(sim, "PUT", `/products/${p.id}.json`, {
      body: product({ name: "Platinum", description: null, accounting_code: "A-1", price_in_cents: 1000, interval: 1 }),
    });
    expect(res.status).toBe(200);
    expect(res.body.product).toMatchObject({
      name: "Platinum",
      description: null,
      accounting_code: "A-1",
      handle: "gold",
      default_product_price_point_id: p.default_product_price_point_id,
      version_number: 1,
    });
    expect((await call(sim, "GET", `/products/${p.id}/price_points.json`)).body.price_points).toHaveLength(1);
  });

  it("a change of terms makes a new default price point; the old one becomes catalog and keeps its subscriptions", async () => {
    const { sim, familyId } = await site();
    const p = await create(sim, familyId, gold);
    const sub = sim.addSubscription({ productId: p.id, state: "active" });
    const res = await call(sim, "PUT", `/products/${p.id}.json`, {
      body: product({ price_in_cents: 2000, trial_interval: 7, trial_interval_unit: "day", trial_price_in_cents: 0 }),
    });
    expect(res.status).toBe(200);
    const updated = res.body.product;
    expect(updated).toMatchObject({ price_in_cents: 2000, interval: 1, interval_unit: "month", trial_interval: 7, version_number: 2 });
    expect(updated.default_product_price_point_id).not.toBe(p.default_product_price_point_id);
    const pps = (await call(sim, "GET", `/products/${p.id}/price_points.json`)).body.price_points;
    expect(pps.map((pp: any) => [pp.id, pp.type, pp.price_in_cents])).toEqual([
      [p.default_product_price_point_id, "catalog", 1000],
      [updated.default_product_price_point_id, "default", 2000],
    ]);
    expect(sim.getSubscription(sub.id)?.pricePointId).toBe(p.default_product_price_point_id);
    const read = await call(sim, "GET", `/subscriptions/${sub.id}.json`);
    expect(read.body.subscription.product.price_in_cents).toBe(1000);
  });

  it("a handle taken by another product (archived too) is a 422; its own handle is fine; null removes it", async () => {
    const { sim, familyId } = await site();
    sim.addProduct({ handle: "taken", familyId, archived: true });
    const p = await create(sim, familyId, gold);
    expect(await call(sim, "PUT", `/products/${p.id}.json`, { body: product({ handle: "taken" }) })).toMatchObject({
      status: 422,
      body: { errors: ["API Handle: must be unique - that value has been taken."] },
    });
    expect((await call(sim, "PUT", `/products/${p.id}.json`, { body: product({ handle: "gold" }) })).status).toBe(200);
    expect((await call(sim, "PUT", `/products/${p.id}.json`, { body: product({ handle: null }) })).body.product.handle).toBeNull();
  });

  it.each<{ what: string; body: unknown; errors: string[] }>([
    { what: "a blank name", body: product({ name: "" }), errors: ["Name: cannot be blank."] },
    { what: "a negative price", body: product({ price_in_cents: -5 }), errors: ["Price: must be greater than or equal to 0."] },
    {
      what: "a trial without a price",
      body: product({ trial_interval: 7, trial_interval_unit: "day" }),
      errors: ["Trial price in cents: cannot be blank."],
    },
    { what: "no product object", body: { name: "x" }, errors: ["product must be an Object"] },
  ])("422 error list for $what, and nothing changes", async ({ body, errors }) => {
    const { sim, familyId } = await site();
    const p = await create(sim, familyId, gold);
    expect(await call(sim, "PUT", `/products/${p.id}.json`, { body })).toMatchObject({ status: 422, body: { errors } });
    expect((await call(sim, "GET", `/products/${p.id}.json`)).body.product).toMatchObject({ name: "Gold Plan", price_in_cents: 1000 });
  });

  it("an archived product can be renamed but takes no new terms", async () => {
    const { sim, familyId } = await site();
    const p = sim.addProduct({ handle: "old", familyId, archived: true });
    expect((await call(sim, "PUT", `/products/${p.id}.json`, { body: product({ name: "Old" }) })).status).toBe(200);
    const res = await call(sim, "PUT", `/products/${p.id}.json`, { body: product({ price_in_cents: 1 }) });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatch(/archived/);
  });

  it("404 for an unknown product whatever the body; 409 for a repeated token", async () => {
    const { sim, familyId } = await site();
    expect((await call(sim, "PUT", "/products/4242.json", { body: {} })).status).toBe(404);
    const p = await create(sim, familyId, gold);
    const body = product({ price_in_cents: 3000 }, { uniqueness_token: "upd-1" });
    expect((await call(sim, "PUT", `/products/${p.id}.json`, { body })).status).toBe(200);
    expect((await call(sim, "PUT", `/products/${p.id}.json`, { body })).status).toBe(409);
    expect((await call(sim, "GET", `/products/${p.id}/price_points.json`)).body.price_points).toHaveLength(2);
  });
});

describe("DELETE /products/{id}.json", () => {
  it("archives: archived_at set, the handle kept and still read by handle; a second archive is the published 422", async () => {
    const { sim, familyId } = await site();
    const p = await create(sim, familyId, gold);
    const res = await call(sim, "DELETE", `/products/${p.id}.json`);
    expect(res.status).toBe(200);
    expect(res.body.product).toMatchObject({ id: p.id, handle: "gold", archived_at: expect.any(String) });
    expect((await call(sim, "GET", "/products/handle/gold.json")).body.product.archived_at).toBe(res.body.product.archived_at);
    expect(await call(sim, "DELETE", `/products/${p.id}.json`)).toMatchObject({
      status: 422,
      body: { errors: ["Product cannot be archived."] },
    });
    expect((await call(sim, "DELETE", "/products/4242.json")).status).toBe(404);
  });

  it("an archived product keeps its subscribers, and refuses new price points and migrations onto it", async () => {
    const { sim, familyId } = await site();
    const p = await create(sim, familyId, gold);
    sim.addProduct({ handle: "basic", familyId });
    const staying = sim.addSubscription({ productId: p.id, state: "active" });
    const moving = sim.addSubscription({ productHandle: "basic", state: "active" });
    await call(sim, "DELETE", `/products/${p.id}.json`);
    expect((await call(sim, "GET", `/subscriptions/${staying.id}.json`)).body.subscription.product.id).toBe(p.id);
    const pp = await call(sim, "POST", `/products/${p.id}/price_points.json`, {
      body: { price_point: { name: "Later", price_in_cents: 1, interval: 1, interval_unit: "month" } },
    });
    expect(pp.status).toBe(422);
    expect(pp.body.errors.base[0]).toMatch(/Product 'gold' is archived/);
    const moved = await call(sim, "POST", `/subscriptions/${moving.id}/migrations.json`, { body: migration({ product_handle: "gold" }) });
    expect(moved).toMatchObject({ status: 422, body: { errors: ["Product 'gold' is archived: subscriptions cannot be moved onto it."] } });
    expect(sim.migrationsApplied(moving.id)).toBe(0);
  });
});

describe("seeding products", () => {
  it("full terms, intervalMonths as the older spelling, and price points that take the product's terms", async () => {
    const { sim, familyId } = await site();
    const p = sim.addProduct({
      handle: "annual",
      familyId,
      priceInCents: 12000,
      intervalMonths: 12,
      trialInterval: 14,
      trialIntervalUnit: "day",
      trialPriceInCents: 0,
      pricePoints: [
        { handle: "annual-eu", default: true },
        { handle: "weekly", interval: 7, intervalUnit: "day", priceInCents: 300 },
      ],
    });
    expect(p.pricePoints.map((pp) => [pp.handle, pp.interval, pp.intervalUnit, pp.priceInCents, pp.trialInterval])).toEqual([
      ["annual-eu", 12, "month", 12000, 14],
      ["weekly", 7, "day", 300, 14],
    ]);
    const sub = sim.addSubscription({
      productId: p.id,
      pricePointId: p.pricePoints[1].id,
      state: "active",
      createdAt: "2026-01-01T00:00:00Z",
    });
    expect(sub.currentPeriodEndsAt).toBe("2026-01-08T00:00:00Z");
  });

  it("an archived price point is left out of lists unless asked for; a default one cannot be archived", async () => {
    const { sim } = await site();
    const p = sim.addProduct({
      handle: "x",
      pricePoints: [
        { handle: "main", default: true },
        { handle: "gone", archived: true },
      ],
    });
    expect((await call(sim, "GET", `/products/${p.id}/price_points.json`)).body.price_points.map((pp: any) => pp.handle)).toEqual(["main"]);
    expect(() => sim.addProduct({ handle: "y", pricePoints: [{ handle: "d", default: true, archived: true }] })).toThrow(/default/);
  });
});
