import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { captureOutput, mutations } from "../support";
import { catalogSite, family, launch, productSite } from "./site";

/**
 * Product create: in its family, with the default price point's pricing as the service holds it and the family's
 * handle recorded (and kept by read); a handle of digits is a handle, never an id; a family handle that names no
 * family is refused before anything is sent.
 */

describe("Product create", () => {
  let sim: Simulator;
  let rockets: { id: number };
  const { setup } = productSite((started) => {
    ({ sim, rockets } = started);
  });

  const { providers, catalog } = catalogSite((started) => {
    sim = started;
  });

  it("creates in its family with the default price point's pricing, as the service holds it", async () => {
    const { prod, f } = await catalog();
    expect(prod.outs).toMatchObject({
      handle: "rocket",
      productFamilyId: f.outs.familyId,
      priceInCents: 4900,
      interval: 1,
      intervalUnit: "month",
      archivedAt: null,
    });
    expect(prod.outs.defaultPricePointId).toEqual(expect.any(Number));
  });

  it("create records the family's handle, and read keeps it", async () => {
    const products = await setup();
    const { id, outs } = await products.create(launch);
    expect(outs).toMatchObject({ productFamilyId: rockets.id, productFamilyHandle: "rockets" });
    const got = await products.read!(id, outs);
    expect(got.props).toMatchObject({ productFamilyId: rockets.id, productFamilyHandle: "rockets", handle: "rocket" });
  });

  it("a handle of digits is a handle, not an id: product 3 exists, yet handle 3 is created, then adopted", async () => {
    const p = await providers();
    await p.families.create(family);
    const first = await p.products.create({ ...launch, handle: "3" });
    expect(first.id).not.toBe("3");
    expect(first.outs.handle).toBe("3");
    const again = await captureOutput(() => p.products.create({ ...launch, handle: "3" }));
    expect(again.result?.id).toBe(first.id);
  });

  it("a family handle no family has: refused, naming the handle and the site, nothing sent", async () => {
    const products = await setup();
    await expect(products.create({ ...launch, productFamily: "handle:nowhere", site: "eu" })).rejects.toThrow(
      new Error("productFamily: no product family has the handle `nowhere` at site eu: declare a ProductFamily and pass its familyId"),
    );
    expect(mutations(sim)).toEqual([]);
  });
});
