import { describe, expect, it } from "vitest";
import { call, start, until } from "./helpers";

const replay = (sim: Awaited<ReturnType<typeof start>>, id: number) => call(sim, "POST", "/webhooks/replay.json", { body: { ids: [id] } });

describe("serveLike: the running service answers differently from now on", () => {
  it("a latency set later delays the later answers and is in their log entries; latencyMs: 0 takes it away", async () => {
    const sim = await start();
    await replay(sim, 1);
    sim.serveLike({ latencyMs: 120 });
    const t0 = Date.now();
    await replay(sim, 2);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(115);
    sim.serveLike({ latency: { medianMs: 50, p99Ms: 400, seed: 1 } });
    await replay(sim, 3);
    sim.serveLike({ latencyMs: 0 });
    await replay(sim, 4);
    expect(sim.requests.map((r) => r.latencyMs)).toEqual([undefined, 120, expect.any(Number), undefined]);
    expect(sim.replayLog).toEqual(["1", "2", "3", "4"]);
  });

  it("a raised cap admits who waits at once; a lowered one queues the next arrivals", async () => {
    const sim = await start({ maxConcurrent: 1 });
    sim.injectFault({ kind: "delay", ms: 300, times: 1 });
    const first = replay(sim, 1);
    await until(() => sim.inFlight === 1, "the first holds the only slot");
    const second = replay(sim, 2);
    await until(() => sim.inFlight === 2, "the second waits");
    expect(sim.replayLog).toEqual([]);
    sim.serveLike({ maxConcurrent: 2 });
    await second;
    expect(sim.replayLog).toEqual(["2"]); // answered while the first still holds its slot
    await first;
    sim.serveLike({ maxConcurrent: 1, latencyMs: 100 });
    const t0 = Date.now();
    await Promise.all([replay(sim, 3), replay(sim, 4)]);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(195); // one at a time again
  });

  it.each([
    [{ maxConcurrent: 0 }, "maxConcurrent must be a positive integer, got 0"],
    [{ latencyMs: 5, latency: { medianMs: 5 } }, "give latencyMs (every request) or latency (a distribution), not both"],
    [{ latencyMs: 500, maxConcurrent: 0 }, "maxConcurrent must be a positive integer, got 0"],
  ])("%o is refused, and nothing changes", async (conditions, message) => {
    const sim = await start({ maxConcurrent: 1 });
    expect(() => sim.serveLike(conditions)).toThrow(message);
    const t0 = Date.now();
    await replay(sim, 1);
    expect(Date.now() - t0).toBeLessThan(100);
  });
});
