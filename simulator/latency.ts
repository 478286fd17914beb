import { prng } from "./prng";

/**
 * How long the simulated service takes to answer: a real billing API answers in hundreds of
 * milliseconds with a slower tail, which is where a client's concurrency pays (and where a
 * benchmark at zero latency measures nothing of it). A log-normal distribution has that shape
 * and is fixed by two numbers people know of a service: its median and its 99th percentile.
 */

/** An answer latency by its median and 99th percentile, drawn from a log-normal distribution. */
export interface LatencyDistribution {
  /** Half of the requests wait at most this long (ms, > 0). */
  readonly medianMs: number;
  /** 99% of the requests wait at most this long (ms, ≥ medianMs). Default: medianMs (every request waits the median). */
  readonly p99Ms?: number;
  /** Seed of the draws, so that a benchmark's runs meet the same latencies. Default 1. */
  readonly seed?: number;
}

/** The standard normal's 99th percentile: p99 = median · e^(σ · Z99). */
const Z99 = 2.326347874040841;

/** Checks a distribution; the message names the field and what is accepted. */
export function latencyProblem(d: LatencyDistribution): string | undefined {
  if (!(Number.isFinite(d.medianMs) && d.medianMs > 0))
    return `latency.medianMs must be a number of milliseconds above 0, got ${String(d.medianMs)}`;
  if (d.p99Ms !== undefined && !(Number.isFinite(d.p99Ms) && d.p99Ms >= d.medianMs))
    return `latency.p99Ms must be a number of milliseconds at least medianMs (${d.medianMs}), got ${String(d.p99Ms)}`;
  if (d.seed !== undefined && !Number.isInteger(d.seed)) return `latency.seed must be an integer, got ${String(d.seed)}`;
  return undefined;
}

/** A function that draws one request's latency in whole milliseconds. */
export function latencySampler(d: LatencyDistribution): () => number {
  const problem = latencyProblem(d);
  if (problem) throw new Error(problem);
  const mu = Math.log(d.medianMs);
  const sigma = (Math.log(d.p99Ms ?? d.medianMs) - mu) / Z99;
  const next = prng(d.seed ?? 1);
  return () => {
    // Box–Muller; 1 - u keeps the logarithm finite.
    const z = Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
    return Math.round(Math.exp(mu + sigma * z));
  };
}

/** `--latency` as the command line gives it: `MS` (every request) or `MEDIAN:P99` (a distribution). */
export function parseLatency(text: string): number | LatencyDistribution {
  const m = /^(\d+(?:\.\d+)?)(?::(\d+(?:\.\d+)?))?$/.exec(text.trim());
  if (!m) throw new Error(`--latency takes MS or MEDIAN:P99 in milliseconds (e.g. 100 or 100:800), got ${text}`);
  if (m[2] === undefined) return Number(m[1]);
  const d = { medianMs: Number(m[1]), p99Ms: Number(m[2]) };
  const problem = latencyProblem(d);
  if (problem) throw new Error(problem.replace("latency.", "--latency's "));
  return d;
}
