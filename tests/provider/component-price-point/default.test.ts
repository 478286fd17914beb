import { afterEach, describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { captureOutput, KEY, mutations } from "../support";
import { heldIn, label, OVERAGE, prepaid, startSite, steps, volume } from "./site";

/**
 * The component's default price point: promoted before what it replaces is archived (a replaced default's
 * replacement takes over even when not declared default), never promoted twice, never archived alone, and
 * declared false it stays the default until another is promoted (the service cannot demote one).
 */

describe("ComponentPricePoint: the component's default", () => {
  let sim: Simulator;
  afterEach(async () => sim?.close());

  /** Metered `texts` and prepaid `credits` in family `rockets`, the provider configured for the site (site.ts). */
  async function setup(config?: (url: string) => Record<string, string>) {
    const site = await startSite(config);
    sim = site.sim;
    return site;
  }
  const held = (componentId: number, id: number | string) => heldIn(sim, componentId, { id });

  it("moving the default: the new one is promoted by its update before the old one's delete archives it", async () => {
    const { points, texts } = await setup();
    const a = await points.create!({ ...volume, default: true });
    const b = await points.create!({ ...volume, handle: "texts-tiered", pricingScheme: "tiered" });
    sim.reset();
    // The old default alone cannot go: nothing is sent, and the message says how to proceed.
    await expect(points.delete!(a.id, a.outs)).rejects.toThrow(
      /is the default of component `texts`.*nothing was changed.*Promote another price point first/,
    );
    expect(mutations(sim)).toEqual([]);
    // The engine updates before it deletes: b is promoted, then a archived.
    const promoted = await points.update!(b.id, b.outs, { ...volume, handle: "texts-tiered", pricingScheme: "tiered", default: true });
    expect(promoted.outs.isDefault).toBe(true);
    await points.delete!(a.id, a.outs);
    expect(steps(sim)).toEqual([
      `PUT /components/${texts.id}/price_points/${b.id}/default.json`,
      `DELETE /components/${texts.id}/price_points/${a.id}.json`,
    ]);
    const c = sim.components().find((x) => x.id === texts.id);
    expect(c?.pricePoints.filter((pp) => pp.default).map((pp) => pp.id)).toEqual([Number(b.id)]);
  });

  describe("declared default: false on the component's default: said to stay the default only when it was declared default: true", () => {
    const stays = (id: string) =>
      `ComponentPricePoint: ${label("texts-volume", id)} stays the component's default until another price point is promoted (the service cannot demote one).`;
    it.each([
      ["declared true, now false, still the default", { default: true }, true, { default: false }, true],
      ["declared true, now left out", { default: true }, true, {}, false],
      ["declared false, promoted outside, still false", { default: false }, true, { default: false }, false],
      ["declared true, another promoted outside since, now false", { default: true }, false, { default: false }, false],
    ])("%s", async (_, before, isDefault, after, said) => {
      const { points, texts, original } = await setup();
      const { id, outs } = await points.create!({ ...volume, ...before });
      const promote = isDefault ? Number(id) : original.id;
      await fetch(`${sim.url}/components/${texts.id}/price_points/${promote}/default.json`, {
        method: "PUT",
        headers: { authorization: `Basic ${Buffer.from(`${KEY}:x`).toString("base64")}` },
      });
      sim.reset();
      const { result, error, text } = await captureOutput(() => points.update!(id, outs, { ...volume, ...after }));
      expect(error).toBeUndefined();
      expect(result?.outs.isDefault).toBe(isDefault);
      expect(text).toBe(said ? `${stays(id)}\n` : "");
      expect(mutations(sim)).toEqual([]);
    });
  });

  it("a replacement of the default not declared default: the new one still promoted before the old one is archived", async () => {
    const { points, credits } = await setup();
    const first = await points.create!({ ...prepaid, overagePricing: OVERAGE, default: true });
    sim.reset();
    const news = { ...prepaid, overagePricing: { ...OVERAGE, prices: [{ startingQuantity: 1, unitPrice: "0.20" }] } };
    const { result, error } = await captureOutput(() => points.create!(news));
    expect(error).toBeUndefined();
    expect(steps(sim)).toEqual([
      `PUT /components/${credits.id}/price_points/${first.id}.json`,
      `POST /components/${credits.id}/price_points.json`,
      `PUT /components/${credits.id}/price_points/${result?.id}/default.json`,
      `DELETE /components/${credits.id}/price_points/${first.id}.json`,
    ]);
    expect(result?.outs.isDefault).toBe(true);
    expect(held(credits.id, first.id)?.archivedAt).not.toBeNull();
  });

  it("a replaced one left to archive that is still the default: left live, said so in the kind's and parent's words", async () => {
    const { points, texts, original } = await setup();
    const { id, outs } = await points.create!(volume);
    sim.reset();
    const { result, error, text } = await captureOutput(() => points.update!(id, { ...outs, todo: { archive: [original.id] } }, volume));
    expect(error).toBeUndefined();
    expect(text).toBe(
      `ComponentPricePoint: ${label(original.handle, original.id)} stays live: it is still the component's default, which the service cannot archive; promote another price point, then remove it.\n`,
    );
    expect(result?.outs.todo).toBeUndefined();
    expect(mutations(sim)).toEqual([]);
    expect(held(texts.id, original.id)?.archivedAt).toBeNull();
  });

  it("declared default and already the default: not promoted again", async () => {
    const { points, texts } = await setup();
    const { id, outs } = await points.create!({ ...volume, default: true });
    sim.reset();
    const { result } = await captureOutput(() => points.update!(id, outs, { ...volume, default: true, name: "Renamed" }));
    expect(result?.outs.isDefault).toBe(true);
    expect(steps(sim)).toEqual([`PUT /components/${texts.id}/price_points/${id}.json`]);
  });
});
