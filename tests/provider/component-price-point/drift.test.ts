import { afterEach, describe, expect, it } from "vitest";
import { componentPricePoint } from "../../../provider/kinds/component-price-point";
import type { Simulator } from "../../../simulator";
import { auth, heldIn, OVERAGE, prepaid, startSite, volume } from "./site";

/**
 * ComponentPricePoint's drift and refresh: a web UI price change read as drift and restored; refresh by a resource
 * id, of a pending create, of one gone; the recorded inputs diff compares (held values, overage tiers, the default).
 */

describe("ComponentPricePoint: drift and refresh", () => {
  let sim: Simulator;
  afterEach(async () => sim?.close());

  /** Metered `texts` and prepaid `credits` in family `rockets`, the provider configured for the site (site.ts). */
  async function setup(config?: (url: string) => Record<string, string>) {
    const site = await startSite(config);
    sim = site.sim;
    return site;
  }
  const heldByHandle = (componentId: number, handle: string) => heldIn(sim, componentId, { handle });

  it("refresh reads what the service holds: a web UI price change shows as drift, an in-place update restores it; gone is dropped", async () => {
    const { points, texts } = await setup();
    const { id, outs } = await points.create!(volume);
    const pp = heldByHandle(texts.id, "texts-volume");
    const res = await fetch(`${sim.url}/components/${texts.id}/price_points/${id}.json`, {
      method: "PUT",
      headers: auth,
      body: JSON.stringify({ price_point: { prices: [{ id: pp?.prices[0]?.id, unit_price: "0.09" }] } }),
    });
    expect(res.status).toBe(200);
    const read = await points.read!(id, outs);
    expect(read.props?.prices[0]).toMatchObject({ startingQuantity: 1, endingQuantity: 1000 });
    expect(Number(read.props?.prices[0].unitPrice)).toBe(0.09);
    expect(await points.diff!(id, read.props, volume)).toMatchObject({ changes: true, replaces: [] });
    const { outs: restored } = await points.update!(id, read.props, volume);
    expect(Number(restored.prices[0].unitPrice)).toBe(0.05);
    // Read for a price point the component does not have: refresh drops it.
    const gone = await points.read!("999999", { ...outs, pricePointId: 999999 });
    expect(gone.id).toBe("");
  });

  describe("read: the id is the price point's only when it is all digits", () => {
    it.each([
      ["its id", (id: string) => id, true],
      ["digits after a prefix", (id: string) => `x${id}`, false],
      ["digits before a suffix", (id: string) => `${id}x`, false],
      ["a leading zero", (id: string) => `0${id}`, false],
    ])("%s", async (_, idOf, read) => {
      const { points, texts } = await setup();
      const { id, outs } = await points.create!(volume);
      const { pricePointId: _id, ...unrecorded } = outs;
      sim.reset();
      const got = await points.read!(idOf(id), { ...unrecorded, name: "stale" });
      expect(got).toEqual({
        id: idOf(id),
        props: read ? { ...unrecorded, pricePointId: Number(id), name: "Volume" } : { ...unrecorded, name: "stale" },
      });
      expect(sim.requests.map((r) => `${r.method} ${r.path}`)).toEqual(read ? [`GET /components/${texts.id}/price_points/${id}.json`] : []);
    });
  });

  it("refresh of a pending create under a numeric id: kept as recorded, nothing read", async () => {
    const { points, texts } = await setup();
    const { id } = await points.create!(volume);
    sim.reset();
    const recorded = {
      handle: "texts-volume",
      args: volume,
      componentId: texts.id,
      pendingToken: "tok-4",
      todo: { promote: false, archive: [] },
    };
    expect(await points.read!(id, recorded)).toEqual({ id, props: recorded });
    expect(sim.requests).toEqual([]);
  });
});

describe("recordedInputs: held overage tiers and a default promoted away", () => {
  const base = { handle: "credits-bulk", pricePointId: 7, componentId: 3, isDefault: true };
  const args = { ...prepaid, overagePricing: OVERAGE };
  it.each([
    [
      "overage tiers held as declared (0.1 is 0.10): the declared ones",
      { overagePrices: [{ startingQuantity: 1, endingQuantity: null, unitPrice: "0.1" }] },
      args,
    ],
    [
      "overage tiers held otherwise: the held ones, as a declaration writes them",
      { overagePrices: [{ startingQuantity: 1, endingQuantity: null, unitPrice: "0.2" }] },
      { ...args, overagePricing: { pricingScheme: "per_unit", prices: [{ startingQuantity: 1, unitPrice: "0.2" }] } },
    ],
    ["no overage tiers in the answer: the declared ones", { overagePrices: [] }, args],
  ])("%s", (_, held, expected) => {
    expect(componentPricePoint.operations.recordedInputs({ ...base, ...held, args })).toEqual(expected);
  });

  it.each([
    ["declared default, held default: as declared", { default: true }, true, { default: true }],
    ["declared default, another promoted since: false", { default: true }, false, { default: false }],
    ["declared not default, held default: as declared", { default: false }, true, { default: false }],
  ])("%s", (_, declared, isDefault, expected) => {
    expect(
      componentPricePoint.operations.recordedInputs({ ...base, handle: "texts-volume", isDefault, args: { ...volume, ...declared } }),
    ).toEqual({
      ...volume,
      ...expected,
    });
  });
});

describe("recordedInputs: a held value replaces the declared one only when the service holds one", () => {
  it.each([
    ["a held name", "Held", "Held"],
    ["no name held (null)", null, "Volume"],
  ])("%s", (_, name, recorded) => {
    expect(componentPricePoint.operations.recordedInputs({ handle: "texts-volume", name, args: volume })).toEqual({
      ...volume,
      name: recorded,
    });
  });
});
