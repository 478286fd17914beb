import { describe, expect, it, vi } from "vitest";
import {
  BillingApiError,
  BillingConnectionError,
  BillingValidationError,
  MigrationOutcomeUnknownError,
  ReplayPartialFailureError,
} from "../../sdk";
import { catalogue, migrationSite, posts, retries, site, timed } from "./helpers";

// The SDK's transport against the simulator over a real socket: the retry policy, exact timeouts,
// what each kind of failure leaves a replay or a migration in, price points, int64 ids.

const REPLAY = "/webhooks/replay.json";

const MIGRATIONS = /^\/subscriptions\/\d+\/migrations\.json$/;

const range = (n: number, from = 1) => Array.from({ length: n }, (_, i) => from + i);

const texts = (ids: readonly number[]) => ids.map(String);

type ReplayBody = { ids: unknown[]; uniqueness_token: string };

describe("replay: every batch ends queued, not queued or unknown", () => {
  it("a batch still processing when the client times out: the retry with the same token gets 409, queued exactly once", async () => {
    const r = retries();
    const s = await site({}, { timeoutMs: 150, onRetry: r.onRetry });
    s.sim.injectFault({ kind: "processing", ms: 1000, times: 1, match: { path: REPLAY } });
    expect(await s.billing.replayWebhooks(range(5))).toEqual({ queued: 5, batches: 1 });
    const sent = posts(s.sim, /^\/webhooks\/replay\.json$/);
    expect(sent).toHaveLength(2);
    expect(sent[1].uniquenessToken).toBe(sent[0].uniquenessToken);
    expect(sent[1].status).toBe(409);
    expect(r.events.map((e) => e.reason)).toEqual(["no answer within 150 ms (ETIMEDOUT)"]);
    // Reported queued on the service's word (its token is taken) while the first request still runs …
    expect(s.sim.tokenStatus(sent[0].uniquenessToken!)).toBe("in_progress");
    // … which then lands, once.
    await vi.waitFor(() => expect(s.sim.replayLog).toHaveLength(5), { timeout: 5000, interval: 10 });
    expect(s.sim.replayLog).toEqual(texts(range(5)));
    expect(s.sim.tokenStatus(sent[0].uniquenessToken!)).toBe("applied");
  });

  it("a reset after applying, on every attempt: the batch is unknown (not 'not queued'); resumed with its token it is queued, not twice", async () => {
    const s = await site({}, { maxRetries: 2, maxConcurrency: 1 });
    s.sim.injectFault({ kind: "reset", applyAfterHandling: true, match: { path: REPLAY } });
    const err = await s.billing.replayWebhooks(range(1500)).catch((e) => e);
    expect(err).toBeInstanceOf(ReplayPartialFailureError);
    expect(err.queued).toEqual([]);
    expect(err.unknown).toEqual(range(1000));
    expect(err.notQueued).toEqual(range(500, 1001)); // never sent: the replay stops at the first batch that fails for good
    const attempts = posts(s.sim, /^\/webhooks\/replay\.json$/);
    expect(attempts.map((q) => q.status)).toEqual([0, 0, 0]);
    expect(new Set(attempts.map((q) => q.uniquenessToken)).size).toBe(1);
    expect(err.unknownBatches).toEqual([{ ids: range(1000), uniquenessToken: attempts[0].uniquenessToken }]);
    expect(err.cause).toBeInstanceOf(BillingConnectionError);
    expect(err.cause.mayHaveApplied).toBe(true);
    expect(err.message).toMatch(/0 id\(s\) queued, 500 not queued .*1000 unknown/);
    expect(s.sim.replayLog).toEqual(texts(range(1000))); // the first attempt was applied, the two retries were 409s

    s.sim.clearFaults();
    s.sim.reset();
    expect(await s.billing.replayWebhooks(err.notQueued, { resume: err.unknownBatches })).toEqual({ queued: 1500, batches: 2 });
    const resumed = posts(s.sim, /^\/webhooks\/replay\.json$/).find((q) => q.uniquenessToken === attempts[0].uniquenessToken);
    expect(resumed?.status).toBe(409); // the service's proof that the first attempt queued it
    expect([...s.sim.replayLog].sort((a, b) => Number(a) - Number(b))).toEqual(texts(range(1500)));
  });

  // A reset before the service read the request looks exactly like one after it applied it (ECONNRESET
  // either way): the client cannot know, so the batch is unknown, never "not queued". Resuming it is safe.
  it("a reset before applying, on every attempt: unknown too; resumed with its token it is queued once (200, not 409)", async () => {
    const s = await site({}, { maxRetries: 2 });
    s.sim.injectFault({ kind: "reset", match: { path: REPLAY } });
    const err = await s.billing.replayWebhooks(range(3)).catch((e) => e);
    expect(err).toBeInstanceOf(ReplayPartialFailureError);
    expect(err).toMatchObject({ queued: [], notQueued: [], unknown: [1, 2, 3] });
    expect(s.sim.requests.map((q) => q.status)).toEqual([0, 0, 0]);
    expect(s.sim.replayLog).toEqual([]);

    s.sim.clearFaults();
    s.sim.reset();
    expect(await s.billing.replayWebhooks([], { resume: err.unknownBatches })).toEqual({ queued: 3, batches: 1 });
    expect(s.sim.requests.map((q) => [q.status, q.uniquenessToken])).toEqual([[200, err.unknownBatches[0].uniquenessToken]]);
    expect(s.sim.replayLog).toEqual(["1", "2", "3"]);
  });

  it("refused before processing on every attempt (429 past the budget): not queued, the plain error", async () => {
    const s = await site({}, { retryBudgetSeconds: 0.5 });
    s.sim.injectFault({ kind: "status", status: 429, retryAfter: 1, match: { path: REPLAY } });
    const err = await s.billing.replayWebhooks(range(3)).catch((e) => e);
    expect(err).toBeInstanceOf(BillingApiError);
    expect(err).not.toBeInstanceOf(ReplayPartialFailureError);
    expect(err).toMatchObject({ status: 429, mayHaveApplied: false });
    expect(s.sim.replayLog).toEqual([]);
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

describe("price point of a migrated subscription", () => {
  // [label, target, price point id, its handle, requests after the POST when the answer does not report it]
  const CASES = [
    ["named by id", { productId: 2, pricePointId: 202 }, 202, "pro-annual", []],
    ["named by handle", { productHandle: "pro", pricePointHandle: "pro-annual" }, 202, "pro-annual", ["GET /products/2/price_points.json"]],
    ["the product's default", { productHandle: "pro" }, 201, "pro-monthly", ["GET /products/2.json"]],
  ] as const;

  it.each(CASES)("%s, not reported by the answer: resolved through the product", async (_, target, ppId, ppHandle, lookups) => {
    const { sim, billing, id } = await migrationSite();
    const sub = await billing.migrateSubscription(id, target);
    expect(sub.pricePointId).toBe(ppId);
    expect(sim.getSubscription(id)?.pricePointId).toBe(ppId);
    expect(sim.requests.slice(1).map((q) => `${q.method} ${q.path}`)).toEqual(lookups);
    expect("pricePointHandle" in sub).toBe(true);
    // Exact when the handle was named; otherwise it may be unknown, but never another price point's.
    if ("pricePointHandle" in target) expect(sub.pricePointHandle).toBe(ppHandle);
    else expect([undefined, ppHandle]).toContain(sub.pricePointHandle);
  });

  it.each(CASES)("%s, reported by the answer (reportPricePoint): taken from it, nothing else read", async (_, target, ppId) => {
    const { sim, billing, id } = await migrationSite({ reportPricePoint: true });
    const sub = await billing.migrateSubscription(id, target);
    expect(sub.pricePointId).toBe(ppId);
    expect(sim.getSubscription(id)?.pricePointId).toBe(ppId);
    expect(sim.requests.map((q) => q.method)).toEqual(["POST"]);
  });

  it("a read reports the price point only when the service does; resolvePricePoint fills it in", async () => {
    for (const reportPricePoint of [false, true]) {
      const s = await site({ reportPricePoint });
      catalogue(s.sim);
      const id = s.sim.addSubscription({ productHandle: "pro", pricePointId: 202, state: "active" }).id;
      const sub = await s.billing.readSubscription(id);
      expect(sub.pricePointId).toBe(reportPricePoint ? 202 : undefined);
      expect(sub.previousState).toBe("active"); // the service's previous_state, which equals state for API calls
      s.sim.reset();
      const resolved = await s.billing.resolvePricePoint(sub, { productHandle: "pro", pricePointHandle: "pro-annual" });
      if (reportPricePoint) {
        expect(resolved).toStrictEqual(sub); // nothing to resolve
        expect(s.sim.requests).toHaveLength(0);
      } else {
        expect(resolved).toStrictEqual({ ...sub, pricePointId: 202, pricePointHandle: "pro-annual" });
        expect(s.sim.requests.map((q) => q.path)).toEqual(["/products/2/price_points.json"]);
      }
    }
  });

  it("readProduct by id or handle, listPricePoints", async () => {
    const s = await site();
    catalogue(s.sim);
    expect(await s.billing.readProduct(2)).toMatchObject({ id: 2, handle: "pro", defaultPricePointId: 201 });
    expect(await s.billing.readProduct("pro")).toMatchObject({ id: 2, handle: "pro", defaultPricePointId: 201 });
    expect(await s.billing.readProduct("3")).toMatchObject({ id: 3, handle: "launch", defaultPricePointId: 301 });
    expect(s.sim.requests.map((q) => q.path)).toEqual(["/products/2.json", "/products/handle/pro.json", "/products/3.json"]);
    const points = await s.billing.listPricePoints(2);
    expect(points.map((p) => [p.id, p.handle, p.type])).toEqual([
      [201, "pro-monthly", "default"],
      [202, "pro-annual", "catalog"],
    ]);
    await expect(s.billing.readProduct("gold")).rejects.toMatchObject({ status: 404, path: "/products/handle/gold.json" });
    await expect(s.billing.readProduct(0)).rejects.toBeInstanceOf(BillingValidationError);
    await expect(s.billing.listPricePoints(-1)).rejects.toBeInstanceOf(BillingValidationError);
  });

  it("a price point lookup that fails does not fail a migration that was applied", async () => {
    const { sim, billing, id } = await migrationSite({}, { maxRetries: 1 });
    sim.injectFault({ kind: "status", status: 503, match: { method: "GET", path: "/products/2.json" } });
    const sub = await billing.migrateSubscription(id, { productHandle: "pro" });
    expect(sub).toMatchObject({ id, product: { id: 2, handle: "pro" }, pricePointId: undefined });
    // One POST; then only lookups of the product, every one failed: 3 rounds (sdk/products.ts) of maxRetries + 1 attempts.
    expect(posts(sim, MIGRATIONS).map((q) => q.status)).toEqual([200]);
    const lookups = sim.requests.slice(1);
    expect(lookups).toHaveLength(3 * (1 + 1));
    expect(lookups.every((q) => q.method === "GET" && q.path === "/products/2.json" && q.status === 503)).toBe(true);
    expect(sim.migrationsApplied(id)).toBe(1);
  });
});

describe("int64 webhook ids", () => {
  it("decimal text above 2^53 is sent digit for digit; '5001' and 5001 are one id", async () => {
    const s = await site();
    const ids = ["9007199254740993", 5001, "5001", "9223372036854775807", "5002", "9007199254740993"];
    expect(await s.billing.replayWebhooks(ids)).toEqual({ queued: 4, batches: 1 });
    expect(s.sim.replayLog).toEqual(["9007199254740993", "5001", "9223372036854775807", "5002"]);
    expect(JSON.stringify((s.sim.requests[0].body as ReplayBody).ids)).toBe("[9007199254740993,5001,9223372036854775807,5002]");
  });

  it.each([
    ["a number above 2^53 (already rounded)", 2 ** 53 + 2],
    ["text above int64", "9223372036854775808"],
    ["text with a leading zero", "05001"],
    ["negative text", "-5001"],
    ["text of zero", "0"],
  ])("%s is refused before sending", async (_, bad) => {
    const s = await site();
    const err = await s.billing.replayWebhooks([1, bad as never]).catch((e) => e);
    expect(err).toBeInstanceOf(BillingValidationError);
    expect(err.message).toContain("[1]");
    expect(s.sim.requests).toHaveLength(0);
  });
});

describe("previewMigration: proration_date", () => {
  it.each([
    ["an ISO-8601 string, sent as given", "2026-12-01T00:00:00Z", "2026-12-01T00:00:00Z"],
    ["a date with an offset", "2026-12-01T09:30:00+02:00", "2026-12-01T09:30:00+02:00"],
    ["a Date, sent as ISO-8601 UTC", new Date(Date.UTC(2026, 11, 1, 12)), "2026-12-01T12:00:00.000Z"],
  ])("%s", async (_, prorationDate, sent) => {
    const { sim, billing, id } = await migrationSite();
    await billing.previewMigration(id, { productHandle: "pro" }, { prorationDate });
    expect(sim.requests).toHaveLength(1);
    expect((sim.requests[0].body as { migration: Record<string, unknown> }).migration.proration_date).toBe(sent);
  });

  it("none given: no proration_date", async () => {
    const { sim, billing, id } = await migrationSite();
    await billing.previewMigration(id, { productHandle: "pro" });
    expect(sim.requests[0].body).toEqual({ migration: expect.not.objectContaining({ proration_date: expect.anything() }) });
    expect(Object.keys((sim.requests[0].body as { migration: object }).migration)).not.toContain("proration_date");
  });

  it.each([
    ["text", "next week"],
    ["a US date", "12/01/2026"],
    ["an invalid Date", new Date(Number.NaN)],
    ["a number", 1_796_083_200_000],
  ])("%s: refused before sending", async (_, prorationDate) => {
    const { sim, billing, id } = await migrationSite();
    const err = await billing.previewMigration(id, { productHandle: "pro" }, { prorationDate: prorationDate as never }).catch((e) => e);
    expect(err).toBeInstanceOf(BillingValidationError);
    expect(err.problems.map((p: { property: string }) => p.property)).toEqual(["prorationDate"]);
    expect(sim.requests).toHaveLength(0);
  });
});
