import { afterEach, describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { pathsOf, reasonAt } from "../support";
import { startSite, volume } from "./site";

/** ComponentPricePoint's check: prices and overage tiers named before anything is sent, every bad tier at once. */

describe("ComponentPricePoint: check names prices or overagePricing.prices before anything is sent", () => {
  let sim: Simulator;
  afterEach(async () => sim?.close());

  /** Metered `texts` and prepaid `credits` in family `rockets`, the provider configured for the site (site.ts). */
  async function setup(config?: (url: string) => Record<string, string>) {
    const site = await startSite(config);
    sim = site.sim;
    return site;
  }

  it.each([
    ["a first tier not at 1", { prices: [{ startingQuantity: 2, unitPrice: 1 }] }, "prices.0.startingQuantity", /must be 1/],
    [
      "a gap between tiers",
      {
        prices: [
          { startingQuantity: 1, endingQuantity: 10, unitPrice: 1 },
          { startingQuantity: 12, unitPrice: 1 },
        ],
      },
      "prices.1.startingQuantity",
      /leaves quantities 11–11 unpriced/,
    ],
    [
      "overlapping tiers",
      {
        prices: [
          { startingQuantity: 1, endingQuantity: 10, unitPrice: 1 },
          { startingQuantity: 5, unitPrice: 1 },
        ],
      },
      "prices.1.startingQuantity",
      /overlaps/,
    ],
    [
      "a closed last tier",
      { prices: [{ startingQuantity: 1, endingQuantity: 10, unitPrice: 1 }] },
      "prices.0.endingQuantity",
      /must be left out: the last tier/,
    ],
    [
      "an open tier before the last",
      {
        prices: [
          { startingQuantity: 1, unitPrice: 1 },
          { startingQuantity: 11, unitPrice: 1 },
        ],
      },
      "prices.0.endingQuantity",
      /only the last tier is open-ended/,
    ],
    ["per_unit with two tiers", { pricingScheme: "per_unit" }, "prices", /exactly one tier/],
    ["no tier", { prices: [] }, "prices", /at least one tier/],
    ["a price with 9 decimals", { prices: [{ startingQuantity: 1, unitPrice: "0.000000001" }] }, "prices.0.unitPrice", /8 decimal/],
    [
      "bad overage tiers",
      { overagePricing: { pricingScheme: "tiered", prices: [{ startingQuantity: 3, unitPrice: 1 }] } },
      "overagePricing.prices.0.startingQuantity",
      /must be 1/,
    ],
    ["a scheme the service lacks", { pricingScheme: "flat" }, "pricingScheme", /"per_unit", "volume", "tiered" or "stairstep"/],
    ["an interval without its unit", { interval: 2 }, "intervalUnit", /required with interval/],
    ["a component that is neither an id nor handle:", { component: "texts" }, "component", /handle:<handle>/],
  ])("%s", async (_, change, property, reason) => {
    const { points } = await setup();
    const { failures } = await points.check!({}, { ...volume, ...change });
    expect(pathsOf(failures)).toContain(property);
    expect(reasonAt(failures, property)).toMatch(reason);
    expect(sim.requests).toEqual([]);
  });

  it("every bad tier is named at once, with the bad handle", async () => {
    const { points } = await setup();
    const { failures } = await points.check!(
      {},
      {
        ...volume,
        handle: "Bad Handle",
        prices: [
          { startingQuantity: 0, endingQuantity: 5, unitPrice: -1 },
          { startingQuantity: 9, endingQuantity: 20, unitPrice: 1 },
        ],
      },
    );
    expect([...new Set(pathsOf(failures))].sort()).toEqual([
      "handle",
      "prices.0.startingQuantity",
      "prices.0.unitPrice",
      "prices.1.endingQuantity",
      "prices.1.startingQuantity",
    ]);
  });
});
