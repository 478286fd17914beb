import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { catalogSite, annual as rocketAnnual } from "../product/site";
import { captureOutput, mutations } from "../support";
import { annual, LAUNCH, label, ppPath, pricePointSite, steps } from "./site";

/**
 * ProductPricePoint delete archives it; the product's default alone is refused with the fix (fine once its product is
 * archived); a pending create's delete looks for it by its handle, archived ones included; an archive answered 404
 * is done, one refused otherwise is that error.
 */

describe("ProductPricePoint delete", () => {
  let sim: Simulator;
  const { setup, listed, proxy } = pricePointSite((started) => {
    sim = started;
  });

  const { catalog } = catalogSite((started) => {
    sim = started;
  });

  it("deleting the product's default alone fails with the fix; with its product archived it is fine", async () => {
    const { pricePoints, products, prod, pp } = await catalog(true);
    const def = await pricePoints.update!(pp!.id, pp!.outs, { ...rocketAnnual, default: true });
    sim.reset();
    await expect(pricePoints.delete!(pp!.id, def.outs)).rejects.toThrow(/default of product `rocket`.*Promote another price point first/);
    expect(mutations(sim)).toEqual([]);
    await products.delete!(prod.id, prod.outs);
    await pricePoints.delete!(pp!.id, def.outs);
  });

  it("a pending create that made no price point: nothing to archive, said so", async () => {
    const { points } = await setup();
    const { text, error } = await captureOutput(() =>
      points.delete!("pending-tok", {
        handle: "launch-never",
        args: { ...annual, handle: "launch-never" },
        productId: LAUNCH,
        pendingToken: "tok",
      }),
    );
    expect(error).toBeUndefined();
    expect(text).toBe("ProductPricePoint: the pending create of `launch-never` made no price point; nothing to archive.\n");
    expect(mutations(sim)).toEqual([]);
  });

  it("a pending create that did make it: that one archived, found by its handle", async () => {
    const { points } = await setup();
    const { id } = await points.create(annual);
    sim.reset();
    const { text, error } = await captureOutput(() =>
      points.delete!("pending-tok", { handle: "launch-annual", args: annual, productId: LAUNCH, pendingToken: "tok" }),
    );
    expect(error).toBeUndefined();
    expect(text).toBe(
      `ProductPricePoint: archived ${label("launch-annual", id)}; subscriptions on it keep it, and its handle stays taken.\n`,
    );
    expect(steps(sim)).toEqual([`DELETE ${ppPath(id)}`]);
  });

  it("a pending create whose price point is archived already: found among the archived ones, nothing sent or said", async () => {
    const { points } = await setup();
    const { id, outs } = await points.create(annual);
    expect((await captureOutput(() => points.delete!(id, outs))).error).toBeUndefined();
    sim.reset();
    const { text, error } = await captureOutput(() =>
      points.delete!("pending-tok", { handle: "launch-annual", args: annual, productId: LAUNCH, pendingToken: "tok" }),
    );
    expect(error).toBeUndefined();
    expect(text).toBe("");
    expect(mutations(sim)).toEqual([]);
  });

  it("an archive answered 404 (gone meanwhile): done, nothing said", async () => {
    const { points, connect } = await setup();
    const { id, outs } = await points.create(annual);
    const url = await proxy((method, path) => (method === "DELETE" && path === ppPath(id) ? ppPath(999999) : undefined));
    await connect({ "billing:baseUrl": url });
    sim.reset();
    const { text, error } = await captureOutput(() => points.delete!(id, outs));
    expect(error).toBeUndefined();
    expect(text).toBe("");
    expect(steps(sim)).toEqual([`DELETE ${ppPath(999999)}`]);
    expect((await listed()).find((pp) => pp.id === Number(id))?.archived_at).toBeNull();
  });

  it("an archive refused otherwise (422): that error", async () => {
    const { points, connect, launchDefault } = await setup();
    const { id, outs } = await points.create(annual);
    // Sent to the product's default instead, which the service refuses to archive.
    const url = await proxy((method, path) => (method === "DELETE" && path === ppPath(id) ? ppPath(launchDefault) : undefined));
    await connect({ "billing:baseUrl": url });
    const { text, error } = await captureOutput(() => points.delete!(id, outs));
    expect((error as Error).message).toBe(`DELETE ${ppPath(id)} failed with 422: Cannot archive the default price point.`);
    expect(text).toBe("");
  });
});
