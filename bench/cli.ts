import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createWorkspace, ensurePulumi, type Workspace } from "../scripts/lib/pulumi-cli";
import { startSimulator } from "../simulator";
import { interleave, median, type Row, ratioOf, time } from "./stats";

const ROOT = path.resolve(__dirname, "..");
const KEY = "bench_key";
const SITES = 50;

// Plain JS programs under .cache/bench: @pulumi/pulumi resolves from the repo's node_modules
// and the package requires itself by name (self-reference through its exports map).
const SITES_PROGRAM = `const { WebhookSettings } = require("pulumi-subscription-billing");
for (let i = 0; i < ${SITES}; i++) new WebhookSettings("site-" + i, { site: "site-" + i, webhooksEnabled: i % 2 === 0 });
`;
const NOOP_PROGRAM = `const pulumi = require("@pulumi/pulumi");
const provider = { async create(inputs) { return { id: "noop-" + inputs.n, outs: inputs }; } };
class Noop extends pulumi.dynamic.Resource { constructor(name, args) { super(provider, name, args); } }
for (let i = 0; i < ${SITES}; i++) new Noop("noop-" + i, { n: i, webhooksEnabled: i % 2 === 0 });
`;

function project(name: string, program: string): string {
  const dir = path.join(ROOT, ".cache/bench", name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "Pulumi.yaml"), `name: bench-${name}\nruntime: nodejs\nmain: index.js\n`);
  writeFileSync(path.join(dir, "index.js"), program);
  return dir;
}

/**
 * Figure 5: `pulumi preview` and `pulumi up` of 50 sites' WebhookSettings vs 50
 * no-op dynamic resources, same engine, interleaved, each repetition on fresh
 * stacks (and destroyed after).
 */
export async function cliFigure(o: { repeats: number }): Promise<Row[]> {
  const bin = await ensurePulumi({ quiet: true });
  const sim = await startSimulator({ apiKey: KEY, logBodies: false, maxConcurrent: 1000 });
  const sitesDir = project("sites", SITES_PROGRAM);
  const noopDir = project("noop", NOOP_PROGRAM);
  const sites = JSON.stringify(
    Object.fromEntries(Array.from({ length: SITES }, (_, i) => [`site-${i}`, { baseUrl: sim.url, apiKey: KEY }])),
  );
  const ws: Workspace = await createWorkspace(bin);
  let n = 0;
  const stack = async (dir: string, config: [string, string][]) => {
    const name = `s${n++}`;
    await ws.pulumi(["stack", "init", name], { cwd: dir });
    for (const [k, v] of config) await ws.pulumi(["config", "set", "--secret", k, v, "--stack", name], { cwd: dir });
    return name;
  };
  const run = (dir: string, name: string, args: string[]) => () => time(() => ws.pulumi([...args, "--stack", name], { cwd: dir }));
  try {
    const previews = { candidate: [] as number[], reference: [] as number[] };
    const ups = { candidate: [] as number[], reference: [] as number[] };
    for (let i = 0; i < o.repeats + 1; i++) {
      const a = await stack(sitesDir, [["billing:sites", sites]]);
      const b = await stack(noopDir, []);
      const p = await interleave(1, 0, run(sitesDir, a, ["preview"]), run(noopDir, b, ["preview"]));
      const u = await interleave(
        1,
        0,
        run(sitesDir, a, ["up", "--yes", "--skip-preview"]),
        run(noopDir, b, ["up", "--yes", "--skip-preview"]),
      );
      if (i > 0) {
        // The first repetition warms the file cache and the TypeScript-free program load.
        previews.candidate.push(...p.candidate);
        previews.reference.push(...p.reference);
        ups.candidate.push(...u.candidate);
        ups.reference.push(...u.reference);
      }
      for (const [dir, s] of [
        [sitesDir, a],
        [noopDir, b],
      ]) {
        await ws.pulumi(["destroy", "--yes", "--skip-preview", "--stack", s], { cwd: dir });
        await ws.pulumi(["stack", "rm", "--yes", s], { cwd: dir });
      }
    }
    const pr = ratioOf(previews);
    const ur = ratioOf(ups);
    // Medians, as the ratio is a ratio of medians.
    const fmt = (xs: number[]) => `${(median(xs) / 1000).toFixed(1)} s`;
    return [
      {
        figure: "5",
        candidate: `pulumi preview, ${SITES} WebhookSettings (${fmt(previews.candidate)})`,
        reference: `${SITES} no-op dynamic resources (${fmt(previews.reference)})`,
        value: `${pr.ratio.toFixed(2)}×`,
        spread: pr.spread,
        repeats: String(pr.n),
        target: "≤ 1.3×",
        met: pr.ratio <= 1.3,
      },
      {
        figure: "5",
        candidate: `pulumi up, ${SITES} WebhookSettings (${fmt(ups.candidate)})`,
        reference: `${SITES} no-op dynamic resources (${fmt(ups.reference)})`,
        value: `${ur.ratio.toFixed(2)}×`,
        spread: ur.spread,
        repeats: String(ur.n),
        target: "≤ 1.3×",
        met: ur.ratio <= 1.3,
      },
    ];
  } finally {
    await ws.dispose();
    await sim.close();
  }
}
