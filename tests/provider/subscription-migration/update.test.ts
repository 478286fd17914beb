import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { UNKNOWN } from "../support";
import { migrationSite, postsOf } from "./site";

/**
 * SubscriptionMigration diff and update: any input change replaces it (a new migration); a change to the product it is
 * on now is refused (by any selector); no change is no change; an update records what is declared (a maximum dropped
 * leaves no key) and the body sent.
 */

describe("SubscriptionMigration update", () => {
  let sim: Simulator;
  const { setup } = migrationSite((started) => {
    sim = started;
  });

  it("diff: any input change replaces; a change to the product in state is refused; no change is no change", async () => {
    const { p, id } = await setup();
    const { outs } = await p.create({ subscriptionId: id, productHandle: "pro" });
    expect(await p.diff!("x", outs, { subscriptionId: id, productHandle: "pro" })).toMatchObject({ changes: false });
    expect(await p.diff!("x", outs, { subscriptionId: id, productHandle: "launch" })).toMatchObject({
      changes: true,
      replaces: ["productHandle"],
    });
    expect(await p.diff!("x", outs, { subscriptionId: id, productHandle: "launch", preservePeriod: true })).toMatchObject({
      changes: true,
      replaces: ["productHandle", "preservePeriod"],
    });
    await expect(p.diff!("x", outs, { subscriptionId: id, productId: 2, pricePointHandle: "pro-annual" })).rejects.toThrow(
      /already on product 'pro'.*price point change/s,
    );
    expect(postsOf(sim)).toHaveLength(1);
  });

  it.each([
    ["the same product by another selector, with maxChargeInCents changed too", { productId: 2, maxChargeInCents: 5 }, undefined],
    ["the same product on another subscription", { subscriptionId: 4242, productHandle: "pro" }, ["subscriptionId"]],
    ["the same product on another site", { productHandle: "pro", site: "eu" }, ["site"]],
    ["the same product by id while the handle is not known yet", { productId: 2, productHandle: UNKNOWN }, ["productId", "productHandle"]],
  ] as const)("diff: %s", async (_, change, replaces) => {
    const { p, id } = await setup();
    const { outs } = await p.create({ subscriptionId: id, productHandle: "pro" });
    const diff = p.diff!("x", outs, { subscriptionId: id, ...change });
    if (replaces === undefined) {
      await expect(diff).rejects.toThrow(
        `subscription ${id} is already on product 'pro' (id 2): the service refuses a migration to the product a subscription already has.`,
      );
    } else {
      expect(await diff).toMatchObject({ changes: true, replaces });
    }
  });

  it("update: a maximum dropped leaves no key for it, and a record without the body sent gets the body", async () => {
    const { p, id } = await setup();
    const created = await p.create({ subscriptionId: id, productHandle: "pro", maxChargeInCents: 1_000_000 });
    const { request, ...withoutBody } = created.outs;
    const updated = await p.update!(created.id, withoutBody, { subscriptionId: id, productHandle: "pro" });
    expect(Object.keys(updated.outs.args)).toEqual(["subscriptionId", "productHandle"]);
    expect(updated.outs.request).toEqual(request);
  });
});
