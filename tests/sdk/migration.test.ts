import { describe, expect, it } from "vitest";
import {
  AuthenticationRequiredError,
  BillingApiError,
  BillingConnectionError,
  BillingValidationError,
  MigrationOutcomeUnknownError,
} from "../../sdk";
import type { SubscriptionState } from "../../simulator";
import { catalogue, clientOf, posts, type Site, scripted, site } from "./helpers";

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

describe("migrateSubscription: a POST is never retried blindly", () => {
  let s: Site;

  async function withSubscription(sim = {}, client = {}) {
    s = await site(sim, client);
    catalogue(s.sim);
    return s.sim.addSubscription({ productHandle: "basic", state: "active" }).id;
  }
  const reads = (id: number) => s.sim.requests.filter((r) => r.method === "GET" && r.path === `/subscriptions/${id}.json`);

  it.each([
    ["connection reset", { kind: "reset" } as const],
    ["502", { kind: "status", status: 502 } as const],
    ["503", { kind: "status", status: 503 } as const],
    ["500", { kind: "status", status: 500 } as const],
  ])("%s after the service applied it: reads back, returns the migrated subscription, one POST", async (_, fault) => {
    const id = await withSubscription();
    s.sim.injectFault({ ...fault, times: 1, applyAfterHandling: true, match: { method: "POST", path: MIGRATIONS } });
    const sub = await s.billing.migrateSubscription(id, { productHandle: "pro" });
    expect(sub).toMatchObject({ id, product: { id: 2, handle: "pro" }, pricePointId: 201, previousState: "active" });
    expect(posts(s.sim, MIGRATIONS)).toHaveLength(1);
    expect(reads(id)).toHaveLength(1);
    expect(s.sim.getSubscription(id)?.productId).toBe(2);
  });

  it("a timeout after the service applied it: reads back, one POST", async () => {
    const id = await withSubscription({}, { timeoutMs: 150 });
    s.sim.injectFault({ kind: "delay", ms: 2500, times: 1, applyAfterHandling: true, match: { method: "POST", path: MIGRATIONS } });
    const sub = await s.billing.migrateSubscription(id, { productHandle: "pro" });
    expect(sub.product.handle).toBe("pro");
    expect(posts(s.sim, MIGRATIONS)).toHaveLength(1);
    expect(reads(id)).toHaveLength(1);
  });

  it("a reset before the service saw it: reads back, then posts again with the same token", async () => {
    const id = await withSubscription();
    s.sim.injectFault({ kind: "reset", times: 1, match: { method: "POST", path: MIGRATIONS } });
    const sub = await s.billing.migrateSubscription(id, { productHandle: "pro" });
    expect(sub.product.handle).toBe("pro");
    const sent = posts(s.sim, MIGRATIONS);
    expect(sent.map((r) => r.status)).toEqual([0, 200]);
    expect(sent[0].uniquenessToken).toMatch(UUID);
    expect(sent[1].uniquenessToken).toBe(sent[0].uniquenessToken);
    // The read-back, the second POST, then the price point the answer did not report.
    expect(s.sim.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST /subscriptions/${id}/migrations.json`,
      `GET /subscriptions/${id}.json`,
      `POST /subscriptions/${id}/migrations.json`,
      "GET /products/2.json",
    ]);
    expect(s.sim.migrationsApplied(id)).toBe(1);
  });

  it("a 5xx for good: maxRetries + 1 POSTs with one token, each after a read-back, then MigrationOutcomeUnknownError", async () => {
    const id = await withSubscription({}, { maxRetries: 2 });
    s.sim.injectFault({ kind: "status", status: 503, match: { method: "POST", path: MIGRATIONS } });
    const err = await s.billing.migrateSubscription(id, { productHandle: "pro" }, { uniquenessToken: "tok-503" }).catch((e) => e);
    // A 503 may have been applied: the outcome is unknown, not a plain failure.
    expect(err).toBeInstanceOf(MigrationOutcomeUnknownError);
    expect(err).toMatchObject({ subscriptionId: id, uniquenessToken: "tok-503" });
    expect(err.cause).toBeInstanceOf(BillingApiError);
    expect(err.cause).toMatchObject({ status: 503, mayHaveApplied: true });
    expect(err.message).toMatch(/3 attempt\(s\) failed ambiguously .*not on the target/);
    expect(s.sim.requests.map((r) => r.method)).toEqual(["POST", "GET", "POST", "GET", "POST", "GET"]);
    expect(new Set(posts(s.sim, MIGRATIONS).map((r) => r.uniquenessToken))).toEqual(new Set(["tok-503"]));
    expect(s.sim.getSubscription(id)?.productId).toBe(1);
  });

  it("refused after an ambiguous attempt: MigrationOutcomeUnknownError (the first attempt may have been applied)", async () => {
    const sub = { id: 7, state: "active", product: { id: 1, handle: "basic" } };
    const server = await scripted([
      "reset",
      { status: 200, json: { subscription: sub } },
      { status: 422, json: { errors: ["Subscription 7 is 'canceled'; only active or trialing subscriptions can be migrated."] } },
    ]);
    const billing = clientOf(server.url, { maxRetries: 3 });
    const err = await billing.migrateSubscription(7, { productHandle: "pro" }, { uniquenessToken: "tok-422" }).catch((e) => e);
    expect(err).toBeInstanceOf(MigrationOutcomeUnknownError);
    expect(err).toMatchObject({ subscriptionId: 7, uniquenessToken: "tok-422" });
    expect(err.cause).toBeInstanceOf(BillingConnectionError);
    expect(err.message).toContain("failed with 422: Subscription 7 is 'canceled'");
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /subscriptions/7/migrations.json",
      "GET /subscriptions/7.json",
      "POST /subscriptions/7/migrations.json",
    ]);
    expect(server.requests.filter((r) => r.method === "POST").map((r) => JSON.parse(r.text).uniqueness_token)).toEqual([
      "tok-422",
      "tok-422",
    ]);
  });

  it("rate limited past the budget after an ambiguous attempt: MigrationOutcomeUnknownError, not the 429", async () => {
    const id = await withSubscription({}, { retryBudgetSeconds: 0.5 });
    s.sim.injectFault({ kind: "reset", times: 1, match: { method: "POST", path: MIGRATIONS } });
    s.sim.injectFault({ kind: "status", status: 429, retryAfter: 1, match: { method: "POST", path: MIGRATIONS } });
    const err = await s.billing.migrateSubscription(id, { productHandle: "pro" }).catch((e) => e);
    expect(err).toBeInstanceOf(MigrationOutcomeUnknownError);
    expect(err.message).toMatch(/failed with 429: Your request was denied due to a usage violation/);
    expect(s.sim.requests.map((r) => [r.method, r.status])).toEqual([
      ["POST", 0],
      ["GET", 200],
      ["POST", 429],
    ]);
    expect(s.sim.migrationsApplied(id)).toBe(0);
  });

  it("the answer lost and the read-back failing too: MigrationOutcomeUnknownError with the token", async () => {
    const id = await withSubscription({}, { maxRetries: 1 });
    s.sim.injectFault({ kind: "reset", times: 1, applyAfterHandling: true, match: { method: "POST", path: MIGRATIONS } });
    s.sim.injectFault({ kind: "reset", match: { method: "GET" } });
    const err = await s.billing.migrateSubscription(id, { productHandle: "pro" }, { uniquenessToken: "tok-unknown" }).catch((e) => e);
    expect(err).toBeInstanceOf(MigrationOutcomeUnknownError);
    expect(err).toMatchObject({ subscriptionId: id, uniquenessToken: "tok-unknown" });
    expect(err.cause).toBeInstanceOf(BillingConnectionError);
    expect(posts(s.sim, MIGRATIONS)).toHaveLength(1); // no second POST while the outcome is unknown
    expect(s.sim.getSubscription(id)?.productId).toBe(2);
  });

  it("a 409 duplicate (the same token again) is read back, not an error", async () => {
    const id = await withSubscription();
    const first = await s.billing.migrateSubscription(id, { productHandle: "pro" }, { uniquenessToken: "tok-dup-1" });
    const again = await s.billing.migrateSubscription(id, { productHandle: "pro" }, { uniquenessToken: "tok-dup-1" });
    expect(again).toEqual(first);
    expect(posts(s.sim, MIGRATIONS).map((r) => r.status)).toEqual([200, 409]);
    expect(reads(id)).toHaveLength(1);
  });

  // Found by this suite: a 409 used to be reported as success whatever the read-back showed. A token
  // spent by a different migration (another subscription, or another target of this one, e.g. a token
  // resumed from stale state) must not pass for this migration. The service's 409 cannot say whose request
  // holds the token (it may be this one, still processing), so after reading back for migrationSettleSeconds
  // the outcome is unknown, never "nothing was applied".
  it.each([
    ["another subscription", "other"],
    ["another target of the same subscription", "same"],
  ])(
    "a 409 for a token spent by %s is not this migration's success: MigrationOutcomeUnknownError after the settle time",
    async (_, which) => {
      const id = await withSubscription({}, { migrationSettleSeconds: 0.2 });
      const other = s.sim.addSubscription({ productHandle: "basic", state: "active" }).id;
      await s.billing.migrateSubscription(
        which === "other" ? other : id,
        { productHandle: which === "other" ? "pro" : "launch" },
        { uniquenessToken: "tok-spent" },
      );
      s.sim.reset();
      const started = performance.now();
      const res = await s.billing
        .migrateSubscription(id, { productHandle: "pro" }, { uniquenessToken: "tok-spent" })
        .catch((e: Error) => e);
      const ms = performance.now() - started;
      expect(posts(s.sim, MIGRATIONS).map((r) => r.status)).toEqual([409]);
      expect(res).toBeInstanceOf(MigrationOutcomeUnknownError);
      expect(res).toMatchObject({ subscriptionId: id, uniquenessToken: "tok-spent" });
      expect((res as Error).message).toMatch(/already submitted \(it may still be processing\).*not on the target/);
      expect((res as Error).message).not.toMatch(/nothing was applied/);
      expect(((res as MigrationOutcomeUnknownError).cause as BillingApiError).status).toBe(409);
      // Read back until the settle time ran out, and nothing posted again.
      expect(reads(id).length).toBeGreaterThanOrEqual(2);
      expect(s.sim.requests.every((r) => r.method === "GET" || MIGRATIONS.test(r.path))).toBe(true);
      expect(ms).toBeGreaterThanOrEqual(195);
      // No second migration applied: the subscription is where the token's own migration left it.
      expect(s.sim.getSubscription(id)?.productId).toBe(which === "other" ? 1 : 3);
      expect(s.sim.migrationsApplied(id)).toBe(which === "other" ? 0 : 1);
    },
  );

  it("a 429 is retried without a read-back: nothing was applied", async () => {
    const id = await withSubscription({}, { maxRetries: 1 });
    s.sim.injectFault({ kind: "status", status: 429, times: 3, match: { method: "POST", path: MIGRATIONS } });
    const sub = await s.billing.migrateSubscription(id, { productHandle: "pro" });
    expect(sub.product.handle).toBe("pro");
    // Three 429s with maxRetries 1: 429s are retried on the time budget, not the count. The GET is the price point.
    expect(s.sim.requests.map((r) => [r.method, r.path, r.status])).toEqual([
      ...Array(3).fill(["POST", `/subscriptions/${id}/migrations.json`, 429]),
      ["POST", `/subscriptions/${id}/migrations.json`, 200],
      ["GET", "/products/2.json", 200],
    ]);
    expect(new Set(posts(s.sim, MIGRATIONS).map((r) => r.uniquenessToken)).size).toBe(1);
    expect(s.sim.migrationsApplied(id)).toBe(1);
  });

  it("a 429 for good: retried until the budget is spent (past maxRetries), then BillingApiError 429 with the vendor's text", async () => {
    const id = await withSubscription({}, { maxRetries: 0, retryBudgetSeconds: 0.3, retryBaseDelayMs: 10 });
    s.sim.injectFault({ kind: "status", status: 429, match: { method: "POST", path: MIGRATIONS } });
    const err = await s.billing.migrateSubscription(id, { productHandle: "pro" }).catch((e) => e);
    expect(err).toBeInstanceOf(BillingApiError);
    expect(err).not.toBeInstanceOf(MigrationOutcomeUnknownError); // refused before processing: nothing can have been applied
    expect(err).toMatchObject({ status: 429, mayHaveApplied: false });
    expect(err.message).toMatch(/failed with 429: Your request was denied due to a usage violation/);
    expect(posts(s.sim, MIGRATIONS).length).toBeGreaterThanOrEqual(3);
    expect(reads(id)).toHaveLength(0);
    expect(s.sim.getSubscription(id)?.productId).toBe(1);
  });
});

describe("readSubscription and previewMigration", () => {
  let s: Site;

  it.each([
    ["not reported (as in most of the vendor's answers)", false, undefined],
    ["reported", true, 202],
  ])(
    "readSubscription returns the subscription, price point %s; retried on 502, on a reset and on 500",
    async (_, reportPricePoint, pricePointId) => {
      s = await site({ reportPricePoint });
      catalogue(s.sim);
      const id = s.sim.addSubscription({ productHandle: "pro", pricePointId: 202, state: "trialing" }).id;
      s.sim.injectFault({ kind: "status", status: 502, times: 1, match: { method: "GET" } });
      s.sim.injectFault({ kind: "reset", times: 1, match: { method: "GET" } });
      s.sim.injectFault({ kind: "status", status: 500, times: 1, match: { method: "GET" } });
      const sub = await s.billing.readSubscription(id);
      expect(sub).toStrictEqual({
        id,
        state: "trialing",
        previousState: "trialing",
        product: { id: 2, handle: "pro" },
        pricePointId,
        pricePointHandle: undefined,
        currentPeriodEndsAt: s.sim.getSubscription(id)!.currentPeriodEndsAt,
        nextAssessmentAt: s.sim.getSubscription(id)!.currentPeriodEndsAt,
      });
      expect(s.sim.requests.map((r) => r.status)).toEqual([502, 0, 500, 200]);
    },
  );

  it("readSubscription of an unknown id: BillingApiError 404", async () => {
    s = await site();
    const err = await s.billing.readSubscription(4242).catch((e) => e);
    expect(err).toBeInstanceOf(BillingApiError);
    expect(err).toMatchObject({ status: 404, method: "GET", path: "/subscriptions/4242.json" });
    expect(s.sim.requests).toHaveLength(1);
  });

  it.each([[0], [-5], [1.5], ["12"]])("readSubscription(%o): refused before sending", async (bad) => {
    s = await site();
    await expect(s.billing.readSubscription(bad as never)).rejects.toBeInstanceOf(BillingValidationError);
    expect(s.sim.requests).toHaveLength(0);
  });

  it.each([
    [
      "full period",
      { productHandle: "pro" },
      { proratedAdjustmentInCents: -500, chargeInCents: 5000, paymentDueInCents: 4500, creditAppliedInCents: 500 },
    ],
    [
      "preserve_period",
      { productId: 2, preservePeriod: true },
      { proratedAdjustmentInCents: -500, chargeInCents: 2500, paymentDueInCents: 2000, creditAppliedInCents: 500 },
    ],
  ])("previewMigration (%s) returns the charges and changes nothing", async (_, target, expected) => {
    s = await site();
    s.sim.addProduct({ id: 1, handle: "basic", priceInCents: 1000 });
    s.sim.addProduct({ id: 2, handle: "pro", priceInCents: 5000 });
    const id = s.sim.addSubscription({ productHandle: "basic", state: "active" }).id;
    expect(await s.billing.previewMigration(id, target)).toStrictEqual(expected);
    const [req] = s.sim.requests;
    expect(req.path).toBe(`/subscriptions/${id}/migrations/preview.json`);
    expect((req.body as Body).migration).toMatchObject({ include_trial: false, include_initial_charge: false, include_coupons: true });
    expect((req.body as Body).migration).not.toHaveProperty("proration_date");
    expect(s.sim.getSubscription(id)?.productId).toBe(1);
  });

  it("previewMigration to the same product: BillingApiError 422; validated like a migration", async () => {
    s = await site();
    catalogue(s.sim);
    const id = s.sim.addSubscription({ productHandle: "basic", state: "active" }).id;
    await expect(s.billing.previewMigration(id, { productHandle: "basic" })).rejects.toMatchObject({
      status: 422,
      path: `/subscriptions/${id}/migrations/preview.json`,
    });
    await expect(s.billing.previewMigration(id, {})).rejects.toBeInstanceOf(BillingValidationError);
    expect(s.sim.requests).toHaveLength(1);
  });
});
