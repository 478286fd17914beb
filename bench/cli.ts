import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createWorkspace, ensurePulumi } from "../scripts/lib/pulumi-cli";
import { startSimulator } from "../simulator";
import { median, type Pair, type Row, ratioOf, time } from "./stats";

const ROOT = path.resolve(__dirname, "..");
const KEY = "bench_key";
const SITES = 50;

// Plain JS programs under .cache/bench: @pulumi/pulumi resolves from the repo's node_modules
// and the package requires itself by name (self-reference through its exports map).
const SITES_PROGRAM = `const { WebhookSettings } = require("pulumi-subscription-billing");
for (let i = 0; i < ${SITES}; i++) new WebhookSettings("site-" + i, { site: "site-" + i, webhooksEnabled: i % 2 === 0 });
`;

/** `count` no-op dynamic resources: a create that returns at once, the reference of the CLI figures. */
export const noopProgram = (count: number) => `const pulumi = require("@pulumi/pulumi");
const provider = { async create(inputs) { return { id: "noop-" + inputs.n, outs: inputs }; } };
class Noop extends pulumi.dynamic.Resource { constructor(name, args) { super(provider, name, args); } }
for (let i = 0; i < ${count}; i++) new Noop("noop-" + i, { n: i, webhooksEnabled: i % 2 === 0 });
`;

/** A project of one plain JS program under .cache/bench/<name>. */
export function project(name: string, program: string): string {
  const dir = path.join(ROOT, ".cache/bench", name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "Pulumi.yaml"), `name: bench-${name}\nruntime: nodejs\nmain: index.js\n`);
  writeFileSync(path.join(dir, "index.js"), program);
  return dir;
}

/** One side of a CLI comparison: its project and the stack config each fresh stack gets (`secret` by default). */
export interface CliSide {
  readonly dir: string;
  readonly config?: readonly { key: string; value: string; secret?: boolean }[];
  /** Environment of its commands (e.g. PULUMI_SKIP_CHECKPOINTS, to attribute a difference). */
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * The real CLI, side by side: each repetition makes a fresh stack of each side, runs `commands` in
 * order, candidate and reference alternating who goes first from one repetition to the next, then destroys and
 * removes both stacks. One extra first repetition is discarded: it warms the file cache and the
 * program load. One {@link Pair} per command. Stack names (s0, s1, …) are unique within the run, so
 * a program may make its handles from `pulumi.getStack()`.
 */
export async function cliSideBySide(o: {
  candidate: CliSide;
  reference: CliSide;
  commands: readonly string[][];
  repeats: number;
  /** Resource plugins installed from their tarballs into the run's PULUMI_HOME before the first repetition, outside the timing. */
  plugins?: readonly { name: string; version: string; tarball: string }[];
}): Promise<Pair[]> {
  const ws = await createWorkspace(await ensurePulumi({ quiet: true }));
  let n = 0;
  const stack = async (side: CliSide) => {
    const name = `s${n++}`;
    await ws.pulumi(["stack", "init", name], { cwd: side.dir });
    for (const c of side.config ?? [])
      await ws.pulumi(["config", "set", ...(c.secret === false ? [] : ["--secret"]), c.key, c.value, "--stack", name], { cwd: side.dir });
    return name;
  };
  const run = (side: CliSide, name: string, args: string[]) => () =>
    time(() => ws.pulumi([...args, "--stack", name], { cwd: side.dir, env: side.env }));
  const pairs: Pair[] = o.commands.map(() => ({ candidate: [], reference: [] }));
  try {
    for (const p of o.plugins ?? [])
      await ws.pulumi(["plugin", "install", "resource", p.name, p.version, "--file", p.tarball], { cwd: o.candidate.dir });
    for (let i = 0; i < o.repeats + 1; i++) {
      const a = await stack(o.candidate);
      const b = await stack(o.reference);
      for (const [k, args] of o.commands.entries()) {
        // Who goes first alternates from one repetition to the next.
        const first = i % 2 === 1;
        const c = first ? await run(o.candidate, a, args)() : 0;
        const r = await run(o.reference, b, args)();
        const c2 = first ? c : await run(o.candidate, a, args)();
        if (i === 0) continue;
        pairs[k].candidate.push(c2);
        pairs[k].reference.push(r);
      }
      for (const [side, s] of [
        [o.candidate, a],
        [o.reference, b],
      ] as const) {
        await ws.pulumi(["destroy", "--yes", "--skip-preview", "--stack", s], { cwd: side.dir, env: side.env });
        await ws.pulumi(["stack", "rm", "--yes", s], { cwd: side.dir });
      }
    }
    return pairs;
  } finally {
    await ws.dispose();
  }
}

/** A row of a CLI comparison: median times in the labels, the ratio of medians against a `≤ target×`. */
export function cliRow(figure: string, candidate: string, reference: string, pair: Pair, target: number): Row {
  const r = ratioOf(pair);
  const s = (xs: number[]) => `${(median(xs) / 1000).toFixed(1)} s`;
  return {
    figure,
    candidate: `${candidate} (${s(pair.candidate)})`,
    reference: `${reference} (${s(pair.reference)})`,
    value: `${r.ratio.toFixed(2)}×`,
    spread: r.spread,
    repeats: String(r.n),
    target: `≤ ${target}×`,
    met: r.ratio <= target,
  };
}

/**
 * Figure 5: `pulumi preview` and `pulumi up` of 50 sites' WebhookSettings vs 50
 * no-op dynamic resources, same engine, interleaved, each repetition on fresh
 * stacks (and destroyed after).
 */
export async function cliFigure(o: { repeats: number }): Promise<Row[]> {
  const sim = await startSimulator({ apiKey: KEY, logBodies: false, maxConcurrent: 1000 });
  const sites = JSON.stringify(
    Object.fromEntries(Array.from({ length: SITES }, (_, i) => [`site-${i}`, { baseUrl: sim.url, apiKey: KEY }])),
  );
  try {
    const [previews, ups] = await cliSideBySide({
      candidate: { dir: project("sites", SITES_PROGRAM), config: [{ key: "billing:sites", value: sites }] },
      reference: { dir: project("noop", noopProgram(SITES)) },
      commands: [["preview"], ["up", "--yes", "--skip-preview"]],
      repeats: o.repeats,
    });
    return [
      cliRow("5", `pulumi preview, ${SITES} WebhookSettings`, `${SITES} no-op dynamic resources`, previews, 1.3),
      cliRow("5", `pulumi up, ${SITES} WebhookSettings`, `${SITES} no-op dynamic resources`, ups, 1.3),
    ];
  } finally {
    await sim.close();
  }
}
