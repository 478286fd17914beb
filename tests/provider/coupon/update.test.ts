import { describe, expect, it } from "vitest";
import { coupon } from "../../../provider/kinds/coupon";
import { BillingApiError } from "../../../sdk/errors";
import { captureOutput, mutations } from "../support";
import { couponSite, label, spring, steps } from "./site";

/**
 * Coupon update, in place as the contract allows (code, name, discount, restrictions as sets, end date): the
 * coupon is read first, so a repeated update sends nothing; the service's refusal names the declared fields that
 * differ and each of its reasons; its other failures are the SDK's own; a coupon gone says to refresh.
 */

describe("Coupon update", () => {
  const { setup, held, restricted } = couponSite();

  it("updates in place: code, name, discount and restrictions; a repeated update sends nothing", async () => {
    const { coupons, support, sim } = await setup();
    const made = await coupons.create({ ...spring, restrictedProducts: ["handle:pro", "handle:basic"] });
    sim.reset();
    const news = {
      ...spring,
      code: "SPRING30",
      name: "Bigger spring sale",
      percentage: undefined,
      amountInCents: 3000,
      restrictedProducts: ["handle:launch", "handle:pro"],
      restrictedComponents: [support.id],
    };
    const checked = await coupons.check!(made.outs, news);
    expect(checked.failures).toEqual([]);
    expect(await coupons.diff!(made.id, made.outs, news)).toMatchObject({ changes: true, replaces: [] });
    const { outs } = await coupons.update!(made.id, made.outs, news);
    expect(held("SPRING25")).toEqual([]);
    expect(held("SPRING30")[0]).toMatchObject({ id: Number(made.id), name: "Bigger spring sale", amountInCents: 3000, percentage: null });
    expect(restricted("SPRING30", "Product")).toEqual([2, 3]);
    expect(restricted("SPRING30", "Component")).toEqual([support.id]);
    expect(outs).toMatchObject({ couponId: Number(made.id), code: "SPRING30", restrictedProductIds: [2, 3] });
    expect(steps(sim)).toEqual([`PUT /product_families/${outs.productFamilyId}/coupons/${made.id}.json`]);
    sim.reset();
    await coupons.update!(made.id, outs, news);
    expect(mutations(sim)).toEqual([]);
    expect(await coupons.diff!(made.id, outs, news)).toMatchObject({ changes: false });
  });

  it.each([
    ["a description", "For spring"],
    ["an empty description", ""],
  ])("%s held as declared sends nothing on update", async (_, description) => {
    const { coupons, sim } = await setup();
    const made = await coupons.create({ ...spring, description });
    sim.reset();
    const { outs } = await coupons.update!(made.id, made.outs, { ...spring, description });
    expect(mutations(sim)).toEqual([]);
    expect(outs.description).toBe(description);
  });

  describe("an end date declared as a date, held as a date-time", () => {
    const tenoff = { productFamily: "handle:plans", code: "TENOFF", name: "Ten off", amountInCents: 1000, endDate: "2099-12-31" };

    it("is the same date: an update sends nothing, and no drift is recorded", async () => {
      const { coupons, sim } = await setup();
      const made = await coupons.create(tenoff);
      expect(made.outs.endDate).toBe("2099-12-31T00:00:00Z");
      sim.reset();
      const { outs } = await coupons.update!(made.id, made.outs, tenoff);
      expect(mutations(sim)).toEqual([]);
      expect(outs.endDate).toBe("2099-12-31T00:00:00Z");
      expect(coupon.operations.recordedInputs(made.outs as never).endDate).toBe("2099-12-31");
      expect(await coupons.diff!(made.id, made.outs, tenoff)).toMatchObject({ changes: false });
    });

    it("another date is a change: the update sends it", async () => {
      const { coupons, sim } = await setup();
      const made = await coupons.create(tenoff);
      sim.reset();
      const { outs } = await coupons.update!(made.id, made.outs, { ...tenoff, endDate: "2099-12-30" });
      expect(steps(sim)).toEqual([`PUT /product_families/${made.outs.productFamilyId}/coupons/${made.id}.json`]);
      expect(outs.endDate).toBe("2099-12-30T00:00:00Z");
      expect(held("TENOFF")[0]?.endDate).toBe("2099-12-30T00:00:00Z");
    });
  });

  describe("the service's refusal, its other failures, a coupon gone", () => {
    it("a refusal names the declared fields that differ and each of the service's reasons; nothing changes", async () => {
      const { coupons, sim } = await setup();
      const made = await coupons.create(spring);
      sim.addCoupon({ familyHandle: "plans", code: "LIVE10", name: "Live", percentage: 10 });
      sim.reset();
      const news = { ...spring, code: "LIVE10", name: "Renamed", endDate: "2000-01-01" };
      await expect(coupons.update!(made.id, made.outs, news)).rejects.toThrow(
        new Error(
          "Coupon `LIVE10`: the service refused the update of code, name, endDate: code: must be unique - that value has been taken.; Expiration Date cannot be in the past (nothing was changed)",
        ),
      );
      expect(steps(sim)).toEqual([`PUT /product_families/${made.outs.productFamilyId}/coupons/${made.id}.json`]);
      expect(held("SPRING25")[0]).toMatchObject({ id: Number(made.id), name: "Spring sale", endDate: null });
    });

    it("a refusal of the restrictions names both properties", async () => {
      const { coupons, sim } = await setup();
      const made = await coupons.create(spring);
      sim.reset();
      const news = { ...spring, restrictedProducts: [999], restrictedComponents: [998] };
      await expect(coupons.update!(made.id, made.outs, news)).rejects.toThrow(
        new Error(
          "Coupon `SPRING25`: the service refused the update of restrictedProducts, restrictedComponents: Restricted products: no product has id 999.; Restricted components: no component has id 998. (nothing was changed)",
        ),
      );
    });

    it("a failure other than a refusal is the SDK's own, as it was thrown", async () => {
      const { coupons, sim } = await setup();
      const made = await coupons.create(spring);
      const path = `/product_families/${made.outs.productFamilyId}/coupons/${made.id}.json`;
      sim.injectFault({ kind: "status", status: 500, rate: 1, match: { method: "PUT" } });
      const { error } = await captureOutput(() => coupons.update!(made.id, made.outs, { ...spring, name: "Renamed" }));
      expect(error).toBeInstanceOf(BillingApiError);
      expect((error as BillingApiError).status).toBe(500);
      expect((error as Error).message).toBe(
        `PUT ${path} failed with 500: Internal Server Error; it may or may not have been applied (the read-back could not confirm it), so read it back before relying on either`,
      );
      sim.clearFaults();
      expect(held("SPRING25")[0]?.name).toBe("Spring sale");
    });

    it("a coupon the site no longer has: says to refresh, sends nothing", async () => {
      const { coupons, sim } = await setup();
      const made = await coupons.create(spring);
      const gone = Number(made.id) + 1000;
      sim.reset();
      await expect(coupons.update!(String(gone), { ...made.outs, couponId: gone }, { ...spring, name: "Renamed" })).rejects.toThrow(
        new Error(`${label("SPRING25", gone)} no longer exists at the service: run \`pulumi refresh\` to drop it (nothing was changed)`),
      );
      expect(mutations(sim)).toEqual([]);
    });

    it("a read that fails otherwise is not taken for a coupon gone: the failure is the SDK's own", async () => {
      const { coupons, sim } = await setup();
      const made = await coupons.create(spring);
      const path = `/product_families/${made.outs.productFamilyId}/coupons/${made.id}.json`;
      sim.injectFault({ kind: "status", status: 500, rate: 1, match: { method: "GET", path } });
      const { error } = await captureOutput(() => coupons.update!(made.id, made.outs, { ...spring, name: "Renamed" }));
      expect(error).toBeInstanceOf(BillingApiError);
      expect((error as Error).message).toBe(`GET ${path} failed with 500: Internal Server Error`);
      sim.clearFaults();
      expect(mutations(sim).filter((r) => r.method === "PUT")).toEqual([]);
    });
  });
});
