import { beforeAll, describe, expect, it } from "vitest";
import { type Simulator, startSimulator } from "../../simulator";
import { contractCheck, USAGE_VIOLATION } from "../contract/validator";
import { call, start, until } from "./helpers";

beforeAll(async () => {
  // Answers are timed here; checking them against the contract must not add compile time.
  (await contractCheck()).warm("replayWebhooks", "readSite");
});

const replay = (sim: Simulator, ids = [1]) => call(sim, "POST", "/webhooks/replay.json", { body: { ids } });

/** Fires `n` replays at once; each answer with the order in which it came back. */
async function burst(sim: Simulator, n: number) {
  let finished = 0;
  return Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const r = await replay(sim, [i + 1]);
      return { ...r, id: i + 1, finishedAs: finished++ };
    }),
  );
}

describe("over capacity: queue (the default)", () => {
  it("the 5th and 6th simultaneous requests wait for a slot, then run: all applied, none refused", async () => {
    const sim = await start({ latencyMs: 150 });
    const t0 = Date.now();
    const results = await burst(sim, 6);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect([...sim.replayQueue].sort()).toEqual([1, 2, 3, 4, 5, 6]);
    // Two rounds of latency: the queued two ran only after the first four were answered.
    expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
    const firstRound = sim.replayQueue.slice(0, 4);
    const late = results.filter((r) => !firstRound.includes(r.id));
    expect(late.every((r) => r.finishedAs >= 4)).toBe(true);
    expect(sim.peakInFlight).toBe(6);
    expect(sim.inFlight).toBe(0);
  });

  it("waiting requests run first come, first served", async () => {
    const sim = await start({ maxConcurrent: 1 });
    sim.injectFault({ kind: "delay", ms: 200, times: 1 });
    const pending = [replay(sim, [100])];
    await until(() => sim.requests[0]?.body !== undefined, "the first holds the slot");
    for (const id of [3, 1, 2]) {
      const before = sim.inFlight;
      pending.push(replay(sim, [id]));
      await until(() => sim.inFlight === before + 1, `request ${id} has arrived`);
    }
    expect(sim.replayLog).toEqual([]); // the first is still held, the rest are waiting
    expect((await Promise.all(pending)).map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(sim.replayLog).toEqual(["100", "3", "1", "2"]);
    expect(sim.peakInFlight).toBe(4);
  });

  it("close() ends requests still waiting for a slot", async () => {
    const sim = await startSimulator({ maxConcurrent: 1 });
    sim.injectFault({ kind: "delay", ms: 30_000, times: 1 });
    const held = replay(sim).catch((e: Error) => e);
    const waiting = replay(sim, [2]).catch((e: Error) => e);
    await until(() => sim.inFlight === 2, "one held, one waiting");
    // Not waited for: the held answer is due in 30 s, past the test's timeout.
    await sim.close();
    expect(await held).toBeInstanceOf(Error);
    expect(await waiting).toBeInstanceOf(Error);
    expect(sim.replayLog).toEqual([]);
  });
});

describe('over capacity: "429"', () => {
  it("the 5th and 6th get the service's 429 text at once, without Retry-After; only four are applied", async () => {
    const sim = await start({ latencyMs: 300, overCapacity: "429" });
    const results = await burst(sim, 6);
    const refused = results.filter((r) => r.status === 429);
    expect(results.filter((r) => r.status === 200)).toHaveLength(4);
    expect(refused).toHaveLength(2);
    for (const r of refused) {
      expect(r.headers.get("content-type")).toMatch(/^text\/plain/);
      expect(r.text).toMatch(new RegExp(USAGE_VIOLATION));
      expect(r.headers.get("retry-after")).toBeNull();
    }
    // At once: both refusals came back before any admitted request, each of which is held 300 ms.
    expect(refused.map((r) => r.finishedAs).sort()).toEqual([0, 1]);
    expect(sim.replayQueue).toHaveLength(4);
    // A refused request counts too, but leaves at once: the sixth may arrive after the fifth's 429 went out.
    expect([5, 6]).toContain(sim.peakInFlight);
    // The cap frees up once answers are out.
    expect((await replay(sim)).status).toBe(200);
  });

  it("honours maxConcurrent", async () => {
    const sim = await start({ latencyMs: 200, maxConcurrent: 1, overCapacity: "429" });
    const statuses = (await Promise.all([replay(sim), replay(sim)])).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 429]);
  });
});

describe("peakInFlight", () => {
  it("counts requests from arrival to answer; resetPeak starts over from what is in flight", async () => {
    const sim = await start();
    expect(sim.peakInFlight).toBe(0);
    await replay(sim);
    await replay(sim);
    expect(sim.peakInFlight).toBe(1); // one after the other never overlap
    sim.injectFault({ kind: "delay", ms: 150, times: 2 });
    const slow = [replay(sim), replay(sim)];
    await until(() => sim.inFlight === 2, "two slow requests in flight");
    sim.resetPeak();
    expect(sim.peakInFlight).toBe(2);
    await Promise.all(slow);
    expect(sim.inFlight).toBe(0);
    sim.resetPeak();
    expect(sim.peakInFlight).toBe(0);
  });

  it("refuses a maxConcurrent below 1 and an unknown overCapacity", async () => {
    await expect(startSimulator({ maxConcurrent: 0 })).rejects.toThrow(/maxConcurrent/);
    await expect(startSimulator({ overCapacity: "drop" as "429" })).rejects.toThrow(/overCapacity/);
  });
});

describe("what a client has open vs what the site still runs", () => {
  it("a request its client gave up on still runs (peakInFlight) but is no longer waited on (peakWaitedOn)", async () => {
    // Latency makes the burst's four overlap.
    const sim = await start({ latencyMs: 100 });
    sim.injectFault({ kind: "processing", ms: 500, times: 1 });
    const giveUp = new AbortController();
    const abandoned = call(sim, "POST", "/webhooks/replay.json", { body: { ids: [100] }, signal: giveUp.signal }).catch((e: unknown) => e);
    await until(() => sim.inFlight === 1, "the first request is running");
    giveUp.abort(); // as a client timeout would
    await abandoned;
    await until(() => sim.peakWaitedOn === 1 && sim.inFlight === 1, "the site still runs the abandoned request");
    sim.resetPeak();
    const results = await burst(sim, 4);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    // Four waited on by their client at once; five running at the site (the abandoned one was still processing).
    expect(sim.peakWaitedOn).toBe(4);
    expect(sim.peakInFlight).toBe(5);
    await until(() => sim.inFlight === 0, "the abandoned request finished");
    expect(sim.replayLog).toContain("100");
  });
});
