import assert from "node:assert/strict";
import { inspect } from "node:util";
import { KINDS } from "../../provider";
import { DEMO_SITE, type Simulator, startSimulator } from "../../simulator";
import { EXAMPLE_PREREQUISITES as PREREQUISITES } from "../example-prerequisites";
import { API_KEY, configureRequest, deserialize, ENV_KEY, type Registered, registerUnderMocks } from "./support";

/** Every kind of the registry, each constructed with its declared example. */
const MODULES = Object.values(KINDS);
const token = (t: string) => `pulumi-nodejs:dynamic/billing:${t}`;
type Constructor = new (name: string, args: unknown) => unknown;

describe("closure serialization of every resource kind (setMocks, ts-node CommonJS)", () => {
  let registered: Registered[];
  let sim: Simulator;

  before(async function () {
    this.timeout(60_000);
    registered = await registerUnderMocks(MODULES.length + 1, (b) => {
      const classes = b as unknown as Record<string, Constructor>;
      for (const { kind } of MODULES) new classes[kind.type](`${kind.key}-a`, kind.example);
      new b.WebhookSettings("hooks-b", { webhooksEnabled: false, site: "eu" });
    });
  });
  beforeEach(async () => {
    sim = await startSimulator({ seed: "demo" });
  });
  afterEach(async () => sim?.close());

  const providerOf = (type: string) => {
    const r = registered.find((x) => x.type === token(type));
    assert.ok(r, `${type} was registered`);
    const text = r.inputs.__provider;
    assert.equal(typeof text, "string");
    return text as string;
  };

  for (const { kind } of MODULES) {
    it(`${kind.type}: __provider stays under 4 KB and holds no credential`, () => {
      const text = providerOf(kind.type);
      const bytes = Buffer.byteLength(text);
      console.log(`      __provider ${kind.type}: ${bytes} bytes`);
      assert.ok(bytes < 4096, `${bytes} bytes`);
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

  it("the text 0.1 stored in state (runtime()[kind], before the registry) still runs on this version", async () => {
    for (const type of ["WebhookSettings", "SubscriptionMigration", "WebhookReplay"]) {
      const text = providerOf(type);
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
