/**
 * `npm run bench [-- --quick] [-- --only 1,2]`: the figures of the benchmark,
 * each a ratio to a reference measured side by side in this one run, printed
 * as a Markdown table (README "Latest benchmark"). A script, not a test:
 * nothing fails on a number.
 */
import { cpus } from "node:os";
import { catalogCliFigure, pricePointsFigure } from "./catalog";
import { catalogExportFigure } from "./catalog-export";
import { attributionTable, catalogSeries, type SeriesResult, seriesRows, seriesTable } from "./catalog-series";
import { cliFigure } from "./cli";
import { fleetFigure } from "./fleet";
import { fleetCostFigure } from "./fleet-cost";
import { memoryFigure } from "./memory";
import { packSizeFigure } from "./pack-size";
import { perCallFigure } from "./per-call";
import { pluginFigure } from "./plugin";
import { providerSizeFigure } from "./provider-size";
import { replayFigure } from "./replay";
import { requestsPerObjectFigure } from "./requests";
import { stateSizeFigure } from "./state-size";
import { type Row, table } from "./stats";

async function main(): Promise<void> {
  const quick = process.argv.includes("--quick");
  const onlyArg = process.argv[process.argv.indexOf("--only") + 1];
  const only = process.argv.includes("--only") ? new Set(onlyArg.split(",")) : undefined;
  const want = (n: string) => !only || only.has(n);
  const rows: Row[] = [];
  const started = Date.now();
  const step = async (n: string, what: string, fn: () => Promise<Row[]> | Row[]) => {
    if (!want(n)) return;
    const t = Date.now();
    process.stderr.write(`[bench] figure ${n}: ${what}…\n`);
    rows.push(...(await fn()));
    process.stderr.write(`[bench] figure ${n} done in ${((Date.now() - t) / 1000).toFixed(1)} s\n`);
  };
  await step("1", "per-call overhead", () => perCallFigure(quick ? { repeats: 5, calls: 20 } : { repeats: 15, calls: 200 }));
  await step("2", "replay of 100,000 ids at 5 ms per request", () => replayFigure({ repeats: quick ? 3 : 21 }));
  await step("3", "memory of a 1,000,000-id replay", () => memoryFigure({ repeats: quick ? 1 : 3 }));
  await step("4", "__provider bytes", () => providerSizeFigure({ tarball: !quick }));
  if (quick) {
    if (want("5"))
      rows.push({
        figure: "5",
        candidate: "pulumi preview/up, 50 WebhookSettings",
        reference: "50 no-op dynamic resources",
        value: "skipped (--quick)",
        spread: "",
        repeats: "0",
        target: "≤ 1.3×",
        met: undefined,
      });
  } else {
    await step("5", "the real CLI, 50 sites vs 50 no-op resources", () => cliFigure({ repeats: 3 }));
  }
  let breakdown = "";
  let series = "";
  await step("6", "the fleet runner: CPU per site by process (6a); sites at concurrency 8 vs one at a time (6b)", async () => {
    const cost = await fleetCostFigure(quick ? { sites: 2, rounds: 1 } : { sites: 3, rounds: 2 });
    breakdown = cost.breakdown;
    return [
      ...cost.rows,
      ...(await fleetFigure(
        quick
          ? { sites: 16, cases: [{ latency: "100:800", from: "webhooks", to: "catalog" }] }
          : {
              sites: 100,
              // The target's case at 100 sites; the others, whose ratio does not depend on the count, at 40.
              cases: [
                { latency: "100:800", from: "webhooks", to: "catalog" },
                { latency: "0", from: "webhooks", to: "catalog", sites: 40 },
                { latency: "100:800", to: "webhooks", sites: 40 },
              ],
            },
      )),
    ];
  });
  await step("7", "pulumi preview through the provider plugin vs the dynamic providers", () => pluginFigure({ repeats: quick ? 1 : 3 }));
  if (quick) {
    if (want("8"))
      rows.push({
        figure: "8",
        candidate: "pulumi up, 100-object catalog",
        reference: "100 no-op dynamic resources",
        value: "skipped (--quick)",
        spread: "",
        repeats: "0",
        target: "≤ 1.15×",
        met: undefined,
      });
  } else {
    await step("8", "the real CLI, a 100-object catalog vs 100 no-op resources", () => catalogCliFigure({ repeats: 3 }));
    // The size series: `--sizes 100,1000,5000` (default 100; 1,000 objects take about 25 minutes; above 1,000 the first
    // up skips its checkpoints, which would take hours: catalogSeries).
    const sizes = (process.argv.includes("--sizes") ? process.argv[process.argv.indexOf("--sizes") + 1] : "100").split(",").map(Number);
    await step("8", `the size series, N = ${sizes.join(", ")}: catalogs vs as many no-op resources, step by step`, async () => {
      const results: SeriesResult[] = [];
      for (const n of sizes) results.push(await catalogSeries(n, (l) => process.stderr.write(`${l}\n`)));
      series = `${seriesTable(results)}\n\nWhere the time went (CPU seconds by process):\n\n${attributionTable(results)}`;
      return seriesRows(results);
    });
  }
  await step("9", "the SDK creating 200 price points vs bare undici, 4 in flight", () =>
    pricePointsFigure({ repeats: quick ? 5 : 41, warmup: 5, latencyMs: 0 }),
  );
  await step("10", "the npm pack tarball's size", () => packSizeFigure());
  await step(
    "11",
    "billing-catalog export of a 5,000-object site vs a bare paginated undici read, at 5 and 25 ms per request",
    async () => [
      ...(await catalogExportFigure({ repeats: quick ? 2 : 9, warmup: 1, memoryRepeats: quick ? 1 : 3, latencyMs: 5 })),
      ...(await catalogExportFigure({ repeats: quick ? 1 : 5, warmup: quick ? 0 : 1, memoryRepeats: 1, latencyMs: 25 })),
    ],
  );
  await step("12", "bytes per object in the checkpoint, per kind, a 100-object catalog: dynamic providers and plugin", () =>
    stateSizeFigure(),
  );
  await step("13", "requests per object per kind: refresh and preview of a catalog of every kind, each read alone vs batched", () =>
    requestsPerObjectFigure(),
  );
  console.log(
    `\nNode ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, ${quick ? "--quick" : "full"} run, ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
  );
  console.log(table(rows));
  if (series) console.log(`\nFigure 8's size series, seconds and the ratio to the no-op resources:\n${series}`);
  if (breakdown) console.log(`\nFigure 6a, CPU per site by process:\n${breakdown}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
