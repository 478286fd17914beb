import { describe, expect, it } from "vitest";
import { BillingApiError } from "../../../sdk/errors";
import { captureOutput, mutations } from "../support";
import { couponSite, label, spring } from "./site";

/**
 * Coupon replacement: a new family is a new coupon (the service cannot move one), made in the order that never
 * leaves the code unusable: the old coupon's code freed (renamed, keeping everything else it holds), the new one
 * created, the old one archived. The same family written another way is refused rather than replaced.
 */

describe("Coupon replacement", () => {
  const { setup, held, addons } = couponSite();

  it("a new family replaces it: the old coupon's code is freed first, the new one created there, the old one archived", async () => {
    const { coupons, families, sim } = await setup();
    const addonsFamily = await families.create({ handle: "addons", name: "Add-ons" });
    const old = await coupons.create(spring);
    const news = { ...spring, productFamily: "handle:addons" };
    expect((await coupons.check!(old.outs, news)).failures).toEqual([]);
    expect(await coupons.diff!(old.id, old.outs, news)).toMatchObject({ changes: true, replaces: ["productFamily"] });
    // As the engine replaces: create the new one, then delete the old one.
    const { result: made, text } = await captureOutput(() => coupons.create(news));
    expect(text).toMatch(/renamed `SPRING25-REPLACED-\d+` to free its code/);
    await coupons.delete!(old.id, old.outs);
    const live = sim.coupons().filter((c) => c.archivedAt === null);
    expect(live.map((c) => [c.code, c.familyId])).toEqual([["SPRING25", Number(addonsFamily.id)]]);
    expect(made?.id).toBe(String(live[0]?.id));
    const replaced = sim.coupons().find((c) => c.id === Number(old.id));
    expect(replaced).toMatchObject({ code: `SPRING25-REPLACED-${old.id}`, archivedAt: expect.any(String) });
  });

  it("the replaced coupon is archived as soon as its replacement exists; the engine's delete of it then sends nothing", async () => {
    const { coupons, sim } = await setup();
    await addons();
    const old = await coupons.create(spring);
    const { result, error, text } = await captureOutput(() => coupons.create({ ...spring, productFamily: "handle:addons" }));
    expect(error).toBeUndefined();
    expect(text).toContain(
      `Coupon: archived the replaced ${label(`SPRING25-REPLACED-${old.id}`, old.id)}; subscriptions using it keep it.`,
    );
    expect(sim.coupons().find((c) => c.id === Number(old.id))?.archivedAt).toEqual(expect.any(String));
    expect(result?.outs.todo).toBeUndefined();
    sim.reset();
    const deleted = await captureOutput(() => coupons.delete!(old.id, old.outs));
    expect(deleted.error).toBeUndefined();
    expect(deleted.text).toBe("");
    expect(mutations(sim)).toEqual([]);
  });

  it("adopt: false refuses adopting, not the move of its own coupon: the replaced one still gives up its code", async () => {
    const { coupons, sim } = await setup();
    const addonsId = await addons();
    const declared = { ...spring, adopt: false };
    const old = await coupons.create(declared);
    const news = { ...declared, productFamily: "handle:addons" };
    expect((await coupons.check!(old.outs, news)).failures).toEqual([]);
    const { result, error } = await captureOutput(() => coupons.create(news));
    expect(error).toBeUndefined();
    expect(result?.outs).toMatchObject({ code: "SPRING25", productFamilyId: addonsId, args: news });
    expect(held("SPRING25").map((c) => [c.id, c.familyId, c.archivedAt])).toEqual([[Number(result?.id), addonsId, null]]);
    expect(sim.coupons().find((c) => c.id === Number(old.id))).toMatchObject({ code: `SPRING25-REPLACED-${old.id}` });
  });

  it("the same family written another way is refused at preview instead of replacing the coupon", async () => {
    const { coupons } = await setup();
    const made = await coupons.create(spring);
    await expect(coupons.diff!(made.id, made.outs, { ...spring, productFamily: made.outs.productFamilyId })).rejects.toThrow(
      /which is the same family.*write it as before/,
    );
  });

  describe("the old coupon's code is freed first", () => {
    it("a count is added while the freed code is taken", async () => {
      const { coupons, sim } = await setup();
      const addonsId = await addons();
      const old = await coupons.create(spring);
      sim.addCoupon({ familyHandle: "plans", code: `SPRING25-REPLACED-${old.id}`, percentage: 5 });
      const { result, error, text } = await captureOutput(() => coupons.create({ ...spring, productFamily: "handle:addons" }));
      expect(error).toBeUndefined();
      expect(text).toContain(
        `Coupon: ${label("SPRING25", old.id)} is renamed \`SPRING25-REPLACED-${old.id}-1\` to free its code for its replacement (productFamily); it is archived once the new one exists.`,
      );
      expect(sim.coupons().find((c) => c.id === Number(old.id))?.code).toBe(`SPRING25-REPLACED-${old.id}-1`);
      expect(held("SPRING25").map((c) => [c.id, c.familyId])).toEqual([[Number(result?.id), addonsId]]);
    });

    it("a code of 255 characters is cut so that the freed one stays at 255", async () => {
      const { coupons, sim } = await setup();
      await addons();
      const code = "A".repeat(255);
      const old = await coupons.create({ ...spring, code });
      const { error } = await captureOutput(() => coupons.create({ ...spring, code, productFamily: "handle:addons" }));
      expect(error).toBeUndefined();
      const suffix = `-REPLACED-${old.id}`;
      expect(sim.coupons().find((c) => c.id === Number(old.id))?.code).toBe(`${"A".repeat(255 - suffix.length)}${suffix}`);
    });

    it("a freed code held by an archived coupon is taken: a count is added", async () => {
      const { coupons, sim } = await setup();
      await addons();
      const old = await coupons.create(spring);
      sim.addCoupon({ familyHandle: "plans", code: `SPRING25-REPLACED-${old.id}`, percentage: 5, archived: true });
      const { error } = await captureOutput(() => coupons.create({ ...spring, productFamily: "handle:addons" }));
      expect(error).toBeUndefined();
      expect(sim.coupons().find((c) => c.id === Number(old.id))?.code).toBe(`SPRING25-REPLACED-${old.id}-1`);
    });

    it("the old coupon keeps its name, its past end date and its recurrence through the rename", async () => {
      const { coupons, sim } = await setup();
      const addonsId = await addons();
      const old = sim.addCoupon({
        familyHandle: "plans",
        code: "SPRING25",
        name: "Old spring",
        description: "Last year's",
        amountInCents: 500,
        recurring: true,
        durationPeriodCount: 3,
        stackable: true,
        endDate: "2001-01-01T00:00:00Z",
      });
      const { result, error } = await captureOutput(() => coupons.create({ ...spring, productFamily: addonsId }));
      expect(error).toBeUndefined();
      expect(result?.outs.productFamilyId).toBe(addonsId);
      const renamed = sim.coupons().find((c) => c.id === old.id);
      expect(renamed).toMatchObject({
        code: `SPRING25-REPLACED-${old.id}`,
        name: "Old spring",
        description: "Last year's",
        amountInCents: 500,
        percentage: null,
        recurring: true,
        durationPeriodCount: 3,
        stackable: true,
        endDate: "2001-01-01T00:00:00Z",
      });
    });

    it("an old coupon without a name is sent its code as the name", async () => {
      const { coupons, sim } = await setup();
      await addons();
      const old = sim.addCoupon({ familyHandle: "plans", code: "SPRING25", name: "", percentage: 10 });
      const { error } = await captureOutput(() => coupons.create({ ...spring, productFamily: "handle:addons" }));
      expect(error).toBeUndefined();
      expect(sim.coupons().find((c) => c.id === old.id)?.name).toBe("SPRING25");
    });

    it("a create refused after the rename says the old coupon holds the freed code now", async () => {
      const { coupons, sim } = await setup();
      const addonsId = await addons();
      const old = await coupons.create(spring);
      sim.reset();
      const { error } = await captureOutput(() => coupons.create({ ...spring, productFamily: "handle:addons", endDate: "2000-01-01" }));
      expect((error as Error).message).toBe(
        `POST /product_families/${addonsId}/coupons.json failed with 422: Expiration Date cannot be in the past. The old coupon holds the code \`SPRING25-REPLACED-${old.id}\` now. The create was not applied; the next \`pulumi up\` creates it.`,
      );
      expect(sim.coupons().map((c) => c.code)).toEqual([`SPRING25-REPLACED-${old.id}`]);
    });

    it("a create refused with nothing renamed is the SDK's own failure, as it was thrown", async () => {
      const { coupons, sim } = await setup();
      const addonsId = await addons();
      const { error } = await captureOutput(() => coupons.create({ ...spring, productFamily: "handle:addons", endDate: "2000-01-01" }));
      expect(error).toBeInstanceOf(BillingApiError);
      expect((error as Error).message).toBe(
        `POST /product_families/${addonsId}/coupons.json failed with 422: Expiration Date cannot be in the past`,
      );
      expect(sim.coupons()).toEqual([]);
    });
  });
});
