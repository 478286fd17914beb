import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { annual, pricePointSite } from "./site";

/** ProductPricePoint create: a product handle that names no product is refused, naming the handle and the site. */

describe("ProductPricePoint create", () => {
  let sim: Simulator;
  const { setup } = pricePointSite((started) => {
    sim = started;
  });

  it("create on a product handle no product has: refused, naming the handle and the site", async () => {
    const { points } = await setup();
    const host = new URL(sim.url).host;
    await expect(points.create({ ...annual, product: "handle:nowhere" })).rejects.toThrow(
      new Error(`product: no product has the handle \`nowhere\` at site ${host}: declare a Product and pass it`),
    );
  });
});
