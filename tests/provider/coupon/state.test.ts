import { describe, expect, it } from "vitest";
import { coupon, outputsOf } from "../../../provider/kinds/coupon";
import { context, couponSite, type Props, recorded, spring } from "./site";

/**
 * What the Coupon kind records: its outputs as the service answers them (an amount coupon's percentage null, a
 * code the answer lacks empty, the site only when one was named), the declared args only, restriction lists as
 * sets (ids ascending, then handles ascending, each once), the family's handle, and the ids the declared
 * restrictions resolved to (none for a restriction left out).
 */

const ids: Record<string, number> = { "handle:basic": 1, "handle:pro": 2, "handle:launch": 3 };

describe("Coupon state", () => {
  const { setup } = couponSite();

  describe("a restriction list is recorded as a set: ids ascending, then handles ascending, each once", () => {
    it.each([
      [
        [3, 2, 1],
        [1, 2, 3],
      ],
      [
        [2, 3, 1, 3],
        [1, 2, 3],
      ],
      [
        ["handle:pro", "handle:basic", "handle:launch"],
        ["handle:basic", "handle:launch", "handle:pro"],
      ],
      [
        ["handle:pro", 3, "handle:basic", 1, "handle:pro", 2],
        [1, 2, 3, "handle:basic", "handle:pro"],
      ],
      [
        ["handle:launch", 2],
        [2, "handle:launch"],
      ],
      [
        [2, "handle:launch"],
        [2, "handle:launch"],
      ],
    ])("%j -> %j", async (given, want) => {
      const { coupons } = await setup();
      const { outs } = await coupons.create({ ...spring, restrictedProducts: given });
      expect((outs.args as Props).restrictedProducts).toEqual(want);
      expect(outs.restrictedProductIds).toEqual([...new Set(given.map((r) => (typeof r === "number" ? r : ids[r])))].sort());
    });
  });

  it("an amount coupon's percentage is null, not a number", async () => {
    const { coupons } = await setup();
    const { outs } = await coupons.create({ productFamily: "handle:plans", code: "TENOFF", name: "Ten off", amountInCents: 1000 });
    expect(outs.percentage).toBe(null);
    expect(outs.amountInCents).toBe(1000);
    expect(recorded(outs).percentage).toBe(undefined);
  });

  it("the kind's outputs of a coupon whose answer carries no code: the code is empty", async () => {
    const { sim, client } = await setup();
    const web = sim.addCoupon({ familyHandle: "plans", code: "WEB5", name: "Web", percentage: 5 });
    const read = await client.readCoupon(web.familyId, web.id);
    expect(outputsOf({ ...read, code: undefined }, undefined)).toEqual({ ...outputsOf(read, undefined), code: "" });
    expect(outputsOf(read, undefined).code).toBe("WEB5");
  });

  describe("the recorded state", () => {
    it("holds only the declared args, no site, and no resolved ids for restrictions left out", async () => {
      const { client } = await setup();
      const ctx = context(client);
      const inputs = coupon.kind.inputs.parse(spring);
      const { state } = (await coupon.operations.create(ctx, inputs)) as { state: Props };
      expect(state.args).toStrictEqual(spring);
      expect("site" in state).toBe(false);
      expect("resolvedProductIds" in state).toBe(false);
      expect("resolvedComponentIds" in state).toBe(false);
      expect(state.productFamilyHandle).toBe("plans");
    });

    it("holds the ids the declared restrictions resolved to, and the family's handle read for an id", async () => {
      const { coupons, support } = await setup();
      const first = await coupons.create({
        ...spring,
        restrictedProducts: ["handle:pro", 1],
        restrictedComponents: ["handle:support"],
      });
      expect(first.outs.resolvedProductIds).toEqual([1, 2]);
      expect(first.outs.resolvedComponentIds).toEqual([support.id]);
      expect(first.outs.productFamilyHandle).toBe("plans");
      const byId = { productFamily: first.outs.productFamilyId, code: "BYID", name: "By id", amountInCents: 100 };
      const second = await coupons.create(byId);
      expect(second.outs.productFamilyHandle).toBe("plans");
      expect(second.outs.resolvedProductIds).toBe(undefined);
      expect(second.outs.resolvedComponentIds).toBe(undefined);
    });

    it("outputs name the site only when one was named", async () => {
      const { sim, client } = await setup();
      const web = sim.addCoupon({ familyHandle: "plans", code: "WEB5", name: "Web", percentage: 5 });
      const read = await client.readCoupon(web.familyId, web.id);
      expect("site" in outputsOf(read, undefined)).toBe(false);
      expect(outputsOf(read, "eu").site).toBe("eu");
    });
  });
});
