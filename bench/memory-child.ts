/**
 * Figure 3's measured process: one replay of 1,000,000 ids through the SDK.
 * Prints { baselineMb, peakMb } as JSON. Baseline: modules loaded, a client
 * warmed up with a small replay, after a GC. Peak: the highest RSS sampled
 * every 2 ms, and the process's own maxRSS, whichever is higher.
 */
import { BillingClient } from "../sdk";

async function main(): Promise<void> {
  const [url, key] = process.argv.slice(2);
  const billing = new BillingClient({ baseUrl: url, apiKey: key });
  await billing.replayWebhooks([1, 2, 3]);
  (globalThis as { gc?: () => void }).gc?.();
  await new Promise((r) => setTimeout(r, 50));
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 2);
  const ids = Array.from({ length: 1_000_000 }, (_, i) => 1 + i);
  const res = await billing.replayWebhooks(ids);
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage.rss(), process.resourceUsage().maxRSS * 1024);
  await billing.close();
  process.stdout.write(JSON.stringify({ baselineMb: baseline / 2 ** 20, peakMb: peak / 2 ** 20, queued: res.queued }) + "\n");
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
