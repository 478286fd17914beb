import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { mutations, UNKNOWN } from "../support";
import { catalogSite, launch, productSite } from "./site";

/**
 * Product check(): what preview says before anything is sent (a handle the service refuses, prices and intervals
 * that are no whole numbers, a trial without its price, a name of only spaces, a family that is no reference; an
 * unknown value hides no other rule), and the ids an in-place update's check carries (as recorded, else read by
 * the product's handle). What preview says of an adoption is in adopt.test.ts.
 */

describe("Product check", () => {
  let sim: Simulator;
  let rockets: { id: number };
  const { setup, made } = productSite((started) => {
    ({ sim, rockets } = started);
  });

  const { providers } = catalogSite((started) => {
    sim = started;
  });

  describe("check names the property before anything is sent", () => {
    it.each([
      ["a handle the service refuses", { ...launch, handle: "Launch Plan" }, "handle", /lowercase/],
      ["a negative price", { ...launch, priceInCents: -1 }, "priceInCents", /0 or more/],
      ["a fractional price", { ...launch, priceInCents: 49.5 }, "priceInCents", /no fractions/],
      ["an interval without its unit", { ...launch, intervalUnit: undefined }, "intervalUnit", /"day" or "month"/],
      [
        "a trial without its price",
        { ...launch, trialInterval: 14, trialIntervalUnit: "day" },
        "trialPriceInCents",
        /required with a trial/,
      ],
      ["a family that is neither an id nor handle:", { ...launch, productFamily: "plans" }, "productFamily", /handle:<handle>/],
    ])("%s", async (_, inputs, property, reason) => {
      const p = await providers();
      const { failures } = await p.products.check!({}, inputs);
      expect(failures?.map((f) => f.property)).toContain(property);
      expect(failures?.find((f) => f.property === property)?.reason).toMatch(reason);
      expect(mutations(sim)).toEqual([]);
    });

    // The service refuses a name of only spaces as blank: at preview, as an empty one.
    it("a name of only spaces", async () => {
      const p = await providers();
      const { failures } = await p.products.check!({}, { ...launch, name: "  \t" });
      expect(failures).toStrictEqual([{ property: "name", reason: "must not be only spaces (a name of 1 to 255 characters)" }]);
      expect(mutations(sim)).toEqual([]);
    });

    it("a fraction does not hide a rule across fields: both are named at once", async () => {
      const p = await providers();
      const { failures } = await p.products.check!({}, { ...launch, interval: 0.5, trialInterval: 7, trialIntervalUnit: "day" });
      expect(failures?.map((f) => f.property).sort()).toEqual(["interval", "trialPriceInCents"]);
    });

    it("an unknown family or price still checks the handle and the rules across fields", async () => {
      const p = await providers();
      const { failures } = await p.products.check!(
        {},
        { ...launch, productFamily: UNKNOWN, handle: "Bad", trialInterval: 3, trialIntervalUnit: "day" },
      );
      expect(failures?.map((f) => f.property).sort()).toEqual(["handle", "trialPriceInCents"]);
    });
  });

  describe("preview of an update carries its ids (stable)", () => {
    it("the ids recorded, without asking the service", async () => {
      const products = await setup();
      made();
      sim.reset();
      const checked = await products.check!({ ...launch, productId: 7, productFamilyId: 9001 }, { ...launch, name: "Rocket II" });
      expect(checked.failures).toEqual([]);
      expect(checked.inputs).toMatchObject({ productId: 7, productFamilyId: 9001 });
      expect(sim.requests).toEqual([]);
    });

    it("none recorded: the product with its handle", async () => {
      const products = await setup();
      const p = made();
      const checked = await products.check!(launch, { ...launch, name: "Rocket II" });
      expect(checked.failures).toEqual([]);
      expect(checked.inputs).toMatchObject({ productId: p.id, productFamilyId: rockets.id });
    });
  });

  describe("without a declared change, check stores what was recorded (a no-change `up` writes nothing, issue 43)", () => {
    it("what a first deploy's preview found (the adoption) and no ids are carried as recorded; nothing is read for them", async () => {
      const products = await setup();
      made();
      const recorded = { ...launch, preview: { adopt: { id: 1, handle: "rocket" } } };
      sim.reset();
      const checked = await products.check!(recorded, launch);
      expect(checked).toStrictEqual({ inputs: recorded, failures: [] });
      expect(sim.requests.filter((r) => /\/products\.json|handle/.test(r.path))).toEqual([]);
    });

    it("a pricing change recorded by the update that applied it is not announced again: the policy pack and the review read it", async () => {
      const products = await setup();
      made();
      const pricingChange = { fields: ["priceInCents"], from: { priceInCents: 3900 }, to: { priceInCents: 4900 } };
      const checked = await products.check!({ ...launch, productId: 1, productFamilyId: rockets.id, preview: { pricingChange } }, launch);
      expect(checked).toStrictEqual({ inputs: { ...launch, productId: 1, productFamilyId: rockets.id }, failures: [] });
    });
  });
});
