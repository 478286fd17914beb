import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { captureOutput, mutations } from "../support";
import { annual, label, pricePointSite } from "./site";

/**
 * ProductPricePoint's `default`: promoted only when it is not the default already; the service cannot demote one, so
 * a price point declared default: true then false stays the default until another is promoted, and says so.
 */

describe("ProductPricePoint default", () => {
  let sim: Simulator;
  const { setup, promote } = pricePointSite((started) => {
    sim = started;
  });

  it("an update declaring default: true of the default already: nothing promoted", async () => {
    const { points } = await setup();
    const { id, outs } = await points.create({ ...annual, default: true });
    sim.reset();
    const { error } = await captureOutput(() => points.update!(id, outs, { ...annual, default: true }));
    expect(error).toBeUndefined();
    expect(mutations(sim)).toEqual([]);
  });

  describe("declared default: false on the product's default: said to stay the default only when it was declared default: true", () => {
    const stays = (id: string) =>
      `ProductPricePoint: ${label("launch-annual", id)} stays the product's default until another price point is promoted (the service cannot demote one).`;
    it.each([
      ["declared true, now false, still the default", { default: true }, true, { default: false }, true],
      ["declared true, now left out", { default: true }, true, {}, false],
      ["declared false, promoted outside, still false", { default: false }, true, { default: false }, false],
      ["declared true, another promoted outside since, now false", { default: true }, false, { default: false }, false],
    ])("%s", async (_, before, isDefault, after, said) => {
      const { points, launchDefault } = await setup();
      const { id, outs } = await points.create({ ...annual, ...before });
      await promote(isDefault ? id : launchDefault);
      sim.reset();
      const { result, error, text } = await captureOutput(() => points.update!(id, outs, { ...annual, ...after }));
      expect(error).toBeUndefined();
      expect(result?.outs.isDefault).toBe(isDefault);
      expect(text).toBe(said ? `${stays(id)}\n` : "");
      expect(mutations(sim)).toEqual([]);
    });
  });
});
