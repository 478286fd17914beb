import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { captureOutput, mutations } from "../support";
import { auth, catalogSite, type Json, launch, productSite, steps } from "./site";

/**
 * Product update, in place: a name change sends only the name; a pricing change is a new default price point at
 * the service (said at preview and after, naming its id when the answer does), subscriptions keep theirs; a
 * repeated update sends nothing. A change of family is refused at preview (the service cannot move a product);
 * the family written another way is no change. A product gone or archived says what to do; the service's refusal
 * names each of its reasons; its other failures are the SDK's own.
 */

describe("Product update", () => {
  let sim: Simulator;
  const { setup, made, proxy } = productSite((started) => {
    sim = started.sim;
  });

  const { catalog } = catalogSite((started) => {
    sim = started;
  });

  it("a pricing change: preview says what the service will do; update makes a new default price point, subscriptions keep theirs", async () => {
    const { products, prod } = await catalog();
    const sub = sim.addSubscription({ productHandle: "rocket", state: "active" });
    const news = { ...launch, priceInCents: 5900 };
    const checked = await captureOutput(() => products.check!(launch, news));
    expect(checked.result?.inputs.preview).toMatchObject({
      pricingChange: { fields: ["priceInCents"], from: { priceInCents: 4900 }, to: { priceInCents: 5900 } },
    });
    expect(checked.text).toMatch(/\$49\.00 → \$59\.00.*new default price point.*existing subscriptions keep theirs/);
    const diff = await products.diff!(prod.id, prod.outs, news);
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    const { outs } = await products.update!(prod.id, prod.outs, news);
    expect(outs.priceInCents).toBe(5900);
    expect(outs.defaultPricePointId).not.toBe(prod.outs.defaultPricePointId);
    expect(sim.getSubscription(sub.id)?.pricePointId).toBe(prod.outs.defaultPricePointId);
    expect(steps(sim)).toEqual([`PUT /products/${prod.id}.json`]);
    // Repeated (a retried up): the service already holds it, nothing is sent.
    sim.reset();
    await products.update!(prod.id, outs, news);
    expect(mutations(sim)).toEqual([]);
  });

  it("a name change alone sends only the name, and says nothing of pricing", async () => {
    const products = await setup();
    const p = made();
    const { result, text, error } = await captureOutput(() =>
      products.update!(String(p.id), { productId: p.id, handle: "rocket", args: launch }, { ...launch, name: "Rocket II" }),
    );
    expect(error).toBeUndefined();
    expect(text).toBe("");
    expect(mutations(sim).map((r) => [r.method, r.path, r.body])).toEqual([
      ["PUT", `/products/${p.id}.json`, { product: { name: "Rocket II" } }],
    ]);
    expect(result?.outs).toMatchObject({ name: "Rocket II", priceInCents: 4900 });
  });

  it("a pricing change names the new default price point's id", async () => {
    const products = await setup();
    const p = made();
    const { result, text, error } = await captureOutput(() =>
      products.update!(String(p.id), { productId: p.id, handle: "rocket", args: launch }, { ...launch, priceInCents: 5900 }),
    );
    expect(error).toBeUndefined();
    const pp = (result?.outs as Json | undefined)?.defaultPricePointId;
    const answer = await fetch(`${sim.url}/products/${p.id}.json`, { headers: auth });
    expect(((await answer.json()) as { product: Json }).product.default_product_price_point_id).toBe(pp);
    expect(text).toBe(
      `Product \`rocket\`: pricing changed (priceInCents $49.00 → $59.00): the service made a new default price point (id ${pp}); existing subscriptions keep theirs.\n`,
    );
  });

  describe("refuse: a change of family fails at preview", () => {
    /** A product recorded in family `rockets` (id and handle as given), declared by `declared`. */
    const recorded = (family: Json, declared = "handle:rockets") => ({
      productId: 7,
      ...family,
      handle: "rocket",
      name: "Rocket",
      args: { ...launch, productFamily: declared },
    });

    it.each([
      ["in a family known by id and handle", { productFamilyId: 9001, productFamilyHandle: "rockets" }, "9001"],
      ["in a family whose id is not recorded", { productFamilyId: null, productFamilyHandle: "rockets" }, "?"],
    ])("%s: the error says where it is", async (_, family, where) => {
      const products = await setup();
      await expect(products.diff!("7", recorded(family), { ...launch, productFamily: "handle:others" })).rejects.toThrow(
        new Error(
          'Product `rocket`: productFamily changed to "handle:others", but the service cannot move a product between families ' +
            `(it is in family ${where}). Keep its family, or declare a new product with a new handle in the other family.`,
        ),
      );
    });

    it("the family declared as before, its handle not recorded: no refusal, only the other change", async () => {
      const products = await setup();
      const diff = await products.diff!("7", recorded({ productFamilyId: 9001, productFamilyHandle: null }), {
        ...launch,
        name: "Rocket II",
      });
      expect(diff).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
    });
  });

  it("refuse: the family it is in, now given by id where its handle was declared, is no change of family", async () => {
    const products = await setup();
    const s = { productId: 7, productFamilyId: 9001, productFamilyHandle: "rockets", handle: "rocket", name: "Rocket", args: launch };
    const diff = await products.diff!("7", s, { ...launch, productFamily: 9001 });
    expect(diff).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
  });

  describe("a product gone, archived or refused", () => {
    it("of a product the service no longer has: says to refresh, nothing changed", async () => {
      const products = await setup();
      await expect(products.update!("77", { productId: 77, handle: "rocket", args: launch }, launch)).rejects.toThrow(
        new Error("product `rocket` (id 77) no longer exists at the service: run `pulumi refresh` to drop it (nothing was changed)"),
      );
      expect(mutations(sim)).toEqual([]);
    });

    it("whose read fails otherwise: that failure, as the SDK gives it", async () => {
      const products = await setup();
      const p = made();
      const error = await products.update!(
        String(p.id),
        { productId: p.id, handle: "rocket", args: launch },
        { ...launch, site: "locked" },
      ).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(String((error as Error).message)).toMatch(
        new RegExp(
          `^the billing site locked refused the API key from billing:sites\\["locked"\\]\\.apiKey \\(401 Unauthorized to GET /products/${p.id}\\.json\\)`,
        ),
      );
      expect(String((error as Error).message)).not.toContain("no longer exists");
    });

    it("of a product archived outside the stack: says what to do, nothing changed", async () => {
      const products = await setup();
      const p = made({ archived: true });
      await expect(products.update!(String(p.id), { productId: p.id, handle: "rocket", args: launch }, launch)).rejects.toThrow(
        new Error(
          `product \`rocket\` (id ${p.id}) is archived at the service (since 2024-05-01T12:00:00Z), and an archived product keeps its handle: ` +
            "restore it in the service's web UI and run `pulumi up` again, or declare the product with another handle. " +
            "Nothing was changed; to let it go, remove it from the program (its destroy changes nothing more).",
        ),
      );
      expect(mutations(sim)).toEqual([]);
    });

    it("refused by the service (422): each of its reasons, nothing changed", async () => {
      const products = await setup();
      // Terms the web UI left half set: any pricing change makes the service check them, and it names both.
      const p = made({ trialPriceInCents: 500, expirationIntervalUnit: "month" });
      const error = await captureOutput(() =>
        products.update!(String(p.id), { productId: p.id, handle: "rocket", args: launch }, { ...launch, priceInCents: 5900 }),
      ).then((r) => r.error);
      expect(error).toEqual(
        new Error(
          "Product `rocket`: the service refused the update: expirationInterval: cannot be blank.; trialInterval: cannot be blank. (nothing was changed)",
        ),
      );
    });

    it("failing otherwise (a 404 from the update itself): that failure, as the SDK gives it", async () => {
      const products = await setup(() =>
        proxy(undefined, (method, path) => (method === "PUT" && path.startsWith("/products/") ? "/products/999999.json" : undefined)),
      );
      const p = made();
      const error = await captureOutput(() =>
        products.update!(String(p.id), { productId: p.id, handle: "rocket", args: launch }, { ...launch, name: "Rocket II" }),
      ).then((r) => r.error);
      expect(error).toMatchObject({ name: "BillingApiError", status: 404, method: "PUT", path: `/products/${p.id}.json` });
      expect(String((error as Error).message)).not.toContain("refused the update");
    });
  });

  it("a pricing change whose answer names no default price point: the notice gives no id", async () => {
    const products = await setup(() =>
      proxy((method, path, body) => {
        const product = body.product as Json | undefined;
        if (method === "PUT" && path.startsWith("/products/") && product) {
          product.default_product_price_point_id = null;
          product.product_price_point_id = null;
        }
      }),
    );
    const p = made();
    const { result, text } = await captureOutput(() =>
      products.update!(String(p.id), { productId: p.id, handle: "rocket", args: launch }, { ...launch, priceInCents: 5900 }),
    );
    expect(text).toBe(
      "Product `rocket`: pricing changed (priceInCents $49.00 → $59.00): the service made a new default price point; existing subscriptions keep theirs.\n",
    );
    expect(result?.outs).toMatchObject({ priceInCents: 5900, defaultPricePointId: null });
  });
});
