import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Simulator, SubscriptionState } from "../../simulator";
import { call, DUPLICATE, migration, withSite } from "./helpers";

let sim: Simulator;
beforeEach(async () => {
  sim = await withSite();
});
afterEach(async () => {
  await sim.close();
});

const onBasic = (state: SubscriptionState = "active", extra: { requiresAuthentication?: boolean } = {}) =>
  sim.addSubscription({ productHandle: "basic", state, ...extra }).id;

describe("GET /subscriptions/{id}.json", () => {
  it("renders the vendor's full object, nulls included, without price point fields by default", async () => {
    const id = onBasic("trialing");
    const res = await call(sim, "GET", `/subscriptions/${id}.json`);
    expect(res.status).toBe(200);
    const s = res.body.subscription;
    expect(s).toMatchObject({
      id,
      state: "trialing",
      previous_state: "trialing",
      balance_in_cents: 0,
      payment_collection_method: "automatic",
      expires_at: null,
      canceled_at: null,
      coupon_code: null,
      snap_day: null,
      activated_at: null,
      next_product_id: null,
      customer: { id: expect.any(Number), email: expect.stringContaining("@"), organization: null, reference: null },
      product: {
        id: 1,
        handle: "basic",
        price_in_cents: 1000,
        interval: 1,
        interval_unit: "month",
        archived_at: null,
        product_family: { id: expect.any(Number), handle: expect.any(String), accounting_code: null },
        product_price_point_name: "Default",
      },
    });
    expect(s.current_period_ends_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(s.trial_started_at).toBe(s.created_at);
    expect(s).not.toHaveProperty("product_price_point_id");
    expect(s).not.toHaveProperty("product_price_point_type");
    for (const k of ["product_price_point_id", "product_price_point_handle", "default_product_price_point_id"])
      expect(s.product).not.toHaveProperty(k);
  });

  it("reportPricePoint: true adds product_price_point_id and _type at the top level only", async () => {
    const reporting = await withSite({ reportPricePoint: true });
    try {
      const id = reporting.addSubscription({ productHandle: "pro", pricePointId: 202, state: "active" }).id;
      const s = (await call(reporting, "GET", `/subscriptions/${id}.json`)).body.subscription;
      expect(s).toMatchObject({
        product_price_point_id: 202,
        product_price_point_type: "catalog",
        product: { handle: "pro", product_price_point_name: "pro-annual", interval: 12 },
      });
      expect(s.product).not.toHaveProperty("product_price_point_id");
    } finally {
      await reporting.close();
    }
  });

  it("a canceled subscription has canceled_at and no next assessment", async () => {
    const s = (await call(sim, "GET", `/subscriptions/${onBasic("canceled")}.json`)).body.subscription;
    expect(s).toMatchObject({
      state: "canceled",
      previous_state: "canceled",
      next_assessment_at: null,
      cancellation_method: "merchant_api",
    });
    expect(s.canceled_at).toBe(s.updated_at);
  });

  it('a product without a handle renders "handle": null', async () => {
    const p = sim.addProduct({ handle: null, name: "Legacy" });
    const id = sim.addSubscription({ productId: p.id, state: "active" }).id;
    const s = (await call(sim, "GET", `/subscriptions/${id}.json`)).body.subscription;
    expect(s.product).toMatchObject({ id: p.id, name: "Legacy", handle: null });
  });

  it.each(["/subscriptions/999.json", "/subscriptions/0.json"])("404 with an error list for %s", async (path) => {
    expect(await call(sim, "GET", path)).toMatchObject({ status: 404, body: { errors: ["Subscription not found"] } });
  });
});

describe("POST /subscriptions/{id}/migrations.json", () => {
  it.each([
    { by: "product_id, default price point", m: { product_id: 2 }, pp: 201, name: "Default", type: "default" },
    { by: "product_handle", m: { product_handle: "pro" }, pp: 201, name: "Default", type: "default" },
    { by: "price point id", m: { product_id: 2, product_price_point_id: 202 }, pp: 202, name: "pro-annual", type: "catalog" },
    {
      by: "price point handle",
      m: { product_handle: "pro", product_price_point_handle: "pro-annual" },
      pp: 202,
      name: "pro-annual",
      type: "catalog",
    },
    {
      by: "both, agreeing",
      m: { product_id: 2, product_handle: "pro", product_price_point_id: 202, product_price_point_handle: "pro-annual" },
      pp: 202,
      name: "pro-annual",
      type: "catalog",
    },
  ])("migrates by $by", async ({ m, pp, name, type }) => {
    const id = onBasic();
    const res = await call(sim, "POST", `/subscriptions/${id}/migrations.json`, { body: migration(m) });
    expect(res.status).toBe(200);
    expect(res.body.subscription).toMatchObject({
      id,
      state: "active",
      previous_state: "active",
      product: { id: 2, handle: "pro", product_price_point_name: name },
    });
    expect(res.body.subscription).not.toHaveProperty("product_price_point_id");
    expect(sim.getSubscription(id)).toMatchObject({ productId: 2, pricePointId: pp, previousState: "active" });
    expect(sim.migrationsApplied(id)).toBe(1);
    expect((await call(sim, "GET", `/subscriptions/${id}.json`)).body).toEqual(res.body);
    const reporting = await withSite({ reportPricePoint: true });
    try {
      const other = reporting.addSubscription({ productHandle: "basic", state: "active" }).id;
      const reported = await call(reporting, "POST", `/subscriptions/${other}/migrations.json`, { body: migration(m) });
      expect(reported.body.subscription).toMatchObject({ product_price_point_id: pp, product_price_point_type: type });
    } finally {
      await reporting.close();
    }
  });

  it.each([
    { from: "active", to: "active" },
    { from: "trialing", to: "trialing" },
    { from: "trial_ended", to: "active" },
  ] as const)(
    "a $from subscription migrates and becomes $to; previous_state repeats the state, the record keeps $from",
    async ({ from, to }) => {
      const id = onBasic(from);
      const res = await call(sim, "POST", `/subscriptions/${id}/migrations.json`, { body: migration({ product_handle: "pro" }) });
      expect(res.status).toBe(200);
      expect(res.body.subscription).toMatchObject({ state: to, previous_state: to });
      expect(sim.getSubscription(id)).toMatchObject({ state: to, previousState: from });
    },
  );

  it.each(["canceled", "past_due", "expired", "on_hold", "suspended"] as const)(
    "refuses a %s subscription, naming the state",
    async (state) => {
      const id = onBasic(state);
      const res = await call(sim, "POST", `/subscriptions/${id}/migrations.json`, { body: migration({ product_handle: "pro" }) });
      expect(res.status).toBe(422);
      expect(res.body.errors[0]).toContain(`'${state}'`);
      expect(sim.getSubscription(id)?.productId).toBe(1);
    },
  );

  const refused: { name: string; body: unknown; message: RegExp }[] = [
    { name: "no product", body: migration({ include_trial: true }), message: /product_id or product_handle is required/ },
    { name: "unknown product id", body: migration({ product_id: 77 }), message: /no product has id 77/ },
    { name: "unknown product handle", body: migration({ product_handle: "gold" }), message: /no product has handle 'gold'/ },
    {
      name: "id and handle of different products",
      body: migration({ product_id: 1, product_handle: "pro" }),
      message: /different products/,
    },
    {
      name: "unknown price point id",
      body: migration({ product_id: 2, product_price_point_id: 999 }),
      message: /Price point 999 is not a price point of product 'pro'/,
    },
    {
      name: "another product's price point",
      body: migration({ product_id: 2, product_price_point_id: 101 }),
      message: /Price point 101 is not/,
    },
    {
      name: "unknown price point handle",
      body: migration({ product_id: 2, product_price_point_handle: "pro-weekly" }),
      message: /'pro-weekly' is not/,
    },
    {
      name: "price point id and handle disagree",
      body: migration({ product_id: 2, product_price_point_id: 201, product_price_point_handle: "pro-annual" }),
      message: /different price points/,
    },
    { name: "the current product", body: migration({ product_handle: "basic" }), message: /already on product 'basic'/ },
    {
      name: "the current product, other price point",
      body: migration({ product_id: 1, product_price_point_handle: "basic-default" }),
      message: /already on product 'basic'/,
    },
    { name: "no migration key", body: { product_id: 2 }, message: /migration/ },
    { name: "a string product_id", body: migration({ product_id: "2" }), message: /migration\.product_id/ },
    { name: "a non-boolean option", body: migration({ product_id: 2, preserve_period: "yes" }), message: /migration\.preserve_period/ },
  ];
  it.each(refused)("422 for $name, nothing changes", async ({ body, message }) => {
    const id = onBasic();
    const before = sim.getSubscription(id);
    const res = await call(sim, "POST", `/subscriptions/${id}/migrations.json`, { body });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body)).toEqual(["errors"]);
    expect(res.body.errors.join(" ")).toMatch(message);
    expect(sim.getSubscription(id)).toEqual(before);
    expect(sim.migrationsApplied(id)).toBe(0);
  });

  it("404 for an unknown subscription, whatever the body", async () => {
    for (const body of [migration({ product_id: 2 }), { nonsense: true }]) {
      expect(await call(sim, "POST", "/subscriptions/4242/migrations.json", { body })).toMatchObject({
        status: 404,
        body: { errors: ["Subscription not found"] },
      });
    }
  });

  it("resets the billing period unless preserve_period", async () => {
    let now = Date.parse("2026-11-01T00:00:00Z");
    const clocked = await withSite({ now: () => new Date(now) });
    try {
      const [a, b] = [1, 2].map(() => clocked.addSubscription({ productId: 1, state: "active" }).id);
      now = Date.parse("2026-11-15T12:00:00Z");
      await call(clocked, "POST", `/subscriptions/${a}/migrations.json`, {
        body: migration({ product_id: 2, product_price_point_id: 202 }),
      });
      await call(clocked, "POST", `/subscriptions/${b}/migrations.json`, { body: migration({ product_id: 2, preserve_period: true }) });
      expect(clocked.getSubscription(a)).toMatchObject({
        currentPeriodStartedAt: "2026-11-15T12:00:00Z",
        currentPeriodEndsAt: "2027-11-15T12:00:00Z",
        updatedAt: "2026-11-15T12:00:00Z",
      });
      expect(clocked.getSubscription(b)).toMatchObject({
        currentPeriodStartedAt: "2026-11-01T00:00:00Z",
        currentPeriodEndsAt: "2026-12-01T00:00:00Z",
        updatedAt: "2026-11-15T12:00:00Z",
      });
    } finally {
      await clocked.close();
    }
  });

  it("a repeated uniqueness_token is a 409 and applies nothing", async () => {
    const id = onBasic();
    const first = await call(sim, "POST", `/subscriptions/${id}/migrations.json`, {
      body: migration({ product_id: 2 }, { uniqueness_token: "m-1" }),
    });
    expect(first.status).toBe(200);
    const again = await call(sim, "POST", `/subscriptions/${id}/migrations.json`, {
      body: migration({ product_id: 2, product_price_point_id: 202 }, { uniqueness_token: "m-1" }),
    });
    expect(again).toMatchObject({ status: 409, body: { errors: [DUPLICATE] } });
    expect(sim.getSubscription(id)?.pricePointId).toBe(201);
    expect(sim.migrationsApplied(id)).toBe(1);
  });
});

describe("3-D Secure", () => {
  it("422 with an action link; visiting it (no credentials) applies the migration once", async () => {
    const id = onBasic("active", { requiresAuthentication: true });
    const res = await call(sim, "POST", `/subscriptions/${id}/migrations.json`, {
      body: migration({ product_handle: "pro", product_price_point_handle: "pro-annual" }, { uniqueness_token: "sca-1" }),
    });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatch(/3-D Secure/);
    expect(res.body.gateway_payment_id).toMatch(/^pi_/);
    expect(typeof res.body.description).toBe("string");
    expect(res.body.action_link.startsWith(`${sim.url}/authentications/`)).toBe(true);
    expect(sim.getSubscription(id)?.productId).toBe(1);

    const visit = await fetch(res.body.action_link);
    expect(visit.status).toBe(200);
    expect(await visit.json()).toMatchObject({ authentication: "completed", subscription_id: id });
    expect(sim.getSubscription(id)).toMatchObject({
      productId: 2,
      pricePointId: 202,
      previousState: "active",
      requiresAuthentication: false,
    });
    const read = await call(sim, "GET", `/subscriptions/${id}.json`);
    expect(read.body.subscription).toMatchObject({ product: { handle: "pro", product_price_point_name: "pro-annual" } });
    expect(sim.migrationsApplied(id)).toBe(1);

    const twice = await fetch(res.body.action_link);
    expect(twice.status).toBe(200);
    expect(((await twice.json()) as { message: string }).message).toMatch(/already/);
    expect(sim.migrationsApplied(id)).toBe(1);
    // The 422 recorded no token: the client may send the same request again, and it is judged on its own.
    const resend = await call(sim, "POST", `/subscriptions/${id}/migrations.json`, {
      body: migration({ product_handle: "pro" }, { uniqueness_token: "sca-1" }),
    });
    expect(resend.body.errors[0]).toMatch(/already on product 'pro'/);
  });

  it("after authentication the subscription migrates without a link", async () => {
    const id = onBasic("active", { requiresAuthentication: true });
    const res = await call(sim, "POST", `/subscriptions/${id}/migrations.json`, { body: migration({ product_handle: "pro" }) });
    await fetch(res.body.action_link);
    sim.addProduct({ handle: "max" });
    expect((await call(sim, "POST", `/subscriptions/${id}/migrations.json`, { body: migration({ product_handle: "max" }) })).status).toBe(
      200,
    );
  });

  it("an unknown link is 404; a link whose migration no longer applies is 422", async () => {
    expect((await fetch(`${sim.url}/authentications/nope`)).status).toBe(404);
    const id = onBasic("active", { requiresAuthentication: true });
    const a = await call(sim, "POST", `/subscriptions/${id}/migrations.json`, { body: migration({ product_handle: "pro" }) });
    const b = await call(sim, "POST", `/subscriptions/${id}/migrations.json`, { body: migration({ product_handle: "pro" }) });
    expect((await fetch(a.body.action_link)).status).toBe(200);
    const stale = await fetch(b.body.action_link);
    expect(stale.status).toBe(422);
    expect(((await stale.json()) as { errors: string[] }).errors[0]).toMatch(/already on product 'pro'/);
  });
});

describe("POST /subscriptions/{id}/migrations/preview.json", () => {
  it.each([
    {
      name: "basic → pro, new period",
      state: "active",
      m: { product_id: 2 },
      want: { prorated_adjustment_in_cents: -500, charge_in_cents: 5000, payment_due_in_cents: 4500, credit_applied_in_cents: 500 },
    },
    {
      name: "basic → pro, preserve period",
      state: "active",
      m: { product_id: 2, preserve_period: true },
      want: { prorated_adjustment_in_cents: -500, charge_in_cents: 2500, payment_due_in_cents: 2000, credit_applied_in_cents: 500 },
    },
    {
      name: "basic → pro-annual",
      state: "active",
      m: { product_id: 2, product_price_point_handle: "pro-annual" },
      want: { prorated_adjustment_in_cents: -500, charge_in_cents: 50000, payment_due_in_cents: 49500, credit_applied_in_cents: 500 },
    },
    {
      name: "trialing: no credit",
      state: "trialing",
      m: { product_handle: "pro" },
      want: { prorated_adjustment_in_cents: 0, charge_in_cents: 5000, payment_due_in_cents: 5000, credit_applied_in_cents: 0 },
    },
  ] as const)("$name", async ({ state, m, want }) => {
    const id = onBasic(state);
    const res = await call(sim, "POST", `/subscriptions/${id}/migrations/preview.json`, { body: migration(m) });
    expect(res).toMatchObject({ status: 200, body: { migration: want } });
    expect(sim.getSubscription(id)?.productId).toBe(1);
  });

  it("applies the migration's rules and changes nothing", async () => {
    const id = onBasic();
    const same = await call(sim, "POST", `/subscriptions/${id}/migrations/preview.json`, { body: migration({ product_handle: "basic" }) });
    expect(same.status).toBe(422);
    expect(same.body.errors[0]).toMatch(/already on product 'basic'/);
    expect((await call(sim, "POST", "/subscriptions/9/migrations/preview.json", { body: migration({ product_id: 2 }) })).status).toBe(404);
    expect(
      (await call(sim, "POST", `/subscriptions/${onBasic("canceled")}/migrations/preview.json`, { body: migration({ product_id: 2 }) }))
        .status,
    ).toBe(422);
  });

  it("needs no 3-D Secure: nothing is charged", async () => {
    const id = onBasic("active", { requiresAuthentication: true });
    expect((await call(sim, "POST", `/subscriptions/${id}/migrations/preview.json`, { body: migration({ product_id: 2 }) })).status).toBe(
      200,
    );
  });
});
