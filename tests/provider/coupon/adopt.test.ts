import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { captureOutput, mutations } from "../support";
import { couponSite, label, spring } from "./site";

/**
 * Coupon adoption by code: a coupon made in the web UI is adopted and converged; `adopt: false` refuses it (at
 * preview, and at create should preview not have said), but a resumed pending create takes the coupon its own
 * earlier create made; a code held in another family is refused at preview on a first deploy. The code is
 * looked for in the declared family first, then across the site.
 */

describe("Coupon adoption", () => {
  const { setup, held, addons } = couponSite();

  it("adopts a coupon made in the web UI by its code and converges it; adopt: false refuses it at preview", async () => {
    const { coupons, sim } = await setup();
    const web = sim.addCoupon({
      familyHandle: "plans",
      code: "SPRING25",
      name: "Made in the UI",
      percentage: 25,
      restrictedProducts: ["basic"],
    });
    const preview = await coupons.check!({}, spring);
    expect(preview.inputs.preview).toEqual({ adopt: { id: web.id, code: "SPRING25" } });
    const refused = await coupons.check!({}, { ...spring, adopt: false });
    expect(refused.failures).toEqual([
      { property: "code", reason: expect.stringMatching(/already exists at the service and adopt is false/) },
    ]);
    const { result, text } = await captureOutput(() => coupons.create({ ...spring, restrictedProducts: [] }));
    expect(result?.id).toBe(String(web.id));
    expect(text).toContain(`adopted coupon \`SPRING25\` (id ${web.id})`);
    expect(held("SPRING25")).toHaveLength(1);
    expect(held("SPRING25")[0]).toMatchObject({ name: "Spring sale", restrictions: [] });
  });

  it("a code held in another family is refused at preview on a first deploy", async () => {
    const { coupons, families, sim } = await setup();
    await families.create({ handle: "addons", name: "Add-ons" });
    sim.addCoupon({ familyHandle: "addons", code: "SPRING25", percentage: 25 });
    const { failures } = await coupons.check!({}, spring);
    expect(failures).toEqual([
      { property: "productFamily", reason: expect.stringMatching(/another product family.*cannot move a coupon/) },
    ]);
  });

  describe("adopt: false", () => {
    it("a create finding the code held in its family refuses, naming the coupon, and changes nothing", async () => {
      const { coupons, sim } = await setup();
      const web = sim.addCoupon({ familyHandle: "plans", code: "SPRING25", name: "Made in the UI", percentage: 10 });
      sim.reset();
      await expect(coupons.create({ ...spring, adopt: false })).rejects.toThrow(
        new Error(`${label("SPRING25", web.id)} already exists and adopt is false: nothing was changed`),
      );
      expect(mutations(sim)).toEqual([]);
      expect(held("SPRING25")[0]).toMatchObject({ name: "Made in the UI", percentage: "10" });
    });

    it("a resumed pending create finding its coupon takes it, quietly: it is the one the earlier create made", async () => {
      const { coupons, sim } = await setup();
      const inputs = { ...spring, adopt: false };
      // The earlier create's request landed after its read-back had found nothing, so the state is pending.
      const landed = sim.addCoupon({ familyHandle: "plans", code: "SPRING25", name: "Spring sale", percentage: 25 });
      const pending = { code: "SPRING25", args: inputs, pendingToken: "token-1" };
      sim.reset();
      const { result, error, text } = await captureOutput(() => coupons.update!("pending-token-1", pending, inputs));
      expect(error).toBeUndefined();
      expect(text).toBe("");
      expect(result?.outs).toMatchObject({ couponId: landed.id, code: "SPRING25", productFamilyId: landed.familyId });
      expect(result?.outs.pendingToken).toBeUndefined();
      expect(mutations(sim)).toEqual([]);
      expect(held("SPRING25")).toHaveLength(1);
    });
  });

  describe("a code is looked for in the family first, then across the site, archived coupons included", () => {
    const lookups = (sim: Simulator) =>
      sim.requests.filter((r) => r.path.includes("coupons")).map((r) => [`${r.method} ${r.path}`, r.query]);

    it("held in the family: found there, with one request", async () => {
      const { coupons, sim } = await setup();
      const web = sim.addCoupon({ familyHandle: "plans", code: "SPRING25", name: "Web", percentage: 10 });
      sim.reset();
      expect((await coupons.check!({}, spring)).failures).toEqual([]);
      expect(lookups(sim)).toEqual([["GET /coupons/find.json", { code: "SPRING25", product_family_id: String(web.familyId) }]]);
    });

    it("held in another family: the site's list by code says which, and preview refuses", async () => {
      const { coupons, sim, client } = await setup();
      const addonsId = await addons();
      const other = sim.addCoupon({ familyId: addonsId, code: "SPRING25", name: "Add-on", percentage: 10 });
      const plansId = (await client.readProductFamily("handle:plans")).id;
      sim.reset();
      const { failures } = await coupons.check!({}, spring);
      expect(failures).toEqual([
        {
          property: "productFamily",
          reason: `${label("SPRING25", other.id)} exists in another product family (id ${addonsId}, not ${plansId}), and codes are unique within the site: the service cannot move a coupon between families; declare that family, or another code`,
        },
      ]);
      expect(lookups(sim)).toEqual([
        ["GET /coupons/find.json", { code: "SPRING25", product_family_id: String(plansId) }],
        ["GET /coupons.json", { "filter[codes]": "SPRING25", page: "1", per_page: "200" }],
      ]);
    });
  });
});
