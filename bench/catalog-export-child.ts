/**
 * One measured read of the benchmark's site, in a fresh process so that its peak memory is its own:
 * `export` (the whole `billing-catalog export`: read, then the import file, the program and the
 * snapshot, in memory) or `bare` (the same pages with a bare undici Pool, 4 in flight, each answer
 * JSON-parsed and kept). Prints { ms, baselineMb, peakMb, objects } as JSON. Args: mode, url, key.
 */
import { catalogImportFile, catalogProgram, readCatalog, snapshotJson } from "../catalog";
import { bareCatalogRead } from "./catalog-export-bare";

async function main(): Promise<void> {
  const [mode, url = "", key = ""] = process.argv.slice(2);
  (globalThis as { gc?: () => void }).gc?.();
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 2);
  const t = process.hrtime.bigint();
  let objects = 0;
  if (mode === "export") {
    const { snapshot } = await readCatalog({ baseUrl: url, apiKey: key });
    const text = snapshotJson(snapshot) + JSON.stringify(catalogImportFile(snapshot)) + catalogProgram(snapshot);
    objects = text.length > 0 ? Object.keys(snapshot.objects["Product"] ?? {}).length : 0;
  } else {
    objects = (await bareCatalogRead(url, key)).products;
  }
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage.rss(), process.resourceUsage().maxRSS * 1024);
  process.stdout.write(`${JSON.stringify({ ms, baselineMb: baseline / 2 ** 20, peakMb: peak / 2 ** 20, objects })}\n`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
