import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { catalogSite, annual as rocketAnnual } from "../product/site";
import { captureOutput, mutations } from "../support";
import { annual, failureOf, LAUNCH, label, ppPath, pricePointSite, steps } from "./site";

/**
 * ProductPricePoint update, in place (a handle change); one archived outside the stack is unarchived, one gone says
 * to refresh, a read refused otherwise is that error.
 */

describe("ProductPricePoint update", () => {
  let sim: Simulator;
  const { setup, proxy } = pricePointSite((started) => {
    sim = started;
  });

  const { catalog } = catalogSite((started) => {
    sim = started;
  });

  it("a handle change is an update in place", async () => {
    const { pricePoints, pp } = await catalog(true);
    const news = { ...rocketAnnual, handle: "rocket-yearly" };
    expect((await pricePoints.diff!(pp!.id, pp!.outs, news)).replaces).toEqual([]);
    const { outs } = await pricePoints.update!(pp!.id, pp!.outs, news);
    expect(outs.handle).toBe("rocket-yearly");
    expect(steps(sim)).toEqual([`PUT /products/${pp!.outs.productId}/price_points/${pp!.id}.json`]);
  });

  it("of a price point the service no longer has: an error that says to refresh, nothing sent", async () => {
    const { points } = await setup();
    const { outs } = await points.create(annual);
    sim.reset();
    const failed = await failureOf(points.update!("999999", { ...outs, pricePointId: 999999 }, annual));
    expect(failed?.message).toBe(
      `${label("launch-annual", 999999)} no longer exists at the service: run \`pulumi refresh\` to drop it (nothing was changed)`,
    );
    expect(mutations(sim)).toEqual([]);
  });

  it("a read refused otherwise (not a 404) is that error, not 'no longer exists'", async () => {
    const { points, connect } = await setup();
    const { id, outs } = await points.create(annual);
    // Sent to a path that takes no GET: the simulator's own refusal, not a 404.
    const url = await proxy((method, path) =>
      method === "GET" && path === ppPath(id) ? `/products/${LAUNCH}/price_points/${id}/default.json` : undefined,
    );
    await connect({ "billing:baseUrl": url });
    const failed = await failureOf(points.update!(id, outs, annual));
    expect(failed?.message).toBe(
      `GET ${ppPath(id)} failed with 405: Method GET not allowed on /products/${LAUNCH}/price_points/${id}/default.json; allowed: PATCH`,
    );
  });

  it("of one archived outside the stack: unarchived, said so", async () => {
    const { points } = await setup();
    const { id, outs } = await points.create(annual);
    expect((await captureOutput(() => points.delete!(id, outs))).error).toBeUndefined();
    sim.reset();
    const { result, error, text } = await captureOutput(() => points.update!(id, outs, annual));
    expect(error).toBeUndefined();
    expect(text).toBe(`ProductPricePoint: ${label("launch-annual", id)} was archived outside the stack; unarchived it.\n`);
    expect(result?.outs.archivedAt).toBeNull();
    expect(steps(sim)).toEqual([`PATCH /products/${LAUNCH}/price_points/${id}/unarchive.json`]);
  });
});
