import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import path from "node:path";
import { parseFleet } from "../fleet/fleet-file";
import { runFleet } from "../fleet/runner";
import { createWorkspace, ensurePulumi } from "../scripts/lib/pulumi-cli";
import { startSites } from "./fleet-cost";
import type { Row } from "./stats";

const ROOT = path.resolve(__dirname, "..");
const KEY = "bench_fleet_key";
const DIR = path.join(ROOT, ".cache/bench/fleet");

/**
 * The two sites of figure 6b: the smallest (as figure 6a's), and one with its catalog, as a production site has;
 * through the provider plugin, the fleet's default (figure 6a measured it cheaper).
 */
export const SITE_PROGRAMS = {
  webhooks: `exports.program = () => {
  const billing = require("pulumi-subscription-billing/billing");
  new billing.WebhookSettings("webhooks", { webhooksEnabled: true });
  new billing.WebhookEndpoint("dunning", { url: "https://hooks.example.com/dunning", events: ["payment_failure"] });
};
`,
  catalog: `exports.program = () => {
  const billing = require("pulumi-subscription-billing/billing");
  new billing.WebhookSettings("webhooks", { webhooksEnabled: true });
  new billing.WebhookEndpoint("dunning", { url: "https://hooks.example.com/dunning", events: ["payment_failure"] });
  const family = new billing.ProductFamily("plans", { handle: "plans", name: "Plans" });
  for (const [handle, price] of [["basic", 900], ["pro", 2900], ["team", 9900]]) {
    const product = new billing.Product(handle, { productFamily: family.familyId, handle, name: handle, priceInCents: price, interval: 1, intervalUnit: "month" });
    for (const [suffix, months] of [["quarterly", 3], ["annual", 12]])
      new billing.ProductPricePoint(handle + "-" + suffix, { product: product.productId, handle: handle + "-" + suffix, name: handle + " " + suffix, priceInCents: price * months, interval: months, intervalUnit: "month" });
  }
};
`,
} as const;

/** CPU milliseconds of this process and its reaped children (the CLI and, through it, its plugins), from /proc. */
function cpuMs(): number {
  const own = process.cpuUsage();
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]?.split(" ") ?? [];
  // After the ") ", field 3 of proc(5) is index 0: cutime and cstime (fields 16, 17) are indexes 13, 14, in clock ticks (100/s).
  const children = (Number(fields[13]) + Number(fields[14])) * 10;
  return (own.user + own.system) / 1000 + (Number.isFinite(children) ? children : 0);
}

/** One case of figure 6b: the program `to` run on every site, after `from` made each site's stack (unmeasured), or on fresh sites. */
export interface FleetCase {
  /** "0", or MEDIAN:P99 in ms. */
  readonly latency: string;
  readonly from?: keyof typeof SITE_PROGRAMS;
  readonly to: keyof typeof SITE_PROGRAMS;
  /** Sites of this case (default: the figure's). */
  readonly sites?: number;
}

/**
 * Figure 6b: `billing-fleet up` of N sites at concurrency 8 against one at a time, each site its own
 * simulator (4 requests in flight, as the service allows) in a child process, with no answer latency
 * and with a production-like one (median, p99). A case either bootstraps fresh sites, or rolls a
 * change out to sites whose stacks exist (made by an unmeasured up of `from`): a fleet's usual run.
 */
export async function fleetFigure(o: { sites: number; cases: readonly FleetCase[] }): Promise<Row[]> {
  const bin = await ensurePulumi({ quiet: true });
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  for (const [name, text] of Object.entries(SITE_PROGRAMS)) writeFileSync(path.join(DIR, `${name}.js`), text);
  // The offline CLI environment the tests and the demo use (its own PULUMI_HOME, passphrase, no BILLING_* variables).
  const ws = await createWorkspace(bin);
  const saved = process.env;
  process.env = { ...ws.env, BENCH_FLEET_KEY: KEY };
  const rows: Row[] = [];
  const s = (ms: number) => `${(ms / 1000).toFixed(0)} s`;
  let n = 0;
  try {
    // Fresh sites and stacks for every run: a site that already holds the catalog would be adopted, not created.
    const up = async (c: FleetCase, concurrency: number) => {
      const { urls, child } = await startSites(c.sites ?? o.sites, KEY, c.latency);
      try {
        const prefix = `run${n++}-c${concurrency}`;
        const stateDir = path.join(DIR, `.fleet-${prefix}`);
        const backend = path.join(DIR, `state-${prefix}`);
        mkdirSync(backend, { recursive: true });
        const fleetOf = (program: string) =>
          parseFleet(
            JSON.stringify({
              program: `./${program}.js`,
              backend: `file://${backend}`,
              secrets: { "billing:apiKey": "BENCH_FLEET_KEY" },
              sites: urls.map((url, i) => ({ name: `${prefix}-${i}`, config: { "billing:baseUrl": url } })),
            }),
            path.join(DIR, `${prefix}-${program}.yaml`),
          );
        const run = async (program: string, c8: number) => {
          const r = await runFleet(await fleetOf(program), { operation: "up", concurrency: c8, display: "none", stateDir });
          const failed = r.sites.filter((x) => x.result !== "succeeded");
          if (failed.length) throw new Error(`fleet benchmark: ${failed.length} of ${urls.length} sites failed: ${failed[0]?.error}`);
        };
        if (c.from) await run(c.from, 8);
        const cpu = cpuMs();
        const t = performance.now();
        await run(c.to, concurrency);
        return { ms: performance.now() - t, cpuPerSite: (cpuMs() - cpu) / urls.length };
      } finally {
        child.kill();
      }
    };
    // Warm the file cache, the compile cache and the CLI, unrecorded.
    await up({ latency: "0", to: "catalog", sites: 8 }, 2);
    for (const c of o.cases) {
      const one = await up(c, 1);
      const eight = await up(c, 8);
      const speedup = one.ms / eight.ms;
      const cpu = (one.cpuPerSite + eight.cpuPerSite) / 2;
      // The cores bound what concurrency can gain on CPU work: one at a time takes `one.ms`, all of it needs cpu × sites / cores.
      const sites = c.sites ?? o.sites;
      const bound = one.ms / ((cpu * sites) / cpus().length);
      const waits = c.latency === "0" ? "no latency" : `answers after ${c.latency.replace(":", " ms median, p99 ")} ms`;
      const what = c.from ? `${sites} sites' stacks rolled from the ${c.from} program to the ${c.to} one` : `${sites} fresh ${c.to} sites`;
      rows.push({
        figure: "6b",
        candidate: `billing-fleet up, ${what}, ${waits}, concurrency 8 (${s(eight.ms)})`,
        reference: `one at a time (${s(one.ms)})`,
        value: `${speedup.toFixed(2)}× faster`,
        spread: `CPU ${(cpu / 1000).toFixed(1)} s per site; ${cpus().length} cores bound it at ${bound.toFixed(1)}×`,
        repeats: "1",
        target: c.latency === "0" ? "(the cores' bound)" : "≥ 5× faster",
        met: c.latency === "0" ? undefined : speedup >= 5,
      });
    }
    return rows;
  } finally {
    process.env = saved;
    await ws.dispose();
  }
}

/** `ts-node bench/fleet.ts [sites] [cases, e.g. 100/800:webhooks>catalog,0:webhooks>catalog@40,100/800:webhooks@40]`: figure 6b on its own. */
if (require.main === module) {
  const [sites = "100", cases = "100/800:webhooks>catalog,0:webhooks>catalog@40,100/800:webhooks@40"] = process.argv.slice(2);
  fleetFigure({
    sites: Number(sites),
    cases: cases.split(",").map((c) => {
      const [spec, count] = c.split("@");
      const [latency, programs] = spec.split(":");
      const [from, to] = programs.includes(">") ? programs.split(">") : [undefined, programs];
      return { latency: latency.replace("/", ":"), from, to, ...(count ? { sites: Number(count) } : {}) } as FleetCase;
    }),
  })
    .then((rows) => {
      for (const r of rows)
        console.log(`| ${r.figure} | ${r.candidate} | ${r.reference} | ${r.value} | ${r.spread} | ${r.repeats} | ${r.target} | ${r.met} |`);
    })
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}
