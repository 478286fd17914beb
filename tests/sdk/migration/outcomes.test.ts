import { describe, expect, it, vi } from "vitest";
import { BillingApiError, BillingConnectionError, MigrationOutcomeUnknownError } from "../../../sdk";
import { isOnTarget } from "../../../sdk/migration";
import type { Subscription } from "../../../sdk/results";
import type { MigrationBody } from "../../../sdk/wire";
import { catalogue, clientOf, migrationSite, posts, type Site, type Step, scripted, site, timed } from "../helpers";

/**
 * A migration POST is never retried blindly: after an ambiguous attempt the subscription is read back (isOnTarget
 * decides), then the POST is repeated with the same token; a 409 is read back until it lands; an outcome that cannot
 * be learnt is a MigrationOutcomeUnknownError that says where the subscription is.
 */

const MIGRATIONS = /^\/subscriptions\/\d+\/migrations\.json$/;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

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

const DUPLICATE: Step = { status: 409, json: { errors: ["DuplicatePrevention::DuplicateSubmissionError"] } };

function sub(product: { id: number; handle: string | undefined }, pricePoint: { id?: number; handle?: string } = {}): Subscription {
  return {
    id: 7,
    state: "active",
    previousState: "active",
    product,
    pricePointId: pricePoint.id,
    pricePointHandle: pricePoint.handle,
    currentPeriodEndsAt: undefined,
    nextAssessmentAt: undefined,
  };
}

const OPTIONS = { include_trial: false, include_initial_charge: false, include_coupons: true, preserve_period: false };

const target = (b: Omit<MigrationBody, keyof typeof OPTIONS>): MigrationBody => ({ ...b, ...OPTIONS }) as MigrationBody;

describe("isOnTarget", () => {
  it.each([
    ["the product by id, same", { id: 2, handle: "pro" }, {}, target({ product_id: 2 }), true],
    ["the product by id, another", { id: 1, handle: "pro" }, {}, target({ product_id: 2 }), false],
    ["the product by id, no handle reported", { id: 2, handle: undefined }, {}, target({ product_id: 2 }), true],
    ["the product by handle, same", { id: 2, handle: "pro" }, {}, target({ product_handle: "pro" }), true],
    ["the product by handle, another", { id: 2, handle: "basic" }, {}, target({ product_handle: "pro" }), false],
    [
      "price point id named, the same reported",
      { id: 2, handle: "pro" },
      { id: 202 },
      target({ product_id: 2, product_price_point_id: 202 }),
      true,
    ],
    [
      "price point id named, another reported",
      { id: 2, handle: "pro" },
      { id: 201 },
      target({ product_id: 2, product_price_point_id: 202 }),
      false,
    ],
    [
      "price point id named, none reported: the product decides",
      { id: 2, handle: "pro" },
      {},
      target({ product_id: 2, product_price_point_id: 202 }),
      true,
    ],
    ["no price point named, one reported: the product decides", { id: 2, handle: "pro" }, { id: 201 }, target({ product_id: 2 }), true],
    [
      "price point handle named, the same reported",
      { id: 2, handle: "pro" },
      { handle: "pro-annual" },
      target({ product_id: 2, product_price_point_handle: "pro-annual" }),
      true,
    ],
    [
      "price point handle named, another reported",
      { id: 2, handle: "pro" },
      { handle: "pro-monthly" },
      target({ product_id: 2, product_price_point_handle: "pro-annual" }),
      false,
    ],
    [
      "price point handle named, none reported: the product decides",
      { id: 2, handle: "pro" },
      {},
      target({ product_id: 2, product_price_point_handle: "pro-annual" }),
      true,
    ],
    [
      "no price point handle named, one reported: the product decides",
      { id: 2, handle: "pro" },
      { handle: "pro-monthly" },
      target({ product_handle: "pro" }),
      true,
    ],
    [
      "the right price point on another product",
      { id: 3, handle: "launch" },
      { id: 202 },
      target({ product_id: 2, product_price_point_id: 202 }),
      false,
    ],
  ] as const)("%s: %s", (_, product, pricePoint, body, expected) => {
    expect(isOnTarget(sub(product, pricePoint), body)).toBe(expected);
  });
});

describe("migrateSubscription: the unknown outcome after a 409 says where the subscription is", () => {
  const read = (handle: string | null): Step => ({
    status: 200,
    json: { subscription: { id: 7, state: "active", product: { id: 1, handle } } },
  });

  it.each([
    ["by its handle", "basic", "is on basic, not on the target"],
    ["by its id when it has no handle", null, "is on product 1, not on the target"],
  ])("the product it is on, %s, and the settle time in seconds", async (_, handle, where) => {
    const server = await scripted([DUPLICATE, ...Array<Step>(200).fill(read(handle))]);
    const err = await clientOf(server.url, { migrationSettleSeconds: 0.6 })
      .migrateSubscription(7, { productHandle: "pro" }, { uniquenessToken: "tok-409" })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MigrationOutcomeUnknownError);
    const message = (err as Error).message;
    expect(message).toContain(`after 1 s of reading back subscription 7 ${where}`);
    expect(server.requests.filter((r) => r.method === "POST")).toHaveLength(1);
    expect(server.requests.filter((r) => r.method === "GET").length).toBeGreaterThanOrEqual(2);
  });
});

describe("migration: a POST still processing", () => {
  it("slower than timeoutMs: the retry with the same token gets 409, the SDK reads back until it lands, applied once", async () => {
    const { sim, billing, id } = await migrationSite({}, { timeoutMs: 100, migrationSettleSeconds: 5 });
    // Processing outlasts the timeout and the retry after it by more than a second: a late timer cannot reorder them.
    sim.injectFault({ kind: "processing", ms: 1500, times: 1, match: { method: "POST", path: MIGRATIONS } });
    const sub = await billing.migrateSubscription(id, { productHandle: "pro" });
    expect(sub).toMatchObject({ id, product: { id: 2, handle: "pro" }, pricePointId: 201 });
    expect(sim.migrationsApplied(id)).toBe(1);
    const sent = posts(sim, MIGRATIONS);
    // The first never answered within the timeout (0), the retry a 409; then only reads until it landed.
    expect(sent.map((q) => q.status)).toEqual([0, 409]);
    expect(new Set(sent.map((q) => q.uniquenessToken)).size).toBe(1);
    expect(sim.tokenStatus(sent[0].uniquenessToken!)).toBe("applied");
  });

  it("not landed within migrationSettleSeconds: MigrationOutcomeUnknownError ('may still be processing'); it lands later, and resuming with the token applies nothing twice", async () => {
    const { sim, billing, id } = await migrationSite({}, { timeoutMs: 100, migrationSettleSeconds: 0.2 });
    sim.injectFault({ kind: "processing", ms: 1500, times: 1, match: { method: "POST", path: MIGRATIONS } });
    const { ms, error: err } = await timed(() =>
      billing.migrateSubscription(id, { productHandle: "pro" }, { uniquenessToken: "tok-slow" }),
    );
    expect(err).toBeInstanceOf(MigrationOutcomeUnknownError);
    expect(err).toMatchObject({ subscriptionId: id, uniquenessToken: "tok-slow" });
    expect((err as Error).message).toMatch(/may still be processing/);
    expect((err as Error).message).not.toMatch(/nothing was applied/);
    expect(ms).toBeGreaterThanOrEqual(100 + 200 - 5); // the timeout, then the whole settle time
    expect(posts(sim, MIGRATIONS).map((q) => q.status)).toEqual([0, 409]);
    expect(sim.migrationsApplied(id)).toBe(0);

    await vi.waitFor(() => expect(sim.migrationsApplied(id)).toBe(1), { timeout: 5000, interval: 10 });
    const sub = await billing.migrateSubscription(id, { productHandle: "pro" }, { uniquenessToken: "tok-slow" });
    expect(sub.product.handle).toBe("pro");
    expect(
      posts(sim, MIGRATIONS)
        .map((q) => q.status)
        .at(-1),
    ).toBe(409);
    expect(sim.migrationsApplied(id)).toBe(1);
  });
});
