import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createWorkspace, ensurePulumi } from "../scripts/lib/pulumi-cli";
import { pack } from "../scripts/plugin-pack";
import { type Simulator, startSimulator } from "../simulator";
import { catalogProgram } from "./catalog";
import { project } from "./cli";
import { groups, type Measured } from "./fleet-cost";
import { makeShims } from "./fleet-processes";
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

/** Seconds per step and variant, where the CPU went, and each variant's checkpoint after the first `up`. */
export interface SeriesResult {
  readonly objects: number;
  readonly seconds: Record<string, Record<Variant, number>>;
  /** CPU milliseconds by process group (figure 6a's groups), per step and variant. */
  readonly cpu: Record<string, Record<Variant, Measured>>;
  /**
   * What the first `up`'s checkpoint writes cost: the CLI's CPU milliseconds in it less the CLI's in the same first
   * `up` of a second stack with PULUMI_SKIP_CHECKPOINTS=true (not a setting to use: it measures the writes).
   */
  readonly checkpointMs?: Record<Variant, number>;
  readonly stateBytes: Record<Variant, number>;
}

/** The first `up`'s step name when its checkpoints are skipped (see {@link catalogSeries}'s `firstUpCheckpoints`). */
const FIRST_UP_UNSAVED = "first up, checkpoints skipped";

/** The CLI's own CPU in a step (the engine, the checkpoint, the secrets key): its row, the hosts taken out. */
const cliMs = (m: Measured) => Object.entries(m.byGroup).reduce((n, [g, ms]) => (g.startsWith("CLI: ") ? n + ms : n), 0);

/**
 * Figure 8's size series (issue 43): a catalog of `objects` (a family, a third of them products, two price
 * points each) through the dynamic providers and through the plugin, against as many no-op dynamic resources,
 * all three stacks stepped together through {@link STEPS} on one CLI and one file backend (the service is the
 * simulator, in this process). One run per size:
 * at 1,000 objects a first `up` takes minutes, and the variants alternate within each step instead.
 *
 * `firstUpCheckpoints: false` (the default above 1,000 objects) runs every stack's first `up` with PULUMI_SKIP_CHECKPOINTS=true and does not measure the
 * checkpoint apart: the file backend rewrites the whole state after each of a first `up`'s steps, so its cost grows
 * with the square of N (a no-op first `up` of 1,000 took 153 s, 138 of them the CLI), and at 5,000 one stack's would
 * take about an hour. The later steps write (almost) nothing and are measured as at any size.
 */
export async function catalogSeries(
  objects: number,
  log: (line: string) => void = () => {},
  o: { firstUpCheckpoints?: boolean } = {},
): Promise<SeriesResult> {
  const saved = o.firstUpCheckpoints ?? objects <= 1000;
  const products = Math.max(1, Math.round((objects - 1) / 3));
  const n = 1 + 3 * products;
  const binDir = await ensurePulumi({ quiet: true });
  const ws = await createWorkspace(binDir);
  const dataDir = await mkdtemp(path.join(tmpdir(), "billing-series-"));
  // Every process the CLI starts logs its CPU (figure 6a's shims): the attribution of each step.
  const shims = makeShims(dataDir, binDir);
  const env = { PATH: [shims.dir, ws.env.PATH].join(path.delimiter), NODE_OPTIONS: shims.nodeOptions };
  // In memory: a data file is rewritten whole at every change, which at 1,000 objects cost more CPU than the
  // provider and is no cost of the service's. The latency comes later on the same simulator (serveLike).
  const sim: Simulator = await startSimulator({ apiKey: KEY, logBodies: false, maxConcurrent: 1000 });
  const dirs: Record<Variant, string> = {
    noop: project(`series-noop-${n}`, noopProgram(n)),
    dynamic: project(`series-dynamic-${n}`, catalogProgram(products, "dynamic")),
    plugin: project(`series-plugin-${n}`, catalogProgram(products, "plugin")),
  };
  const stack = (v: Variant) => `${v}${n}`;
  const cli = (v: Variant, args: string[], extra: NodeJS.ProcessEnv = {}, name = stack(v)) =>
    ws.pulumi([...args, "--stack", name], { cwd: dirs[v], env: { ...env, ...extra } });
  const seconds: Record<string, Record<Variant, number>> = {};
  const cpu: Record<string, Record<Variant, Measured>> = {};
  const checkpointMs = saved ? ({} as Record<Variant, number>) : undefined;
  const stateBytes = {} as Record<Variant, number>;
  const init = async (v: Variant, name: string) => {
    await ws.pulumi(["stack", "init", name], { cwd: dirs[v] });
    if (v === "noop") return;
    await cli(v, ["config", "set", "billing:baseUrl", sim.url], {}, name);
    await cli(v, ["config", "set", "--secret", "billing:apiKey", KEY], {}, name);
  };
  try {
    await ws.pulumi(["plugin", "install", "resource", "billing", VERSION, "--file", pack()], { cwd: dirs.plugin });
    for (const v of VARIANTS) await init(v, stack(v));
    for (const [i, declared] of STEPS.entries()) {
      const first = i === 0;
      const step = first && !saved ? { ...declared, name: FIRST_UP_UNSAVED } : declared;
      const unsaved = first && !saved ? { PULUMI_SKIP_CHECKPOINTS: "true" } : {};
      if (step.latency) sim.serveLike({ latency: LATENCY, maxConcurrent: 4 });
      if (step.bump !== undefined) for (const v of VARIANTS) await cli(v, ["config", "set", "bump", String(step.bump)]);
      const order = VARIANTS.map((_, k) => VARIANTS[(k + i) % VARIANTS.length]);
      seconds[step.name] = {} as Record<Variant, number>;
      cpu[step.name] = {} as Record<Variant, Measured>;
      for (const v of order) {
        shims.take();
        const t = performance.now();
        await cli(v, step.args, unsaved);
        seconds[step.name][v] = (performance.now() - t) / 1000;
        cpu[step.name][v] = groups(shims.take(), 0, 1);
        log(`[series] N=${n} ${step.name} ${v}: ${seconds[step.name][v].toFixed(1)} s, ${fmtCpu(cpu[step.name][v])}`);
      }
      if (!first) continue;
      for (const v of VARIANTS) stateBytes[v] = Buffer.byteLength((await cli(v, ["stack", "export"])).stdout);
      // The same first up on a second stack of each (its own handles), its checkpoint writes skipped.
      for (const v of checkpointMs ? order : []) {
        const name = `${stack(v)}x`;
        await init(v, name);
        shims.take();
        await cli(v, step.args, { PULUMI_SKIP_CHECKPOINTS: "true" }, name);
        const ms = cliMs(cpu[step.name][v]) - cliMs(groups(shims.take(), 0, 1));
        (checkpointMs as Record<Variant, number>)[v] = ms;
        log(`[series] N=${n} first up's checkpoint writes, ${v}: ${(ms / 1000).toFixed(1)} s CPU`);
      }
    }
    return { objects: n, seconds, cpu, checkpointMs, stateBytes };
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
    for (const step of Object.keys(a.seconds).filter((k) => k in b.seconds)) {
      const [s, t] = [a.seconds[step], b.seconds[step]];
      lines.push(`| ${step} | ${x(t.noop, s.noop)} | ${x(t.dynamic, s.dynamic)} | ${x(t.plugin, s.plugin)} |`);
    }
  }
  return lines.join("\n");
}

/** The issue's targets as rows: a no-change `up` ≤ 1.2× the no-op at every size, a first `up` ≤ 1.3× and a preview with latency ≤ 1.5× at 1,000. */
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
const fmtCpu = (m: Measured) =>
  `CPU ${(m.total / 1000).toFixed(1)} s (${Object.entries(m.byGroup)
    .filter(([, ms]) => ms >= 50)
    .map(([g, ms]) => `${g} ${(ms / 1000).toFixed(1)}`)
    .join(", ")})`;

/**
 * Where each step's time went, as figure 6a has it: CPU seconds by process (the CLI's own row holds the engine and
 * its checkpoint writes, whose share in the first `up` is measured apart), per size, step and variant.
 */
export function attributionTable(results: readonly SeriesResult[]): string {
  const s = (ms: number) => (ms / 1000).toFixed(1);
  const lines = [
    "| N | step | variant | wall s | CPU s | CLI (engine) | of it, checkpoint | language host | program | provider host |",
    "|---|---|---|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const r of results)
    for (const [step, byVariant] of Object.entries(r.cpu))
      for (const v of VARIANTS) {
        const m = byVariant[v];
        const g = (name: string) => m.byGroup[name] ?? 0;
        const host = g("provider host (Node)") + g("dynamic-provider script's `node -e` (finds the host)");
        const ckpt = step === "first up" && r.checkpointMs ? s(r.checkpointMs[v]) : step === FIRST_UP_UNSAVED ? "skipped" : "";
        lines.push(
          `| ${r.objects} | ${step} | ${v} | ${r.seconds[step][v].toFixed(1)} | ${s(m.total)} | ${s(cliMs(m))} | ${ckpt} | ${s(g("language host (Go)"))} | ${s(g("program (Node)"))} | ${s(host)} |`,
        );
      }
  return lines.join("\n");
}

/** `ts-node bench/catalog-series.ts [N ...] [--first-up-without-checkpoints]` (default 100 1000): the series alone, its tables on stdout. */
if (require.main === module) {
  const args = process.argv.slice(2);
  const sizes = args.filter((a) => !a.startsWith("--")).map(Number);
  const firstUpCheckpoints = args.includes("--first-up-without-checkpoints") ? false : undefined;
  (async () => {
    const results: SeriesResult[] = [];
    for (const n of sizes.length ? sizes : [100, 1000])
      results.push(await catalogSeries(n, (l) => process.stderr.write(`${l}\n`), { firstUpCheckpoints }));
    console.log(seriesTable(results));
    console.log(`\n${attributionTable(results)}`);
  })().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
