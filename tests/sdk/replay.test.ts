import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { BillingValidationError, ReplayPartialFailureError } from "../../sdk";
import { site, type Site } from "./support";

const REPLAY = "/webhooks/replay.json";
const batches = (s: Site) => s.sim.requests.filter((r) => r.path === REPLAY && r.status === 200).map((r) => (r.body as { ids: number[] }).ids);

describe("replayWebhooks", () => {
  let s: Site;
  afterEach(async () => s?.close());

  it.each([
    [[0], "0"],
    [[-3], "-3"],
    [[1.5], "1.5"],
    [[Number.NaN], "NaN"],
    [[1, "2"], '"2"'],
    [[2 ** 53], String(2 ** 53)],
  ])("refuses %o naming the bad entry, before sending", async (ids, shown) => {
    s = await site();
    const err = await s.billing.replayWebhooks(ids as number[]).catch((e) => e);
    expect(err).toBeInstanceOf(BillingValidationError);
    expect(err.message).toContain(shown);
    expect(s.sim.requests).toHaveLength(0);
  });

  it("de-duplicates, splits into requests of at most 1000 and returns { queued, batches }", async () => {
    s = await site();
    const ids = [...Array.from({ length: 2500 }, (_, i) => 1 + i), 7, 7, 2500];
    const res = await s.billing.replayWebhooks(ids);
    expect(res).toEqual({ queued: 2500, batches: 3 });
    expect(batches(s).map((b) => b.length).sort()).toEqual([1000, 1000, 500]);
    expect([...s.sim.replayQueue].sort((a, b) => a - b)).toEqual(Array.from({ length: 2500 }, (_, i) => 1 + i));
  });

  it("an empty list sends nothing", async () => {
    s = await site();
    expect(await s.billing.replayWebhooks([])).toEqual({ queued: 0, batches: 0 });
    expect(s.sim.requests).toHaveLength(0);
  });

  it("keeps at most maxConcurrency requests in flight (the service answers 429 above 4)", async () => {
    s = await site({ latencyMs: 20 });
    const res = await s.billing.replayWebhooks(Array.from({ length: 12_000 }, (_, i) => i + 1));
    expect(res.batches).toBe(12);
    expect(s.sim.requests.filter((r) => r.status === 429)).toHaveLength(0);
    expect(s.sim.replayQueue).toHaveLength(12_000);
  });

  it.each([
    ["429", { kind: "status", status: 429 } as const],
    ["503", { kind: "status", status: 503 } as const],
    ["502", { kind: "status", status: 502 } as const],
    ["connection reset", { kind: "reset" } as const],
  ])("retries a %s and queues each id exactly once", async (_, fault) => {
    s = await site();
    s.sim.injectFault({ ...fault, times: 2, match: { path: REPLAY } });
    const res = await s.billing.replayWebhooks(Array.from({ length: 1500 }, (_, i) => i + 1));
    expect(res.queued).toBe(1500);
    expect(s.sim.replayQueue).toHaveLength(1500);
    expect(new Set(s.sim.replayQueue).size).toBe(1500);
  });

  it("a batch that fails for good: the error lists exactly what was queued and what was not", async () => {
    s = await site({}, { maxConcurrency: 1, maxRetries: 1 });
    const ids = Array.from({ length: 3000 }, (_, i) => i + 1);
    // The first batch succeeds; from the second request on, every request fails, retries included.
    let n = 0;
    const orig = s.sim.requests.push.bind(s.sim.requests);
    s.sim.requests.push = (...e) => {
      if (e[0].path === REPLAY && ++n === 2) s.sim.injectFault({ kind: "status", status: 500, match: { path: REPLAY } });
      return orig(...e);
    };
    const err = await s.billing.replayWebhooks(ids).catch((e) => e);
    expect(err).toBeInstanceOf(ReplayPartialFailureError);
    const queued = [...s.sim.replayQueue].sort((a, b) => a - b);
    expect([...err.queued].sort((a: number, b: number) => a - b)).toEqual(queued);
    expect(queued.length).toBeGreaterThan(0);
    expect(err.queued.length + err.notQueued.length).toBe(3000);
    expect(new Set([...err.queued, ...err.notQueued]).size).toBe(3000);
    expect(err.message).toMatch(/queued/);
  });

  it("property: any id list is queued once per distinct id, in batches of at most 1000", async () => {
    s = await site();
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 5000 }), { maxLength: 3000 }), async (ids) => {
        const before = s.sim.requests.length;
        const queuedBefore = s.sim.replayQueue.length;
        const distinct = new Set(ids);
        const res = await s.billing.replayWebhooks(ids);
        const sent = s.sim.requests.slice(before).map((r) => (r.body as { ids: number[] }).ids);
        expect(res.queued).toBe(distinct.size);
        expect(res.batches).toBe(Math.ceil(distinct.size / 1000));
        expect(sent.every((b) => b.length <= 1000)).toBe(true);
        const queued = s.sim.replayQueue.slice(queuedBefore);
        expect(new Set(queued)).toEqual(distinct);
        expect(queued).toHaveLength(distinct.size);
      }),
      { numRuns: 25 },
    );
  });
});
