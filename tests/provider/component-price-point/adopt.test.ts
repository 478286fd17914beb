import { afterEach, describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { captureOutput } from "../support";
import { AFFECTS, heldIn, label, OVERAGE, prepaid, startSite, steps, VOLUME, volume } from "./site";

/**
 * ComponentPricePoint's adoption: an archived one unarchived and adopted, one made in the web UI converged in place
 * (announced at preview with its pricing change), adopt: false refused; a prepaid one's terms the answer does not show.
 */

describe("ComponentPricePoint: adoption", () => {
  let sim: Simulator;
  afterEach(async () => sim?.close());

  /** Metered `texts` and prepaid `credits` in family `rockets`, the provider configured for the site (site.ts). */
  async function setup(config?: (url: string) => Record<string, string>) {
    const site = await startSite(config);
    sim = site.sim;
    return site;
  }
  const held = (componentId: number, id: number | string) => heldIn(sim, componentId, { id });
  const heldByHandle = (componentId: number, handle: string) => heldIn(sim, componentId, { handle });

  it("an archived price point with the handle is unarchived and adopted; at preview it is announced", async () => {
    const { points, texts } = await setup();
    const { id, outs } = await points.create!(volume);
    await points.delete!(id, outs);
    const checked = await points.check!({}, volume);
    expect(checked.inputs.preview).toEqual({ adopt: { id: Number(id), handle: "texts-volume", unarchive: true } });
    sim.reset();
    const { result, text } = await captureOutput(() => points.create!(volume));
    expect(result?.id).toBe(id);
    expect(text).toMatch(/unarchived component price point `texts-volume`/);
    expect(steps(sim)).toEqual([`PUT /components/${texts.id}/price_points/${id}/unarchive.json`]);
    expect(heldByHandle(texts.id, "texts-volume")?.archivedAt).toBeNull();
  });

  it("adopting one made in the web UI converges its prices in place; adopt: false makes the handle a preview error", async () => {
    const { points, texts } = await setup();
    const made = sim.addComponentPricePoint(
      { componentHandle: "texts" },
      { handle: "texts-volume", name: "Volume", pricingScheme: "volume", prices: [{ startingQuantity: 1, unitPrice: "0.07" }] },
    );
    const refused = await points.check!({}, { ...volume, adopt: false });
    expect(refused.failures?.[0]).toMatchObject({ property: "handle" });
    expect(refused.failures?.[0]?.reason).toMatch(/already exists at the service and adopt is false: choose another handle/);
    await expect(points.create!({ ...volume, adopt: false })).rejects.toThrow(/adopt is false: nothing was changed/);
    const previewed = await points.check!({}, volume);
    expect(previewed.inputs.preview).toMatchObject({ adopt: { id: made.id }, pricingChange: { fields: ["prices"] } });
    sim.reset();
    const { result, text } = await captureOutput(() => points.create!(volume));
    expect(result?.id).toBe(String(made.id));
    expect(text).toContain(`adopted component price point \`texts-volume\` (id ${made.id})`);
    expect(steps(sim)).toEqual([`PUT /components/${texts.id}/price_points/${made.id}.json`]);
    expect(heldByHandle(texts.id, "texts-volume")?.prices.map((p) => Number(p.unitPrice))).toEqual([0.05, 0.03]);
  });

  describe("adopting a prepaid price point: its prepaid terms, as the service's answer shows them", () => {
    it("none declared: adopted, no replacement", async () => {
      const { points, credits } = await setup();
      const made = sim.addComponentPricePoint(
        { componentHandle: "credits" },
        { handle: "credits-bulk", name: "Bulk credits", pricingScheme: "per_unit", prices: [{ startingQuantity: 1, unitPrice: 2 }] },
      );
      sim.reset();
      const { result, error } = await captureOutput(() => points.create!(prepaid));
      expect(error).toBeUndefined();
      expect(result?.id).toBe(String(made.id));
      expect(steps(sim)).toEqual([]);
      expect(held(credits.id, made.id)?.archivedAt).toBeNull();
    });

    it("its overage declared otherwise: the old one renamed and replaced, the notice naming what cannot change in place (the rollover it holds, as its answer says, is no difference)", async () => {
      const { points, credits } = await setup();
      const made = sim.addComponentPricePoint(
        { componentHandle: "credits" },
        {
          handle: "credits-bulk",
          name: "Bulk credits",
          pricingScheme: "per_unit",
          prices: [{ startingQuantity: 1, unitPrice: 2 }],
          rolloverPrepaidRemainder: true,
        },
      );
      sim.reset();
      const { result, error, text } = await captureOutput(() =>
        points.create!({ ...prepaid, rolloverPrepaidRemainder: true, overagePricing: OVERAGE }),
      );
      expect(error).toBeUndefined();
      expect(text).toContain(
        `ComponentPricePoint: ${label("credits-bulk", made.id)} is renamed \`credits-bulk-replaced-${made.id}\` to free its handle for its replacement (overagePricing); it is archived once the new one exists.`,
      );
      expect(steps(sim)).toEqual([
        `PUT /components/${credits.id}/price_points/${made.id}.json`,
        `POST /components/${credits.id}/price_points.json`,
        `DELETE /components/${credits.id}/price_points/${made.id}.json`,
      ]);
      expect(result?.id).not.toBe(String(made.id));
    });
  });

  it("adopting one with other prices: the exact preview (no unarchive for a live one; from and to as declared)", async () => {
    const { points } = await setup();
    const made = sim.addComponentPricePoint(
      { componentHandle: "texts" },
      {
        handle: "texts-volume",
        name: "Volume",
        pricingScheme: "volume",
        prices: [
          { startingQuantity: 1, endingQuantity: 10, unitPrice: "0.07" },
          { startingQuantity: 11, unitPrice: "0.06" },
        ],
      },
    );
    const checked = await points.check!({}, volume);
    expect(checked.failures).toEqual([]);
    expect(checked.inputs.preview).toStrictEqual({
      adopt: { id: made.id, handle: "texts-volume" },
      pricingChange: {
        fields: ["prices"],
        from: {
          prices: [
            { startingQuantity: 1, endingQuantity: 10, unitPrice: "0.07" },
            { startingQuantity: 11, unitPrice: "0.06" },
          ],
        },
        to: { prices: VOLUME },
        effect: `the adopted price point's prices are changed in place: ${AFFECTS}`,
      },
    });
  });
});
