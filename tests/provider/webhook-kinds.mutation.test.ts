import { afterEach, describe, expect, it } from "vitest";
import { subscriptionMigrationProvider } from "../../provider";
import type { Simulator } from "../../simulator";
import { captureOutput, configured } from "./support";

// What the mutation run found unchecked in the migration kind: its messages for a product without a handle, an
// ineligible create and trial_ended. (The webhook kinds': webhook-endpoint/, webhook-replay/.)

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
