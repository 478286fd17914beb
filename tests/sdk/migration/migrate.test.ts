import { describe, expect, it } from "vitest";
import { AuthenticationRequiredError, BillingApiError, BillingValidationError } from "../../../sdk";
import { migrationBodyOf } from "../../../sdk/migration";
import type { SubscriptionState } from "../../../simulator";
import { catalogue, clientOf, posts, type Site, scripted, site } from "../helpers";

/**
 * migrateSubscription (sdk/migration.ts) against the simulator: the body sent, the result, the service's refusals
 * (states, unknown ids, 3-D Secure) and what counts as one.
 */

const MIGRATIONS = /^\/subscriptions\/\d+\/migrations\.json$/;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type Body = { migration: Record<string, unknown>; uniqueness_token?: string };

describe("migrateSubscription", () => {
  let s: Site;

  /** A site with the catalogue and one subscription on basic; options go to the client. */
  async function withSubscription(state: SubscriptionState = "active", extra = {}, client = {}) {
    s = await site({}, client);
    catalogue(s.sim);
    return s.sim.addSubscription({ productHandle: "basic", state, ...extra }).id;
  }

  it.each([
    ["no product", {}, "migration.productId", /exactly one of productId or productHandle/],
    ["both product id and handle", { productId: 2, productHandle: "pro" }, "migration.productId", /not both/],
    [
      "both price point id and handle",
      { productHandle: "pro", pricePointId: 201, pricePointHandle: "pro-monthly" },
      "migration.pricePointId",
      /at most one/,
    ],
    ["a negative product id", { productId: -2 }, "migration.productId", /positive integer/],
    ["a fractional product id", { productId: 2.5 }, "migration.productId", /positive integer/],
    ["a string product id", { productId: "2" }, "migration.productId", /positive integer/],
    ["a zero price point id", { productId: 2, pricePointId: 0 }, "migration.pricePointId", /positive integer/],
    ["an empty handle", { productHandle: "" }, "migration.productHandle", /non-empty/],
    ["a non-boolean option", { productHandle: "pro", includeTrial: "yes" }, "migration.includeTrial", /must be true or false, got "yes"/],
    ["an unknown property", { productHandle: "pro", product_id: 2 }, "migration.product_id", /not a known property/],
  ])("%s: BillingValidationError naming %s, nothing sent", async (_, target, property, message) => {
    const id = await withSubscription();
    const err = await s.billing.migrateSubscription(id, target as never).catch((e) => e);
    expect(err).toBeInstanceOf(BillingValidationError);
    expect(err.problems.map((p: { property: string }) => p.property)).toContain(property);
    expect(err.message).toMatch(message);
    expect(s.sim.requests).toHaveLength(0);
  });

  it.each([[0], [-1], [1.5], [Number.NaN], ["1001"], [2 ** 53], [null]])("subscription id %o: refused before sending", async (bad) => {
    await withSubscription();
    const err = await s.billing.migrateSubscription(bad as never, { productHandle: "pro" }).catch((e) => e);
    expect(err).toBeInstanceOf(BillingValidationError);
    expect(err.problems.map((p: { property: string }) => p.property)).toContain("subscriptionId");
    expect(s.sim.requests).toHaveLength(0);
  });

  it.each([
    [
      "by handle, defaults",
      { productHandle: "pro" },
      { product_handle: "pro", include_trial: false, include_initial_charge: false, include_coupons: true, preserve_period: false },
    ],
    [
      "by id, every option flipped",
      { productId: 2, includeTrial: true, includeInitialCharge: true, includeCoupons: false, preservePeriod: true },
      { product_id: 2, include_trial: true, include_initial_charge: true, include_coupons: false, preserve_period: true },
    ],
    [
      "price point by id",
      { productId: 2, pricePointId: 202 },
      {
        product_id: 2,
        product_price_point_id: 202,
        include_trial: false,
        include_initial_charge: false,
        include_coupons: true,
        preserve_period: false,
      },
    ],
    [
      "price point by handle",
      { productHandle: "pro", pricePointHandle: "pro-annual", includeCoupons: true },
      {
        product_handle: "pro",
        product_price_point_handle: "pro-annual",
        include_trial: false,
        include_initial_charge: false,
        include_coupons: true,
        preserve_period: false,
      },
    ],
  ])("%s: the body carries exactly the target and all four options", async (_, target, expected) => {
    const id = await withSubscription();
    await s.billing.migrateSubscription(id, target);
    const [post] = posts(s.sim, MIGRATIONS);
    expect(post.path).toBe(`/subscriptions/${id}/migrations.json`);
    expect((post.body as Body).migration).toStrictEqual(expected);
  });

  it("sends a fresh top-level uniqueness_token per call, or the one given", async () => {
    const a = await withSubscription();
    const b = s.sim.addSubscription({ productHandle: "basic", state: "active" }).id;
    const c = s.sim.addSubscription({ productHandle: "basic", state: "active" }).id;
    await s.billing.migrateSubscription(a, { productHandle: "pro" });
    await s.billing.migrateSubscription(b, { productHandle: "pro" });
    await s.billing.migrateSubscription(c, { productHandle: "pro" }, { uniquenessToken: "resume-42" });
    const tokens = posts(s.sim, MIGRATIONS).map((r) => (r.body as Body).uniqueness_token);
    expect(tokens[0]).toMatch(UUID);
    expect(tokens[1]).toMatch(UUID);
    expect(tokens[0]).not.toBe(tokens[1]);
    expect(tokens[2]).toBe("resume-42");
    expect(posts(s.sim, MIGRATIONS).every((r) => (r.body as Body).migration.uniqueness_token === undefined)).toBe(true);
  });

  it("returns the updated subscription", async () => {
    const id = await withSubscription();
    const sub = await s.billing.migrateSubscription(id, { productHandle: "pro" });
    expect(Object.keys(sub).sort()).toEqual([
      "currentPeriodEndsAt",
      "id",
      "nextAssessmentAt",
      "previousState",
      "pricePointHandle",
      "pricePointId",
      "product",
      "state",
    ]);
    // previous_state as the service sends it (equal to state for API calls); the price point resolved through the product.
    expect(sub).toMatchObject({ id, state: "active", previousState: "active", product: { id: 2, handle: "pro" }, pricePointId: 201 });
    expect([undefined, "pro-monthly"]).toContain(sub.pricePointHandle); // unreported, or the right one
    const stored = s.sim.getSubscription(id)!;
    expect(stored.productId).toBe(2);
    expect(Date.parse(sub.currentPeriodEndsAt!)).toBe(Date.parse(stored.currentPeriodEndsAt));
    expect(Date.parse(sub.nextAssessmentAt!)).toBe(Date.parse(stored.currentPeriodEndsAt));
  });

  it.each([
    ["by id", 202, { productId: 2, pricePointId: 202 }],
    ["by handle", 202, { productHandle: "pro", pricePointHandle: "pro-annual" }],
    ["the default", 201, { productId: 2 }],
    ["the default, product by handle", 301, { productHandle: "launch" }],
  ])("price point %s → %i", async (_, pricePointId, target) => {
    const id = await withSubscription();
    const sub = await s.billing.migrateSubscription(id, target);
    expect(sub.pricePointId).toBe(pricePointId);
    expect(s.sim.getSubscription(id)?.pricePointId).toBe(pricePointId);
  });

  it.each([
    ["by handle", { productHandle: "basic" }],
    ["by id", { productId: 1 }],
  ])("same product (%s): BillingApiError 422 with the service's errors, method and path", async (_, target) => {
    const id = await withSubscription();
    const err = await s.billing.migrateSubscription(id, target).catch((e) => e);
    expect(err).toBeInstanceOf(BillingApiError);
    expect(err).not.toBeInstanceOf(AuthenticationRequiredError);
    expect(err).toMatchObject({ status: 422, method: "POST", path: `/subscriptions/${id}/migrations.json` });
    expect(err.errors).toHaveLength(1);
    expect(err.errors[0]).toMatch(/already on product 'basic'/);
    expect(err.message).toContain(err.errors[0]);
    expect(posts(s.sim, MIGRATIONS)).toHaveLength(1); // a 422 is final: no retry, no read-back
    expect(s.sim.requests).toHaveLength(1);
  });

  it.each(["canceled", "past_due", "expired", "on_hold"] as const)("a %s subscription: 422 naming the state", async (state) => {
    const id = await withSubscription(state);
    const err = await s.billing.migrateSubscription(id, { productHandle: "pro" }).catch((e) => e);
    expect(err).toBeInstanceOf(BillingApiError);
    expect(err.status).toBe(422);
    expect(err.errors.join(" ")).toContain(state);
    expect(s.sim.getSubscription(id)?.productId).toBe(1);
  });

  it.each([
    ["active", "active"],
    ["trialing", "trialing"],
    ["trial_ended", "active"],
  ] as const)("a %s subscription is migrated (now %s)", async (state, after) => {
    const id = await withSubscription(state);
    const sub = await s.billing.migrateSubscription(id, { productHandle: "pro" });
    // previousState is what the service sends; for API calls the contract makes it equal to state.
    expect(sub).toMatchObject({ state: after, previousState: after, product: { handle: "pro" } });
    expect(s.sim.getSubscription(id)).toMatchObject({ state: after, previousState: state, productId: 2 });
  });

  it("an unknown subscription: 404", async () => {
    await withSubscription();
    const err = await s.billing.migrateSubscription(999_999, { productHandle: "pro" }).catch((e) => e);
    expect(err).toBeInstanceOf(BillingApiError);
    expect(err).toMatchObject({ status: 404, path: "/subscriptions/999999/migrations.json" });
  });

  it("an unknown product: 422", async () => {
    const id = await withSubscription();
    await expect(s.billing.migrateSubscription(id, { productHandle: "gold" })).rejects.toMatchObject({ status: 422 });
  });

  it("3-D Secure: AuthenticationRequiredError; the action link completes the migration", async () => {
    const id = await withSubscription("active", { requiresAuthentication: true });
    const err = await s.billing.migrateSubscription(id, { productHandle: "pro", pricePointHandle: "pro-annual" }).catch((e) => e);
    expect(err).toBeInstanceOf(AuthenticationRequiredError);
    expect(err).toBeInstanceOf(BillingApiError);
    expect(err).toMatchObject({ status: 422, method: "POST", path: `/subscriptions/${id}/migrations.json` });
    expect(err.actionLink).toMatch(new RegExp(`^${s.sim.url}/authentications/[0-9a-f]+$`));
    expect(err.gatewayPaymentId).toMatch(/^pi_sim_/);
    expect(err.description).toMatch(/3DSecure/);
    expect(err.errors[0]).toMatch(/3-D Secure/);
    expect(err.message).toContain(err.actionLink);
    expect(s.sim.getSubscription(id)?.productId).toBe(1); // nothing applied yet
    expect(posts(s.sim, MIGRATIONS)).toHaveLength(1);

    const visit = await fetch(err.actionLink); // the customer's browser: no credentials
    expect(visit.status).toBe(200);
    expect(await visit.json()).toMatchObject({ authentication: "completed", subscription_id: id });
    const after = await s.billing.readSubscription(id);
    expect(after).toMatchObject({ product: { id: 2, handle: "pro" }, pricePointId: undefined }); // a plain read does not say
    expect(await s.billing.resolvePricePoint(after, { productHandle: "pro", pricePointHandle: "pro-annual" })).toMatchObject({
      product: { id: 2, handle: "pro" },
      pricePointId: 202,
      pricePointHandle: "pro-annual",
    });
    expect(s.sim.getSubscription(id)).toMatchObject({ productId: 2, pricePointId: 202 });
    expect(s.sim.migrationsApplied(id)).toBe(1);
  });
});

const OPTIONS = { include_trial: false, include_initial_charge: false, include_coupons: true, preserve_period: false };

describe("migrationBodyOf", () => {
  it("names no price point key at all when none was given (not one set to undefined)", () => {
    const { id, body } = migrationBodyOf(7, { productHandle: "pro" });
    expect(id).toBe(7);
    expect(Object.keys(body).sort()).toEqual([
      "include_coupons",
      "include_initial_charge",
      "include_trial",
      "preserve_period",
      "product_handle",
    ]);
    expect(body).toStrictEqual({ product_handle: "pro", ...OPTIONS });
  });

  it("a price point by handle: that key only", () => {
    const { body } = migrationBodyOf(7, { productId: 2, pricePointHandle: "pro-annual" });
    expect(body).toStrictEqual({ product_id: 2, product_price_point_handle: "pro-annual", ...OPTIONS });
    expect(body).not.toHaveProperty("product_price_point_id");
  });

  it("a refusal is an 'invalid migration' naming both the id and the target's problems", () => {
    let err: unknown;
    try {
      migrationBodyOf(0, { productHandle: "pro", product_id: 2 } as never);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(BillingValidationError);
    const e = err as BillingValidationError;
    expect(e.message).toMatch(/^invalid migration: subscriptionId: /);
    expect(e.problems.map((p) => p.property)).toEqual(["subscriptionId", "migration.product_id"]);
  });

  it("an unknown key in the migration lists the accepted ones", () => {
    let err: unknown;
    try {
      migrationBodyOf(7, { productHandle: "pro", product_id: 2 } as never);
    } catch (e) {
      err = e;
    }
    expect((err as BillingValidationError).problems).toEqual([
      {
        property: "migration.product_id",
        message:
          "is not a known property (accepted: productId, productHandle, pricePointId, pricePointHandle, includeTrial, includeInitialCharge, includeCoupons, preservePeriod)",
      },
    ]);
  });
});

describe("migrateSubscription: what a refusal is", () => {
  const SCA = { action_link: "https://pay.example/authentications/abc", gateway_payment_id: "pi_1", description: "3DSecure" };

  it("a 3-D Secure refusal without errors: AuthenticationRequiredError with no errors", async () => {
    const server = await scripted([{ status: 422, json: SCA }]);
    const err = await clientOf(server.url)
      .migrateSubscription(7, { productHandle: "pro" })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthenticationRequiredError);
    expect(err).toMatchObject({ status: 422, actionLink: SCA.action_link, gatewayPaymentId: "pi_1", description: "3DSecure" });
    expect((err as AuthenticationRequiredError).errors).toEqual([]);
  });

  it.each([[400], [403], [404]])(
    "a %d that looks like a 3-D Secure answer is a plain BillingApiError, not one to authenticate",
    async (status) => {
      const server = await scripted([{ status, json: { errors: ["Refused"], ...SCA } }]);
      const err = await clientOf(server.url)
        .migrateSubscription(7, { productHandle: "pro" })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BillingApiError);
      expect(err).not.toBeInstanceOf(AuthenticationRequiredError);
      expect(err).toMatchObject({ status });
      expect(server.requests).toHaveLength(1);
    },
  );
});
