import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { pack } from "../scripts/plugin-pack";
import { startSimulator } from "../simulator";
import { ExampleStack, installedConsumer } from "../tests/e2e/support";
import { interleave, median, type Row, ratioOf } from "./stats";

const N = 50;
const KEY = "sk_bench_plugin";
const PLUGIN = `import * as pulumi from "@pulumi/pulumi";
for (let i = 0; i < ${N}; i++) new pulumi.CustomResource("billing:index:WebhookEndpoint", "e" + i, { url: "https://hooks.example.com/h" + i, events: ["payment_failure"], endpointId: undefined });
`;
const DYNAMIC = `import { WebhookEndpoint } from "pulumi-subscription-billing";
for (let i = 0; i < ${N}; i++) new WebhookEndpoint("e" + i, { url: "https://hooks.example.com/h" + i, events: ["payment_failure"] });
`;

/**
 * Figure 7: `pulumi preview` of 50 WebhookEndpoints through the provider plugin (installed from
 * its tarball) against the same 50 through the dynamic providers, the package installed from
 * its tarball for both; interleaved, after one unrecorded preview each.
 */
export async function pluginFigure(o: { repeats: number }): Promise<Row[]> {
  const c = await installedConsumer();
  const tarball = pack();
  const sim = await startSimulator({ apiKey: KEY, logBodies: false, maxConcurrent: 1000 });
  const stacks: ExampleStack[] = [];
  try {
    const stackOf = async (name: string, program: string) => {
      await mkdir(c.example(name), { recursive: true });
      await writeFile(
        path.join(c.example(name), "Pulumi.yaml"),
        `name: ${name}\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n`,
      );
      await writeFile(path.join(c.example(name), "index.ts"), program);
      const s = await ExampleStack.create(c, name, "b");
      stacks.push(s);
      // The installed plugin, not one on PATH.
      s.ws.env.PATH = (s.ws.env.PATH ?? "")
        .split(path.delimiter)
        .filter((d) => !existsSync(path.join(d, "pulumi-resource-billing")))
        .join(path.delimiter);
      await s.config("billing:baseUrl", sim.url);
      await s.config("billing:apiKey", KEY, true);
      return s;
    };
    const plugin = await stackOf("bench-plugin", PLUGIN);
    await plugin.ws.pulumi(["plugin", "install", "resource", "billing", "0.1.0", "--file", tarball], { cwd: plugin.cwd });
    const dynamic = await stackOf("bench-dynamic", DYNAMIC);
    const preview = (s: ExampleStack) => async () => {
      const t = performance.now();
      await s.run(["preview"]);
      return performance.now() - t;
    };
    const p = await interleave(o.repeats, 1, preview(plugin), preview(dynamic));
    const r = ratioOf(p);
    const s = (xs: number[]) => `${(median(xs) / 1000).toFixed(1)} s`;
    return [
      {
        figure: "7",
        candidate: `pulumi preview, ${N} WebhookEndpoints through the plugin (${s(p.candidate)})`,
        reference: `the same through the dynamic providers (${s(p.reference)})`,
        value: `${r.ratio.toFixed(2)}×`,
        spread: r.spread,
        repeats: String(r.n),
        target: "≤ 1× (not slower)",
        met: r.ratio <= 1,
      },
    ];
  } finally {
    for (const st of stacks) await st.dispose();
    await sim.close();
  }
}
