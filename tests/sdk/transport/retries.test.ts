import { describe, expect, it } from "vitest";
import { BillingApiError, BillingConnectionError, MigrationOutcomeUnknownError, ReplayPartialFailureError } from "../../../sdk";
import { clientOf, deadUrl, migrationSite, retries, site, timed } from "../helpers";

/**
 * What the client repeats, against the simulator over a real socket: 429s on a time budget honouring Retry-After,
 * an ambiguous answer (a 5xx) or a request never sent (nothing listening), each reported to onRetry.
 */

const REPLAY = "/webhooks/replay.json";

const MIGRATIONS = /^\/subscriptions\/\d+\/migrations\.json$/;

const USAGE_VIOLATION =
  /^Your request was denied due to a usage violation\. You can track this request with support by referencing [0-9a-f]{32}$/;

const range = (n: number, from = 1) => Array.from({ length: n }, (_, i) => from + i);

describe("429: retried on a time budget, honouring Retry-After", () => {
  it("Retry-After: 1 on a migration POST: waits at least 1 s, no read-back, then succeeds; the wait is reported to onRetry", async () => {
    const r = retries();
    const { sim, billing, id } = await migrationSite({}, { onRetry: r.onRetry });
    sim.injectFault({ kind: "status", status: 429, retryAfter: 1, times: 1, match: { method: "POST", path: MIGRATIONS } });
    const { ms, value: sub } = await timed(() => billing.migrateSubscription(id, { productHandle: "pro" }));
    expect(sub?.product.handle).toBe("pro");
    expect(sim.requests.map((q) => [q.method, q.path, q.status])).toEqual([
      ["POST", `/subscriptions/${id}/migrations.json`, 429],
      ["POST", `/subscriptions/${id}/migrations.json`, 200],
      ["GET", "/products/2.json", 200], // the price point, not a read-back
    ]);
    expect(sim.requests[1].at - sim.requests[0].at).toBeGreaterThanOrEqual(995);
    expect(ms).toBeGreaterThanOrEqual(995);
    expect(r.events).toEqual([
      {
        method: "POST",
        path: `/subscriptions/${id}/migrations.json`,
        attempt: 1,
        delayMs: 1000,
        reason: "429 rate limited (Retry-After: 1)",
      },
    ]);
    expect(sim.migrationsApplied(id)).toBe(1);
  });

  it("not bounded by maxRetries: five 429s with maxRetries 0, then success", async () => {
    const r = retries();
    const s = await site({}, { maxRetries: 0, onRetry: r.onRetry });
    s.sim.injectFault({ kind: "status", status: 429, times: 5, match: { path: REPLAY } });
    expect(await s.billing.replayWebhooks([1, 2])).toEqual({ queued: 2, batches: 1 });
    expect(s.sim.requests.map((q) => q.status)).toEqual([429, 429, 429, 429, 429, 200]);
    expect(r.events.map((e) => [e.attempt, e.reason])).toEqual(range(5).map((n) => [n, "429 rate limited"]));
    expect(s.sim.replayLog).toEqual(["1", "2"]);
  });

  it("429s past the budget (0.5 s): BillingApiError 429 with the vendor's text; every wait fitted the budget", async () => {
    const r = retries();
    const s = await site({}, { retryBudgetSeconds: 0.5, retryBaseDelayMs: 100, onRetry: r.onRetry });
    s.sim.injectFault({ kind: "status", status: 429, match: { method: "PUT" } });
    const err = await s.billing.setWebhooksEnabled(true).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BillingApiError);
    const e = err as BillingApiError;
    expect(e).toMatchObject({ status: 429, method: "PUT", path: "/webhooks/settings.json", mayHaveApplied: false });
    expect(e.errors).toHaveLength(1);
    expect(e.errors[0]).toMatch(USAGE_VIOLATION);
    expect(e.message).toBe(`PUT /webhooks/settings.json failed with 429: ${e.errors[0]}`);
    // Retried (the first wait is at most 100 ms), each wait reported, all of them within the budget.
    expect(s.sim.requests.length).toBeGreaterThanOrEqual(2);
    expect(r.events).toHaveLength(s.sim.requests.length - 1);
    expect(r.events.every((x) => x.reason === "429 rate limited" && x.method === "PUT")).toBe(true);
    expect(r.events.reduce((sum, x) => sum + x.delayMs, 0)).toBeLessThanOrEqual(500);
    expect(s.sim.webhooksEnabled).toBe(false);
  });

  it("a Retry-After longer than the budget: not retried at all", async () => {
    const r = retries();
    const s = await site({}, { retryBudgetSeconds: 0.5, onRetry: r.onRetry });
    s.sim.injectFault({ kind: "status", status: 429, retryAfter: 1, match: { method: "GET" } });
    const error = await s.billing.listWebhooks().catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 429, mayHaveApplied: false });
    expect((error as Error).message).toContain("Your request was denied due to a usage violation");
    // Not waited for: one request, and no wait reported.
    expect(s.sim.requests).toHaveLength(1);
    expect(r.events).toEqual([]);
  });

  it("a 429 after an attempt that may have been applied: the error still says it may have been", async () => {
    const s = await site({}, { retryBudgetSeconds: 0.5 });
    s.sim.injectFault({ kind: "status", status: 503, times: 1, applyAfterHandling: true, match: { method: "PUT" } });
    s.sim.injectFault({ kind: "status", status: 429, retryAfter: 1, match: { method: "PUT" } });
    const err = await s.billing.setWebhooksEnabled(true).catch((e) => e);
    expect(err).toBeInstanceOf(BillingApiError);
    expect(err).toMatchObject({ status: 429, mayHaveApplied: true });
    expect(s.sim.requests.map((q) => q.status)).toEqual([503, 429]);
    expect(s.sim.webhooksEnabled).toBe(true); // it was
  });
});

describe("ambiguous answers and requests never sent", () => {
  it("a 500 on a read is now retried (up to maxRetries), reported as 'answered 500'", async () => {
    const r = retries();
    const s = await site({}, { maxRetries: 2, onRetry: r.onRetry });
    s.sim.injectFault({ kind: "status", status: 500, times: 2, match: { method: "GET" } });
    expect(await s.billing.listWebhooks()).toEqual([]);
    expect(s.sim.requests.map((q) => q.status)).toEqual([500, 500, 200]);
    expect(r.events.map((e) => e.reason)).toEqual(["answered 500", "answered 500"]);
  });

  it("nothing listening: any request (a migration POST too) is retried maxRetries times, then BillingConnectionError that applied nothing", async () => {
    const r = retries();
    const billing = clientOf(await deadUrl(), { maxRetries: 2, onRetry: r.onRetry });
    const err = await billing.migrateSubscription(1, { productHandle: "pro" }).catch((e) => e);
    expect(err).toBeInstanceOf(BillingConnectionError);
    expect(err).not.toBeInstanceOf(MigrationOutcomeUnknownError); // nothing reached the service: nothing is unknown
    expect(err).toMatchObject({ code: "ECONNREFUSED", mayHaveApplied: false, method: "POST", path: "/subscriptions/1/migrations.json" });
    expect(r.events.map((e) => [e.method, e.attempt])).toEqual([
      ["POST", 1],
      ["POST", 2],
    ]);
    expect(r.events.every((e) => e.reason.includes("ECONNREFUSED"))).toBe(true);
  });

  it("nothing listening, replay: the plain error (nothing queued, nothing unknown)", async () => {
    const billing = clientOf(await deadUrl(), { maxRetries: 1 });
    const err = await billing.replayWebhooks([1, 2]).catch((e) => e);
    expect(err).toBeInstanceOf(BillingConnectionError);
    expect(err).not.toBeInstanceOf(ReplayPartialFailureError);
    expect(err.mayHaveApplied).toBe(false);
  });
});
