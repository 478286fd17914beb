/**
 * The fleet benchmarks' sites, in a process of their own (their work is not the runner's): one
 * simulator per site, each with the service's limit of 4 requests in flight and, optionally, an
 * answer latency drawn from a distribution. Prints one line of JSON, the sites' URLs, once all
 * listen; runs until killed. Args: count, API key, latency as MEDIAN:P99 in ms (or 0), seed.
 */
import { startSimulator } from "../simulator";

async function main(): Promise<void> {
  const [count = "1", key = "bench_key", latency = "0", seed = "1"] = process.argv.slice(2);
  const [medianMs = 0, p99Ms = 0] = latency.split(":").map(Number);
  const urls: string[] = [];
  for (let i = 0; i < Number(count); i++) {
    const sim = await startSimulator({
      apiKey: key,
      logBodies: false,
      maxConcurrent: 4,
      // A seed per site: the sites draw different latencies, the same ones on every run.
      ...(medianMs > 0 ? { latency: { medianMs, p99Ms: p99Ms || medianMs, seed: Number(seed) * 1000 + i } } : {}),
    });
    urls.push(sim.url);
  }
  process.stdout.write(`${JSON.stringify(urls)}\n`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
