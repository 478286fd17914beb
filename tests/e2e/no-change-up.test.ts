import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { KINDS } from "../../provider";
import { DEMO_SITE, type Simulator, startSimulator } from "../../simulator";
import { launchPro, textMessages } from "../example-prerequisites";
import { pluginStack } from "./plugin-support";
import { ExampleStack, installedConsumer, mutations } from "./support";

/** Every kind's declared example, through the dynamic classes or the plugin's generated SDK (the same inputs). */
const program = (module: string) => `import * as pulumi from "@pulumi/pulumi";
import { KINDS } from "pulumi-subscription-billing";
const billing = require("${module}") as Record<string, new (name: string, args: unknown) => pulumi.CustomResource>;
for (const { kind } of Object.values(KINDS)) new billing[kind.type](kind.key, kind.example);
`;

/** What the engine writes to the checkpoint for resources a step left as they were (its own log, at -v=9). */
function checkpointWrites(log: string): string[] {
  const lines = log.split("\n");
  const writes: string[] = [];
  let resource = "";
  for (const line of lines) {
    const step = /Beginning mutation for step `[a-z]+` on resource `([^`]+)`/.exec(line);
    if (step) resource = step[1];
    const why = /SnapshotManager: mustWrite\(\) true because of ([A-Za-z]+)/.exec(line);
    if (why) writes.push(`${resource.split("::").slice(-2).join("::")}: ${why[1]}`);
  }
  return writes;
}

/** The stored resources by URN, without the engine's own provider resources (it encrypts their secret config afresh on every run). */
function ours(exported: string): Map<string, Record<string, unknown>> {
  const doc = JSON.parse(exported) as { deployment: { resources: (Record<string, unknown> & { urn: string; type: string })[] } };
  return new Map(doc.deployment.resources.filter((r) => !r.type.startsWith("pulumi:providers:")).map((r) => [r.urn, r]));
}

/** `urn field` of every stored field that differs. */
function changed(before: Map<string, Record<string, unknown>>, after: Map<string, Record<string, unknown>>): string[] {
  const out: string[] = [];
  for (const urn of new Set([...before.keys(), ...after.keys()])) {
    const a = before.get(urn) ?? {};
    const b = after.get(urn) ?? {};
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)]))
      if (JSON.stringify(a[k]) !== JSON.stringify(b[k]))
        out.push(`${urn.split("::").slice(-1)[0]} ${k}: ${JSON.stringify(a[k])?.slice(0, 300)} → ${JSON.stringify(b[k])?.slice(0, 300)}`);
  }
  return out;
}

// Issue 43: a no-change `up` rewrote the checkpoint once per resource (check added ids to the inputs, and what
// preview found differed between the first deploy and later runs), quadratic in a large catalog. Every kind, dynamic and
// plugin: after the first `up`, two no-change `up`s make the engine write nothing for any resource, send nothing that
// changes the service, and leave every resource's stored state as it was.
for (const variant of [
  { name: "dynamic", module: "pulumi-subscription-billing" },
  { name: "plugin", module: "pulumi-subscription-billing/billing" },
] as const) {
  describe(`a no-change up of every kind (${variant.name}, the real CLI)`, () => {
    let sim: Simulator;
    let s: ExampleStack;

    before(async () => {
      const c = await installedConsumer();
      const name = `no-change-${variant.name}`;
      const dir = c.example(name);
      await mkdir(dir, { recursive: true });
      await writeFile(
        path.join(dir, "Pulumi.yaml"),
        `name: no-change-${variant.name}\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n`,
      );
      await writeFile(path.join(dir, "index.ts"), program(variant.module));
      sim = await startSimulator({ seed: "demo" });
      // What the examples refer to beyond the demo seed (tests/example-prerequisites.ts), each once.
      launchPro(sim);
      textMessages(sim);
      sim.addCoupon({ familyHandle: "plans", code: "SPRING25", name: "Spring", percentage: 25 });
      s = variant.name === "plugin" ? await pluginStack(name, "dev") : await ExampleStack.create(c, name, "dev");
      await s.config("billing:baseUrl", sim.url);
      await s.config("billing:apiKey", DEMO_SITE.apiKey, true);
    });

    after(async () => {
      await s?.run(["destroy", "--yes", "--skip-preview"], { allowFailure: true });
      await s?.dispose();
      await sim?.close();
    });

    it("the first up creates every kind; each later no-change up writes no checkpoint and changes no stored state", async () => {
      const first = await s.run(["up", "--yes", "--skip-preview"]);
      assert.match(first.stdout, new RegExp(`${Object.keys(KINDS).length + 1} created`), first.stdout);
      let before = ours(await s.exportState());
      // A pricing change the first up's preview announced (an adoption that changes a price) was applied by it: the next
      // check no longer announces it (the policy pack and the review read it), which is that resource's one write.
      const announced = [...before.values()]
        .filter((r) => (r.inputs as { preview?: { pricingChange?: unknown } } | undefined)?.preview?.pricingChange !== undefined)
        .map((r) => `${String(r.urn).split("::").slice(-2).join("::")}: Inputs`);
      sim.reset();
      for (const round of [1, 2]) {
        const up = await s.run(["up", "--yes", "--skip-preview", "--logtostderr", "-v=9"]);
        assert.match(up.stdout, new RegExp(`${Object.keys(KINDS).length + 1} unchanged`), `round ${round}: ${up.stdout}`);
        const after = ours(await s.exportState());
        const expected = round === 1 ? announced : [];
        assert.deepEqual(
          checkpointWrites(up.stderr).sort(),
          [...expected].sort(),
          `round ${round}: the engine wrote the checkpoint for these`,
        );
        const fields = changed(before, after).map((line) => line.split(":")[0]);
        assert.deepEqual(
          fields.sort(),
          expected.map((w) => `${w.split("::")[1].split(":")[0]} inputs`).sort(),
          `round ${round}: stored state changed`,
        );
        before = after;
      }
      assert.deepEqual(mutations(sim.requests), []);
    });
  });
}
