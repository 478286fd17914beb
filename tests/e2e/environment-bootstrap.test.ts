import assert from "node:assert/strict";
import { type Simulator, startSimulator } from "../../simulator";
import { ExampleStack, installedConsumer, mutations } from "./support";

const API_KEY = "sk_e2e_bootstrap_d41e77";
const RECEIVER = "https://hooks.bootstrap.example/billing";
const RECEIVER_EVENTS = ["payment_failure", "payment_success", "subscription_state_change"];

describe("examples/environment-bootstrap with the real CLI", () => {
  let sim: Simulator;
  let s: ExampleStack;
  let subs: number[];
  let failed: number[];

  before(async () => {
    const c = await installedConsumer();
    sim = await startSimulator({ apiKey: API_KEY });
    sim.addProduct({ id: 31, handle: "trial" });
    sim.addProduct({ id: 32, handle: "launch" });
    subs = [
      sim.addSubscription({ productHandle: "trial", state: "trialing" }).id,
      sim.addSubscription({ productHandle: "trial", state: "active" }).id,
    ];
    failed = Array.from({ length: 1203 }, () => sim.addWebhook({ status: "failed", subscriptionId: subs[0] }).id);
    for (let i = 0; i < 5; i++) sim.addWebhook({ status: "successful", subscriptionId: subs[1] });
    s = await ExampleStack.create(c, "environment-bootstrap", "bootstrap");
    await s.config("billing:baseUrl", sim.url);
    await s.config("billing:apiKey", API_KEY, true);
    await s.config("bootstrap:launchProduct", "launch");
    await s.config("bootstrap:webhookReceiver", RECEIVER);
    await s.config("bootstrap:subscriptions", JSON.stringify(subs));
  });

  after(async () => {
    await s?.dispose();
    await sim?.close();
  });

  it("preview sends nothing", async () => {
    await s.run(["preview"]);
    assert.deepEqual(mutations(sim.requests), []);
  });

  it("up enables webhooks, subscribes the receiver, migrates every seeded subscription, replays exactly the failed webhooks", async () => {
    await s.run(["up", "--yes", "--skip-preview"]);
    const out = await s.stackOutputs();
    assert.equal(out.webhooksEnabled, true);
    assert.deepEqual(
      sim.endpoints().map((e) => ({ id: e.id, url: e.url, events: [...e.events].sort() })),
      [{ id: out.receiverEndpointId, url: RECEIVER, events: RECEIVER_EVENTS }],
    );
    assert.deepEqual(out.receiverEvents, RECEIVER_EVENTS);
    assert.deepEqual(
      (out.migrated as { product: string }[]).map((m) => m.product),
      ["launch", "launch"],
    );
    assert.equal(out.replayedWebhooks, failed.length);
    assert.equal(out.replayBatches, 2);
    assert.deepEqual(
      [...sim.replayQueue].sort((a, b) => a - b),
      failed,
    );
    for (const id of subs) assert.equal(sim.getSubscription(id)?.productId, 32);
  });

  it("a second up and a refresh change nothing", async () => {
    const before = mutations(sim.requests).length;
    await s.run(["up", "--yes", "--skip-preview", "--expect-no-changes"]);
    await s.run(["refresh", "--yes", "--skip-preview"]);
    await s.run(["up", "--yes", "--skip-preview", "--expect-no-changes"]);
    assert.equal(mutations(sim.requests).length, before);
  });

  it("bumping the replay trigger replays again; destroy only unsubscribes the receiver (the service has no delete)", async () => {
    await s.config("bootstrap:replayRound", "2");
    await s.run(["up", "--yes", "--skip-preview"]);
    assert.equal(sim.replayQueue.length, failed.length * 2);
    const before = mutations(sim.requests).length;
    await s.run(["destroy", "--yes", "--skip-preview"]);
    const [receiver] = sim.endpoints();
    assert.deepEqual(
      mutations(sim.requests)
        .slice(before)
        .map((r) => `${r.method} ${r.path}`),
      [`PUT /endpoints/${receiver.id}.json`],
    );
    assert.deepEqual(
      sim.endpoints().map(({ url, events }) => ({ url, events })),
      [{ url: RECEIVER, events: [] }],
      "still listed, subscribed to nothing",
    );
  });

  it("no credential in state or CLI output", async () => {
    assert.ok(!(await s.exportState()).includes(API_KEY));
    assert.ok(!s.outputs.join("\n").includes(API_KEY));
  });
});
