import assert from "node:assert/strict";
import { type Simulator, startSimulator } from "../../simulator";
import { type Consumer, ExampleStack, installedConsumer, mutations } from "./support";

const API_KEY = "sk_e2e_reviewed_9f3c1d7a";

describe("examples/reviewed-migration with the real CLI", () => {
  let c: Consumer;
  let sim: Simulator;
  let s: ExampleStack;
  let subscriptionId: number;

  before(async () => {
    c = await installedConsumer();
    sim = await startSimulator({ apiKey: API_KEY });
    sim.addProduct({ id: 11, handle: "starter" });
    sim.addProduct({
      id: 12,
      handle: "growth",
      pricePoints: [
        { id: 120, handle: "growth-monthly", default: true },
        { id: 121, handle: "growth-annual" },
      ],
    });
    sim.addProduct({ id: 13, handle: "scale" });
    subscriptionId = sim.addSubscription({ productHandle: "starter", state: "active" }).id;
    s = await ExampleStack.create(c, "reviewed-migration", "review");
    await s.config("billing:baseUrl", sim.url);
    await s.config("billing:apiKey", API_KEY, true);
    await s.config("migration:subscriptionId", String(subscriptionId));
    await s.config("migration:productHandle", "growth");
  });

  after(async () => {
    await s?.dispose();
    await sim?.close();
  });

  it("preview shows the migration and its charge, and changes nothing", async () => {
    const res = await s.run(["preview"]);
    assert.match(res.stdout, /\+ .*billing:SubscriptionMigration/);
    assert.match(res.stdout, /migration of subscription \d+ to growth: charge \d+\.\d\d/);
    assert.deepEqual(mutations(sim.requests), []);
  });

  it("up migrates once and the outputs expose the resulting subscription", async () => {
    await s.run(["up", "--yes", "--skip-preview"]);
    const out = await s.stackOutputs();
    assert.equal(out.productHandle, "growth");
    assert.equal(out.subscriptionState, "active");
    assert.equal(out.pricePointId, 120, "the product's default price point");
    assert.equal(sim.getSubscription(subscriptionId)?.productId, 12);
    assert.equal(mutations(sim.requests).length, 1);
  });

  it("a second up has no changes and sends nothing", async () => {
    const before = mutations(sim.requests).length;
    await s.run(["up", "--yes", "--skip-preview", "--expect-no-changes"]);
    assert.equal(mutations(sim.requests).length, before);
  });

  it("refresh re-reads the subscription", async () => {
    const reads = sim.requests.filter((r) => r.method === "GET").length;
    await s.run(["refresh", "--yes", "--skip-preview"]);
    assert.ok(sim.requests.filter((r) => r.method === "GET").length > reads);
    await s.run(["up", "--yes", "--skip-preview", "--expect-no-changes"]);
  });

  it("a same-product change is refused at preview with the fix in the message, nothing sent", async () => {
    await s.config("migration:productHandle", "growth");
    await s.config("migration:pricePointHandle", "growth-annual");
    const before = mutations(sim.requests).length;
    const res = await s.run(["preview"], { allowFailure: true });
    assert.notEqual(res.code, 0);
    assert.match(res.stdout + res.stderr, /already on product 'growth'/);
    assert.match(res.stdout + res.stderr, /price point change/);
    assert.equal(mutations(sim.requests).length, before);
    await s.run(["config", "rm", "migration:pricePointHandle"]);
  });

  it("a change of target replaces the migration: one new POST, new outputs", async () => {
    await s.config("migration:productHandle", "scale");
    const res = await s.run(["up", "--yes", "--skip-preview"]);
    assert.match(res.stdout, /replace|\+-/);
    assert.equal((await s.stackOutputs()).productHandle, "scale");
    const posts = sim.requests.filter((r) => r.method === "POST" && r.path.endsWith("/migrations.json"));
    assert.equal(posts.length, 2);
  });

  it("no credential in state, __provider or CLI output; the config secret is encrypted", async () => {
    const state = await s.exportState();
    assert.match(state, /__provider/);
    assert.ok(!state.includes(API_KEY), "state holds the API key");
    assert.ok(!s.outputs.join("\n").includes(API_KEY), "CLI output holds the API key");
    const stackConfig = await s.stackConfigFile();
    assert.match(stackConfig, /billing:apiKey:\s+secure: /);
    assert.ok(!stackConfig.includes(API_KEY));
    assert.ok(!JSON.stringify(sim.requests).includes(API_KEY));
  });
  it("destroy sends nothing and the subscription stays where it is", async () => {
    const before = mutations(sim.requests).length;
    await s.run(["destroy", "--yes", "--skip-preview"]);
    assert.equal(mutations(sim.requests).length, before);
    assert.equal(sim.getSubscription(subscriptionId)?.productId, 13);
  });
});
