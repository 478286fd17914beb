import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { latencySampler, parseLatency } from "../../simulator/latency";
import { call, start } from "./helpers";

/** The q-quantile of numbers (nearest rank). */
const quantile = (xs: readonly number[], q: number) => [...xs].sort((a, b) => a - b)[Math.ceil(q * xs.length) - 1] as number;

describe("answer latency as a distribution (median and 99th percentile)", () => {
  it.each([
    [100, 800],
    [100, 100],
    [250, 400],
    [5, 2000],
  ])("median %d ms, p99 %d ms: 20,000 draws have that median and 99th percentile (within 3 standard errors)", (medianMs, p99Ms) => {
    const n = 20_000;
    const draw = latencySampler({ medianMs, p99Ms, seed: 7 });
    const xs = Array.from({ length: n }, draw);
    expect(xs.every((x) => Number.isInteger(x) && x >= 0)).toBe(true);
    // A sample quantile's standard error, in the normal's units: √(q(1−q)/n) / φ(z_q); in log space times σ.
    const sigma = Math.log(p99Ms / medianMs) / 2.326;
    const within = (q: number, z: number, expected: number) => {
      const se = Math.sqrt((q * (1 - q)) / n) / (Math.exp((-z * z) / 2) / Math.sqrt(2 * Math.PI));
      const tolerance = expected * (Math.exp(3 * sigma * se) - 1) + 1; // +1: draws are whole milliseconds
      expect(Math.abs(quantile(xs, q) - expected)).toBeLessThanOrEqual(tolerance);
    };
    within(0.5, 0, medianMs);
    within(0.99, 2.326, p99Ms);
  });

  it("the same seed draws the same latencies, another seed others", () => {
    const a = Array.from({ length: 50 }, latencySampler({ medianMs: 100, p99Ms: 800, seed: 3 }));
    const b = Array.from({ length: 50 }, latencySampler({ medianMs: 100, p99Ms: 800, seed: 3 }));
    const c = Array.from({ length: 50 }, latencySampler({ medianMs: 100, p99Ms: 800, seed: 4 }));
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
  });

  it("any valid distribution draws finite, non-negative whole milliseconds", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.5, max: 5000, noNaN: true }),
        fc.double({ min: 1, max: 20, noNaN: true }),
        fc.integer(),
        (m, k, seed) => {
          const draw = latencySampler({ medianMs: m, p99Ms: m * k, seed });
          for (let i = 0; i < 20; i++) {
            const x = draw();
            expect(Number.isInteger(x) && x >= 0).toBe(true);
          }
        },
      ),
    );
  });

  it.each([
    [{ medianMs: 0 }, "latency.medianMs must be a number of milliseconds above 0, got 0"],
    [{ medianMs: 100, p99Ms: 50 }, "latency.p99Ms must be a number of milliseconds at least medianMs (100), got 50"],
    [{ medianMs: Number.NaN }, "latency.medianMs must be a number of milliseconds above 0, got NaN"],
    [{ medianMs: 100, seed: 1.5 }, "latency.seed must be an integer, got 1.5"],
  ])("%j is refused, naming the field: %s", (d, message) => {
    expect(() => latencySampler(d)).toThrow(message);
  });

  it.each([
    ["100", 100],
    ["100:800", { medianMs: 100, p99Ms: 800 }],
    ["2.5:10", { medianMs: 2.5, p99Ms: 10 }],
  ])("--latency %s", (text, parsed) => {
    expect(parseLatency(text)).toEqual(parsed);
  });

  it.each([
    ["fast", "--latency takes MS or MEDIAN:P99 in milliseconds (e.g. 100 or 100:800), got fast"],
    ["100:50", "--latency's p99Ms must be a number of milliseconds at least medianMs (100), got 50"],
    ["-1", "--latency takes MS or MEDIAN:P99"],
  ])("--latency %s is refused: %s", (text, message) => {
    expect(() => parseLatency(text)).toThrow(message);
  });

  it("the simulator waits each request's own draw, and its log says which (the same seed, the same draws)", async () => {
    const latency = { medianMs: 20, p99Ms: 60, seed: 11 };
    const sim = await start({ latency });
    try {
      for (let i = 0; i < 8; i++) expect((await call(sim, "GET", "/webhooks.json")).status).toBe(200);
      const expected = Array.from({ length: 8 }, latencySampler(latency));
      expect(sim.requests.map((r) => r.latencyMs ?? 0)).toEqual(expected);
      expect(new Set(expected).size).toBeGreaterThan(1);
    } finally {
      await sim.close();
    }
  });

  it("latencyMs and latency together are refused", async () => {
    await expect(start({ latencyMs: 5, latency: { medianMs: 5 } })).rejects.toThrow(
      "give latencyMs (every request) or latency (a distribution), not both",
    );
  });
});
