import assert from "node:assert/strict";
import { type Simulator, startSimulator } from "../../simulator";
import { type Consumer, ExampleStack, installedConsumer, mutations } from "./support";

const API_KEY = "sk_e2e_failures_52be01c4";

describe("failures with the real CLI", () => {
  let c: Consumer;
  let sim: Simulator;

  before(async () => {
    c = await installedConsumer();
    sim = await startSimulator({ apiKey: API_KEY });
    sim.addProduct({ id: 21, handle: "basic" });
    sim.addProduct({ id: 22, handle: "pro" });
  });
  after(async () => sim?.close());

  async function stack(name: string, subscriptionId: string, productHandle: string): Promise<ExampleStack> {
    const s = await ExampleStack.create(c, "reviewed-migration", name);
    await s.config("billing:baseUrl", sim.url);
    await s.config("billing:apiKey", API_KEY, true);
    await s.config("migration:subscriptionId", subscriptionId);
    await s.config("migration:productHandle", productHandle);
    return s;
  }

  it("a bad input fails at preview with a CheckFailure naming the property; the service receives nothing", async () => {
    const s = await stack("bad-input", "0", "pro");
    try {
      const before = sim.requests.length;
      const res = await s.run(["preview"], { allowFailure: true });
      assert.notEqual(res.code, 0);
      assert.match(res.stdout + res.stderr, /subscriptionId/);
      assert.match(res.stdout + res.stderr, /must be a positive integer id, got 0/);
      assert.equal(sim.requests.length, before);
    } finally {
      await s.dispose();
    }
  });

  it("3-D Secure: up fails with the action link; after the customer visits it, the next up completes without a second POST", async () => {
    const sub = sim.addSubscription({ productHandle: "basic", state: "active", requiresAuthentication: true });
    const s = await stack("three-ds", String(sub.id), "pro");
    try {
      const first = await s.run(["up", "--yes", "--skip-preview"], { allowFailure: true });
      assert.notEqual(first.code, 0);
      const link = /(http:\/\/127\.0\.0\.1:\d+\/\S+)/.exec(first.stdout + first.stderr)?.[1]?.replace(/[.;,)]+$/, "");
      assert.ok(link, "the action link reaches the user");
      const visit = await fetch(link);
      assert.equal(visit.status, 200);

      await s.run(["up", "--yes", "--skip-preview"]);
      assert.equal((await s.stackOutputs()).productHandle, "pro");
      const posts = sim.requests.filter((r) => r.method === "POST" && r.path === `/subscriptions/${sub.id}/migrations.json`);
      assert.equal(posts.length, 1, "adopted by reading, not posted again");
      await s.run(["up", "--yes", "--skip-preview", "--expect-no-changes"]);
      assert.ok(!s.outputs.join("\n").includes(API_KEY));
      assert.ok(!(await s.exportState()).includes(API_KEY));
    } finally {
      await s.run(["destroy", "--yes", "--skip-preview"], { allowFailure: true });
      await s.dispose();
    }
  });

  it("an ineligible subscription is refused at preview", async () => {
    const sub = sim.addSubscription({ productHandle: "basic", state: "canceled" });
    const s = await stack("ineligible", String(sub.id), "pro");
    try {
      const before = mutations(sim.requests).length;
      const res = await s.run(["preview"], { allowFailure: true });
      assert.notEqual(res.code, 0);
      assert.match(res.stdout + res.stderr, /is canceled; only active or trialing/);
      assert.equal(mutations(sim.requests).length, before);
    } finally {
      await s.dispose();
    }
  });

  it("a replay whose answers were lost after the service queued it: up reports it unknown; the next up proves it queued, delivering nothing twice", async () => {
    const sub = sim.addSubscription({ productHandle: "basic", state: "active" });
    const failed = [1, 2, 3].map(() => sim.addWebhook({ status: "failed", subscriptionId: sub.id }).id);
    const s = await ExampleStack.create(c, "environment-bootstrap", "lost-answers");
    try {
      await s.config("billing:baseUrl", sim.url);
      await s.config("billing:apiKey", API_KEY, true);
      await s.config("bootstrap:launchProduct", "pro");
      await s.config("bootstrap:webhookReceiver", "https://hooks.failures.example/billing");
      await s.config("bootstrap:subscriptions", JSON.stringify([sub.id]));
      sim.replayQueue = [];
      // Every attempt is applied (or refused as a duplicate) and its answer lost: the SDK cannot know the outcome.
      sim.injectFault({ kind: "reset", applyAfterHandling: true, match: { path: "/webhooks/replay.json" } });
      const first = await s.run(["up", "--yes", "--skip-preview"], { allowFailure: true });
      assert.notEqual(first.code, 0);
      assert.match(first.stdout + first.stderr, /0 id\(s\) queued, 0 not queued, 3 unknown/);
      // Every wait between attempts reaches the user through the CLI, with what it is waiting for.
      assert.match(first.stdout + first.stderr, /billing: POST \/webhooks\/replay\.json: .*waiting \d+\.\d s before attempt 2/);
      assert.deepEqual(
        [...sim.replayQueue].sort((a, b) => a - b),
        failed,
        "the service did queue them, once",
      );

      sim.clearFaults();
      await s.run(["up", "--yes", "--skip-preview"]);
      const out = await s.stackOutputs();
      assert.equal(out.replayedWebhooks, 3);
      assert.deepEqual(
        [...sim.replayQueue].sort((a, b) => a - b),
        failed,
        "re-sent with the same token: refused as a duplicate, not queued again",
      );
      const tokens = new Set(sim.requests.filter((r) => r.path === "/webhooks/replay.json").map((r) => r.uniquenessToken));
      assert.equal(tokens.size, 1, "one token across both ups");
      await s.run(["up", "--yes", "--skip-preview", "--expect-no-changes"]);
      assert.ok(!s.outputs.join("\n").includes(API_KEY));
    } finally {
      await s.run(["destroy", "--yes", "--skip-preview"], { allowFailure: true });
      await s.dispose();
    }
  });
});
