import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { catalogSite, annual as rocketAnnual } from "../product/site";
import { captureOutput, mutations } from "../support";
import { annual, LAUNCH, label, ppPath, pricePointSite, steps } from "./site";

/**
 * ProductPricePoint replacement (a pricing change, or an adopted one whose name or pricing differs), in the order that
 * never leaves the product without a default: the old one's handle freed (renamed), the new one created, promoted
 * if default, the old one archived; the notice says why. An update finishes a replacement left to do first.
 */

describe("ProductPricePoint replacement", () => {
  let sim: Simulator;
  const { setup, listed } = pricePointSite((started) => {
    sim = started;
  });

  const { catalog } = catalogSite((started) => {
    sim = started;
  });

  it("a price change replaces it in the order that never leaves the product without a default", async () => {
    const { pricePoints, pp } = await catalog(true);
    const def = await pricePoints.update!(pp!.id, pp!.outs, { ...rocketAnnual, default: true });
    expect(def.outs.isDefault).toBe(true);
    sim.reset();
    const news = { ...rocketAnnual, default: true, priceInCents: 59000 };
    const diff = await pricePoints.diff!(pp!.id, def.outs, news);
    expect(diff.replaces).toEqual(["priceInCents"]);
    const created = await pricePoints.create(news);
    const product = def.outs.productId;
    expect(steps(sim)).toEqual([
      `PUT /products/${product}/price_points/${pp!.id}.json`, // the old one's handle freed
      `POST /products/${product}/price_points.json`, // the new one
      `PATCH /products/${product}/price_points/${created.id}/default.json`, // promoted
      `DELETE /products/${product}/price_points/${pp!.id}.json`, // the old one archived
    ]);
    expect(created.outs).toMatchObject({ handle: "rocket-annual", priceInCents: 59000, isDefault: true });
    // The engine's delete of the replaced resource then finds it archived: nothing more is sent.
    sim.reset();
    await pricePoints.delete!(pp!.id, def.outs);
    expect(mutations(sim)).toEqual([]);
  });

  it("adopting one whose name alone differs: renamed and replaced, the notice saying its name differs", async () => {
    const { points } = await setup();
    const { id } = await points.create(annual);
    sim.reset();
    const { result, error, text } = await captureOutput(() => points.create({ ...annual, name: "Yearly" }));
    expect(error).toBeUndefined();
    expect(text.split("\n")[0]).toBe(
      `ProductPricePoint: ${label("launch-annual", id)} is renamed \`launch-annual-replaced-${id}\` to free its handle for its replacement (its name differs); it is archived once the new one exists.`,
    );
    expect(steps(sim)).toEqual([`PUT ${ppPath(id)}`, `POST /products/${LAUNCH}/price_points.json`, `DELETE ${ppPath(id)}`]);
    expect(result?.outs).toMatchObject({ handle: "launch-annual", name: "Yearly" });
  });

  it("adopting one with other pricing: the notice names the pricing that differs", async () => {
    const { points } = await setup();
    const { id } = await points.create(annual);
    sim.reset();
    const { text, error } = await captureOutput(() => points.create({ ...annual, priceInCents: 59000 }));
    expect(error).toBeUndefined();
    expect(text.split("\n")[0]).toBe(
      `ProductPricePoint: ${label("launch-annual", id)} is renamed \`launch-annual-replaced-${id}\` to free its handle for its replacement (priceInCents $490.00 → $590.00); it is archived once the new one exists.`,
    );
  });

  it("an update with a replacement left to finish: finishes it first (the product's default stays live, said so)", async () => {
    const { points } = await setup();
    const { id, outs } = await points.create(annual);
    const launchDefault = (await listed()).find((pp) => pp.handle === "launch-default")?.id as number;
    sim.reset();
    const { text, error } = await captureOutput(() => points.update!(id, { ...outs, todo: { archive: [launchDefault] } }, annual));
    expect(error).toBeUndefined();
    expect(text).toBe(
      `ProductPricePoint: ${label("launch-default", launchDefault)} stays live: it is still the product's default, which the service cannot archive; promote another price point, then remove it.\n`,
    );
    expect(mutations(sim)).toEqual([]);
  });
});
