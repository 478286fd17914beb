import assert from "node:assert/strict";
import { inspect } from "node:util";
import * as pulumi from "@pulumi/pulumi";
import { KINDS } from "../../provider";
import { DEMO_SITE, type Simulator, startSimulator } from "../../simulator";
import { EXAMPLE_PREREQUISITES as PREREQUISITES } from "../example-prerequisites";
import { API_KEY, configureRequest, deserialize, ENV_KEY, type Registered, registerUnderMocks } from "./support";

/** Every kind of the registry, each constructed with its declared example. */
const MODULES = Object.values(KINDS);
const token = (t: string) => `pulumi-nodejs:dynamic/billing:${t}`;
/** Where the text earlier versions stored is registered: every method a shell (the exported providers still are). */
const earlier = (t: string) => `pulumi-nodejs:dynamic/earlier:${t}`;
type Constructor = new (name: string, args: unknown) => unknown;
class Earlier extends pulumi.dynamic.Resource {}

describe("closure serialization of every resource kind (setMocks, ts-node CommonJS)", () => {
  let registered: Registered[];
  let sim: Simulator;

  before(async function () {
    this.timeout(60_000);
    registered = await registerUnderMocks(2 * MODULES.length + 1, (b) => {
      const classes = b as unknown as Record<string, Constructor>;
      const providers = b as unknown as Record<string, pulumi.dynamic.ResourceProvider>;
      for (const { kind } of MODULES) {
        new classes[kind.type](`${kind.key}-a`, kind.example);
        new Earlier(providers[`${kind.key}Provider`], `${kind.key}-earlier`, {}, undefined, "earlier", kind.type);
      }
      new b.WebhookSettings("hooks-b", { webhooksEnabled: false, site: "eu" });
    });
  });
  beforeEach(async () => {
    sim = await startSimulator({ seed: "demo" });
  });
  afterEach(async () => sim?.close());

  const providerOf = (type: string, as = token) => {
    const r = registered.find((x) => x.type === as(type));
    assert.ok(r, `${type} was registered`);
    const text = r.inputs.__provider;
    assert.equal(typeof text, "string");
    return text as string;
  };

  for (const { kind } of MODULES) {
    // Stored twice per object (inputs and outputs) and rewritten with every checkpoint: the kind's key and one
    // configure that loads the runtime (issue 43: 3.2 KB each had been 71% of a catalog's state).
    it(`${kind.type}: __provider stays under 1 KB and holds no credential`, () => {
      const text = providerOf(kind.type);
      const bytes = Buffer.byteLength(text);
      console.log(`      __provider ${kind.type}: ${bytes} bytes`);
      assert.ok(bytes < 1024, `${bytes} bytes`);
      assert.ok(!text.includes(API_KEY) && !text.includes(ENV_KEY), "credential in __provider");
    });

    it(`${kind.type}: deserialized, it checks and creates its example against the simulator; the outputs are the declared ones`, async () => {
      PREREQUISITES[kind.key]?.(sim);
      const p = deserialize(providerOf(kind.type));
      await p.configure!(configureRequest({ "billing:baseUrl": sim.url, "billing:apiKey": DEMO_SITE.apiKey }));
      const checked = await p.check!({}, kind.example as Record<string, unknown>);
      assert.deepEqual(checked.failures, []);
      const created = await p.create(checked.inputs);
      assert.ok(created.id, "an id");
      const outs = kind.outputs.safeParse(created.outs);
      assert.ok(outs.success, `outputs of ${kind.type} do not match its declaration: ${inspect(outs.error)}`);
      assert.equal(typeof p.read === "function", kind.refresh, "a read exactly when refresh asks the service");
    });
  }

  it("no registered input of any resource holds a credential", () => {
    const all = inspect(registered, { depth: 20, maxStringLength: Infinity });
    assert.ok(!all.includes(API_KEY) && !all.includes(ENV_KEY));
  });

  it("one provider per type: two WebhookSettings carry the same text", () => {
    const hooks = registered.filter((r) => r.type === token("WebhookSettings"));
    assert.equal(hooks.length, 2);
    assert.equal(hooks[0].inputs.__provider, hooks[1].inputs.__provider);
  });

  it("the text delegates to the package at call time instead of embedding the SDK", () => {
    for (const { kind } of MODULES) {
      const text = providerOf(kind.type);
      assert.match(text, /pulumi-subscription-billing\/provider\/runtime/);
      assert.doesNotMatch(text, /undici|zod|BillingClient/);
    }
  });

  for (const { kind } of MODULES) {
    it(`${kind.type}: the text stored before the small __provider (every method a shell) still runs on this version`, async () => {
      PREREQUISITES[kind.key]?.(sim);
      const text = providerOf(kind.type, earlier);
      assert.match(text, /\.kinds\[this\.kind\]\.create\(this, inputs\)/);
      const p = deserialize(text);
      await p.configure!(configureRequest({ "billing:baseUrl": sim.url, "billing:apiKey": DEMO_SITE.apiKey }));
      const checked = await p.check!({}, kind.example as Record<string, unknown>);
      assert.deepEqual(checked.failures, []);
      const created = await p.create(checked.inputs);
      assert.ok(kind.outputs.safeParse(created.outs).success);
    });
  }

  it("the text 0.1 stored in state (runtime()[kind], before the registry) still runs on this version", async () => {
    for (const type of ["WebhookSettings", "SubscriptionMigration", "WebhookReplay"]) {
      const text = providerOf(type, earlier);
      assert.match(text, /\.kinds\[this\.kind\]/);
      const old = deserialize(text.replaceAll(".kinds[this.kind]", "[this.kind]"));
      await old.configure!(configureRequest({ "billing:baseUrl": sim.url, "billing:apiKey": DEMO_SITE.apiKey }));
      const { kind } = MODULES.find((m) => m.kind.type === type)!;
      const checked = await old.check!({}, kind.example as Record<string, unknown>);
      assert.deepEqual(checked.failures, [], type);
      const created = await old.create(checked.inputs);
      assert.ok(kind.outputs.safeParse(created.outs).success, type);
    }
    assert.equal(sim.getSubscription(1001)?.productId, 2);
    assert.deepEqual([...sim.replayQueue], [5005, 5006]);
  });

  it("a text naming a kind this version does not have fails at configure, saying which kinds it has", async () => {
    const text = providerOf("WebhookSettings").replace('kind: "webhookSettings"', 'kind: "invoiceTemplate"');
    const p = deserialize(text);
    await assert.rejects(
      async () => p.configure!(configureRequest({ "billing:baseUrl": sim.url, "billing:apiKey": DEMO_SITE.apiKey })),
      /resource kind "invoiceTemplate" that the installed version does not have \(it has webhookSettings, .*offer\)/,
    );
  });

  it("deserialized WebhookSettings writes the setting; SubscriptionMigration migrates; WebhookReplay queues distinct ids once", async () => {
    const config = configureRequest({ "billing:baseUrl": sim.url, "billing:apiKey": DEMO_SITE.apiKey });
    const [w, m, r, e] = ["WebhookSettings", "SubscriptionMigration", "WebhookReplay", "WebhookEndpoint"].map((t) =>
      deserialize(providerOf(t)),
    );
    for (const p of [w, m, r, e]) await p.configure!(config);
    assert.equal((await w.create({ webhooksEnabled: true })).outs.webhooksEnabled, true);
    assert.equal(sim.webhooksEnabled, true);
    assert.equal((await m.create({ subscriptionId: 1001, productHandle: "pro" })).outs.productHandle, "pro");
    assert.equal(sim.getSubscription(1001)?.productId, 2);
    assert.equal((await r.create({ ids: [5005, 5006, 5006] })).outs.queuedCount, 2);
    assert.deepEqual([...sim.replayQueue], [5005, 5006]);
    const endpoint = await e.create({
      url: "https://hooks.example.com/x",
      events: ["payment_success", "payment_failure", "payment_success"],
    });
    assert.deepEqual(sim.endpoints().find((x) => x.id === endpoint.outs.endpointId)?.events, ["payment_failure", "payment_success"]);
  });
});
