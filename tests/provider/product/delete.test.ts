import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { captureOutput, mutations } from "../support";
import { catalogSite, launch, productSite, steps } from "./site";

/**
 * Product delete archives it (the service never deletes one) by its recorded id, whatever its handle now, and its
 * handle stays taken; one archived already is left as it is; a pending create's delete looks for the product by
 * its handle.
 */

describe("Product delete", () => {
  let sim: Simulator;
  const { setup, made } = productSite((started) => {
    sim = started.sim;
  });

  const { catalog } = catalogSite((started) => {
    sim = started;
  });

  it("delete archives it, and its handle stays taken", async () => {
    const { products, prod } = await catalog();
    const { text } = await captureOutput(() => products.delete!(prod.id, prod.outs));
    expect(steps(sim)).toEqual([`DELETE /products/${prod.id}.json`]);
    expect(text).toMatch(/archived product `rocket`.*handle stays taken/);
  });

  describe("delete", () => {
    it("of a pending create whose product exists: archives it", async () => {
      const products = await setup();
      const p = made();
      const { text, error } = await captureOutput(() =>
        products.delete!("pending-tok", { handle: "rocket", args: launch, pendingToken: "tok" }),
      );
      expect(error).toBeUndefined();
      expect(steps(sim)).toEqual([`DELETE /products/${p.id}.json`]);
      expect(text).toContain(`Product: archived product \`rocket\` (id ${p.id})`);
    });

    it("of a recorded product: by its id, whatever its handle now", async () => {
      const products = await setup();
      const p = made({ handle: "renamed-in-ui" });
      const { error } = await captureOutput(() => products.delete!(String(p.id), { productId: p.id, handle: "rocket", args: launch }));
      expect(error).toBeUndefined();
      expect(steps(sim)).toEqual([`DELETE /products/${p.id}.json`]);
    });

    it("of a product archived already: nothing sent", async () => {
      const products = await setup();
      const p = made({ archived: true });
      const { text, error } = await captureOutput(() =>
        products.delete!(String(p.id), { productId: p.id, handle: "rocket", args: launch }),
      );
      expect(error).toBeUndefined();
      expect(steps(sim)).toEqual([]);
      // Archived already: nothing done, nothing said (as every kind's delete).
      expect(text).not.toContain("archived product");
    });
  });

  it("delete of a pending create that made no product: nothing to archive, said so", async () => {
    const products = await setup();
    const { text, error } = await captureOutput(() =>
      products.delete!("pending-tok", { handle: "rocket", args: launch, pendingToken: "tok" }),
    );
    expect(error).toBeUndefined();
    expect(text).toBe("Product: the pending create of `rocket` made no product; nothing to archive.\n");
    expect(mutations(sim)).toEqual([]);
  });
});
