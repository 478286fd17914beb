import { describe, expect, it } from "vitest";
import { captureOutput, mutations } from "../support";
import { couponSite, label, spring, steps } from "./site";

/**
 * Coupon delete archives it (the service never deletes one, and keeps its code taken); a second delete sends
 * nothing. A pending create's delete, or one of a state that does not say the family, finds the coupon by its
 * code first: in the family it carries, else across the site.
 */

describe("Coupon delete", () => {
  const { setup, held } = couponSite();

  it("delete archives it; the code stays taken, so declaring it again is a preview error naming the code", async () => {
    const { coupons, sim } = await setup();
    const made = await coupons.create(spring);
    const { text } = await captureOutput(() => coupons.delete!(made.id, made.outs));
    expect(text).toMatch(/archived coupon `SPRING25`/);
    expect(held("SPRING25")[0]?.archivedAt).toEqual(expect.any(String));
    const { failures } = await coupons.check!({}, spring);
    expect(failures).toEqual([{ property: "code", reason: expect.stringMatching(/archived.*cannot unarchive.*another code/) }]);
    // A second delete (a retried destroy) sends nothing.
    sim.reset();
    await coupons.delete!(made.id, made.outs);
    expect(mutations(sim)).toEqual([]);
  });

  describe("delete of a pending create looks for the coupon by its code", () => {
    const pending = { code: "SPRING25", args: spring, pendingToken: "token-1" };

    it("found: archived", async () => {
      const { coupons, sim } = await setup();
      const landed = sim.addCoupon({ familyHandle: "plans", code: "SPRING25", name: "Spring sale", percentage: 25 });
      sim.reset();
      const { error, text } = await captureOutput(() => coupons.delete!("pending-token-1", pending));
      expect(error).toBeUndefined();
      expect(text).toBe(
        `Coupon: archived ${label("SPRING25", landed.id)}; subscriptions using it keep it, and the service keeps its code taken.\n`,
      );
      expect(steps(sim)).toEqual([`DELETE /product_families/${landed.familyId}/coupons/${landed.id}.json`]);
      expect(held("SPRING25")[0]?.archivedAt).toEqual(expect.any(String));
    });

    it("not found: nothing to archive, said so", async () => {
      const { coupons, sim } = await setup();
      sim.reset();
      const { error, text } = await captureOutput(() => coupons.delete!("pending-token-1", pending));
      expect(error).toBeUndefined();
      expect(text).toBe("Coupon: the pending create of `SPRING25` made no coupon; nothing to archive.\n");
      expect(mutations(sim)).toEqual([]);
    });

    it("a pending create's coupon already archived is found and left alone", async () => {
      const { coupons, sim } = await setup();
      sim.addCoupon({ familyHandle: "plans", code: "SPRING25", name: "Spring sale", percentage: 25, archived: true });
      sim.reset();
      const { error, text } = await captureOutput(() =>
        coupons.delete!("pending-token-1", { code: "SPRING25", args: spring, pendingToken: "token-1" }),
      );
      expect(error).toBeUndefined();
      expect(text).toBe("");
      expect(mutations(sim)).toEqual([]);
    });

    it("delete of a pending create that carries a family still looks the coupon up by its code", async () => {
      const { coupons, sim } = await setup();
      const landed = sim.addCoupon({ familyHandle: "plans", code: "SPRING25", name: "Spring sale", percentage: 25 });
      sim.reset();
      const carried = { code: "SPRING25", args: spring, pendingToken: "token-1", productFamilyId: landed.familyId };
      const { error, text } = await captureOutput(() => coupons.delete!("pending-token-1", carried));
      // Asked in the family it carries, found there: the site's list is not needed.
      expect(sim.requests.map((r) => [`${r.method} ${r.path}`, r.query])).toEqual([
        ["GET /coupons/find.json", { code: "SPRING25", product_family_id: String(landed.familyId) }],
        [`GET /product_families/${landed.familyId}/coupons/${landed.id}.json`, {}],
        [`DELETE /product_families/${landed.familyId}/coupons/${landed.id}.json`, {}],
      ]);
      expect(error).toBeUndefined();
      expect(text).toBe(
        `Coupon: archived ${label("SPRING25", landed.id)}; subscriptions using it keep it, and the service keeps its code taken.\n`,
      );
      expect(steps(sim)).toEqual([`DELETE /product_families/${landed.familyId}/coupons/${landed.id}.json`]);
    });
  });

  it("delete with a null family looks the coupon up by its code, then archives it", async () => {
    const { coupons, sim } = await setup();
    const made = await coupons.create(spring);
    const familyId = made.outs.productFamilyId;
    sim.reset();
    const { error, text } = await captureOutput(() => coupons.delete!(made.id, { ...made.outs, productFamilyId: null }));
    // No family to ask in: straight to the site's list by code.
    expect(sim.requests.map((r) => [`${r.method} ${r.path}`, r.query])).toEqual([
      ["GET /coupons.json", { "filter[codes]": "SPRING25", page: "1", per_page: "200" }],
      [`GET /product_families/${familyId}/coupons/${made.id}.json`, {}],
      [`DELETE /product_families/${familyId}/coupons/${made.id}.json`, {}],
    ]);
    expect(error).toBeUndefined();
    expect(text).toBe(
      `Coupon: archived ${label("SPRING25", made.id)}; subscriptions using it keep it, and the service keeps its code taken.\n`,
    );
    expect(steps(sim)).toEqual([`DELETE /product_families/${familyId}/coupons/${made.id}.json`]);
  });
});
