import * as pulumi from "@pulumi/pulumi";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { SubscriptionMigrationArgs } from "../../../provider";
import type { Simulator } from "../../../simulator";
import { UNKNOWN } from "../support";
import { migrationSite } from "./site";

/**
 * SubscriptionMigration check(): the inputs' own faults (a subscription id that is no positive integer, no product or
 * both selectors, two price point selectors, wrong types, unknown inputs) fail on their property before anything is
 * read; unknown values pass, and with the subscription, the target product or the site unknown nothing is read;
 * targets given as numbers (the catalog kinds' outputs) pass. What preview judges of the subscription is in
 * eligibility.test.ts, of the charge in charge.test.ts.
 */

describe("SubscriptionMigration check", () => {
  let sim: Simulator;
  const { setup } = migrationSite((started) => {
    sim = started;
  });

  it.each([
    [{ productHandle: "pro" }, "subscriptionId", /./],
    [{ subscriptionId: 0, productHandle: "pro" }, "subscriptionId", /positive integer id/],
    [{ subscriptionId: 1.5, productHandle: "pro" }, "subscriptionId", /positive integer id/],
    [{ subscriptionId: "SUB" }, "productId", /exactly one/],
    [{ subscriptionId: "SUB", productId: 2, productHandle: "pro" }, "productId", /exactly one/],
    [{ subscriptionId: "SUB", productHandle: "pro", pricePointId: 201, pricePointHandle: "pro-monthly" }, "pricePointId", /at most one/],
    [{ subscriptionId: "SUB", productId: -1 }, "productId", /positive integer/],
    [{ subscriptionId: "SUB", productHandle: "pro", includeCoupons: "no" }, "includeCoupons", /true or false/],
    [{ subscriptionId: "SUB", productHandle: "pro", colour: "red" }, "colour", /not an input/],
  ])("check %o fails on %s, sending nothing", async (news, property, reason) => {
    const { p, id } = await setup();
    const input = Object.fromEntries(Object.entries(news).map(([k, v]) => [k, v === "SUB" ? id : v]));
    const { failures } = await p.check!({}, input);
    const f = failures?.find((x) => x.property === property || x.property.endsWith(`.${property}`));
    expect(f, JSON.stringify(failures)).toBeDefined();
    expect(f!.reason).toMatch(reason);
    expect(sim.requests).toHaveLength(0);
  });

  it("property: both productId and productHandle always fail naming the product selector, before sending", async () => {
    const { p, id } = await setup();
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 1e6 }),
        fc.string({ minLength: 1, maxLength: 20 }),
        fc.option(fc.boolean(), { nil: undefined }),
        async (productId, productHandle, includeTrial) => {
          const { failures } = await p.check!(
            {},
            { subscriptionId: id, productId, productHandle, ...(includeTrial === undefined ? {} : { includeTrial }) },
          );
          expect(failures?.some((f) => /product(Id|Handle)/.test(f.property) && /exactly one/.test(f.reason))).toBe(true);
        },
      ),
      { numRuns: 50 },
    );
    expect(sim.requests).toHaveLength(0);
  });

  it("unknown values pass check during preview (and nothing is read)", async () => {
    const { p } = await setup();
    expect((await p.check!({}, { subscriptionId: UNKNOWN, productHandle: UNKNOWN, includeTrial: UNKNOWN })).failures).toEqual([]);
    expect(sim.requests).toHaveLength(0);
  });

  it("the subscription, the target product or the site unknown: nothing can be judged, nothing is read", async () => {
    const { p, id } = await setup("canceled", {});
    for (const news of [
      { subscriptionId: UNKNOWN, productHandle: "basic", pricePointId: UNKNOWN },
      { subscriptionId: id, productId: UNKNOWN, preservePeriod: true },
      { subscriptionId: id, productHandle: "pro", includeTrial: UNKNOWN, site: UNKNOWN },
    ]) {
      expect((await p.check!({}, news)).failures).toEqual([]);
    }
    expect(sim.requests).toHaveLength(0);
  });

  it("targets given as numbers, as the catalog kinds' outputs (productId, pricePointId) are, pass check", async () => {
    const { p, id } = await setup();
    const { failures, inputs } = await p.check!({}, { subscriptionId: id, productId: 2, pricePointId: 202, preservePeriod: true });
    expect(failures).toEqual([]);
    expect(inputs?.preview).toMatchObject({ subscriptionState: "active", productId: 1 });
    // And the resource's args take those outputs as they are (a type check: Output<number> where a number goes).
    const args: SubscriptionMigrationArgs = { subscriptionId: id, productId: pulumi.output(2), pricePointId: pulumi.output(202) };
    expect(Object.keys(args)).toEqual(["subscriptionId", "productId", "pricePointId"]);
  });
});
