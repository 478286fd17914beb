import { afterEach, describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { mutations } from "../support";
import { heldIn, startSite, steps, volume } from "./site";

/** ComponentPricePoint's create: with tiers, as the service then holds them; a component handle no component has. */

describe("ComponentPricePoint: create", () => {
  let sim: Simulator;
  afterEach(async () => sim?.close());

  /** Metered `texts` and prepaid `credits` in family `rockets`, the provider configured for the site (site.ts). */
  async function setup(config?: (url: string) => Record<string, string>) {
    const site = await startSite(config);
    sim = site.sim;
    return site;
  }
  const heldByHandle = (componentId: number, handle: string) => heldIn(sim, componentId, { handle });

  it("creates with tiers, as the service then holds them", async () => {
    const { points, texts } = await setup();
    const { id, outs } = await points.create!(volume);
    expect(outs).toMatchObject({
      pricePointId: Number(id),
      componentId: texts.id,
      handle: "texts-volume",
      name: "Volume",
      isDefault: false,
      archivedAt: null,
      pricingScheme: "volume",
    });
    expect(
      outs.prices.map((t: { startingQuantity: number; endingQuantity: number | null }) => [t.startingQuantity, t.endingQuantity]),
    ).toEqual([
      [1, 1000],
      [1001, null],
    ]);
    const pp = heldByHandle(texts.id, "texts-volume");
    expect(pp?.pricingScheme).toBe("volume");
    expect(pp?.prices.map((p) => [p.startingQuantity, p.endingQuantity, Number(p.unitPrice)])).toEqual([
      [1, 1000, 0.05],
      [1001, null, 0.03],
    ]);
    expect(steps(sim)).toEqual([`POST /components/${texts.id}/price_points.json`]);
    // "0.05" as declared and as held ("0.05" or "0.050"): no diff.
    expect(await points.diff!(id, outs, volume)).toMatchObject({ changes: false });
  });

  it("a create naming a component handle no component has: an error naming the handle and the site, nothing sent", async () => {
    const { points } = await setup();
    const failed = await points.create!({ ...volume, component: "handle:nope" }).then(
      () => undefined,
      (e: Error) => e.message,
    );
    expect(failed).toBe(
      `component: no component has the handle \`nope\` at site ${new URL(sim.url).host}: declare a Component and pass it`,
    );
    expect(mutations(sim)).toEqual([]);
  });
});
