import { afterEach, describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { captureOutput, mutations } from "../support";
import { bulk, heldIn, label, OVERAGE, prepaid, prepaidWithOverage, startSite, steps, volume } from "./site";

/**
 * ComponentPricePoint's replacement, in the safe order (handle freed, new one created and promoted, old one
 * archived); the freed handle one no price point has; its component named another way adopts the same one.
 */

describe("ComponentPricePoint: replacement", () => {
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

  it("a create-only change replaces it in the safe order: handle freed, new one created and promoted, old one archived", async () => {
    const { points, credits } = await setup();
    const first = await points.create!({ ...prepaidWithOverage, default: true });
    expect(first.outs.isDefault).toBe(true);
    // The simulator's answers leave the overage out: not shown is no drift.
    expect(await points.diff!(first.id, first.outs, { ...prepaidWithOverage, default: true })).toMatchObject({ changes: false });
    sim.reset();
    const news = {
      ...prepaidWithOverage,
      default: true,
      overagePricing: { ...OVERAGE, prices: [{ startingQuantity: 1, unitPrice: "0.20" }] },
    };
    expect((await points.diff!(first.id, first.outs, news)).replaces).toEqual(["overagePricing"]);
    const repriced = await points.check!(
      { ...prepaidWithOverage, default: true },
      { ...news, prices: [{ startingQuantity: 1, unitPrice: 3 }] },
    );
    expect(repriced.inputs.preview).toMatchObject({
      pricingChange: { fields: ["prices"], effect: expect.stringMatching(/^replaced:.*keep its prices/) },
    });
    const created = await points.create!(news);
    expect(steps(sim)).toEqual([
      `PUT /components/${credits.id}/price_points/${first.id}.json`, // the old one's handle freed
      `POST /components/${credits.id}/price_points.json`, // the new one
      `PUT /components/${credits.id}/price_points/${created.id}/default.json`, // promoted
      `DELETE /components/${credits.id}/price_points/${first.id}.json`, // the old one archived
    ]);
    expect(created.outs).toMatchObject({ handle: "credits-bulk", isDefault: true });
    const c = sim.components().find((x) => x.id === credits.id);
    expect(c?.pricePoints.find((pp) => pp.default)?.id).toBe(Number(created.id));
    expect(c?.pricePoints.find((pp) => pp.id === Number(first.id))?.archivedAt).not.toBeNull();
    // The engine's delete of the replaced resource finds it archived: nothing more is sent.
    sim.reset();
    await points.delete!(first.id, first.outs);
    expect(mutations(sim)).toEqual([]);
  });

  it("its component named another way (the Component's id for handle:) replaces it by adoption, and the old one's delete leaves it live", async () => {
    const { points, texts } = await setup();
    const { id, outs } = await points.create!({ ...volume, default: true });
    const news = { ...volume, default: true, component: texts.id };
    expect((await points.diff!(id, outs, news)).replaces).toEqual(["component"]);
    sim.reset();
    const replacement = await captureOutput(() => points.create!(news));
    expect(replacement.result?.id).toBe(id);
    const deleted = await captureOutput(() => points.delete!(id, outs));
    expect(deleted.error).toBeUndefined();
    expect(deleted.text).toMatch(/stays live: its replacement adopted it/);
    expect(mutations(sim)).toEqual([]);
    expect(heldByHandle(texts.id, "texts-volume")).toMatchObject({ archivedAt: null, default: true });
  });

  it("the handle freed for a replacement is one no price point has, archived ones included", async () => {
    const { points, credits } = await setup();
    const made = sim.addComponentPricePoint({ componentHandle: "credits" }, bulk);
    sim.addComponentPricePoint({ componentHandle: "credits" }, { ...bulk, handle: `credits-bulk-replaced-${made.id}`, archived: true });
    sim.reset();
    const { error, text } = await captureOutput(() => points.create!({ ...prepaid, overagePricing: OVERAGE }));
    expect(error).toBeUndefined();
    expect(text).toContain(
      `ComponentPricePoint: ${label("credits-bulk", made.id)} is renamed \`credits-bulk-replaced-${made.id}-1\` to free its handle for its replacement (overagePricing); it is archived once the new one exists.`,
    );
    expect(held(credits.id, made.id)?.handle).toBe(`credits-bulk-replaced-${made.id}-1`);
  });
});
