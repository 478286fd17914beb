import { afterEach, describe, expect, it } from "vitest";
import { productProvider } from "../../provider";
import { type Simulator, startSimulator } from "../../simulator";
import { captureOutput, configureRequest, type Edit, editingProxy, KEY, mutations, type Redirect } from "./support";

/**
 * Product paths the mutation run found no test took (product.ts), against the simulator over a real socket:
 * a family handle that names no family, a product held in another family (with and without the family's
 * handle in the answer), adopt: false at preview, at create and when resuming a pending create, a description
 * the service holds as null, the site kept with a create whose outcome is unknown, the words of refuse() on
 * a family change, update meeting a product gone, archived, or refused (422 or not), the pricing notice
 * without a default price point id, read of ids that are not all digits, and delete of a pending create.
 * Where the contract allows an answer the simulator never writes (a product without its family's handle,
 * without its default price point's id), or the service must fail one request the simulator would answer,
 * a socket in front of the simulator edits that one answer or sends that request elsewhere.
 */

const NOW = "2024-05-01T12:00:00.000Z";
const MONTHLY = { priceInCents: 4900, interval: 1, intervalUnit: "month" } as const;
const launch = { productFamily: "handle:rockets", handle: "rocket", name: "Rocket", ...MONTHLY };
const steps = (sim: Simulator) => mutations(sim).map((r) => `${r.method} ${r.path}`);
const OTHER_FAMILY_FIX = "the service cannot move a product between families; declare that family, or another handle";

type Json = Record<string, unknown>;

describe("Product, its less travelled paths", () => {
  let sim: Simulator;
  let rockets: { id: number };
  afterEach(async () => {
    await sim?.close();
  });

  /** The editing proxy (support.ts) in front of this test's simulator. */
  const proxy = (edit?: Edit, to?: Redirect) => editingProxy(sim.url, edit, to);

  /**
   * Family `rockets` (and `others`) at a simulator whose clock stands still; the provider talks to `url` (the
   * simulator unless given), at the top level and as site `eu`, and to the simulator with a wrong key as site `locked`.
   */
  async function setup(url?: () => Promise<string>) {
    sim = await startSimulator({ apiKey: KEY, now: () => new Date(NOW) });
    rockets = sim.addProductFamily({ handle: "rockets", name: "Rockets" });
    sim.addProductFamily({ handle: "others", name: "Others" });
    const baseUrl = url ? await url() : sim.url;
    const products = { ...productProvider };
    await products.configure!(
      configureRequest({
        "billing:baseUrl": baseUrl,
        "billing:apiKey": KEY,
        "billing:sites": JSON.stringify({
          eu: { baseUrl, apiKey: KEY },
          locked: { baseUrl: sim.url, apiKey: "sk_live_NOT_THIS_SITE_0000" },
        }),
      }),
    );
    return products;
  }

  /** A product made in the web UI, in family `rockets` unless said otherwise. */
  const made = (extra: Partial<Parameters<Simulator["addProduct"]>[0]> = {}) =>
    sim.addProduct({ handle: "rocket", familyHandle: "rockets", name: "Rocket", ...MONTHLY, ...extra });

  /** Answers for `/products/...` without the family's handle in them (the contract allows null). */
  const withoutFamilyHandle = (_method: string, path: string, body: Json) => {
    const product = body.product as Json | undefined;
    if (path.startsWith("/products/") && product) product.product_family = { ...(product.product_family as Json), handle: null };
  };

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

  describe("create", () => {
    it("a family handle no family has: refused, naming the handle and the site, nothing sent", async () => {
      const products = await setup();
      await expect(products.create({ ...launch, productFamily: "handle:nowhere", site: "eu" })).rejects.toThrow(
        new Error("productFamily: no product family has the handle `nowhere` at site eu: declare a ProductFamily and pass its familyId"),
      );
      expect(mutations(sim)).toEqual([]);
    });

    it("adopt: false and the handle taken: refused, nothing changed", async () => {
      const products = await setup();
      const p = made({ name: "Renamed in the UI" });
      await expect(products.create({ ...launch, adopt: false })).rejects.toThrow(
        new Error(`product \`rocket\` (id ${p.id}) already exists and adopt is false: nothing was changed`),
      );
      expect(mutations(sim)).toEqual([]);
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

    it("an outcome unknown, at a named site, records the site with the pending create", async () => {
      const products = await setup();
      sim.injectFault({ kind: "status", status: 503, rate: 1, match: { method: "POST" } });
      const inputs = { ...launch, site: "eu" };
      const { error } = await captureOutput(() => products.create(inputs));
      const partial = error as { message: string; id: string; properties: Json };
      expect(partial.id).toMatch(/^pending-/);
      expect(partial.message).toMatch(
        /\. Recorded: the next `pulumi up` looks for product `rocket` by its handle and only re-sends the create, with the same token, if it is not there\.$/,
      );
      const { __provider: _, ...recorded } = partial.properties;
      expect(recorded).toEqual({ handle: "rocket", args: inputs, site: "eu", pendingToken: partial.id.slice("pending-".length) });
    });
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

  describe("update", () => {
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
      expect(error).toMatchObject({ name: "BillingApiError", status: 401, method: "GET", path: `/products/${p.id}.json` });
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
