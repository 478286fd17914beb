import { createWorkspace, ensurePulumi } from "../scripts/lib/pulumi-cli";
import { pack } from "../scripts/plugin-pack";
import { startSimulator } from "../simulator";
import { CATALOG_PROGRAM, PLUGIN_CATALOG_PROGRAM } from "./catalog";
import { project } from "./cli";
import type { Row } from "./stats";

const KEY = "bench_state_key";
const VERSION: string = require("../package.json").version;

/** One resource of `pulumi stack export`: what the checkpoint stores of it. */
interface Exported {
  readonly type: string;
  readonly inputs?: Record<string, unknown>;
  readonly outputs?: Record<string, unknown>;
}

/** Bytes per object of one kind in the checkpoint: its inputs, its outputs, and `__provider`'s part of both. */
export interface KindBytes {
  readonly objects: number;
  readonly inputs: number;
  readonly outputs: number;
  readonly provider: number;
}

const bytes = (v: unknown) => (v === undefined ? 0 : Buffer.byteLength(JSON.stringify(v)));

/** Per kind (the type's last segment), the mean bytes per object of a stack export's resources of this package. */
export function bytesPerObject(resources: readonly Exported[]): Record<string, KindBytes> {
  const sums: Record<string, { objects: number; inputs: number; outputs: number; provider: number }> = {};
  for (const r of resources) {
    if (!/(^|\/)billing:/.test(r.type) || r.type.startsWith("pulumi:providers:")) continue;
    const kind = r.type.split(":").pop() as string;
    sums[kind] ??= { objects: 0, inputs: 0, outputs: 0, provider: 0 };
    const s = sums[kind];
    s.objects++;
    s.inputs += bytes(r.inputs);
    s.outputs += bytes(r.outputs);
    s.provider += bytes(r.inputs?.__provider) + bytes(r.outputs?.__provider);
  }
  return Object.fromEntries(
    Object.entries(sums).map(([k, s]) => [
      k,
      {
        objects: s.objects,
        inputs: Math.round(s.inputs / s.objects),
        outputs: Math.round(s.outputs / s.objects),
        provider: Math.round(s.provider / s.objects),
      },
    ]),
  );
}

/** `pulumi up` of `program` on a fresh stack against a fresh simulator, then its `pulumi stack export`'s resources. */
export async function exported(name: string, program: string, plugin?: string): Promise<Exported[]> {
  const sim = await startSimulator({ apiKey: KEY, logBodies: false, maxConcurrent: 1000 });
  const ws = await createWorkspace(await ensurePulumi({ quiet: true }));
  const cwd = project(name, program);
  try {
    if (plugin) await ws.pulumi(["plugin", "install", "resource", "billing", VERSION, "--file", plugin], { cwd });
    await ws.pulumi(["stack", "init", "s0"], { cwd });
    await ws.pulumi(["config", "set", "billing:baseUrl", sim.url], { cwd });
    await ws.pulumi(["config", "set", "--secret", "billing:apiKey", KEY], { cwd });
    await ws.pulumi(["up", "--yes", "--skip-preview"], { cwd });
    const { stdout } = await ws.pulumi(["stack", "export"], { cwd });
    const resources = (JSON.parse(stdout) as { deployment: { resources: Exported[] } }).deployment.resources;
    if (stdout.includes(KEY)) throw new Error(`the stack export of ${name} holds the API key`);
    await ws.pulumi(["destroy", "--yes", "--skip-preview"], { cwd });
    return resources;
  } finally {
    await ws.dispose();
    await sim.close();
  }
}

/**
 * Figure 12: what each object of the 100-object catalog of figure 8 adds to every checkpoint write,
 * per kind, in `pulumi stack export` (bytes of its inputs and outputs as JSON, and `__provider`'s part
 * of them), through the dynamic providers and through the provider plugin. Sizes, not times: one run each.
 */
export async function stateSizeFigure(): Promise<Row[]> {
  const dynamic = bytesPerObject(await exported("state-dynamic", CATALOG_PROGRAM));
  const plugin = bytesPerObject(await exported("state-plugin", PLUGIN_CATALOG_PROGRAM, pack()));
  return Object.entries(dynamic).map(([kind, d]) => {
    const p = plugin[kind];
    const total = d.inputs + d.outputs;
    return {
      figure: "12",
      candidate: `state per ${kind} (${d.objects} in the catalog), dynamic: ${d.inputs} B inputs + ${d.outputs} B outputs, __provider ${d.provider} B of it`,
      reference: p ? `plugin: ${p.inputs} B inputs + ${p.outputs} B outputs` : "–",
      value: `${total} B` + (p ? `, ${(total / (p.inputs + p.outputs)).toFixed(2)}× the plugin's` : ""),
      spread: "",
      repeats: "1",
      target: "–",
      met: undefined,
    };
  });
}
