/**
 * Figure 6a: a fleet's CPU per site, by process, against the bare CLI running the same program.
 *
 * The same two-resource site program (WebhookSettings and a WebhookEndpoint) runs two ways on one
 * simulator per site (each in one child process, 4 requests in flight, as the service allows):
 * `billing-fleet` (runFleet in this process, an inline program, one site at a time) and the bare CLI
 * on a directory project (`pulumi stack init`, `config set`, `up`, `preview`). Rounds alternate the
 * two; each round uses fresh stacks. Every process the CLI starts is logged with its CPU (see
 * fleet-processes.ts); the runner's own CPU is this process's.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { parseFleet } from "../fleet/fleet-file";
import type { Operation } from "../fleet/report";
import { runFleet } from "../fleet/runner";
import { createWorkspace, ensurePulumi } from "../scripts/lib/pulumi-cli";
import { keyDerivationMs, makeShims, type ProcessCpu } from "./fleet-processes";
import { median, type Row } from "./stats";

const ROOT = path.resolve(__dirname, "..");
const DIR = path.join(ROOT, ".cache/bench/fleet-cost");
const KEY = "bench_fleet_cost_key";

const program = (module: string) => `exports.program = () => {
  const billing = require(${JSON.stringify(module)});
  const settings = new billing.WebhookSettings("webhooks", { webhooksEnabled: true });
  const endpoint = new billing.WebhookEndpoint("dunning", { url: "https://hooks.example.com/dunning", events: ["payment_failure"] });
  return { webhooksEnabled: settings.webhooksEnabled, endpointId: endpoint.endpointId };
};
`;

/** The sites' simulators, in a child process. */
export async function startSites(count: number, key: string, latency = "0"): Promise<{ urls: string[]; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    ["-r", "ts-node/register/transpile-only", path.join(__dirname, "fleet-sites.ts"), String(count), key, latency],
    {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const urls = await new Promise<string[]>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (d) => {
      out += d;
      if (out.includes("\n")) resolve(JSON.parse(out.split("\n")[0]) as string[]);
    });
    child.once("exit", (code) => reject(new Error(`fleet-sites exited ${code}`)));
  });
  return { urls, child };
}

/** CPU milliseconds of this process (the runner, with its inline programs). */
const ownCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** One measured step: CPU per site by process group, and the state file's bytes per site. */
export interface Measured {
  readonly byGroup: Record<string, number>;
  readonly total: number;
  readonly cliRuns: number;
}

/**
 * Sorts the logged processes into groups. A CLI row is its process's subtree: the language host (its own
 * shim) and the provider hosts with the plugin script's `node -e` (each Node process's own CPU, from the
 * preload) ran under the main operation's CLI, so they are taken out of its row. The program's Node
 * process (bare runs) is not in the language host's subtree: it is counted apart.
 */
export function groups(procs: ProcessCpu[], runnerMs: number, sites: number): Measured {
  const sum = (f: (p: ProcessCpu) => boolean) => procs.filter(f).reduce((n, p) => n + p.cpuMs, 0);
  const node = (role: string) => sum((p) => p.kind === "node" && p.what === role);
  const cli = procs.filter((p) => p.kind === "cli");
  const byCommand: Record<string, number> = {};
  for (const p of cli) byCommand[`CLI: ${p.what}`] = (byCommand[`CLI: ${p.what}`] ?? 0) + p.cpuMs;
  const language = sum((p) => p.kind === "language");
  const hosts = node("dynamic-provider host") + node("plugin host");
  const resolveMs = node("node -e");
  const main = Object.keys(byCommand).find((k) => /^CLI: (up|preview|destroy|refresh)$/.test(k));
  if (main) byCommand[main] -= language + hosts + resolveMs;
  const byGroup: Record<string, number> = {
    ...(runnerMs > 0 ? { "billing-fleet process (inline program, Automation API)": runnerMs } : {}),
    ...byCommand,
    ...(language > 0 ? { "language host (Go)": language, "program (Node)": node("program") } : {}),
    "provider host (Node)": hosts,
    ...(resolveMs > 0 ? { "dynamic-provider script's `node -e` (finds the host)": resolveMs } : {}),
  };
  const per = Object.fromEntries(Object.entries(byGroup).map(([k, v]) => [k, v / sites]));
  const total = Object.values(per).reduce((a, b) => a + b, 0);
  return { byGroup: per, total, cliRuns: cli.filter((p) => p.what !== "version").length / sites };
}

/** The file backend's checkpoint bytes per stack. */
function stateBytes(backendDir: string): number {
  const stacks = path.join(backendDir, ".pulumi/stacks");
  const files: number[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".json")) files.push(statSync(p).size);
    }
  };
  walk(stacks);
  return median(files);
}

type Step = "first up" | "up, stack exists" | "no-change up" | "preview";

interface Variant {
  readonly name: string;
  /** Each step's CPU per site, one entry per round. */
  readonly steps: Map<Step, Measured[]>;
  stateBytes: number[];
}

const variant = (name: string): Variant => ({ name, steps: new Map(), stateBytes: [] });
const push = (v: Variant, s: Step, m: Measured) => v.steps.set(s, [...(v.steps.get(s) ?? []), m]);

export async function fleetCostFigure(o: { sites: number; rounds: number }): Promise<{ rows: Row[]; breakdown: string }> {
  const binDir = await ensurePulumi({ quiet: true });
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  const shims = makeShims(DIR, binDir);
  const kdf = keyDerivationMs(path.join(ROOT, ".cache/bench"));
  const { urls, child } = await startSites(o.sites, KEY);
  writeFileSync(path.join(DIR, "dynamic.js"), program("pulumi-subscription-billing"));
  writeFileSync(path.join(DIR, "plugin.js"), program("pulumi-subscription-billing/billing"));
  // The bare CLI runs the same programs as projects; the plugin one names the same launcher billing-fleet writes.
  const launcher = path.join(DIR, "plugin-launcher");
  mkdirSync(launcher, { recursive: true });
  writeFileSync(
    path.join(launcher, "pulumi-resource-billing"),
    `#!/bin/sh\nexec "${process.execPath}" "${path.join(ROOT, "dist/plugin/bin.js")}" "$@"\n`,
    {
      mode: 0o755,
    },
  );
  for (const module of ["dynamic", "plugin"] as const) {
    mkdirSync(path.join(DIR, `project-${module}`), { recursive: true });
    const plugins = module === "plugin" ? `plugins:\n  providers:\n    - name: billing\n      path: ${launcher}\n` : "";
    writeFileSync(path.join(DIR, `project-${module}/Pulumi.yaml`), `name: bench-site\nruntime: nodejs\nmain: index.js\n${plugins}`);
    writeFileSync(path.join(DIR, `project-${module}/index.js`), `module.exports = require("../${module}.js").program();\n`);
  }

  // The offline CLI environment the tests and the demo use, with the shims first on PATH and the preload in every Node child.
  const ws = await createWorkspace(binDir);
  const saved = process.env;
  process.env = {
    ...ws.env,
    PATH: [shims.dir, ws.env.PATH].join(path.delimiter),
    NODE_OPTIONS: shims.nodeOptions,
    BENCH_FLEET_COST_KEY: KEY,
  };

  const v = {
    plugin: variant("billing-fleet, the default (provider plugin, compile cache)"),
    dynamic: variant("billing-fleet, dynamic providers"),
    uncached: variant("billing-fleet, without the compile cache"),
    unsaved: variant("billing-fleet with PULUMI_SKIP_CHECKPOINTS=true (not a setting to use: it measures the checkpoints)"),
    barePlugin: variant("bare CLI on a directory project, the same program (provider plugin)"),
    bareDynamic: variant("bare CLI on a directory project, the same program (dynamic providers)"),
  };

  const fleetCycle = async (into: Variant, round: number, module: "dynamic" | "plugin", env: NodeJS.ProcessEnv = {}) => {
    const prefix = `${into === v.plugin || into === v.dynamic ? module : Object.keys(env).join("-").toLowerCase() || "warm"}-r${round}`;
    const backend = path.join(DIR, `state-${prefix}`);
    mkdirSync(backend, { recursive: true });
    const fleet = await parseFleet(
      JSON.stringify({
        program: `./${module}.js`,
        backend: `file://${backend}`,
        config: {},
        secrets: { "billing:apiKey": "BENCH_FLEET_COST_KEY" },
        sites: urls.map((url, i) => ({ name: `${prefix}-s${i}`, config: { "billing:baseUrl": url } })),
      }),
      path.join(DIR, `${prefix}.yaml`),
    );
    const stateDir = path.join(DIR, `.fleet-${prefix}`);
    Object.assign(process.env, env);
    const run = async (operation: Operation): Promise<Measured> => {
      shims.take();
      const before = ownCpuMs();
      const r = await runFleet(fleet, { operation, concurrency: 1, display: "none", stateDir });
      const runner = ownCpuMs() - before;
      const failed = r.sites.filter((s) => s.result === "failed");
      if (failed.length)
        throw new Error(`fleet ${operation}: ${failed.map((s) => `${s.name}: ${s.error}`).join("; ")} (logs in ${stateDir})`);
      return groups(shims.take(), runner, o.sites);
    };
    try {
      push(into, "first up", await run("up"));
      push(into, "no-change up", await run("up"));
      into.stateBytes.push(stateBytes(backend));
      push(into, "preview", await run("preview"));
      await run("destroy");
      push(into, "up, stack exists", await run("up"));
    } finally {
      for (const k of Object.keys(env)) delete process.env[k];
    }
  };

  const bareCycle = async (into: Variant, round: number, module: "dynamic" | "plugin") => {
    const backend = path.join(DIR, `state-bare-${module}-r${round}`);
    mkdirSync(backend, { recursive: true });
    const env = { PULUMI_BACKEND_URL: `file://${backend}` };
    const cwd = path.join(DIR, `project-${module}`);
    const cli = (args: string[]) =>
      promisify(execFile)("pulumi", [...args, "--non-interactive"], { cwd, env: { ...process.env, ...env }, maxBuffer: 1 << 26 });
    const stacks = urls.map((_, i) => `bare-${module}-r${round}-s${i}`);
    const each = async (f: (stack: string, i: number) => Promise<unknown>): Promise<Measured> => {
      shims.take();
      for (const [i, s] of stacks.entries()) await f(s, i);
      return groups(shims.take(), 0, o.sites);
    };
    push(
      into,
      "first up",
      await each(async (s, i) => {
        await cli(["stack", "init", s]);
        await cli(["config", "set", "billing:baseUrl", urls[i], "--stack", s]);
        await cli(["config", "set", "--secret", "billing:apiKey", KEY, "--stack", s]);
        await cli(["up", "--yes", "--skip-preview", "--stack", s]);
      }),
    );
    push(into, "no-change up", await each((s) => cli(["up", "--yes", "--skip-preview", "--stack", s])));
    into.stateBytes.push(stateBytes(backend));
    push(into, "preview", await each((s) => cli(["preview", "--stack", s])));
    await each((s) => cli(["destroy", "--yes", "--skip-preview", "--stack", s]));
    push(into, "up, stack exists", await each((s) => cli(["up", "--yes", "--skip-preview", "--stack", s])));
  };

  try {
    // One unrecorded cycle of each program: the file cache, the compile cache and the CLI's first start.
    await fleetCycle(variant("warm"), 0, "dynamic");
    await fleetCycle(variant("warm"), 0, "plugin");
    await bareCycle(variant("warm"), 0, "plugin");
    for (let r = 1; r <= o.rounds; r++) {
      const order = r % 2 ? ["fleet", "bare"] : ["bare", "fleet"];
      for (const side of order) {
        if (side === "bare") {
          await bareCycle(v.barePlugin, r, "plugin");
          await bareCycle(v.bareDynamic, r, "dynamic");
        } else {
          await fleetCycle(v.plugin, r, "plugin");
          await fleetCycle(v.dynamic, r, "dynamic");
          await fleetCycle(v.uncached, r, "plugin", { NODE_DISABLE_COMPILE_CACHE: "1" });
          await fleetCycle(v.unsaved, r, "plugin", { PULUMI_SKIP_CHECKPOINTS: "true" });
        }
      }
    }
  } finally {
    process.env = saved;
    child.kill();
    await ws.dispose();
  }
  return {
    rows: rowsOf(v, o),
    breakdown: breakdownOf([v.plugin, v.barePlugin, v.dynamic, v.bareDynamic], kdf, v.unsaved),
  };
}

/** The median of a step's per-site totals over the rounds, and that of one group. */
const totalOf = (v: Variant, s: Step) => median((v.steps.get(s) ?? []).map((m) => m.total));
const groupOf = (v: Variant, s: Step, g: string) => median((v.steps.get(s) ?? []).map((m) => m.byGroup[g] ?? 0));
const ratioRow = (candidate: string, a: number, reference: string, b: number, target: number, repeats: string): Row => ({
  figure: "6a",
  candidate: `${candidate} (${(a / 1000).toFixed(2)} s CPU per site)`,
  reference: `${reference} (${(b / 1000).toFixed(2)} s)`,
  value: `${(a / b).toFixed(2)}×`,
  spread: "",
  repeats,
  target: `≤ ${target}×`,
  met: a / b <= target,
});

function rowsOf(
  v: Record<"plugin" | "dynamic" | "uncached" | "unsaved" | "barePlugin" | "bareDynamic", Variant>,
  o: { sites: number; rounds: number },
): Row[] {
  const repeats = `${o.rounds} × ${o.sites}`;
  const kb = (x: Variant) => `${(median(x.stateBytes) / 1024).toFixed(1)} KB of state per site`;
  const info = (row: Row): Row => ({ ...row, target: "the cheaper is the default", met: undefined });
  return [
    ratioRow(
      "billing-fleet up, stack exists",
      totalOf(v.plugin, "up, stack exists"),
      "pulumi up of the same program",
      totalOf(v.barePlugin, "up, stack exists"),
      1.1,
      repeats,
    ),
    ratioRow(
      "billing-fleet up, nothing changed",
      totalOf(v.plugin, "no-change up"),
      "pulumi preview of the same program",
      totalOf(v.barePlugin, "preview"),
      1.1,
      repeats,
    ),
    info({
      ...ratioRow(
        "billing-fleet up, stack exists, provider plugin (the default)",
        totalOf(v.plugin, "up, stack exists"),
        "dynamic providers",
        totalOf(v.dynamic, "up, stack exists"),
        1,
        repeats,
      ),
      spread: `${kb(v.plugin)} against ${kb(v.dynamic)}; preview ${(totalOf(v.plugin, "preview") / totalOf(v.dynamic, "preview")).toFixed(2)}×`,
    }),
    info(
      ratioRow(
        "billing-fleet up, stack exists, with Node's compile cache (the default)",
        totalOf(v.plugin, "up, stack exists"),
        "without it",
        totalOf(v.uncached, "up, stack exists"),
        1,
        repeats,
      ),
    ),
  ];
}

/** The README's table: CPU per site by process, for each step, fleet and bare side by side. */
function breakdownOf(variants: Variant[], kdf: number, unsaved: Variant): string {
  const steps: Step[] = ["first up", "up, stack exists", "no-change up", "preview"];
  const out: string[] = [];
  for (const v of variants) {
    const names = [...new Set(steps.flatMap((s) => (v.steps.get(s) ?? []).flatMap((m) => Object.keys(m.byGroup))))];
    out.push(`\n**${v.name}**: CPU ms per site (median of rounds)\n`);
    out.push(`| process | ${steps.join(" | ")} |`);
    out.push(`|---|${steps.map(() => "---:").join("|")}|`);
    for (const g of names) out.push(`| ${g} | ${steps.map((s) => groupOf(v, s, g).toFixed(0)).join(" | ")} |`);
    out.push(`| **total** | ${steps.map((s) => `**${totalOf(v, s).toFixed(0)}**`).join(" | ")} |`);
    out.push(`| CLI runs per site | ${steps.map((s) => median((v.steps.get(s) ?? []).map((m) => m.cliRuns)).toFixed(0)).join(" | ")} |`);
    out.push(`\nState per site after the first up: ${(median(v.stateBytes) / 1024).toFixed(1)} KB.`);
  }
  const saved = (s: Step) => (totalOf(variants[0], s) - totalOf(unsaved, s)).toFixed(0);
  out.push(
    `\nOf these, the secrets key derivation: ${kdf.toFixed(0)} ms in every CLI run (one PBKDF2-SHA256 of 1,000,000 rounds, measured in Go); ` +
      `checkpoint writes (the default's total less the same with PULUMI_SKIP_CHECKPOINTS=true): ${steps.map((s) => `${s} ${saved(s)} ms`).join(", ")}.`,
  );
  return out.join("\n");
}

/** `ts-node bench/fleet-cost.ts [sites] [rounds]`: figure 6a on its own. */
if (require.main === module) {
  const [sites = "4", rounds = "3"] = process.argv.slice(2);
  fleetCostFigure({ sites: Number(sites), rounds: Number(rounds) })
    .then(({ rows, breakdown }) => {
      console.log(breakdown);
      for (const r of rows)
        console.log(`| ${r.figure} | ${r.candidate} | ${r.reference} | ${r.value} | ${r.spread} | ${r.repeats} | ${r.target} | ${r.met} |`);
    })
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}
