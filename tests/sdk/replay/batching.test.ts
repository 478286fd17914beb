import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BillingClient, BillingValidationError } from "../../../sdk";
import { distinctIds } from "../../../sdk/replay";
import { recordingProxy } from "../../contract/recorder";
import { KEY, type Site, site } from "../helpers";

/**
 * How replayWebhooks sends (sdk/replay.ts): duplicates once in first-seen order, int64 ids digit for digit, batches of
 * at most 1000 each with its own token, and never more in flight than the cap the service allows.
 */

const REPLAY = "/webhooks/replay.json";

const range = (n: number, from = 1) => Array.from({ length: n }, (_, i) => from + i);

const sorted = (ids: readonly number[]) => [...ids].sort((a, b) => a - b);

/** Bodies of the replay requests the simulator accepted. */
const accepted = (s: Site) =>
  s.sim.requests.filter((r) => r.path === REPLAY && r.status === 200).map((r) => (r.body as { ids: number[] }).ids);

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

// The memory promise of distinctIds (its comment: a million ids cost ~8 MB, not a Set of them): ids with no
// duplicate come back as the very array given, never a copy; only a list with a duplicate is filtered.
describe("distinctIds: no copy of a list without duplicates", () => {
  it.each([
    ["ascending numbers", [1, 2, 3, 1000]],
    ["numbers in any order", [30, 2, 1000, 7]],
    ["a single id", [5]],
    ["no id", []],
  ])("%s: the same array", (_, ids) => {
    expect(distinctIds(ids)).toBe(ids);
  });

  it("with a duplicate: a new array, first occurrences in order; the given one untouched", () => {
    const ids = [30, 2, 30, 7, 2];
    const out = distinctIds(ids);
    expect(out).not.toBe(ids);
    expect(out).toEqual([30, 2, 7]);
    expect(ids).toEqual([30, 2, 30, 7, 2]);
  });
});

type ReplayBody = { ids: unknown[]; uniqueness_token: string };

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
