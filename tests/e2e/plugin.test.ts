import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cp, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { packageSchema } from "../../plugin/schema";
import { KINDS } from "../../provider/kinds";
import type { Simulator } from "../../simulator";
import { disposeChecked, KEY, planOf, printedCode, simulatedPluginStack, VERSION } from "./plugin-support";
import { type ExampleStack, installedConsumer, mutations, ROOT } from "./support";

// The provider plugin with the real CLI: installed from the tarball `npm run plugin:pack` makes into
// the workspace's PULUMI_HOME, then examples/plugin-typescript (resources by token, no dynamic
// provider) through preview, up, a second up, refresh, import of an endpoint made elsewhere, destroy.

const DUNNING = "https://dunning.acme.example/billing";
const ADOPTED = "https://crm.acme.example/billing-hooks";

/** A schema without its empty lists and objects. */
function compact(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(compact);
  if (v === null || typeof v !== "object") return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    const c = compact(x);
    if (!(c !== null && typeof c === "object" && Object.keys(c).length === 0)) out[k] = c;
  }
  return out;
}

describe("the provider plugin with the real CLI (examples/plugin-typescript)", () => {
  let sim: Simulator;
  let s: ExampleStack;
  const sent = () => mutations(sim.requests).map((r) => `${r.method} ${r.path}`);
  const text = (r: { stdout: string; stderr: string }) => r.stdout + r.stderr;
  const cli = (args: string[]) => s.ws.pulumi(args, { cwd: s.cwd });
  const setEndpoints = (e: Record<string, { url: string; events: string[] }>) => s.config("example:endpoints", JSON.stringify(e));
  const planned = async () => planOf((await s.run(["preview", "--json"])).stdout);

  before(async () => {
    const c = await installedConsumer();
    await mkdir(c.example("plugin-typescript"), { recursive: true });
    for (const f of ["Pulumi.yaml", "index.ts"])
      await cp(path.join(ROOT, "examples/plugin-typescript", f), path.join(c.example("plugin-typescript"), f));
    ({ s, sim } = await simulatedPluginStack("plugin-typescript", "plugin"));
    await setEndpoints({ dunning: { url: DUNNING, events: ["subscription_state_change", "payment_failure"] } });
  });

  after(() => disposeChecked(s, sim));

  it("pulumi package get-schema prints the schema generated from the kind declarations", async () => {
    const res = await cli(["package", "get-schema", "billing"]);
    const expected = packageSchema(
      Object.values(KINDS).map((m) => m.kind),
      VERSION,
    );
    // The CLI prints the schema re-encoded, without empty lists and objects.
    assert.deepEqual(compact(JSON.parse(res.stdout)), compact(expected));
  });

  it("preview plans the settings and the endpoint through the plugin and sends nothing", async () => {
    const res = await s.run(["preview"]);
    assert.match(res.stdout, /\+ +billing:index:WebhookSettings +webhooks +create/);
    assert.match(res.stdout, /\+ +billing:index:WebhookEndpoint +dunning +create/);
    assert.deepEqual(sent(), []);
  });

  it("up creates them; a second up changes nothing; state holds no credential", async () => {
    const res = await s.run(["up", "--yes", "--skip-preview"]);
    assert.match(res.stdout, /WebhookEndpoint +dunning +created/);
    assert.deepEqual(sent().sort(), ["POST /endpoints.json", "PUT /webhooks/settings.json"]);
    const out = await s.stackOutputs();
    const id = (out.endpoints as Record<string, { id: number }>).dunning.id;
    assert.deepEqual(out, {
      webhooksEnabled: true,
      endpoints: { dunning: { id, url: DUNNING, events: ["payment_failure", "subscription_state_change"] } },
    });
    sim.reset();
    const again = await s.run(["up", "--yes", "--skip-preview"]);
    assert.match(again.stdout, /unchanged/);
    assert.doesNotMatch(again.stdout, /created|updated|replaced|deleted/);
    assert.deepEqual(sent(), []);
    const state = await s.exportState();
    assert.ok(!state.includes(KEY), "the API key is in the stack's state");
    assert.ok(!state.includes("__provider"), "a plugin's resources carry no serialized provider");
  });

  it("refresh reads the endpoint: a change made at the service shows, and up puts the declaration back", async () => {
    const [held] = sim.endpoints();
    sim.updateEndpoint(held.id, { events: ["payment_failure"] });
    sim.reset();
    await s.run(["refresh", "--yes", "--skip-preview"]);
    assert.deepEqual(sent(), []);
    assert.match(await s.exportState(), /"events": \[\s*"payment_failure"\s*\]/);
    assert.deepEqual(await planned(), { steps: ["update dunning"], changes: ["update"] });
    await s.run(["up", "--yes", "--skip-preview"]);
    assert.deepEqual(sent(), [`PUT /endpoints/${held.id}.json`]);
  });

  it("a request the service refuses with a 429: the wait shows in the CLI under the resource, and the update goes on", async () => {
    const [held] = sim.endpoints();
    sim.reset();
    sim.injectFault({ kind: "status", status: 429, retryAfter: 1, times: 1, match: { method: "PUT", path: `/endpoints/${held.id}.json` } });
    await setEndpoints({ dunning: { url: DUNNING, events: ["payment_failure"] } });
    const res = await s.run(["up", "--yes", "--skip-preview"]);
    // Through the engine's log, as the plugin's other notices: the CLI hides a resource plugin's stderr.
    assert.match(
      text(res),
      new RegExp(
        `billing:index:WebhookEndpoint \\(dunning\\):\\s+billing: PUT /endpoints/${held.id}\\.json: 429 rate limited \\(Retry-After: 1\\); waiting 1\\.0 s before attempt 2`,
      ),
    );
    assert.deepEqual(sent(), [`PUT /endpoints/${held.id}.json`, `PUT /endpoints/${held.id}.json`]);
    assert.deepEqual(sim.endpoints().find((e) => e.id === held.id)?.events, ["payment_failure"]);
    // Back as the program declared it before, for the tests after this one.
    await setEndpoints({ dunning: { url: DUNNING, events: ["subscription_state_change", "payment_failure"] } });
    await s.run(["up", "--yes", "--skip-preview"]);
  });

  it("pulumi import adopts an endpoint made elsewhere, sending nothing; declared, it has no diff", async () => {
    const made = sim.addEndpoint({ url: ADOPTED, events: ["payment_success", "customer_update"] });
    sim.reset();
    // Not protected, so that destroy can clean up.
    const res = await s.run(["import", "billing:index:WebhookEndpoint", "adopted", String(made.id), "--yes", "--protect=false"]);
    assert.match(res.stdout, /= +billing:index:WebhookEndpoint +adopted +imported/);
    // The code to copy into the program, printed by the language host's GenerateProgram (scripts/language-host
    // where the host is the legacy one): the generated Node.js SDK as this package ships it, the endpoint's inputs
    // as read. That it runs as printed: the suite below.
    const code = printedCode(res.stdout);
    assert.match(code, /^import \* as billing from "pulumi-subscription-billing\/billing";$/m);
    assert.match(
      code,
      /new billing\.WebhookEndpoint\("adopted", \{\s+events: \[\s+"customer_update",\s+"payment_success",\s+\],\s+url: "https:\/\/crm\.acme\.example\/billing-hooks",\s+\}\);/,
    );
    assert.deepEqual(sent(), []);
    await setEndpoints({
      dunning: { url: DUNNING, events: ["subscription_state_change", "payment_failure"] },
      adopted: { url: ADOPTED, events: ["customer_update", "payment_success"] },
    });
    assert.deepEqual(await planned(), { steps: [], changes: [] });
    assert.deepEqual(sent(), []);
  });

  it("import of an id the site does not have fails, naming it", async () => {
    const res = await s.run(["import", "billing:index:WebhookEndpoint", "ghost", "9999", "--yes"], { allowFailure: true });
    assert.notEqual(res.code, 0);
    assert.match(text(res), /webhook endpoint 9999 does not exist/);
  });

  it("destroy unsubscribes every endpoint (the service has no delete) and empties the stack", async () => {
    sim.reset();
    await s.run(["destroy", "--yes", "--skip-preview"]);
    for (const e of sim.endpoints()) assert.deepEqual(e.events, [], `endpoint ${e.id} still subscribed`);
    assert.equal(sent().filter((r) => r.startsWith("PUT /endpoints/")).length, 2);
    const state = JSON.parse(await s.exportState()) as { deployment: { resources?: unknown[] } };
    assert.equal(state.deployment.resources?.length ?? 0, 0);
  });

  it("pulumi import adopts the webhook settings by site and stated value; the next up confirms it with one PUT, then nothing", async () => {
    await setEndpoints({});
    sim.reset();
    const res = await s.run(["import", "billing:index:WebhookSettings", "webhooks", "enabled", "--yes", "--protect=false"]);
    assert.match(res.stdout, /= +billing:index:WebhookSettings +webhooks +imported/);
    assert.match(res.stdout, /new billing\.WebhookSettings\("webhooks", \{\s*webhooksEnabled: true,?\s*\}\);/);
    // The service has no GET of the setting: the import (its preview, then itself) read only the site, to prove it
    // and its credentials.
    assert.deepEqual([...new Set(sim.requests.map((r) => `${r.method} ${r.path}`))], ["GET /site.json"]);
    // Stated, not confirmed: the declared value is sent once, and then the stack is settled.
    assert.deepEqual(await planned(), { steps: ["update webhooks"], changes: ["update"] });
    await s.run(["up", "--yes", "--skip-preview"]);
    assert.deepEqual(sent(), ["PUT /webhooks/settings.json"]);
    assert.deepEqual(await planned(), { steps: [], changes: [] });
    await s.run(["destroy", "--yes", "--skip-preview"]);
  });
});

describe("the code pulumi import prints, pasted as the program of a fresh project that installed only the package's tarball", () => {
  let sim: Simulator;
  let s: ExampleStack;
  let dir: string;
  let consumerDir: string;

  before(async () => {
    const c = await installedConsumer();
    consumerDir = c.dir;
    dir = c.example("plugin-import");
    await mkdir(dir, { recursive: true });
    await writeFile(
      path.join(dir, "Pulumi.yaml"),
      "name: billing-plugin-import\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n",
    );
    // Nothing declared yet: the project a user adopts an endpoint into.
    await writeFile(path.join(dir, "index.ts"), "export {};\n");
    ({ s, sim } = await simulatedPluginStack("plugin-import", "adopt"));
  });

  after(() => disposeChecked(s, sim));

  it("imports pulumi-subscription-billing/billing; as printed, the program type-checks and preview shows no changes, sending nothing", async () => {
    const made = sim.addEndpoint({ url: ADOPTED, events: ["payment_success", "customer_update"] });
    const res = await s.run(["import", "billing:index:WebhookEndpoint", "adopted", String(made.id), "--yes", "--protect=false"]);
    const code = printedCode(res.stdout);
    assert.match(code, /^import \* as billing from "pulumi-subscription-billing\/billing";$/m);
    await writeFile(path.join(dir, "index.ts"), code);
    sim.reset();
    // Type-checked, as Pulumi runs a TypeScript program unless told otherwise (the other suites transpile only):
    // with no tsconfig, ts-node resolves modules as nodenext, through the package's "exports".
    const preview = await s.ws.pulumi(["preview", "--json", "--stack", s.stack], {
      cwd: dir,
      env: { PULUMI_NODEJS_TRANSPILE_ONLY: "false" },
    });
    s.outputs.push(preview.stdout, preview.stderr);
    assert.deepEqual(planOf(preview.stdout), { steps: [], changes: [] });
    assert.deepEqual(mutations(sim.requests), []);
    // And with the tsconfig of older `pulumi new typescript` projects, whose "node" resolution ignores "exports".
    const tsc = path.join(consumerDir, "node_modules/typescript/bin/tsc");
    const flags = ["--noEmit", "--strict", "--target", "es2020", "--module", "commonjs", "--moduleResolution", "node"];
    try {
      execFileSync(process.execPath, [tsc, ...flags, "index.ts"], { cwd: dir, encoding: "utf8", stdio: "pipe" });
    } catch (err) {
      assert.fail(`tsc (moduleResolution node) failed on the printed code:\n${(err as { stdout?: string }).stdout ?? err}`);
    }
  });
});

describe("the generated Node.js SDK (pulumi-subscription-billing/billing) with the plugin", () => {
  let sim: Simulator;
  let s: ExampleStack;

  before(async () => {
    const c = await installedConsumer();
    // The SDK as the package ships it: compiled in dist/, imported by its subpath export.
    const dir = c.example("plugin-sdk");
    await mkdir(dir, { recursive: true });
    await cp(path.join(ROOT, "examples/plugin-typescript/Pulumi.yaml"), path.join(dir, "Pulumi.yaml"));
    await writeFile(
      path.join(dir, "index.ts"),
      [
        'import * as billing from "pulumi-subscription-billing/billing";',
        `const hooks = new billing.WebhookEndpoint("hooks", { url: "${DUNNING}", events: ["payment_failure"] });`,
        "export const endpointId = hooks.endpointId;",
        "export const events = hooks.events;",
        "",
      ].join("\n"),
    );
    ({ s, sim } = await simulatedPluginStack("plugin-sdk", "sdk"));
  });

  after(() => disposeChecked(s, sim));

  it("up creates the endpoint, a second up changes nothing, destroy unsubscribes it", async () => {
    await s.run(["up", "--yes", "--skip-preview"]);
    const [held] = sim.endpoints();
    assert.deepEqual(await s.stackOutputs(), { endpointId: held.id, events: ["payment_failure"] });
    sim.reset();
    const again = await s.run(["up", "--yes", "--skip-preview"]);
    assert.doesNotMatch(again.stdout, /created|updated|replaced|deleted/);
    assert.deepEqual(mutations(sim.requests), []);
    await s.run(["destroy", "--yes", "--skip-preview"]);
    assert.deepEqual(sim.endpoints()[0].events, []);
  });
});
