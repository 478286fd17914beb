import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createWorkspace, ensurePulumi } from "../scripts/lib/pulumi-cli";
import { pack } from "../scripts/plugin-pack";
import { type Simulator, startSimulator } from "../simulator";
import { catalogProgram } from "./catalog";
import { project } from "./cli";
import type { Row } from "./stats";

const KEY = "bench_series_key";
const VERSION: string = require("../package.json").version;
/** The service's answers as figure 6b has them: log-normal, 100 ms median, 800 ms p99, seeded. */
const LATENCY = { medianMs: 100, p99Ms: 800, seed: 43 };

/**
 * `count` no-op dynamic resources that also update in place: the reference of the size series. Its `bump` config
 * changes one resource's input, as the catalog's changes one price.
 */
const noopProgram = (count: number) => `const pulumi = require("@pulumi/pulumi");
const bump = Number(new pulumi.Config().get("bump") ?? 0);
const provider = {
  async create(inputs) { return { id: "noop-" + inputs.n, outs: inputs }; },
  async update(_id, _olds, news) { return { outs: news }; },
};
class Noop extends pulumi.dynamic.Resource { constructor(name, args) { super(provider, name, args); } }
for (let i = 0; i < ${count}; i++) new Noop("noop-" + i, { n: i, price: 1000 + i + (i === 0 ? bump : 0) });
`;

type Variant = "noop" | "dynamic" | "plugin";
const VARIANTS: readonly Variant[] = ["noop", "dynamic", "plugin"];

/** One step of the series, run on each variant's stack in turn (who goes first rotates from step to step). */
interface Step {
  readonly name: string;
  readonly args: string[];
  /** Set before the step on every stack (the one-price change). */
  readonly bump?: number;
  /** The simulator answers with {@link LATENCY} and admits 4 at a time (the service's cap) from this step on. */
  readonly latency?: boolean;
}

const UP = ["up", "--yes", "--skip-preview"];
const STEPS: readonly Step[] = [
  { name: "first up", args: UP },
  { name: "preview, no change", args: ["preview"] },
  { name: "up, no change", args: UP },
  { name: "preview, one price changed", args: ["preview"], bump: 1 },
  { name: "up, one price changed", args: UP },
  { name: "preview, no change, 100 ms latency", args: ["preview"], latency: true },
  { name: "refresh, 100 ms latency", args: ["refresh", "--yes", "--skip-preview"] },
];

/** Seconds per step and variant, and each variant's checkpoint after the first `up`. */
export interface SeriesResult {
  readonly objects: number;
  readonly seconds: Record<string, Record<Variant, number>>;
  readonly stateBytes: Record<Variant, number>;
}

/**
 * Figure 8's size series (issue 43): a catalog of `objects` (a family, a third of them products, two price
 * points each) through the dynamic providers and through the plugin, against as many no-op dynamic resources,
 * all three stacks stepped together through {@link STEPS} on one CLI and one file backend (the service is the
 * simulator, with its data in a file so that it can come back with latency on the same port). One run per size:
 * at 1,000 objects a first `up` takes minutes, and the variants alternate within each step instead.
 */
export async function catalogSeries(objects: number, log: (line: string) => void = () => {}): Promise<SeriesResult> {
  const products = Math.max(1, Math.round((objects - 1) / 3));
  const n = 1 + 3 * products;
  const ws = await createWorkspace(await ensurePulumi({ quiet: true }));
  const dataDir = await mkdtemp(path.join(tmpdir(), "billing-series-"));
  const dataFile = path.join(dataDir, "site.json");
  let sim: Simulator = await startSimulator({ apiKey: KEY, logBodies: false, maxConcurrent: 1000, dataFile });
  const port = Number(new URL(sim.url).port);
  const dirs: Record<Variant, string> = {
    noop: project(`series-noop-${n}`, noopProgram(n)),
    dynamic: project(`series-dynamic-${n}`, catalogProgram(products, "dynamic")),
    plugin: project(`series-plugin-${n}`, catalogProgram(products, "plugin")),
  };
  const stack = (v: Variant) => `${v}${n}`;
  const cli = (v: Variant, args: string[]) => ws.pulumi([...args, "--stack", stack(v)], { cwd: dirs[v] });
  const seconds: Record<string, Record<Variant, number>> = {};
  const stateBytes = {} as Record<Variant, number>;
  try {
    await ws.pulumi(["plugin", "install", "resource", "billing", VERSION, "--file", pack()], { cwd: dirs.plugin });
    for (const v of VARIANTS) {
      await ws.pulumi(["stack", "init", stack(v)], { cwd: dirs[v] });
      if (v === "noop") continue;
      await cli(v, ["config", "set", "billing:baseUrl", sim.url]);
      await cli(v, ["config", "set", "--secret", "billing:apiKey", KEY]);
    }
    for (const [i, step] of STEPS.entries()) {
      if (step.latency) {
        await sim.close();
        sim = await startSimulator({ apiKey: KEY, logBodies: false, port, dataFile, latency: LATENCY });
      }
      if (step.bump !== undefined) for (const v of VARIANTS) await cli(v, ["config", "set", "bump", String(step.bump)]);
      const order = VARIANTS.map((_, k) => VARIANTS[(k + i) % VARIANTS.length]);
      seconds[step.name] = {} as Record<Variant, number>;
      for (const v of order) {
        const t = performance.now();
        await cli(v, step.args);
        seconds[step.name][v] = (performance.now() - t) / 1000;
        log(`[series] N=${n} ${step.name} ${v}: ${seconds[step.name][v].toFixed(1)} s`);
      }
      if (i === 0) for (const v of VARIANTS) stateBytes[v] = Buffer.byteLength((await cli(v, ["stack", "export"])).stdout);
    }
    return { objects: n, seconds, stateBytes };
  } finally {
    await sim.close();
    await ws.dispose();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The series as Markdown: per size and step, seconds and the ratio to the no-op resources; then growth factors. */
export function seriesTable(results: readonly SeriesResult[]): string {
  const x = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
  const lines = [
    "| N | step | no-op | dynamic | plugin |",
    "|---|---|---|---|---|",
    ...results.flatMap((r) => [
      ...Object.entries(r.seconds).map(
        ([step, s]) =>
          `| ${r.objects} | ${step} | ${s.noop.toFixed(1)} s | ${s.dynamic.toFixed(1)} s (${x(s.dynamic, s.noop)}) | ${s.plugin.toFixed(1)} s (${x(s.plugin, s.noop)}) |`,
      ),
      `| ${r.objects} | state after the first up | ${mb(r.stateBytes.noop)} | ${mb(r.stateBytes.dynamic)} | ${mb(r.stateBytes.plugin)} |`,
    ]),
  ];
  for (const [a, b] of results.slice(1).map((r, k) => [results[k], r] as const)) {
    lines.push("", `Growth from N = ${a.objects} to ${b.objects} (${x(b.objects, a.objects)} the objects; linear is that factor):`, "");
    lines.push("| step | no-op | dynamic | plugin |", "|---|---|---|---|");
    for (const step of Object.keys(a.seconds)) {
      const [s, t] = [a.seconds[step], b.seconds[step]];
      lines.push(`| ${step} | ${x(t.noop, s.noop)} | ${x(t.dynamic, s.dynamic)} | ${x(t.plugin, s.plugin)} |`);
    }
  }
  return lines.join("\n");
}

/** The targets as rows: a no-change `up` ≤ 1.2× the no-op at every size, a first `up` ≤ 1.3× and a preview with latency ≤ 1.5× at 1,000. */
export function seriesRows(results: readonly SeriesResult[]): Row[] {
  const rows: Row[] = [];
  const row = (r: SeriesResult, step: string, v: "dynamic" | "plugin", target: number): Row => {
    const s = r.seconds[step];
    const ratio = s[v] / s.noop;
    return {
      figure: "8",
      candidate: `${step}, ${r.objects}-object catalog, ${v === "plugin" ? "provider plugin" : "dynamic providers"} (${s[v].toFixed(1)} s)`,
      reference: `${r.objects} no-op dynamic resources (${s.noop.toFixed(1)} s)`,
      value: `${ratio.toFixed(2)}×`,
      spread: "",
      repeats: "1",
      target: `≤ ${target}×`,
      met: ratio <= target,
    };
  };
  for (const r of results)
    for (const v of ["dynamic", "plugin"] as const) {
      rows.push(row(r, "up, no change", v, 1.2));
      if (r.objects >= 1000) rows.push(row(r, "first up", v, 1.3), row(r, "preview, no change, 100 ms latency", v, 1.5));
    }
  return rows;
}

const mb = (b: number) => `${(b / 1e6).toFixed(2)} MB`;

/** `ts-node bench/catalog-series.ts [N ...]` (default 100 1000): the series alone, its table on stdout. */
if (require.main === module) {
  const sizes = process.argv.slice(2).map(Number);
  (async () => {
    const results: SeriesResult[] = [];
    for (const n of sizes.length ? sizes : [100, 1000]) results.push(await catalogSeries(n, (l) => process.stderr.write(`${l}\n`)));
    console.log(seriesTable(results));
  })().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
