import { describe, expect, it } from "vitest";
import { mutations, pathsOf, reasonAt, UNKNOWN } from "../support";
import { couponSite, label, spring } from "./site";

/**
 * Coupon check(): what preview says before anything is sent. A declaration's own faults name their property
 * (the code's characters, one discount, references that are no references), restricted handles the site has
 * no object for are named with the handle, unknown values wait; an in-place new code must be free (archived
 * coupons keep theirs); an in-place update carries the coupon's ids so that what takes them stays known.
 */

describe("Coupon check", () => {
  const { setup } = couponSite();

  describe("check names the property before anything is sent", () => {
    it.each([
      ["a lowercase code, with its uppercase form", { ...spring, code: "spring25" }, "code", /uppercase: "SPRING25"/],
      ["a code with a space", { ...spring, code: "SPRING 25" }, "code", /uppercase letters, digits/],
      ["both a percentage and an amount", { ...spring, amountInCents: 500 }, "amountInCents", /percentage or an amount, not both/],
      ["neither a percentage nor an amount", { ...spring, percentage: undefined }, "percentage", /or amountInCents is required/],
      ["a percentage above 100", { ...spring, percentage: 150 }, "percentage", /at most 100/],
      ["a duration on a one-off coupon", { ...spring, durationPeriodCount: 3 }, "recurring", /must be true with durationPeriodCount/],
      ["a restriction that is no reference", { ...spring, restrictedProducts: ["pro"] }, "restrictedProducts.0", /handle:<handle>/],
      ["a family that is neither an id nor handle:", { ...spring, productFamily: "plans" }, "productFamily", /handle:<handle>/],
    ])("%s", async (_, inputs, property, reason) => {
      const { coupons, sim } = await setup();
      const { failures } = await coupons.check!({}, inputs);
      expect(pathsOf(failures)).toContain(property);
      expect(reasonAt(failures, property)).toMatch(reason);
      expect(mutations(sim)).toEqual([]);
    });

    it("a restricted handle the site has no product or component for is named, with the handle", async () => {
      const { coupons, sim } = await setup();
      const { failures } = await coupons.check!(
        {},
        { ...spring, restrictedProducts: ["handle:pro", "handle:nosuch"], restrictedComponents: ["handle:support", "handle:gone"] },
      );
      expect(failures).toEqual([
        { property: "restrictedProducts", reason: expect.stringMatching(/no product has the handle `nosuch`.*pass the Product/) },
        { property: "restrictedComponents", reason: expect.stringMatching(/no component has the handle `gone`/) },
      ]);
      expect(mutations(sim)).toEqual([]);
    });

    it("unknown values at preview are set aside: a restriction still unknown is not checked, the known ones are", async () => {
      const { coupons } = await setup();
      const unknown = await coupons.check!({}, { ...spring, code: UNKNOWN, restrictedProducts: [UNKNOWN, "handle:pro"] });
      expect(unknown.failures).toEqual([]);
      const bad = await coupons.check!({}, { ...spring, restrictedProducts: [UNKNOWN, "handle:nosuch"] });
      expect(pathsOf(bad.failures)).toEqual(["restrictedProducts"]);
    });
  });

  describe("a new code, in place, must be free", () => {
    it("a new code another coupon holds (archived ones keep theirs) fails at preview", async () => {
      const { coupons, sim } = await setup();
      const made = await coupons.create(spring);
      sim.addCoupon({ familyHandle: "plans", code: "OLD10", percentage: 10, archived: true });
      const { failures } = await coupons.check!(made.outs, { ...spring, code: "OLD10" });
      expect(failures).toEqual([
        { property: "code", reason: expect.stringMatching(/taken by coupon `OLD10`.*archived.*choose another code/) },
      ]);
    });

    it("a new code taken by a live coupon is a preview error that says nothing of archiving", async () => {
      const { coupons, sim } = await setup();
      const made = await coupons.create(spring);
      const live = sim.addCoupon({ familyHandle: "plans", code: "LIVE10", percentage: 10 });
      const { failures } = await coupons.check!(spring, { ...spring, code: "LIVE10" });
      expect(failures).toEqual([
        { property: "code", reason: `the code \`LIVE10\` is taken by ${label("LIVE10", live.id)}: choose another code` },
      ]);
      expect(made.outs.code).toBe("SPRING25");
    });
  });

  describe("check of an in-place update carries the coupon's ids", () => {
    it("from the earlier checked inputs, without asking the service", async () => {
      const { coupons, sim } = await setup();
      const made = await coupons.create(spring);
      const ids = { couponId: Number(made.id), productFamilyId: made.outs.productFamilyId };
      sim.reset();
      const news = { ...spring, name: "Renamed" };
      expect(await coupons.check!({ ...spring, ...ids }, news)).toEqual({ inputs: { ...news, ...ids }, failures: [] });
      // The family's handle is read to check the new code against it; no coupon is looked for.
      expect(sim.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /product_families/handle:plans.json"]);
    });

    it("looked up by code when the earlier inputs do not carry them", async () => {
      const { coupons } = await setup();
      const made = await coupons.create(spring);
      const news = { ...spring, name: "Renamed" };
      expect(await coupons.check!(spring, news)).toEqual({
        inputs: { ...news, couponId: Number(made.id), productFamilyId: made.outs.productFamilyId },
        failures: [],
      });
    });
  });
});
