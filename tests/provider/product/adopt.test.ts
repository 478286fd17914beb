import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { captureOutput, mutations, UNKNOWN } from "../support";
import { catalogSite, family, launch, OTHER_FAMILY_FIX, productSite, steps, withoutFamily, withoutFamilyHandle } from "./site";

/**
 * Product adoption by handle: a product made in the web UI is adopted (values held as declared, or held as null
 * and declared empty, send nothing), an archived one is refused naming the fix; one held in another family is
 * refused naming both families, unless the answer does not say which (the contract allows it) or the family is
 * unknown yet; preview says what adopting means, a pricing change included. `adopt: false` refuses a product that
 * exists, at preview and at create, but a resumed pending create takes the product its own earlier create made.
 */

describe("Product adoption", () => {
  let sim: Simulator;
  let rockets: { id: number };
  const { setup, made, proxy } = productSite((started) => {
    ({ sim, rockets } = started);
  });

  const { providers } = catalogSite((started) => {
    sim = started;
  });

  it("adopts a product made in the web UI, and refuses an archived one naming the fix", async () => {
    const p = await providers();
    await p.families.create(family);
    const made = sim.addProduct({ handle: "rocket", familyHandle: "rockets", priceInCents: 4900 });
    const { result, text } = await captureOutput(() => p.products.create(launch));
    expect(result?.id).toBe(String(made.id));
    expect(text).toContain(`adopted product \`rocket\` (id ${made.id})`);
    sim.addProduct({ handle: "old", familyHandle: "rockets", archived: true });
    const checked = await p.products.check!({}, { ...launch, handle: "old" });
    expect(checked.failures?.[0]?.reason).toMatch(/archived at the service.*keeps its handle.*another handle/);
  });

  it.each([
    [
      "the values declared",
      { description: "Big", accountingCode: "AC-1", taxCode: "TX1" },
      { description: "Big", accountingCode: "AC-1", taxCode: "TX1" },
    ],
    [
      "no values (null), declared empty",
      { description: null, accountingCode: null, taxCode: null },
      { description: "", accountingCode: "", taxCode: "" },
    ],
  ])("adopting a product that holds %s sends nothing", async (_, held, declared) => {
    const products = await setup();
    const p = made(held);
    const { result, error } = await captureOutput(() => products.create({ ...launch, ...declared }));
    expect(error).toBeUndefined();
    expect(result?.id).toBe(String(p.id));
    expect(steps(sim)).toEqual([]);
  });

  it("preview of adopting a product with other pricing: the adoption and the pricing change", async () => {
    const products = await setup();
    const p = made({ priceInCents: 3900 });
    const checked = await products.check!({}, launch);
    expect(checked.failures).toEqual([]);
    expect(checked.inputs.preview).toEqual({
      adopt: { id: p.id, handle: "rocket" },
      pricingChange: {
        effect: "the service creates a new default price point; existing subscriptions keep theirs",
        fields: ["priceInCents"],
        from: { priceInCents: 3900 },
        to: { priceInCents: 4900 },
      },
    });
  });

  it("preview of a product archived at the service fails on handle", async () => {
    const products = await setup();
    const p = made({ archived: true });
    const checked = await products.check!({}, launch);
    expect(checked.failures).toEqual([
      {
        property: "handle",
        reason:
          `product \`rocket\` (id ${p.id}) is archived at the service (since 2024-05-01T12:00:00Z), and an archived product keeps its handle: ` +
          "restore it in the service's web UI and run `pulumi up` again, or declare the product with another handle",
      },
    ]);
  });

  it("preview with the family unknown yet: adopted, no failure", async () => {
    const products = await setup();
    const p = made();
    const checked = await products.check!({}, { ...launch, productFamily: UNKNOWN });
    expect(checked.failures).toEqual([]);
    expect(checked.inputs.preview).toEqual({ adopt: { id: p.id, handle: "rocket" } });
  });

  describe("a product held in another family", () => {
    it("preview: a family handle other than the one it is in fails on productFamily, naming both", async () => {
      const products = await setup();
      const p = made();
      const checked = await products.check!({}, { ...launch, productFamily: "handle:others" });
      expect(checked.failures).toEqual([
        {
          property: "productFamily",
          reason: `product \`rocket\` (id ${p.id}) exists in another product family (id ${rockets.id}, \`rockets\`): ${OTHER_FAMILY_FIX}`,
        },
      ]);
      expect(mutations(sim)).toEqual([]);
    });

    it("preview: its family's id, when another is declared by id, fails even when the answer does not name the family's handle", async () => {
      const products = await setup(() => proxy(withoutFamilyHandle));
      const p = made();
      const checked = await products.check!({}, { ...launch, productFamily: rockets.id + 1 });
      expect(checked.failures).toEqual([
        {
          property: "productFamily",
          reason: `product \`rocket\` (id ${p.id}) exists in another product family (id ${rockets.id}): ${OTHER_FAMILY_FIX}`,
        },
      ]);
    });

    it("preview: a family handle cannot be told apart when the answer does not name the family's: adopted", async () => {
      const products = await setup(() => proxy(withoutFamilyHandle));
      const p = made();
      const checked = await products.check!({}, { ...launch, productFamily: "handle:others" });
      expect(checked.failures).toEqual([]);
      expect(checked.inputs.preview).toEqual({ adopt: { id: p.id, handle: "rocket" } });
    });
  });

  describe("an answer that names no family", () => {
    it("create adopts the product: nothing says it is in another family", async () => {
      const products = await setup(() => proxy(withoutFamily));
      const p = made();
      const { result, error } = await captureOutput(() => products.create(launch));
      expect(error).toBeUndefined();
      expect(result?.id).toBe(String(p.id));
      expect(steps(sim)).toEqual([]);
    });

    it("preview of another family by id: adopted, no failure", async () => {
      const products = await setup(() => proxy(withoutFamily));
      const p = made();
      const checked = await products.check!({}, { ...launch, productFamily: rockets.id + 1 });
      expect(checked.failures).toEqual([]);
      expect(checked.inputs.preview).toEqual({ adopt: { id: p.id, handle: "rocket" } });
    });
  });

  describe("adopt: false", () => {
    it("preview with adopt: false and the handle taken fails on handle, saying what to do", async () => {
      const products = await setup();
      const p = made();
      const checked = await products.check!({}, { ...launch, adopt: false });
      expect(checked.failures).toEqual([
        {
          property: "handle",
          reason: `product \`rocket\` (id ${p.id}) already exists at the service and adopt is false: choose another handle, or set adopt: true to manage it`,
        },
      ]);
    });

    it("adopt: false and the handle taken: refused, nothing changed", async () => {
      const products = await setup();
      const p = made({ name: "Renamed in the UI" });
      await expect(products.create({ ...launch, adopt: false })).rejects.toThrow(
        new Error(`product \`rocket\` (id ${p.id}) already exists and adopt is false: nothing was changed`),
      );
      expect(mutations(sim)).toEqual([]);
    });

    it("a pending create resumed with adopt: false finds the product its own create made, and adopts it without a word", async () => {
      const products = await setup();
      const p = made();
      const inputs = { ...launch, adopt: false };
      const { result, text, error } = await captureOutput(() =>
        products.update!("pending-tok", { handle: "rocket", args: inputs, pendingToken: "tok" }, inputs),
      );
      expect(error).toBeUndefined();
      expect(result?.outs).toMatchObject({ productId: p.id, handle: "rocket", productFamilyId: rockets.id, args: inputs });
      expect(text).toBe("");
      expect(mutations(sim)).toEqual([]);
    });
  });

  it("adopted with no description there (null) and one declared empty: nothing sent", async () => {
    const products = await setup();
    const p = made({ description: null });
    const { result, error } = await captureOutput(() => products.create({ ...launch, description: "" }));
    expect(error).toBeUndefined();
    expect(result?.id).toBe(String(p.id));
    expect(result?.outs).toMatchObject({ description: null, args: { ...launch, description: "" } });
    expect(steps(sim)).toEqual([]);
  });
});
