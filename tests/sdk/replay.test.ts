import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BillingApiError, BillingClient, BillingValidationError, ReplayPartialFailureError } from "../../sdk";
import { distinctIds } from "../../sdk/replay";
import { recordingProxy } from "../contract/recorder";
import { KEY, type Site, site } from "./helpers";

const REPLAY = "/webhooks/replay.json";
const range = (n: number, from = 1) => Array.from({ length: n }, (_, i) => from + i);
const sorted = (ids: readonly number[]) => [...ids].sort((a, b) => a - b);
/** Bodies of the replay requests the simulator accepted. */
const accepted = (s: Site) =>
  s.sim.requests.filter((r) => r.path === REPLAY && r.status === 200).map((r) => (r.body as { ids: number[] }).ids);

describe("replayWebhooks: validation", () => {
  let s: Site;

  it.each([
    ["zero", [5, 0], ["[1] 0"]],
    ["negative", [-3], ["[0] -3"]],
    ["fraction", [1, 2, 1.5], ["[2] 1.5"]],
    ["NaN", [Number.NaN], ["[0] NaN"]],
    ["Infinity", [Number.POSITIVE_INFINITY], ["[0] Infinity"]],
    ["text that is not a decimal id", [1, "2.5"], ['[1] "2.5"']],
    ["text with a sign or a leading zero", [1, "+2", "02"], ['[1] "+2"', '[2] "02"']],
    ["text above int64", [1, "9223372036854775808"], ['[1] "9223372036854775808"']],
    ["null", [null], ["[0] null"]],
    ["past 2^53", [2 ** 53], [`[0] ${2 ** 53}`]],
    ["several", [0, 7, -1, 2.5, "x"], ["[0] 0", "[2] -1", "[3] 2.5", '[4] "x"']],
    ["a bigint", [1, 5n], ["[1] bigint"]],
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

  it.each([
    ["a string", "1,2"],
    ["a number", 5],
    ["undefined", undefined],
    ["an object", { ids: [1] }],
  ])("not an array (%s): refused before sending", async (_, ids) => {
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

  it('decimal text of an id below 2^53 is that id: "5001" and 5001 are sent once, as a number', async () => {
    s = await site();
    expect(await s.billing.replayWebhooks(["5001", 5001, 5002, "5002", "5003"])).toEqual({ queued: 3, batches: 1 });
    expect(accepted(s)).toEqual([[5001, 5002, 5003]]);
    expect(s.sim.replayLog).toEqual(["5001", "5002", "5003"]);
  });

  it("int64 ids above 2^53, as decimal text: sent exactly, de-duplicated, batched like any other", async () => {
    s = await site();
    const big = Array.from({ length: 1001 }, (_, i) => (9_007_199_254_740_993n + BigInt(i)).toString());
    expect(await s.billing.replayWebhooks([...big, big[0], "9223372036854775807", 42])).toEqual({ queued: 1003, batches: 2 });
    expect([...s.sim.replayLog].sort()).toEqual([...big, "9223372036854775807", "42"].sort());
  });

  it("2500 ids with duplicates spread over the list: 3 requests, each id once", async () => {
    s = await site();
    const ids = [...range(2500), ...range(300, 1), 2500, 7, 7];
    const res = await s.billing.replayWebhooks(ids);
    expect(res).toEqual({ queued: 2500, batches: 3 });
    expect(
      accepted(s)
        .map((b) => b.length)
        .sort(),
    ).toEqual([1000, 1000, 500]);
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
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 50 }), { maxLength: 200 }), (ids) => {
        const expected: number[] = [];
        for (const id of ids) if (!expected.includes(id)) expected.push(id);
        expect([...distinctIds(ids)]).toEqual(expected);
      }),
      { numRuns: 300 },
    );
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
    // The simulator refuses a request over its cap with 429 (overCapacity "429"); give it exactly the client's cap.
    s = await site({ latencyMs: 25, maxConcurrent: max, overCapacity: "429" });
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
    s = await site({ latencyMs: 25, overCapacity: "429" });
    const res = await s.billing.replayWebhooks(range(12_000));
    expect(res.batches).toBe(12);
    expect(s.sim.requests.filter((r) => r.status === 429)).toHaveLength(0);
    expect(s.sim.requests).toHaveLength(12);
  });

  it("other calls on the same client share the cap: a replay with reads and a migration alongside stays within 4", async () => {
    s = await site({ latencyMs: 20, overCapacity: "429" });
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
      // 8 batches, the migration and its price point lookup, 6 reads, the PUT, one page of webhooks.
      expect(s.sim.requests).toHaveLength(8 + 2 + 6 + 1 + 1);
    } finally {
      await billing.close();
      await proxy.close();
    }
  });

  it("sanity: a client allowed more than the service's cap does get 429s, and still queues each id once", async () => {
    s = await site({ latencyMs: 25, maxConcurrent: 2, overCapacity: "429" }, { maxConcurrency: 6, maxRetries: 10 });
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
