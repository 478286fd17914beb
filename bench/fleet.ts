import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import path from "node:path";
import { parseFleet } from "../fleet/fleet-file";
import { runFleet } from "../fleet/runner";
import { createWorkspace, ensurePulumi } from "../scripts/lib/pulumi-cli";
import { startSimulator } from "../simulator";
import { median, type Row, time } from "./stats";

const ROOT = path.resolve(__dirname, "..");
const KEY = "bench_fleet_key";
const DIR = path.join(ROOT, ".cache/bench/fleet");

// A site's program as both runners take it: an inline module for the fleet, a project for `pulumi up`.
const SITE_MODULE = `exports.program = () => {
  const { WebhookSettings } = require("pulumi-subscription-billing");
  const s = new WebhookSettings("webhooks", { webhooksEnabled: true });
  return { webhooksEnabled: s.webhooksEnabled };
};
`;

/** CPU milliseconds of this process and its reaped children (the CLI and, through it, its plugins), from /proc. */
function cpuMs(): number {
  const own = process.cpuUsage();
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]?.split(" ") ?? [];
  // After the ") ", field 3 of proc(5) is index 0: cutime and cstime (fields 16, 17) are indexes 13, 14, in clock ticks (100/s).
  const children = (Number(fields[13]) + Number(fields[14])) * 10;
  return (own.user + own.system) / 1000 + (Number.isFinite(children) ? children : 0);
}

/**
 * Figure 6: the fleet runner. `up` of N fresh sites at concurrency 8 against one at a time
 * (the same runner, fleet files alike but for stack names); and the runner's time per site
 * one at a time against a single `pulumi up` of one site's project through the CLI.
 */
export async function fleetFigure(o: { sites: number; singles: number }): Promise<Row[]> {
  const bin = await ensurePulumi({ quiet: true });
  const ws = await createWorkspace(bin);
  const sim = await startSimulator({ apiKey: KEY, logBodies: false, maxConcurrent: 1000 });
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(path.join(DIR, "project"), { recursive: true });
  writeFileSync(path.join(DIR, "site.js"), SITE_MODULE);
  writeFileSync(path.join(DIR, "project/Pulumi.yaml"), "name: bench-site\nruntime: nodejs\nmain: index.js\n");
  writeFileSync(path.join(DIR, "project/index.js"), 'module.exports = require("../site.js").program();\n');
  const saved = { ...process.env };
  Object.assign(process.env, ws.env, { BENCH_FLEET_KEY: KEY });
  const fleetOf = (prefix: string) =>
    parseFleet(
      JSON.stringify({
        program: "./site.js",
        config: { "billing:baseUrl": sim.url },
        secrets: { "billing:apiKey": "BENCH_FLEET_KEY" },
        sites: Array.from({ length: o.sites }, (_, i) => ({ name: `${prefix}-${i}` })),
      }),
      path.join(DIR, `${prefix}.yaml`),
    );
  try {
    let cpuPerSite = 0;
    const up = async (prefix: string, concurrency: number) => {
      const fleet = await fleetOf(prefix);
      let failed = 0;
      const cpu = cpuMs();
      const ms = await time(async () => {
        const r = await runFleet(fleet, { operation: "up", concurrency, display: "none" });
        failed = r.sites.filter((s) => s.result !== "succeeded").length;
      });
      if (failed) throw new Error(`fleet benchmark: ${failed} of ${o.sites} sites failed (see ${DIR}/.billing-fleet/logs)`);
      cpuPerSite = (cpuMs() - cpu) / o.sites;
      return ms;
    };
    // Warm the file cache and the CLI once, unrecorded.
    await runFleet(await fleetOf("warm").then((f) => ({ ...f, sites: f.sites.slice(0, 2) })), { operation: "up", display: "none" });
    const sequential = await up("one", 1);
    const parallel = await up("eight", 8);
    // A site's up is CPU work (CLI, engine, plugin host): the machine's cores bound what concurrency can gain.
    const bound = sequential / ((cpuPerSite * o.sites) / cpus().length);
    const project = path.join(DIR, "project");
    const singles: number[] = [];
    for (let i = 0; i < o.singles; i++) {
      const stack = `single-${i}`;
      await ws.pulumi(["stack", "init", stack], { cwd: project });
      await ws.pulumi(["config", "set", "billing:baseUrl", sim.url, "--stack", stack], { cwd: project });
      await ws.pulumi(["config", "set", "--secret", "billing:apiKey", KEY, "--stack", stack], { cwd: project });
      singles.push(await time(() => ws.pulumi(["up", "--yes", "--skip-preview", "--stack", stack], { cwd: project })));
    }
    const perSite = sequential / o.sites;
    const speedup = sequential / parallel;
    const single = median(singles);
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    return [
      {
        figure: "6",
        candidate: `billing-fleet up, ${o.sites} sites, concurrency 8 (${s(parallel)})`,
        reference: `the same, one at a time (${s(sequential)})`,
        value: `${speedup.toFixed(2)}× faster`,
        spread: `CPU ${(cpuPerSite / 1000).toFixed(1)} s per site; ${cpus().length} cores bound it at ${bound.toFixed(1)}×`,
        repeats: "1",
        target: "≥ 5× faster",
        met: speedup >= 5,
      },
      {
        figure: "6",
        candidate: `billing-fleet up, time per site one at a time (${s(perSite)})`,
        reference: `pulumi up of one site's project (${s(single)})`,
        value: `${(perSite / single).toFixed(2)}×`,
        spread: `${(Math.min(...singles) / 1000).toFixed(1)}–${(Math.max(...singles) / 1000).toFixed(1)} s (reference)`,
        repeats: `${o.sites} / ${o.singles}`,
        target: "≤ 1.2×",
        met: perSite / single <= 1.2,
      },
    ];
  } finally {
    process.env = saved;
    await sim.close();
    await ws.dispose();
  }
}
