import { describe, expect, it } from "vitest";
import { productPricePoint } from "../../../provider/kinds/product-price-point";
import type { Simulator } from "../../../simulator";
import { annual, LAUNCH, ppPath, pricePointSite } from "./site";

/**
 * ProductPricePoint refresh: read takes an id for the price point's only when it is all digits from 1-9 on; the
 * recorded inputs are the service's values where it holds one (a default another promotion took recorded false);
 * a pending create, a replacement left to finish and one archived outside the stack are unfinished.
 */

describe("ProductPricePoint drift", () => {
  let sim: Simulator;
  const { setup } = pricePointSite((started) => {
    sim = started;
  });

  describe("read: the id is the price point's only when it is all digits from 1-9 on", () => {
    it.each([
      ["its id", (id: string) => id, true],
      ["digits after a prefix", (id: string) => `x${id}`, false],
      ["digits before a suffix", (id: string) => `${id}x`, false],
      ["a leading zero", (id: string) => `0${id}`, false],
    ])("%s", async (_, idOf, read) => {
      const { points } = await setup();
      const { id, outs } = await points.create(annual);
      expect(id).toMatch(/^[1-9][0-9]{2,}$/);
      const { pricePointId: _id, ...unrecorded } = outs;
      sim.reset();
      const got = await points.read!(idOf(id), { ...unrecorded, name: "stale" });
      expect(got).toEqual({
        id: idOf(id),
        props: read ? { ...unrecorded, pricePointId: Number(id), name: "Annual" } : { ...unrecorded, name: "stale" },
      });
      expect(sim.requests.map((r) => `${r.method} ${r.path}`)).toEqual(read ? [`GET ${ppPath(id)}`] : []);
    });
  });

  it("recordedInputs: declared default, another promoted since: recorded false", () => {
    const s = { handle: "launch-annual", pricePointId: 7, productId: LAUNCH, isDefault: false, args: { ...annual, default: true } };
    expect(productPricePoint.operations.recordedInputs(s)).toEqual({ ...annual, default: false });
  });

  it("recordedInputs: the service's values where it holds one, the declared ones where it holds null", () => {
    const s = { pricePointId: 9, productId: 3, handle: "launch-annual", name: null, priceInCents: 100, args: annual };
    expect(productPricePoint.operations.recordedInputs(s)).toEqual({ ...annual, priceInCents: 100 });
  });

  it.each([
    ["a pending create", { pendingToken: "tok" }, true],
    ["a replacement left to finish", { todo: {} }, true],
    ["archived outside the stack", { archivedAt: "2024-05-01T12:00:00Z" }, true],
    ["live", { archivedAt: null }, false],
  ])("unfinished: %s", (_, extra, unfinished) => {
    expect(productPricePoint.operations.unfinished!({ pricePointId: 9, handle: "launch-annual", args: annual, ...extra })).toBe(unfinished);
  });
});
