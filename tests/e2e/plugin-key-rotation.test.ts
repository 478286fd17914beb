import assert from "node:assert/strict";
import { cp, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Simulator, startSimulator } from "../../simulator";
import { pluginStack } from "./plugin-support";
import { type ExampleStack, installedConsumer, mutations, ROOT } from "./support";

// A key rotated with `pulumi config set --secret billing:apiKey` on a stack that ran before, with the provider
// plugin and the real CLI. The engine configures the default provider of refresh, import and destroy with the
// inputs its state recorded at the last up (the old key); the plugin runs with the stack's configuration as the
// command holds it, so each command uses the key set last: shown against a site that accepts one key at a time.

const OLD_KEY = "sk_e2e_rotated_out_61c2";
const NEW_KEY = "sk_e2e_rotated_in_93d7";
const WRONG_KEY = "sk_e2e_never_valid_0b5e";
const DUNNING = "https://dunning.acme.example/billing";

describe("a key rotated on a stack that ran before, with the provider plugin (examples/plugin-typescript)", () => {
  let dataDir: string;
  let sim: Simulator;
  let s: ExampleStack;
  const text = (r: { stdout: string; stderr: string }) => r.stdout + r.stderr;
  const refused = () => sim.requests.filter((r) => r.status === 401).length;
  /** The site, restarted on the same port and data, now accepting `apiKey` only (the service's key rotation). */
  const siteAccepts = async (apiKey: string) => {
    const port = Number(new URL(sim.url).port);
    await sim.close();
    sim = await startSimulator({ apiKey, port, dataFile: path.join(dataDir, "site.json") });
  };

  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "billing-rotation-"));
    sim = await startSimulator({ apiKey: OLD_KEY, dataFile: path.join(dataDir, "site.json") });
    const c = await installedConsumer();
    await mkdir(c.example("plugin-rotation"), { recursive: true });
    for (const f of ["Pulumi.yaml", "index.ts"])
      await cp(path.join(ROOT, "examples/plugin-typescript", f), path.join(c.example("plugin-rotation"), f));
    s = await pluginStack("plugin-rotation", "rotation");
    await s.config("billing:baseUrl", sim.url);
    await s.config("billing:apiKey", OLD_KEY, true);
    await s.config("example:endpoints", JSON.stringify({ dunning: { url: DUNNING, events: ["payment_failure"] } }));
    await s.run(["up", "--yes", "--skip-preview"]);
  });

  after(async () => {
    const printed = s?.outputs.join("\n") ?? "";
    const state = s ? await s.exportState().catch(() => "") : "";
    await s?.dispose();
    await sim?.close();
    await rm(dataDir, { recursive: true, force: true });
    for (const key of [OLD_KEY, NEW_KEY, WRONG_KEY]) {
      assert.ok(!printed.includes(key), `a key (${key.slice(0, 10)}…) appeared in the CLI's output`);
      assert.ok(!state.includes(key), `a key (${key.slice(0, 10)}…) is in the stack's state`);
    }
  });

  it("refresh and import use the key set since the last up, with no up in between", async () => {
    await siteAccepts(NEW_KEY);
    await s.config("billing:apiKey", NEW_KEY, true);
    // A change made at the service, for refresh to read.
    const [held] = sim.endpoints();
    sim.updateEndpoint(held.id, { events: ["payment_failure", "payment_success"] });
    await s.run(["refresh", "--yes", "--skip-preview"]);
    assert.match(await s.exportState(), /"events": \[\s*"payment_failure",\s*"payment_success"\s*\]/);
    const made = sim.addEndpoint({ url: "https://crm.acme.example/hooks", events: ["customer_update"] });
    const res = await s.run(["import", "billing:index:WebhookEndpoint", "adopted", String(made.id), "--yes", "--protect=false"]);
    assert.match(res.stdout, /= +billing:index:WebhookEndpoint +adopted +imported/);
    assert.equal(refused(), 0, "a request was sent with the old key");
  });

  it("a wrong key fails refresh and import, each naming the refusal; nothing is changed", async () => {
    await s.config("billing:apiKey", WRONG_KEY, true);
    sim.reset();
    const refresh = await s.run(["refresh", "--yes", "--skip-preview"], { allowFailure: true });
    assert.notEqual(refresh.code, 0, `refresh succeeded with a wrong key:\n${text(refresh)}`);
    assert.match(text(refresh), /401/);
    const made = sim.addEndpoint({ url: "https://erp.acme.example/hooks", events: ["customer_update"] });
    const imp = await s.run(["import", "billing:index:WebhookEndpoint", "erp", String(made.id), "--yes"], { allowFailure: true });
    assert.notEqual(imp.code, 0, `import succeeded with a wrong key:\n${text(imp)}`);
    assert.match(text(imp), /401/);
    assert.ok(refused() >= 2, "the wrong key was not sent");
    assert.deepEqual(mutations(sim.requests), []);
  });

  it("with the right key again, up and destroy use it", async () => {
    await s.config("billing:apiKey", NEW_KEY, true);
    sim.reset();
    await s.config(
      "example:endpoints",
      JSON.stringify({
        dunning: { url: DUNNING, events: ["payment_failure"] },
        adopted: { url: "https://crm.acme.example/hooks", events: ["customer_update"] },
      }),
    );
    await s.run(["up", "--yes", "--skip-preview"]);
    await s.run(["destroy", "--yes", "--skip-preview"]);
    assert.equal(refused(), 0);
    for (const e of sim.endpoints().filter((e) => e.url !== "https://erp.acme.example/hooks"))
      assert.deepEqual(e.events, [], `endpoint ${e.id} still subscribed`);
  });
});
