import assert from "node:assert/strict";
import { inspect } from "node:util";
import { DEMO_SITE, type Simulator, startSimulator } from "../../simulator";
import { API_KEY, configureRequest, deserialize, ENV_KEY, type Registered, registerUnderMocks } from "./support";

const TYPES = ["WebhookSettings", "SubscriptionMigration", "WebhookReplay"] as const;
const token = (t: string) => `pulumi-nodejs:dynamic/billing:${t}`;

describe("closure serialization of the three resources (setMocks, ts-node CommonJS)", () => {
  let registered: Registered[];
  let sim: Simulator;

  before(async function () {
    this.timeout(60_000);
    registered = await registerUnderMocks((b) => {
      new b.WebhookSettings("hooks-a", { webhooksEnabled: true });
      new b.WebhookSettings("hooks-b", { webhooksEnabled: false, site: "eu" });
      new b.SubscriptionMigration("move-1001", { subscriptionId: 1001, productHandle: "pro" });
      new b.WebhookReplay("replay-failed", { ids: [5005, 5006, 5006] });
    });
    sim = await startSimulator({ seed: "demo" });
  });
  after(async () => sim?.close());

  const providerOf = (type: string) => {
    const r = registered.find((x) => x.type === token(type));
    assert.ok(r, `${type} was registered`);
    const text = r.inputs.__provider;
    assert.equal(typeof text, "string");
    return text as string;
  };

  for (const type of TYPES) {
    it(`${type}: __provider stays under 4 KB and holds no credential`, () => {
      const text = providerOf(type);
      const bytes = Buffer.byteLength(text);
      console.log(`      __provider ${type}: ${bytes} bytes`);
      assert.ok(bytes < 4096, `${bytes} bytes`);
      assert.ok(!text.includes(API_KEY) && !text.includes(ENV_KEY), "credential in __provider");
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
    for (const type of TYPES) {
      const text = providerOf(type);
      assert.match(text, /pulumi-subscription-billing\/provider\/runtime/);
      assert.doesNotMatch(text, /undici|zod|BillingClient/);
    }
  });

  it("deserialized WebhookSettings: configure, check, create against the simulator", async () => {
    const p = deserialize(providerOf("WebhookSettings"));
    await p.configure!(configureRequest({ "billing:baseUrl": sim.url, "billing:apiKey": DEMO_SITE.apiKey }));
    const news = { webhooksEnabled: true };
    const checked = await p.check!({}, news);
    assert.deepEqual(checked.failures, []);
    const created = await p.create(checked.inputs);
    assert.equal(created.outs.webhooksEnabled, true);
    assert.equal(sim.webhooksEnabled, true);
  });

  it("deserialized SubscriptionMigration: check reads, create migrates", async () => {
    const p = deserialize(providerOf("SubscriptionMigration"));
    await p.configure!(configureRequest({ "billing:baseUrl": sim.url, "billing:apiKey": DEMO_SITE.apiKey }));
    const checked = await p.check!({}, { subscriptionId: 1001, productHandle: "pro" });
    assert.deepEqual(checked.failures, []);
    const created = await p.create(checked.inputs);
    assert.equal(created.outs.productHandle, "pro");
    assert.equal(sim.getSubscription(1001)?.productId, 2);
  });

  it("deserialized WebhookReplay: queues the distinct ids once", async () => {
    const p = deserialize(providerOf("WebhookReplay"));
    await p.configure!(configureRequest({ "billing:baseUrl": sim.url, "billing:apiKey": DEMO_SITE.apiKey }));
    const checked = await p.check!({}, { ids: [5005, 5006, 5006] });
    assert.deepEqual(checked.failures, []);
    const created = await p.create(checked.inputs);
    assert.equal(created.outs.queuedCount, 2);
    assert.deepEqual([...sim.replayQueue], [5005, 5006]);
  });
});
