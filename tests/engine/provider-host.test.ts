import assert from "node:assert/strict";
import { DEMO_SITE, type Simulator, startSimulator } from "../../simulator";
import { DIFF_NONE, DIFF_SOME, ProviderHost } from "./host";
import { ENV_KEY, type Registered, registerUnderMocks } from "./support";

// The demo site's key is what the simulator accepts; the test plants it as the
// secret everywhere and scans the host's output and every answer for it.
const KEY = DEMO_SITE.apiKey;
const urn = (type: string, name: string) => `urn:pulumi:test::engine-tests::pulumi-nodejs:dynamic/billing:${type}::${name}`;
const mutations = (sim: Simulator) => sim.requests.filter((r) => r.method !== "GET" && !r.path.endsWith("/preview.json")).length;

/** The host's output and every answer it gave, searched for both keys; an empty search proves nothing. */
function assertNoCredential(output: string, answers: readonly unknown[]): void {
  assert.ok(answers.length > 0, "no answer of the host to search: the check would pass whatever leaked");
  const text = output + JSON.stringify(answers);
  assert.ok(!text.includes(KEY), "the API key leaked");
  assert.ok(!text.includes(ENV_KEY), "the environment's key leaked");
}

// Each test has its own simulator and its own host (configured as the engine does), so that any one runs
// alone, in any order, with what it needs set up by itself; the serialized providers are made once. Each
// ends by searching the host's output and its own answers for the keys.
describe("the real dynamic-provider host over gRPC", function () {
  this.timeout(60_000);
  let providers: Record<string, string>;
  let sim: Simulator;
  let host: ProviderHost;
  let answers: unknown[];

  before(async () => {
    const registered: Registered[] = await registerUnderMocks(4, (b) => {
      new b.WebhookSettings("w", { webhooksEnabled: true });
      new b.SubscriptionMigration("m", { subscriptionId: 1001, productHandle: "pro" });
      new b.WebhookReplay("r", { ids: [5005] });
      new b.WebhookEndpoint("e", { url: "https://hooks.example.com/host", events: ["payment_failure"] });
    });
    providers = Object.fromEntries(registered.map((r) => [r.type.split(":").pop()!, r.inputs.__provider as string]));
  });
  beforeEach(async () => {
    answers = [];
    sim = await startSimulator({ seed: "demo" });
    // BILLING_API_KEY in the host's environment is a decoy: stack config wins.
    host = await ProviderHost.start({ BILLING_API_KEY: ENV_KEY });
    await host.configure({ "billing:baseUrl": sim.url, "billing:apiKey": KEY, "engine-tests:other": "x" });
  });
  afterEach(async () => {
    host?.stop();
    await sim?.close();
  });

  const record = <T>(x: T): T => {
    answers.push(x);
    return x;
  };

  it("WebhookSettings: Check → Create → Diff → Update → Delete", async () => {
    const u = urn("WebhookSettings", "w");
    const news = { __provider: providers.WebhookSettings, webhooksEnabled: true, disableOnDelete: true };
    const checked = record(await host.check(u, {}, news));
    assert.deepEqual(checked.failures, []);
    const created = record(await host.create(u, checked.inputs));
    assert.equal(created.id, new URL(sim.url).host, "the id is the site");
    assert.equal(created.props.webhooksEnabled, true);
    assert.equal(sim.webhooksEnabled, true);

    const same = record(await host.diff(u, created.id, created.props, checked.inputs));
    assert.equal(same.changes, DIFF_NONE);
    const flipped = { ...checked.inputs, webhooksEnabled: false };
    const diff = record(await host.diff(u, created.id, created.props, flipped));
    assert.equal(diff.changes, DIFF_SOME);
    assert.deepEqual(diff.replaces, []);
    // Through the real dynamic-provider host: the declared input that changed, nothing check() adds (issue 42).
    const annotated = record(await host.diff(u, created.id, created.props, { ...flipped, preview: { pricingChange: {} } }));
    assert.deepEqual(annotated.diffs, ["webhooksEnabled"]);
    const moved = record(await host.diff(u, created.id, created.props, { ...checked.inputs, site: "eu" }));
    assert.deepEqual(moved.replaces, ["site"]);
    assert.deepEqual(moved.diffs, ["site"]);

    const updated = record(await host.update(u, created.id, created.props, flipped));
    assert.equal(updated.webhooksEnabled, false);
    assert.equal(sim.webhooksEnabled, false);
    assert.equal(typeof updated.__provider, "string");

    // Refresh: no GET of the setting exists; the provider has no read and the host echoes the state.
    sim.requests.length = 0;
    const refreshed = record(await host.read(u, created.id, updated));
    assert.deepEqual(refreshed, { id: created.id, props: updated });
    assert.equal(sim.requests.length, 0);

    await host.delete(u, created.id, { ...updated, webhooksEnabled: true, disableOnDelete: true });
    assert.deepEqual(
      sim.requests.map((r) => [r.method, r.path, r.body]),
      [["PUT", "/webhooks/settings.json", { webhooks_enabled: false }]],
    );
    assertNoCredential(host.output, answers);
  });

  it("WebhookEndpoint: Check → Create → Diff → Update → Read (drift, removal) → Delete", async () => {
    const u = urn("WebhookEndpoint", "e");
    const url = "https://hooks.example.com/host";
    const news = { __provider: providers.WebhookEndpoint, url, events: ["payment_success", "payment_failure", "payment_success"] };
    const bad = record(await host.check(u, {}, { ...news, events: ["payment_failur"] }));
    // On the top-level input, the entry's path leading the reason: the engine finds no value for a nested property.
    assert.equal(bad.failures[0]?.property, "events");
    assert.match(bad.failures[0]?.reason, /^events\[0\]: .*did you mean "payment_failure"/);
    const checked = record(await host.check(u, {}, news));
    assert.deepEqual(checked.failures, []);
    const created = record(await host.create(u, checked.inputs));
    const endpointId = created.props.endpointId as number;
    assert.equal(created.id, String(endpointId));
    assert.deepEqual(created.props.events, ["payment_failure", "payment_success"]);
    assert.deepEqual(sim.endpoints().find((e) => e.id === endpointId)?.events, ["payment_failure", "payment_success"]);

    const reordered = { ...checked.inputs, events: ["payment_failure", "payment_success"] };
    assert.equal(record(await host.diff(u, created.id, created.props, reordered)).changes, DIFF_NONE);
    const more = { ...checked.inputs, events: ["payment_failure", "renewal_failure"] };
    const diff = record(await host.diff(u, created.id, created.props, more));
    assert.equal(diff.changes, DIFF_SOME);
    assert.deepEqual(diff.replaces, []);
    const updated = record(await host.update(u, created.id, created.props, more));
    assert.deepEqual(updated.events, ["payment_failure", "renewal_failure"]);
    assert.deepEqual(sim.endpoints().find((e) => e.id === endpointId)?.events, ["payment_failure", "renewal_failure"]);

    sim.updateEndpoint(endpointId, { events: ["signup_success"] });
    const drifted = record(await host.read(u, created.id, updated));
    assert.deepEqual(drifted.props.events, ["signup_success"]);
    assert.equal(typeof drifted.props.__provider, "string", "refresh keeps the provider");

    await host.delete(u, created.id, drifted.props);
    assert.deepEqual(sim.endpoints().find((e) => e.id === endpointId)?.events, [], "unsubscribed from everything");
    sim.removeEndpoint(endpointId);
    const gone = record(await host.read(u, created.id, drifted.props));
    assert.equal(gone.id, "", "an endpoint gone from the service leaves the stack");
    assertNoCredential(host.output, answers);
  });

  it("SubscriptionMigration: Check → Create → Diff → Update → Delete", async () => {
    const u = urn("SubscriptionMigration", "m");
    const news = { __provider: providers.SubscriptionMigration, subscriptionId: 1002, productHandle: "pro" };
    const checked = record(await host.check(u, {}, news));
    assert.deepEqual(checked.failures, []);
    const created = record(await host.create(u, checked.inputs));
    assert.match(created.id, /^1002-/, "one migration of subscription 1002");
    assert.equal(created.props.productHandle, "pro");
    assert.equal(created.props.subscriptionState, "trialing");
    assert.equal(sim.getSubscription(1002)?.productId, 2);

    const toLaunch = { ...checked.inputs, productHandle: "launch" };
    const diff = record(await host.diff(u, created.id, created.props, toLaunch));
    assert.equal(diff.changes, DIFF_SOME);
    assert.ok(diff.replaces.includes("productHandle"), `replaces ${diff.replaces}`);

    const before = mutations(sim);
    const updated = record(await host.update(u, created.id, created.props, checked.inputs));
    assert.equal(updated.productHandle, "pro");
    const refreshed = record(await host.read(u, created.id, updated));
    assert.equal(refreshed.props.productHandle, "pro");
    assert.ok(
      sim.requests.some((r) => r.method === "GET" && r.path === "/subscriptions/1002.json"),
      "refresh re-reads the subscription",
    );
    assert.equal(mutations(sim), before, "update only refreshes");
    await host.delete(u, created.id, updated);
    assert.equal(mutations(sim), before, "delete sends nothing");
    assert.equal(sim.getSubscription(1002)?.productId, 2);
    assertNoCredential(host.output, answers);
  });

  it("SubscriptionMigration: a bad input is a CheckFailure naming the property, and nothing is sent", async () => {
    const u = urn("SubscriptionMigration", "bad");
    const sent = sim.requests.length;
    const checked = record(
      await host.check(u, {}, { __provider: providers.SubscriptionMigration, subscriptionId: 1001, productId: 2, productHandle: "pro" }),
    );
    const props = checked.failures.map((f) => f.property);
    assert.ok(props.includes("productId") || props.includes("productHandle"), JSON.stringify(checked.failures));
    assert.match(checked.failures.map((f) => f.reason).join(" "), /exactly one/i);
    assert.equal(sim.requests.length, sent);
    assertNoCredential(host.output, answers);
  });

  it("SubscriptionMigration: a same-product migration fails at check, before any POST", async () => {
    // Its own migration first: subscription 1002 onto pro, through the host.
    const first = record(
      await host.check(
        urn("SubscriptionMigration", "first"),
        {},
        { __provider: providers.SubscriptionMigration, subscriptionId: 1002, productHandle: "pro" },
      ),
    );
    assert.deepEqual(first.failures, []);
    record(await host.create(urn("SubscriptionMigration", "first"), first.inputs));
    assert.equal(sim.getSubscription(1002)?.productId, 2);

    const u = urn("SubscriptionMigration", "same");
    const checked = record(
      await host.check(u, {}, { __provider: providers.SubscriptionMigration, subscriptionId: 1002, productHandle: "pro" }),
    );
    assert.equal(checked.failures.length, 1);
    assert.match(checked.failures[0].reason, /already on product/);
    assert.equal(
      sim.requests.filter((r) => r.method === "POST" && r.path === "/subscriptions/1002/migrations.json").length,
      1,
      "only the earlier create",
    );
    assertNoCredential(host.output, answers);
  });

  it("WebhookReplay: Check → Create → Diff → Update → Delete", async () => {
    const u = urn("WebhookReplay", "r");
    const ids = Array.from({ length: 2500 }, (_, i) => 10_000 + i);
    const checked = record(await host.check(u, {}, { __provider: providers.WebhookReplay, ids }));
    assert.deepEqual(checked.failures, []);
    sim.replayQueue.length = 0;
    const created = record(await host.create(u, checked.inputs));
    assert.equal(created.props.queuedCount, 2500);
    assert.equal(created.props.batchCount, 3);
    assert.equal(sim.replayQueue.length, 2500);

    const bumped = { ...checked.inputs, triggers: ["2"] };
    const diff = record(await host.diff(u, created.id, created.props, bumped));
    assert.equal(diff.changes, DIFF_SOME);
    assert.ok(diff.replaces.includes("triggers"));

    const updated = record(await host.update(u, created.id, created.props, checked.inputs));
    assert.equal(updated.queuedCount, 2500);
    assert.equal(sim.replayQueue.length, 2500, "update re-sends nothing that was queued");
    assert.deepEqual((await host.read(u, created.id, updated)).props, updated, "refresh keeps the record");
    const before = mutations(sim);
    await host.delete(u, created.id, updated);
    assert.equal(mutations(sim), before);
    assertNoCredential(host.output, answers);
  });

  it("no credential in the host's output or in any answer, every type through every call", async () => {
    const cases: [string, Record<string, unknown>][] = [
      ["WebhookSettings", { webhooksEnabled: true, disableOnDelete: true }],
      ["WebhookEndpoint", { url: "https://hooks.example.com/scan", events: ["payment_failure"] }],
      ["SubscriptionMigration", { subscriptionId: 1003, productHandle: "pro" }],
      ["WebhookReplay", { ids: [5005, 5006] }],
    ];
    for (const [type, inputs] of cases) {
      const u = urn(type, "scan");
      const checked = record(await host.check(u, {}, { __provider: providers[type], ...inputs }));
      assert.deepEqual(checked.failures, [], type);
      const created = record(await host.create(u, checked.inputs));
      record(await host.diff(u, created.id, created.props, checked.inputs));
      record(await host.update(u, created.id, created.props, checked.inputs));
      record(await host.read(u, created.id, created.props));
      await host.delete(u, created.id, created.props);
    }
    // A bad input's failures, which quote what was given.
    record(await host.check(urn("WebhookEndpoint", "bad"), {}, { __provider: providers.WebhookEndpoint, url: "ftp://x", events: [] }));
    assert.ok(answers.length >= cases.length * 5, `${answers.length} answers`);
    assertNoCredential(host.output, answers);
  });
});
