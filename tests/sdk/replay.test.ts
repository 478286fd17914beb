import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BillingApiError, BillingClient, BillingValidationError, ReplayPartialFailureError } from "../../sdk";
import { distinctIds } from "../../sdk/replay";
import { recordingProxy } from "../contract/recorder";
import { KEY, site, type Site } from "./helpers";

const REPLAY = "/webhooks/replay.json";
const range = (n: number, from = 1) => Array.from({ length: n }, (_, i) => from + i);
const sorted = (ids: readonly number[]) => [...ids].sort((a, b) => a - b);
/** Bodies of the replay requests the simulator accepted. */
const accepted = (s: Site) => s.sim.requests.filter((r) => r.path === REPLAY && r.status === 200).map((r) => (r.body as { ids: number[] }).ids);

describe("replayWebhooks: validation", () => {
  let s: Site;

  it.each([
    ["zero", [5, 0], ["[1] 0"]],
    ["negative", [-3], ["[0] -3"]],
    ["fraction", [1, 2, 1.5], ["[2] 1.5"]],
    ["NaN", [Number.NaN], ["[0] NaN"]],
    ["Infinity", [Number.POSITIVE_INFINITY], ["[0] Infinity"]],
    ["string", [1, "2"], ['[1] "2"']],
    ["null", [null], ["[0] null"]],
    ["past 2^53", [2 ** 53], [`[0] ${2 ** 53}`]],
    ["several", [0, 7, -1, 2.5, "x"], ["[0] 0", "[2] -1", "[3] 2.5", '[4] "x"']],
  ])("%s: BillingValidationError naming each bad entry, nothing sent", async (_, ids, shown) => {
    s = await site();
    const err = await s.billing.replayWebhooks(ids as number[]).catch((e) => e);
    expect(err).toBeInstanceOf(BillingValidationError);
    for (const entry of shown) expect(err.message).toContain(entry);
    expect(err.message).not.toContain("[1] 7");
    expect(s.sim.requests).toHaveLength(0);
  });

  it("one bad id among 5000 good ones: nothing is sent at all", async () => {
    s = await site();
    const ids = range(5000);
    ids[4321] = 0;
    await expect(s.billing.replayWebhooks(ids)).rejects.toThrow(/\[4321\] 0/);
    expect(s.sim.requests).toHaveLength(0);
    expect(s.sim.replayQueue).toEqual([]);
  });

  it.each([["a string", "1,2"], ["a number", 5], ["undefined", undefined], ["an object", { ids: [1] }]])(
    "not an array (%s): refused before sending", async (_, ids) => {
      s = await site();
      await expect(s.billing.replayWebhooks(ids as never)).rejects.toBeInstanceOf(BillingValidationError);
      expect(s.sim.requests).toHaveLength(0);
    });

  it("an empty list sends nothing", async () => {
    s = await site();
    expect(await s.billing.replayWebhooks([])).toEqual({ queued: 0, batches: 0 });
    expect(s.sim.requests).toHaveLength(0);
  });
});

describe("replayWebhooks: batching and de-duplication", () => {
  let s: Site;

  it.each([
    [1, [1]],
    [999, [999]],
    [1000, [1000]],
    [1001, [1000, 1]],
    [2500, [1000, 1000, 500]],
    [3000, [1000, 1000, 1000]],
  ])("%i distinct ids → requests of %o ids", async (n, sizes) => {
    s = await site();
    const res = await s.billing.replayWebhooks(range(n));
    expect(res).toEqual({ queued: n, batches: sizes.length });
    const bodies = accepted(s);
    expect(bodies.map((b) => b.length).sort((a, b) => b - a)).toEqual(sizes);
    expect(s.sim.requests.filter((r) => r.path === REPLAY)).toHaveLength(sizes.length);
    expect(sorted(bodies.flat())).toEqual(range(n));
    expect(sorted(s.sim.replayQueue)).toEqual(range(n));
  });

  it("duplicates are sent once, in first-seen order", async () => {
    s = await site();
    const res = await s.billing.replayWebhooks([9, 3, 9, 1, 3, 3, 7, 1]);
    expect(res).toEqual({ queued: 4, batches: 1 });
    expect(accepted(s)).toEqual([[9, 3, 1, 7]]);
    expect(s.sim.replayQueue).toEqual([9, 3, 1, 7]);
  });

  it("2500 ids with duplicates spread over the list: 3 requests, each id once", async () => {
    s = await site();
    const ids = [...range(2500), ...range(300, 1), 2500, 7, 7];
    const res = await s.billing.replayWebhooks(ids);
    expect(res).toEqual({ queued: 2500, batches: 3 });
    expect(accepted(s).map((b) => b.length).sort()).toEqual([1000, 1000, 500]);
    expect(sorted(s.sim.replayQueue)).toEqual(range(2500));
  });

  it("each batch carries its own uniqueness_token", async () => {
    s = await site();
    await s.billing.replayWebhooks(range(3000));
    const tokens = s.sim.requests.filter((r) => r.path === REPLAY).map((r) => r.uniquenessToken);
    expect(tokens.every((t) => typeof t === "string" && t.length > 0)).toBe(true);
    expect(new Set(tokens).size).toBe(3);
  });

  it("property: distinctIds keeps the first occurrence of each id, in order", () => {
    fc.assert(fc.property(fc.array(fc.integer({ min: 1, max: 50 }), { maxLength: 200 }), (ids) => {
      const expected: number[] = [];
      for (const id of ids) if (!expected.includes(id)) expected.push(id);
      expect([...distinctIds(ids)]).toEqual(expected);
    }), { numRuns: 300 });
  });

  it("property: any id list is queued once per distinct id, in order, in batches of at most 1000", async () => {
    s = await site();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.array(fc.integer({ min: 1, max: 4000 }), { maxLength: 2500 }),
          fc.array(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), { maxLength: 50 }),
        ),
        async (ids) => {
          const before = s.sim.requests.length;
          s.sim.replayQueue = [];
          const distinct = [...new Set(ids)];
          const res = await s.billing.replayWebhooks(ids);
          const sent = s.sim.requests.slice(before).map((r) => (r.body as { ids: number[] }).ids);
          expect(res).toEqual({ queued: distinct.length, batches: Math.ceil(distinct.length / 1000) });
          expect(sent).toHaveLength(res.batches);
          expect(sent.every((b) => b.length >= 1 && b.length <= 1000)).toBe(true);
          // Batches may finish in any order; each is a contiguous slice of the distinct ids.
          const byFirst = [...sent].sort((a, b) => distinct.indexOf(a[0]) - distinct.indexOf(b[0]));
          expect(byFirst.flat()).toEqual(distinct);
          expect(sorted(s.sim.replayQueue)).toEqual(sorted(distinct));
        },
      ),
      { numRuns: 30 },
    );
  });
});

describe("replayWebhooks: concurrency", () => {
  let s: Site;

  it.each([1, 2, 4])("maxConcurrency %i: never more in flight, and no 429 from the service", async (max) => {
    // The simulator refuses a request over its cap with 429; give it exactly the client's cap.
    s = await site({ latencyMs: 25, maxConcurrent: max });
    const proxy = await recordingProxy(s.sim.url);
    const billing = new BillingClient({ baseUrl: proxy.url, apiKey: KEY, maxConcurrency: max, retryBaseDelayMs: 1 });
    try {
      const res = await billing.replayWebhooks(range(8000));
      expect(res).toEqual({ queued: 8000, batches: 8 });
      expect(proxy.peak).toBe(max); // at most the cap, and the cap is used
      expect(s.sim.requests.map((r) => r.status)).toEqual(Array(8).fill(200));
      expect(s.sim.replayQueue).toHaveLength(8000);
    } finally {
      await billing.close();
      await proxy.close();
    }
  });

  it("the default cap fits the service's 4-per-site limit", async () => {
    s = await site({ latencyMs: 25 });
    const res = await s.billing.replayWebhooks(range(12_000));
    expect(res.batches).toBe(12);
    expect(s.sim.requests.filter((r) => r.status === 429)).toHaveLength(0);
    expect(s.sim.requests).toHaveLength(12);
  });

  it("other calls on the same client share the cap: a replay with reads and a migration alongside stays within 4", async () => {
    s = await site({ latencyMs: 20 });
    s.sim.addProduct({ id: 1, handle: "basic" });
    s.sim.addProduct({ id: 2, handle: "pro" });
    const id = s.sim.addSubscription({ productHandle: "basic", state: "active" }).id;
    const proxy = await recordingProxy(s.sim.url);
    const billing = new BillingClient({ baseUrl: proxy.url, apiKey: KEY, retryBaseDelayMs: 1 });
    try {
      await Promise.all([
        billing.replayWebhooks(range(8000)),
        billing.migrateSubscription(id, { productHandle: "pro" }),
        ...Array.from({ length: 6 }, () => billing.readSubscription(id)),
        billing.setWebhooksEnabled(true),
        billing.listWebhooks(),
      ]);
      expect(proxy.peak).toBe(4);
      expect(s.sim.requests.filter((r) => r.status === 429)).toHaveLength(0);
      expect(s.sim.requests).toHaveLength(8 + 1 + 6 + 1 + 1);
    } finally {
      await billing.close();
      await proxy.close();
    }
  });

  it("sanity: a client allowed more than the service's cap does get 429s, and still queues each id once", async () => {
    s = await site({ latencyMs: 25, maxConcurrent: 2 }, { maxConcurrency: 6, maxRetries: 10 });
    const res = await s.billing.replayWebhooks(range(6000));
    expect(res.queued).toBe(6000);
    expect(s.sim.requests.filter((r) => r.status === 429).length).toBeGreaterThan(0);
    expect(sorted(s.sim.replayQueue)).toEqual(range(6000));
  });
});

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
    // Two faulted attempts, then the retries; a retry after an applied batch is the service's 409 duplicate.
    expect(s.sim.requests.length).toBeGreaterThanOrEqual(4);
    if (applyAfterHandling) expect(s.sim.requests.some((r) => r.status === 409)).toBe(true);
  });

  it("a timeout after the service queued the batch: retried, the retry is a 409 duplicate, each id queued once", async () => {
    // undici checks its timers about once a second: the 100 ms timeout fires within ~1 s.
    s = await site({}, { timeoutMs: 100 });
    s.sim.injectFault({ kind: "delay", ms: 3000, times: 1, applyAfterHandling: true, match: { path: REPLAY } });
    const res = await s.billing.replayWebhooks(range(1200));
    expect(res).toEqual({ queued: 1200, batches: 2 });
    expect(sorted(s.sim.replayQueue)).toEqual(range(1200));
    expect(s.sim.requests.map((r) => r.status).sort()).toEqual([0, 200, 409]);
  });

  it("maxRetries bounds the attempts: maxRetries + 1 requests, then the error", async () => {
    s = await site({}, { maxRetries: 2 });
    s.sim.injectFault({ kind: "status", status: 503, match: { path: REPLAY } });
    const err = await s.billing.replayWebhooks([1, 2, 3]).catch((e) => e);
    expect(err).toBeInstanceOf(BillingApiError);
    expect(err).toMatchObject({ status: 503, method: "POST", path: REPLAY });
    expect(err.errors).toEqual(["503 Service Unavailable"]); // the last answer's body reaches the error
    expect(s.sim.requests.map((r) => r.status)).toEqual([503, 503, 503]);
    expect(s.sim.replayQueue).toEqual([]);
  });

  it("a 500 is not retried", async () => {
    s = await site();
    s.sim.injectFault({ kind: "status", status: 500, match: { path: REPLAY } });
    await expect(s.billing.replayWebhooks([1])).rejects.toMatchObject({ status: 500 });
    expect(s.sim.requests).toHaveLength(1);
  });

  it("a batch failing for good after one succeeded: ReplayPartialFailureError with exactly the queued and not-queued ids", async () => {
    s = await site({}, { maxConcurrency: 1, maxRetries: 1 });
    // One clean pass-through (a zero delay), then every replay request fails.
    s.sim.injectFault({ kind: "delay", ms: 0, times: 1, match: { path: REPLAY } });
    s.sim.injectFault({ kind: "status", status: 500, match: { path: REPLAY } });
    const ids = [...range(3000), 17, 2999];
    const err = await s.billing.replayWebhooks(ids).catch((e) => e);
    expect(err).toBeInstanceOf(ReplayPartialFailureError);
    expect(err.queued).toEqual(range(1000));
    expect(err.notQueued).toEqual(range(2000, 1001));
    expect(s.sim.replayQueue).toEqual(range(1000));
    expect(err.cause).toBeInstanceOf(BillingApiError);
    expect(err.cause.status).toBe(500);
    expect(err.message).toMatch(/1000 id\(s\) queued, 2000 not queued/);
    // After the failure no further batch starts: batch 1, then batch 2 once (500 is final).
    expect(s.sim.requests.map((r) => r.status)).toEqual([200, 500]);
  });

  it("a batch failing for good with batches in parallel: queued is exactly what the service queued", async () => {
    s = await site({ latencyMs: 10 }, { maxConcurrency: 4, maxRetries: 0 });
    s.sim.injectFault({ kind: "delay", ms: 0, times: 3, match: { path: REPLAY } });
    s.sim.injectFault({ kind: "status", status: 502, match: { path: REPLAY } });
    const err = await s.billing.replayWebhooks(range(10_000)).catch((e) => e);
    expect(err).toBeInstanceOf(ReplayPartialFailureError);
    expect(sorted(err.queued)).toEqual(sorted(s.sim.replayQueue));
    expect(err.queued).toHaveLength(3000);
    expect(sorted([...err.queued, ...err.notQueued])).toEqual(range(10_000));
  });

  it("the only batch failing: the batch's own error (nothing was queued)", async () => {
    s = await site({}, { maxRetries: 0 });
    s.sim.injectFault({ kind: "status", status: 503, match: { path: REPLAY } });
    const err = await s.billing.replayWebhooks([1, 2]).catch((e) => e);
    expect(err).toBeInstanceOf(BillingApiError);
    expect(err).not.toBeInstanceOf(ReplayPartialFailureError);
    expect(s.sim.replayQueue).toEqual([]);
  });
});
