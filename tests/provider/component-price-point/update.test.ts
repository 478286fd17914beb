import { afterEach, describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { captureOutput, mutations, UNKNOWN } from "../support";
import { heldIn, label, startSite, steps, volume } from "./site";

/**
 * ComponentPricePoint's in-place update: prices (the same price point, whom the change affects), handle and name;
 * one archived outside unarchived; the ids an update's check carries or looks up; a price point gone.
 */

describe("ComponentPricePoint: update in place", () => {
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

  it("a price change is made in place: the same price point, its tiers rewritten at the service, the notice says whom it affects", async () => {
    const { points, texts } = await setup();
    const { id, outs } = await points.create!(volume);
    sim.reset();
    const news = {
      ...volume,
      pricingScheme: "tiered",
      prices: [
        { startingQuantity: 1, endingQuantity: 500, unitPrice: "0.06" },
        { startingQuantity: 501, endingQuantity: 5000, unitPrice: "0.04" },
        { startingQuantity: 5001, unitPrice: "0.02" },
      ],
    };
    const checked = await points.check!(volume, news);
    expect(checked.inputs.preview).toMatchObject({
      pricingChange: { fields: ["pricingScheme", "prices"], effect: expect.stringMatching(/next charge/) },
    });
    expect(await points.diff!(id, outs, news)).toMatchObject({ changes: true, replaces: [] });
    const updated = await captureOutput(() => points.update!(id, outs, news));
    expect(updated.error).toBeUndefined();
    expect(updated.text).toMatch(
      /changed the prices of component price point `texts-volume`.*in place: subscriptions on this price point pay the new prices from their next charge/,
    );
    expect(steps(sim)).toEqual([`PUT /components/${texts.id}/price_points/${id}.json`]);
    const pp = heldByHandle(texts.id, "texts-volume");
    expect(pp?.id).toBe(Number(id));
    expect(pp?.pricingScheme).toBe("tiered");
    expect(pp?.prices.map((p) => [p.startingQuantity, p.endingQuantity, Number(p.unitPrice)])).toEqual([
      [1, 500, 0.06],
      [501, 5000, 0.04],
      [5001, null, 0.02],
    ]);
    // A retried up: the service holds it, nothing is sent.
    sim.reset();
    const again = await points.update!(id, updated.result!.outs, news);
    expect(mutations(sim)).toEqual([]);
    expect(await points.diff!(id, again.outs, news)).toMatchObject({ changes: false });
  });

  it("a handle or name change is an update in place", async () => {
    const { points, texts } = await setup();
    const { id, outs } = await points.create!(volume);
    sim.reset();
    const news = { ...volume, handle: "texts-bulk", name: "Bulk" };
    expect(await points.diff!(id, outs, news)).toMatchObject({ changes: true, replaces: [] });
    const { outs: after } = await points.update!(id, outs, news);
    expect(after).toMatchObject({ handle: "texts-bulk", name: "Bulk", pricePointId: Number(id) });
    expect(steps(sim)).toEqual([`PUT /components/${texts.id}/price_points/${id}.json`]);
    expect(heldByHandle(texts.id, "texts-bulk")?.name).toBe("Bulk");
  });

  describe("check of an update carries its ids (stable)", () => {
    it("from the earlier checked inputs, without asking the service", async () => {
      const { points, texts } = await setup();
      const { id } = await points.create!(volume);
      sim.reset();
      const olds = { ...volume, pricePointId: Number(id), componentId: texts.id };
      const news = { ...volume, name: "Renamed" };
      expect(await points.check!(olds, news)).toEqual({
        inputs: { ...news, pricePointId: Number(id), componentId: texts.id },
        failures: [],
      });
      expect(sim.requests).toEqual([]);
    });

    it("looked up by handle when the earlier inputs do not carry them", async () => {
      const { points, texts } = await setup();
      const { id } = await points.create!(volume);
      const news = { ...volume, name: "Renamed" };
      expect(await points.check!(volume, news)).toEqual({
        inputs: { ...news, pricePointId: Number(id), componentId: texts.id },
        failures: [],
      });
    });
  });

  it("of a price point the service no longer has: an error that says to refresh, nothing sent", async () => {
    const { points, texts } = await setup();
    const { outs } = await points.create!(volume);
    sim.reset();
    await expect(points.update!("999999", { ...outs, pricePointId: 999999 }, volume)).rejects.toThrow(
      new Error(
        `${label("texts-volume", 999999)} no longer exists at the service: run \`pulumi refresh\` to drop it (nothing was changed)`,
      ),
    );
    expect(mutations(sim)).toEqual([]);
    expect(held(texts.id, outs.pricePointId)?.archivedAt).toBeNull();
  });

  it("a name change alone: no notice about prices", async () => {
    const { points, texts } = await setup();
    const { id, outs } = await points.create!(volume);
    sim.reset();
    const { error, text } = await captureOutput(() => points.update!(id, outs, { ...volume, name: "Renamed" }));
    expect(error).toBeUndefined();
    expect(text).toBe("");
    expect(steps(sim)).toEqual([`PUT /components/${texts.id}/price_points/${id}.json`]);
  });

  it("of one archived outside the stack: unarchived, said so", async () => {
    const { points, texts } = await setup();
    const { id, outs } = await points.create!(volume);
    await captureOutput(() => points.delete!(id, outs));
    sim.reset();
    const { result, error, text } = await captureOutput(() => points.update!(id, outs, volume));
    expect(error).toBeUndefined();
    expect(text).toBe(`ComponentPricePoint: ${label("texts-volume", id)} was archived outside the stack; unarchived it.\n`);
    expect(result?.outs.archivedAt).toBeNull();
    expect(steps(sim)).toEqual([`PUT /components/${texts.id}/price_points/${id}/unarchive.json`]);
  });

  it("prices unknown at preview (the scheme known): no pricing change annotated", async () => {
    const { points, texts } = await setup();
    const { id } = await points.create!(volume);
    const news = { ...volume, prices: UNKNOWN };
    expect(await points.check!(volume, news)).toEqual({
      inputs: { ...news, pricePointId: Number(id), componentId: texts.id },
      failures: [],
    });
  });

  it.each([
    ["a price point id but no component id", () => ({ pricePointId: 999999 })],
    ["a component id but no price point id", () => ({ componentId: 424242 })],
    ["its component as an id, no ids", (textsId: number) => ({ component: textsId })],
  ])("earlier inputs with %s: the ids looked up by handle", async (_, extra) => {
    const { points, texts } = await setup();
    const { id } = await points.create!(volume);
    const olds: Record<string, unknown> = { ...volume, ...extra(texts.id) };
    const news = { ...volume, component: olds.component, name: "Renamed" };
    expect(await points.check!(olds, news)).toEqual({
      inputs: { ...news, pricePointId: Number(id), componentId: texts.id },
      failures: [],
    });
  });
});
