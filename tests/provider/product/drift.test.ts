import { describe, expect, it } from "vitest";
import { product } from "../../../provider/kinds/product";
import type { Simulator } from "../../../simulator";
import { KEY } from "../support";
import { catalogSite, launch, productSite } from "./site";

/**
 * Product refresh: a change made in the web UI shows as drift, and up restores it; read takes an id for the product's
 * only when it is all digits; the recorded inputs are the service's values for what is declared (a description held
 * as null reads as empty); a product archived outside the stack is unfinished.
 */

describe("Product drift", () => {
  let sim: Simulator;
  let rockets: { id: number };
  const { setup, made } = productSite((started) => {
    ({ sim, rockets } = started);
  });

  const { catalog } = catalogSite((started) => {
    sim = started;
  });

  it("a change made in the web UI shows as drift after refresh, and up restores it", async () => {
    const { products, prod } = await catalog();
    await fetch(`${sim.url}/products/${prod.id}.json`, {
      method: "PUT",
      headers: { authorization: `Basic ${Buffer.from(`${KEY}:x`).toString("base64")}`, "content-type": "application/json" },
      body: JSON.stringify({ product: { name: "Renamed in the UI" } }),
    });
    const read = await products.read!(prod.id, prod.outs);
    expect(read.props?.name).toBe("Renamed in the UI");
    const diff = await products.diff!(prod.id, read.props, launch);
    expect(diff.changes).toBe(true);
    const { outs } = await products.update!(prod.id, read.props, launch);
    expect(outs.name).toBe("Rocket");
  });

  describe("read: an id is the product's only when it is all digits, without a leading zero", () => {
    it.each([
      ["its id", "123", true],
      ["digits after a prefix", "x123", false],
      ["digits before a suffix", "123x", false],
      ["a leading zero", "0123", false],
    ])("%s", async (_, id, reads) => {
      const products = await setup();
      made({ id: 123 });
      const unrecorded = { handle: "rocket", name: "stale", args: launch };
      const got = await products.read!(id, unrecorded);
      expect(got).toEqual({
        id,
        props: reads
          ? expect.objectContaining({ productId: 123, handle: "rocket", name: "Rocket", productFamilyId: rockets.id })
          : unrecorded,
      });
      // With its default price point, whose pricing (the trial type too) is what new signups get.
      expect(sim.requests.map((r) => `${r.method} ${r.path}`)).toEqual(
        reads ? ["GET /products/123.json", expect.stringMatching(/^GET \/products\/123\/price_points\/\d+\.json$/)] : [],
      );
    });
  });

  it("recordedInputs: a description held as null reads as empty; another field held as null keeps the declared value", () => {
    const s = { productId: 7, handle: "rocket", name: null, description: null, args: { ...launch, description: "" } };
    expect(product.operations.recordedInputs(s)).toEqual({ ...launch, description: "" });
  });

  it.each([
    ["archived outside the stack", { archivedAt: "2024-05-01T12:00:00Z" }, true],
    ["live", { archivedAt: null }, false],
  ])("unfinished: %s", (_, extra, unfinished) => {
    expect(product.operations.unfinished!({ productId: 7, handle: "rocket", args: launch, ...extra })).toBe(unfinished);
  });
});
