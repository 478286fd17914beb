import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { captureOutput } from "../support";
import { migrationSite, postsOf, RECOMMENDED } from "./site";

/**
 * SubscriptionMigration create: migrates once, sending the defaults explicitly, and records the resulting
 * subscription; a canceled subscription is refused naming the state, with nothing sent; a trial_ended one is migrated
 * with the recommended path as a warning and in the outputs; an active one records no warnings.
 */

describe("SubscriptionMigration create", () => {
  let sim: Simulator;
  const { setup, migrationPosts } = migrationSite((started) => {
    sim = started;
  });

  it("create migrates once, sends the defaults explicitly, and exposes the resulting subscription", async () => {
    const { p, id } = await setup();
    const created = await p.create({ subscriptionId: id, productHandle: "pro" });
    expect(created.id).toMatch(new RegExp(`^${id}-`));
    expect(created.outs).toMatchObject({
      subscriptionState: "active",
      previousState: "active",
      productId: 2,
      productHandle: "pro",
      pricePointId: 201,
    });
    for (const k of ["currentPeriodEndsAt", "nextAssessmentAt", "migratedAt"]) expect(Date.parse(created.outs[k])).not.toBeNaN();
    const [post] = postsOf(sim);
    expect((post.body as { migration: object }).migration).toMatchObject({
      product_handle: "pro",
      include_trial: false,
      include_initial_charge: false,
      include_coupons: true,
      preserve_period: false,
    });
    expect(created.outs.request).toMatchObject({ product_handle: "pro", include_coupons: true });
    expect(postsOf(sim)).toHaveLength(1);
  });

  it("create of a canceled subscription: refused naming the property and the state, with nothing sent", async () => {
    const { p } = await setup();
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
    const { p } = await setup();
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
    const { p } = await setup();
    const id = sim.addSubscription({ productHandle: "basic", state: "active" }).id;
    const { result, text } = await captureOutput(() => p.create({ subscriptionId: id, productHandle: "pro" }));
    expect(text).toBe("");
    expect(result!.outs).toMatchObject({ previousState: "active", productHandle: "pro", warnings: [] });
  });
});
