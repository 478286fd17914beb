import { describe, expect, it, vi } from "vitest";
import { BillingApiError, BillingConnectionError, BillingValidationError, ReplayPartialFailureError } from "../../../sdk";
import { posts, retries, type Site, site } from "../helpers";

/**
 * replayWebhooks under faults, against the simulator: every batch ends queued, not queued or unknown, and a resumed
 * unknown batch is re-sent with its own token (a 409 when it was queued after all), never queuing an id twice.
 */

const REPLAY = "/webhooks/replay.json";

const range = (n: number, from = 1) => Array.from({ length: n }, (_, i) => from + i);

const sorted = (ids: readonly number[]) => [...ids].sort((a, b) => a - b);

describe("replayWebhooks: faults", () => {
  let s: Site;

  it.each([
    ["429", { kind: "status", status: 429 } as const, false],
    ["502", { kind: "status", status: 502 } as const, false],
    ["503", { kind: "status", status: 503 } as const, false],
    ["504", { kind: "status", status: 504 } as const, false],
    ["connection reset", { kind: "reset" } as const, false],
    ["503 after the service queued it", { kind: "status", status: 503 } as const, true],
    ["connection reset after the service queued it", { kind: "reset" } as const, true],
  ])("retries a %s and queues each id exactly once", async (_, fault, applyAfterHandling) => {
    s = await site();
    s.sim.injectFault({ ...fault, times: 2, applyAfterHandling, match: { path: REPLAY } });
    const res = await s.billing.replayWebhooks(range(1500));
    expect(res).toEqual({ queued: 1500, batches: 2 });
    expect(s.sim.replayQueue).toHaveLength(1500);
    expect(sorted(s.sim.replayQueue)).toEqual(range(1500));
    // The first two to arrive are faulted (a reset is never answered: 0), then one retry per batch; a retry after
    // an applied batch is the service's 409 duplicate.
    const faulted = fault.kind === "status" ? fault.status : 0;
    const retried = applyAfterHandling ? 409 : 200;
    expect(s.sim.requests.map((r) => r.status)).toEqual([faulted, faulted, retried, retried]);
  });

  it("a timeout after the service queued the batch: retried, the retry is a 409 duplicate, each id queued once", async () => {
    s = await site({}, { timeoutMs: 100 });
    s.sim.injectFault({ kind: "delay", ms: 3000, times: 1, applyAfterHandling: true, match: { path: REPLAY } });
    const res = await s.billing.replayWebhooks(range(1200));
    expect(res).toEqual({ queued: 1200, batches: 2 });
    expect(sorted(s.sim.replayQueue)).toEqual(range(1200));
    expect(s.sim.requests.map((r) => r.status).sort()).toEqual([0, 200, 409]);
  });

  it("maxRetries bounds the attempts: maxRetries + 1 requests, then the batch is unknown (a 503 may have been applied)", async () => {
    s = await site({}, { maxRetries: 2 });
    s.sim.injectFault({ kind: "status", status: 503, match: { path: REPLAY } });
    const err = await s.billing.replayWebhooks([1, 2, 3]).catch((e) => e);
    expect(err).toBeInstanceOf(ReplayPartialFailureError);
    expect(err).toMatchObject({ queued: [], notQueued: [], unknown: [1, 2, 3] });
    expect(err.unknownBatches).toEqual([{ ids: [1, 2, 3], uniquenessToken: s.sim.requests[0].uniquenessToken }]);
    expect(err.cause).toBeInstanceOf(BillingApiError);
    expect(err.cause).toMatchObject({ status: 503, method: "POST", path: REPLAY, mayHaveApplied: true });
    expect(err.cause.errors).toEqual(["503 Service Temporarily Unavailable"]); // the gateway page, as text
    expect(s.sim.requests.map((r) => r.status)).toEqual([503, 503, 503]);
    expect(new Set(s.sim.requests.map((r) => r.uniquenessToken)).size).toBe(1);
    expect(s.sim.replayQueue).toEqual([]);
  });

  it("a 500 is now retried (it may have been applied; the token makes the retry safe)", async () => {
    s = await site({}, { maxRetries: 3 });
    s.sim.injectFault({ kind: "status", status: 500, times: 2, match: { path: REPLAY } });
    expect(await s.billing.replayWebhooks([1])).toEqual({ queued: 1, batches: 1 });
    expect(s.sim.requests.map((r) => r.status)).toEqual([500, 500, 200]);
    expect(s.sim.replayLog).toEqual(["1"]);
  });

  it("a 500 after the service queued the batch: the retry is a 409, each id queued once", async () => {
    s = await site();
    s.sim.injectFault({ kind: "status", status: 500, times: 1, applyAfterHandling: true, match: { path: REPLAY } });
    expect(await s.billing.replayWebhooks([1, 2])).toEqual({ queued: 2, batches: 1 });
    expect(s.sim.requests.map((r) => r.status)).toEqual([500, 409]);
    expect(s.sim.replayLog).toEqual(["1", "2"]);
  });

  it("a batch refused for good after one succeeded: ReplayPartialFailureError with exactly the queued and not-queued ids", async () => {
    // 429s past the budget: refused before processing, so "not queued" is certain.
    s = await site({}, { maxConcurrency: 1, maxRetries: 1, retryBudgetSeconds: 0.5 });
    // One clean pass-through (a zero delay), then every replay request is refused.
    s.sim.injectFault({ kind: "delay", ms: 0, times: 1, match: { path: REPLAY } });
    s.sim.injectFault({ kind: "status", status: 429, retryAfter: 1, match: { path: REPLAY } });
    const ids = [...range(3000), 17, 2999];
    const err = await s.billing.replayWebhooks(ids).catch((e) => e);
    expect(err).toBeInstanceOf(ReplayPartialFailureError);
    expect(err.queued).toEqual(range(1000));
    expect(err.notQueued).toEqual(range(2000, 1001));
    expect(err.unknown).toEqual([]);
    expect(err.unknownBatches).toEqual([]);
    expect(s.sim.replayQueue).toEqual(range(1000));
    expect(err.cause).toBeInstanceOf(BillingApiError);
    expect(err.cause).toMatchObject({ status: 429, mayHaveApplied: false });
    expect(err.message).toMatch(/1000 id\(s\) queued, 2000 not queued/);
    expect(err.message).not.toMatch(/unknown/);
    // After the failure no further batch starts: batch 1, then batch 2 once (a Retry-After past the budget is final).
    expect(s.sim.requests.map((r) => r.status)).toEqual([200, 429]);
  });

  it("a batch failing for good with a 500 after one succeeded: its ids are unknown, the rest not queued", async () => {
    s = await site({}, { maxConcurrency: 1, maxRetries: 1 });
    s.sim.injectFault({ kind: "delay", ms: 0, times: 1, match: { path: REPLAY } });
    s.sim.injectFault({ kind: "status", status: 500, match: { path: REPLAY } });
    const err = await s.billing.replayWebhooks([...range(3000), 17, 2999]).catch((e) => e);
    expect(err).toBeInstanceOf(ReplayPartialFailureError);
    expect(err.queued).toEqual(range(1000));
    expect(err.unknown).toEqual(range(1000, 1001));
    expect(err.notQueued).toEqual(range(1000, 2001));
    expect(err.cause).toMatchObject({ status: 500, errors: ["Internal Server Error"] });
    expect(err.message).toMatch(/1000 id\(s\) queued, 1000 not queued .*1000 unknown/);
    expect(s.sim.requests.map((r) => r.status)).toEqual([200, 500, 500]); // a 500 is retried (maxRetries 1)
    expect(s.sim.replayQueue).toEqual(range(1000));
  });

  it("a batch failing for good with batches in parallel: queued is exactly what the service queued; every id in exactly one list", async () => {
    s = await site({ latencyMs: 10 }, { maxConcurrency: 4, maxRetries: 0 });
    s.sim.injectFault({ kind: "delay", ms: 0, times: 3, match: { path: REPLAY } });
    s.sim.injectFault({ kind: "status", status: 502, match: { path: REPLAY } });
    const err = await s.billing.replayWebhooks(range(10_000)).catch((e) => e);
    expect(err).toBeInstanceOf(ReplayPartialFailureError);
    expect(sorted(err.queued)).toEqual(sorted(s.sim.replayQueue));
    expect(err.queued).toHaveLength(3000);
    // Unknown: exactly the batches answered 502 (workers that finished with the first three may have started more).
    const failed = s.sim.requests.filter((r) => r.status === 502);
    expect(failed.length).toBeGreaterThanOrEqual(1);
    expect(failed.length).toBeLessThanOrEqual(4); // at most one per worker
    expect(new Set(err.unknownBatches.map((b: { uniquenessToken: string }) => b.uniquenessToken))).toEqual(
      new Set(failed.map((r) => r.uniquenessToken)),
    );
    expect(sorted(err.unknown)).toEqual(sorted(failed.flatMap((r) => (r.body as { ids: number[] }).ids)));
    // Not queued: exactly the ids never sent.
    const sent = new Set(s.sim.requests.flatMap((r) => (r.body as { ids: number[] }).ids));
    expect(sorted(err.notQueued)).toEqual(range(10_000).filter((id) => !sent.has(id)));
    expect(err.notQueued.length).toBeGreaterThan(0);
    expect(sorted([...err.queued, ...err.notQueued, ...err.unknown])).toEqual(range(10_000));
  });

  it("the only batch refused: the batch's own error (nothing queued, nothing unknown)", async () => {
    s = await site({}, { maxRetries: 0, retryBudgetSeconds: 0.5 });
    s.sim.injectFault({ kind: "status", status: 429, retryAfter: 1, match: { path: REPLAY } });
    const err = await s.billing.replayWebhooks([1, 2]).catch((e) => e);
    expect(err).toBeInstanceOf(BillingApiError);
    expect(err).not.toBeInstanceOf(ReplayPartialFailureError);
    expect(err).toMatchObject({ status: 429, mayHaveApplied: false });
    expect(s.sim.replayQueue).toEqual([]);
  });

  it("the only batch failing ambiguously: ReplayPartialFailureError with it unknown, even though nothing is known queued", async () => {
    s = await site({}, { maxRetries: 0 });
    s.sim.injectFault({ kind: "status", status: 503, match: { path: REPLAY } });
    const err = await s.billing.replayWebhooks([1, 2]).catch((e) => e);
    expect(err).toBeInstanceOf(ReplayPartialFailureError);
    expect(err).toMatchObject({ queued: [], notQueued: [], unknown: [1, 2] });
    expect(s.sim.replayQueue).toEqual([]);
  });
});

describe("replayWebhooks: resuming unknown batches", () => {
  let s: Site;

  it("resume re-sends each unknown batch with its own token before the new ids: applied ones are 409s, none queued twice", async () => {
    s = await site({}, { maxConcurrency: 1, maxRetries: 1 });
    // Batch 1 queued, batch 2 applied but its answers lost, batch 3 never sent.
    s.sim.injectFault({ kind: "delay", ms: 0, times: 1, match: { path: REPLAY } });
    s.sim.injectFault({ kind: "status", status: 502, applyAfterHandling: true, match: { path: REPLAY } });
    const err = await s.billing.replayWebhooks(range(2500)).catch((e) => e);
    expect(err).toBeInstanceOf(ReplayPartialFailureError);
    expect(err.queued).toEqual(range(1000));
    expect(err.unknown).toEqual(range(1000, 1001));
    expect(err.notQueued).toEqual(range(500, 2001));
    const token = err.unknownBatches[0].uniquenessToken;
    expect(s.sim.requests.map((r) => [r.status, r.uniquenessToken === token])).toEqual([
      [200, false],
      [502, true],
      [502, true],
    ]);

    s.sim.clearFaults();
    s.sim.reset();
    expect(await s.billing.replayWebhooks(err.notQueued, { resume: err.unknownBatches })).toEqual({ queued: 1500, batches: 2 });
    expect(s.sim.requests.map((r) => [r.status, r.uniquenessToken === token])).toEqual([
      [409, true],
      [200, false],
    ]);
    expect(sorted(s.sim.replayQueue)).toEqual(range(2500));
  });

  it("a resumed batch that fails again stays unknown, with its original token", async () => {
    s = await site({}, { maxRetries: 0, retryBudgetSeconds: 0.5 });
    const batch = { ids: [7, 8], uniquenessToken: "tok-resumed" };
    // Refused this time; but the first send of this batch may have queued it, so it is still unknown.
    s.sim.injectFault({ kind: "status", status: 429, retryAfter: 1, match: { path: REPLAY } });
    const err = await s.billing.replayWebhooks([], { resume: [batch] }).catch((e) => e);
    expect(err).toBeInstanceOf(ReplayPartialFailureError);
    expect(err).toMatchObject({ queued: [], notQueued: [], unknown: [7, 8], unknownBatches: [batch] });
    expect(s.sim.requests.map((r) => r.uniquenessToken)).toEqual(["tok-resumed"]);
  });

  it.each([
    ["no ids", { ids: [], uniquenessToken: "t" }, "resume.0.ids"],
    ["too many ids", { ids: range(1001), uniquenessToken: "t" }, "resume.0.ids"],
    ["a bad id", { ids: [1, 0], uniquenessToken: "t" }, "resume.0.ids"],
    ["no token", { ids: [1] }, "resume.0.uniquenessToken"],
    ["an empty token", { ids: [1], uniquenessToken: "" }, "resume.0.uniquenessToken"],
  ])("a resume batch with %s: refused before sending", async (_, batch, property) => {
    s = await site();
    const err = await s.billing.replayWebhooks([1], { resume: [batch as never] }).catch((e) => e);
    expect(err).toBeInstanceOf(BillingValidationError);
    expect(err.problems.map((p: { property: string }) => p.property)).toEqual([property]);
    expect(s.sim.requests).toHaveLength(0);
  });
});

const texts = (ids: readonly number[]) => ids.map(String);

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
