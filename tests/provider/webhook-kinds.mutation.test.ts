import { afterEach, describe, expect, it } from "vitest";
import { subscriptionMigrationProvider, webhookReplayProvider } from "../../provider";
import type { Simulator } from "../../simulator";
import { captureOutput, configured } from "./support";

// What the mutation run found unchecked in the webhook kinds and the migration kind: a replay's warning about expired
// batches and its empty record, and the migration's messages for a product without a handle, an ineligible create and
// trial_ended. (WebhookEndpoint's: webhook-endpoint/.)

describe("WebhookReplay: batches too old to re-send, and a selector that finds nothing", () => {
  let sim: Simulator;
  afterEach(async () => sim?.close());

  async function setup() {
    const c = await configured(webhookReplayProvider);
    sim = c.sim;
    return c.provider;
  }

  /** A record whose last run left one id not queued and `expired` ids in a batch whose token the service has forgotten. */
  const recordWith = (expired: number[]) => ({
    args: { ids: [900, ...expired] },
    queuedCount: 0,
    batchCount: 1,
    replayedAt: null,
    notQueuedIds: [900],
    unknownIds: expired,
    unknownBatches: [{ ids: expired, uniquenessToken: "0d6f4c1a-8e7b-4b55-a2c9-3f1e5d7a9b20", sentAt: "2020-01-01T00:00:00.000Z" }],
  });
  const warning = (count: number, listed: string) =>
    `warning: WebhookReplay: ${count} webhook id(s) have an unknown outcome and their uniqueness tokens are older than the ` +
    `service's 60-minute duplicate window, so they are not re-sent (they may be queued already): ${listed}. ` +
    "Check the receiver; to replay them anyway, list them in a new WebhookReplay.";
  const range = (n: number) => Array.from({ length: n }, (_, i) => 801 + i);

  it.each([
    [1, "801"],
    [10, "801, 802, 803, 804, 805, 806, 807, 808, 809, 810"],
    [11, "801, 802, 803, 804, 805, 806, 807, 808, 809, 810, …"],
    [12, "801, 802, 803, 804, 805, 806, 807, 808, 809, 810, …"],
  ])("%i expired id(s): the finished run warns, listing at most ten, and keeps them unknown", async (n, listed) => {
    const p = await setup();
    const expired = range(n);
    const s = recordWith(expired);
    const { result, error, text } = await captureOutput(() => p.update!("replay-1", s, s.args));
    expect(error).toBeUndefined();
    expect(text).toBe(`${warning(n, listed)}\n`);
    expect(result!.outs).toEqual({
      args: s.args,
      queuedCount: 1,
      batchCount: 2,
      notQueuedIds: [],
      unknownIds: expired,
      unknownBatches: s.unknownBatches,
      replayedAt: expect.any(String),
    });
    expect(Date.parse(result!.outs.replayedAt)).not.toBeNaN();
    // Only the id not queued went out; the expired batch was not sent again.
    expect(sim.replayQueue).toEqual([900]);
  });

  it("a selector that finds no webhook: replayed with nothing queued, no replay sent", async () => {
    const p = await setup();
    sim.addWebhook({ status: "successful" });
    const { outs } = await p.create({ selector: { status: "failed" } });
    expect(outs).toEqual({
      args: { selector: { status: "failed" } },
      queuedCount: 0,
      batchCount: 0,
      notQueuedIds: [],
      unknownIds: [],
      unknownBatches: [],
      replayedAt: expect.any(String),
    });
    expect(Date.parse(outs.replayedAt)).not.toBeNaN();
    expect(sim.requests.map((r) => r.path)).toEqual(["/webhooks.json"]);
  });
});

describe("SubscriptionMigration messages", () => {
  let sim: Simulator;
  afterEach(async () => sim?.close());

  const RECOMMENDED = "the recommended path for a trial_ended subscription is to cancel it, change its product, then reactivate it";

  async function setup() {
    const c = await configured(subscriptionMigrationProvider);
    sim = c.sim;
    // A product without a handle, reachable by id only.
    sim.addProduct({ id: 4, handle: null });
    return c.provider;
  }
  const migrationPosts = () => sim.requests.filter((r) => r.method === "POST" && /\/migrations\.json$/.test(r.path));

  it("a subscription already on a product without a handle: the refusal names the product by its id", async () => {
    const p = await setup();
    const id = sim.addSubscription({ productId: 4, state: "active" }).id;
    const { failures } = await p.check!({}, { subscriptionId: id, productId: 4 });
    expect(failures).toEqual([
      {
        property: "productId",
        reason:
          `subscription ${id} is already on product id 4: the service refuses a migration to the product a subscription already has. ` +
          "Target a different product; to move to another price point of the same product, that is a price point change, " +
          "a different operation than a product migration; if nothing should change, remove this SubscriptionMigration.",
      },
    ]);
    expect(migrationPosts()).toEqual([]);
  });

  it("create of a canceled subscription: refused naming the property and the state, with nothing sent", async () => {
    const p = await setup();
    const id = sim.addSubscription({ productHandle: "basic", state: "canceled" }).id;
    const err = await p.create({ subscriptionId: id, productHandle: "pro" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe(
      `subscriptionId: subscription ${id} is canceled; only active or trialing subscriptions can be migrated ` +
        "(trial_ended is accepted but not recommended) (nothing was sent)",
    );
    expect(migrationPosts()).toEqual([]);
  });

  it("create of a trial_ended subscription: migrated, with the recommended path as a warning and in the outputs", async () => {
    const p = await setup();
    const id = sim.addSubscription({ productHandle: "basic", state: "trial_ended" }).id;
    const { result, error, text } = await captureOutput(() => p.create({ subscriptionId: id, productHandle: "pro" }));
    expect(error).toBeUndefined();
    expect(text).toBe(
      `warning: subscription ${id} is trial_ended: the API accepts migrating it for backwards compatibility, but ${RECOMMENDED}.\n`,
    );
    expect(result!.outs).toMatchObject({ previousState: "trial_ended", productHandle: "pro", warnings: [RECOMMENDED] });
    expect(migrationPosts()).toHaveLength(1);
  });

  it("create of an active subscription records no warnings and says nothing", async () => {
    const p = await setup();
    const id = sim.addSubscription({ productHandle: "basic", state: "active" }).id;
    const { result, text } = await captureOutput(() => p.create({ subscriptionId: id, productHandle: "pro" }));
    expect(text).toBe("");
    expect(result!.outs).toMatchObject({ previousState: "active", productHandle: "pro", warnings: [] });
  });
});
