import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { catalogSite, annual as rocketAnnual } from "../product/site";
import { captureOutput, mutations } from "../support";
import { annual, failureOf, LAUNCH, label, priceChange, pricePointSite, steps } from "./site";

/**
 * ProductPricePoint adoption by handle: preview announces it (with the pricing change converging it means, a
 * replacement, and the unarchiving of an archived one); one adopted as it is sends nothing, the default declared
 * default is not promoted again, an archived one is unarchived. `adopt: false` refuses a price point that exists, at
 * preview and at create, but a resumed pending create takes the price point its own earlier create made.
 */

describe("ProductPricePoint adoption", () => {
  let sim: Simulator;
  const { setup } = pricePointSite((started) => {
    sim = started;
  });

  const { catalog } = catalogSite((started) => {
    sim = started;
  });

  it("at preview an existing price point is announced as adopted, with the pricing change converging it means", async () => {
    const { pricePoints, pp } = await catalog(true);
    const same = await pricePoints.check!({}, rocketAnnual);
    expect(same.inputs.preview).toEqual({ adopt: { id: Number(pp!.id), handle: "rocket-annual" } });
    const dearer = await pricePoints.check!({}, { ...rocketAnnual, priceInCents: 59000 });
    expect(dearer.inputs.preview).toMatchObject({
      adopt: { id: Number(pp!.id) },
      pricingChange: { fields: ["priceInCents"], from: { priceInCents: 49000 }, to: { priceInCents: 59000 } },
    });
    expect(mutations(sim)).toEqual([]);
  });

  it("preview of adopting one with other pricing: the replacement it means", async () => {
    const { points } = await setup();
    const { id } = await points.create(annual);
    const checked = await points.check!({}, { ...annual, priceInCents: 59000 });
    expect(checked.inputs.preview).toEqual({
      adopt: { id: Number(id), handle: "launch-annual" },
      pricingChange: priceChange(
        "the adopted price point is replaced: its handle freed, the new one created (and promoted if default), the old one archived; subscriptions on it keep it",
      ),
    });
  });

  it("check of a first deploy that finds it archived announces its unarchiving", async () => {
    const { points } = await setup();
    const { id, outs } = await points.create(annual);
    expect((await captureOutput(() => points.delete!(id, outs))).error).toBeUndefined();
    sim.reset();
    const { inputs } = await points.check!({}, annual);
    expect(inputs.preview).toEqual({ adopt: { id: Number(id), handle: "launch-annual", unarchive: true } });
    expect(mutations(sim)).toEqual([]);
  });

  it("adopting one as it is: the adoption said, nothing sent", async () => {
    const { points } = await setup();
    const { id } = await points.create(annual);
    sim.reset();
    const { result, text, error } = await captureOutput(() => points.create(annual));
    expect(error).toBeUndefined();
    expect(result?.id).toBe(id);
    expect(text).toBe(`adopted ${label("launch-annual", id)} of site ${new URL(sim.url).host}\n`);
    expect(mutations(sim)).toEqual([]);
  });

  it("adopting the default with default: true: nothing promoted", async () => {
    const { points } = await setup();
    const { id } = await points.create({ ...annual, default: true });
    sim.reset();
    const { result, error } = await captureOutput(() => points.create({ ...annual, default: true }));
    expect(error).toBeUndefined();
    expect(result?.outs).toMatchObject({ pricePointId: Number(id), isDefault: true });
    expect(mutations(sim)).toEqual([]);
  });

  it("an archived price point with the handle is unarchived and adopted", async () => {
    const { pricePoints, pp } = await catalog(true);
    await pricePoints.delete!(pp!.id, pp!.outs);
    sim.reset();
    const { result, text } = await captureOutput(() => pricePoints.create(rocketAnnual));
    expect(result?.id).toBe(pp!.id);
    expect(text).toMatch(/unarchived price point `rocket-annual`/);
    expect(steps(sim)).toEqual([`PATCH /products/${pp!.outs.productId}/price_points/${pp!.id}/unarchive.json`]);
  });

  describe("adopt: false on a price point that exists", () => {
    it("create: refused with its id and product, nothing sent", async () => {
      const { points } = await setup();
      const { id } = await points.create(annual);
      sim.reset();
      const failed = await failureOf(points.create({ ...annual, adopt: false }));
      expect(failed?.message).toBe(`${label("launch-annual", id)} already exists and adopt is false: nothing was changed`);
      expect(mutations(sim)).toEqual([]);
    });

    it("check of a first deploy: the handle named, with the fix", async () => {
      const { points } = await setup();
      const { id } = await points.create(annual);
      sim.reset();
      expect(await points.check!({}, { ...annual, adopt: false })).toEqual({
        inputs: { ...annual, adopt: false },
        failures: [
          {
            property: "handle",
            reason: `${label("launch-annual", id)} already exists at the service and adopt is false: choose another handle, or set adopt: true to manage it`,
          },
        ],
      });
      expect(mutations(sim)).toEqual([]);
    });

    it("a pending create's retry that finds it made takes it: it is the one that create made", async () => {
      const { points } = await setup();
      const { id } = await points.create(annual);
      sim.reset();
      const declared = { ...annual, adopt: false };
      const pending = { handle: "launch-annual", args: declared, pendingToken: "tok", todo: { archive: [] } };
      const { result, error, text } = await captureOutput(() => points.update!(`pending-tok`, pending, declared));
      expect(error).toBeUndefined();
      expect(result?.outs).toMatchObject({ pricePointId: Number(id), productId: LAUNCH, handle: "launch-annual", args: declared });
      expect(text).toBe("");
      expect(mutations(sim)).toEqual([]);
    });
  });
});
