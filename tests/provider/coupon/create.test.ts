import { describe, expect, it } from "vitest";
import { mutations } from "../support";
import { couponSite, spring } from "./site";

/**
 * Coupon create: a percentage or an amount coupon with its options as given, restrictions given by handle (or
 * id, in any order) and held by the service as its own ids; a family or a restriction that names nothing is
 * refused before anything is sent. Every assertion on the service reads what it holds.
 */

describe("Coupon create", () => {
  const { setup, held, restricted } = couponSite();

  it("creates a percentage coupon restricted by handle: the service holds the site's ids", async () => {
    const { coupons, support } = await setup();
    const { id, outs } = await coupons.create({
      ...spring,
      recurring: true,
      durationPeriodCount: 3,
      restrictedProducts: ["handle:pro", 1],
      restrictedComponents: ["handle:support"],
    });
    expect(held("SPRING25")).toHaveLength(1);
    expect(held("SPRING25")[0]).toMatchObject({
      id: Number(id),
      percentage: "25",
      amountInCents: null,
      recurring: true,
      durationPeriodCount: 3,
    });
    expect(restricted("SPRING25", "Product")).toEqual([1, 2]);
    expect(restricted("SPRING25", "Component")).toEqual([support.id]);
    expect(outs).toMatchObject({
      couponId: Number(id),
      code: "SPRING25",
      percentage: 25,
      amountInCents: null,
      restrictedProductIds: [1, 2],
      restrictedComponentIds: [support.id],
      archivedAt: null,
    });
    // The same restrictions in another order, one by id instead of handle, is no change.
    const diff = await coupons.diff!(id, outs, {
      ...spring,
      recurring: true,
      durationPeriodCount: 3,
      restrictedProducts: [1, "handle:pro"],
      restrictedComponents: ["handle:support"],
    });
    expect(diff.changes).toBe(false);
  });

  it("creates an amount coupon with its options as given", async () => {
    const { coupons } = await setup();
    const { outs } = await coupons.create({
      productFamily: "handle:plans",
      code: "TENOFF",
      name: "Ten off",
      amountInCents: 1000,
      stackable: true,
      compoundingStrategy: "full-price",
      allowNegativeBalance: true,
      endDate: "2099-12-31",
    });
    expect(held("TENOFF")[0]).toMatchObject({
      amountInCents: 1000,
      percentage: null,
      stackable: true,
      compoundingStrategy: "full-price",
      allowNegativeBalance: true,
      endDate: "2099-12-31T00:00:00Z",
    });
    expect(outs).toMatchObject({ amountInCents: 1000, percentage: null, endDate: "2099-12-31T00:00:00Z", restrictedProductIds: [] });
  });

  describe("a create refuses what names nothing, before anything is sent", () => {
    it.each([
      [
        "a family id the site does not have",
        { ...spring, productFamily: 999 },
        (host: string) => `productFamily: no product family has the id 999 at site ${host} (nothing was changed)`,
      ],
      [
        "a family handle the site does not have",
        { ...spring, productFamily: "handle:nosuch" },
        (host: string) =>
          `productFamily: no product family has the handle \`nosuch\` at site ${host}: declare a ProductFamily and pass its familyId (nothing was changed)`,
      ],
      [
        "a restricted component handle the site does not have",
        { ...spring, restrictedComponents: ["handle:nosuch"] },
        (host: string) =>
          `restrictedComponents: no component has the handle \`nosuch\` at site ${host}: each entry must be an existing component's id or "handle:<handle>"; for a Component declared in the same program, pass the Component (or its componentId) so that it is created first (nothing was changed)`,
      ],
    ])("%s", async (_, inputs, message) => {
      const { coupons, host, sim } = await setup();
      await expect(coupons.create(inputs)).rejects.toThrow(new Error(message(host)));
      expect(mutations(sim)).toEqual([]);
      expect(sim.coupons()).toEqual([]);
    });
  });
});
