import { afterEach, describe, expect, it } from "vitest";
import { productFamilyProvider, productPricePointProvider, productProvider } from "../../provider";
import { product } from "../../provider/kinds/product";
import { productPricePoint } from "../../provider/kinds/product-price-point";
import { type Simulator, startSimulator } from "../../simulator";
import { annual, LAUNCH, label, ppPath } from "./price-point-fixtures";
import { captureOutput, configured, configureRequest, type Edit, editingProxy, KEY, mutations, UNKNOWN } from "./support";

/**
 * Product, ProductFamily and ProductPricePoint behaviour the mutation run (06:05) found unchecked after the
 * older product*.mutation tests: what an adoption compares (values held as given, or held as null), exactly
 * what an update sends and says, the family kept with a product from create to read, which ids a preview of
 * an update carries (stable), the family check at preview when the family is unknown or the answer names
 * none, refuse() on a family named another way, what delete does with a pending create or an archived
 * product, the words of a family's refusal and delete, and the replacement steps of a price point (adopted
 * as it is, replaced for its pricing, resumed, promoted only when it is not the default already). All run
 * against the simulator over a real socket; where the contract allows an answer the simulator never writes
 * (a product whose family is not named), a socket in front of it edits that one answer.
 */

const NOW = "2024-05-01T12:00:00.000Z";
const MONTHLY = { priceInCents: 4900, interval: 1, intervalUnit: "month" } as const;
const launch = { productFamily: "handle:rockets", handle: "rocket", name: "Rocket", ...MONTHLY };
const steps = (sim: Simulator) => mutations(sim).map((r) => `${r.method} ${r.path}`);
const auth = { authorization: `Basic ${Buffer.from(`${KEY}:x`).toString("base64")}` };

type Json = Record<string, unknown>;

let sim: Simulator;
afterEach(async () => {
  await sim?.close();
});

/** The editing proxy (support.ts) in front of this file's simulator. */
const proxy = (edit: Edit) => editingProxy(sim.url, edit);

describe("Product", () => {
  let rockets: { id: number };

  /** Families `rockets` and `others` at a simulator whose clock stands still; the provider talks to `url` (the simulator unless given). */
  async function setup(url?: () => Promise<string>) {
    sim = await startSimulator({ apiKey: KEY, now: () => new Date(NOW) });
    rockets = sim.addProductFamily({ handle: "rockets", name: "Rockets" });
    sim.addProductFamily({ handle: "others", name: "Others" });
    const baseUrl = url ? await url() : sim.url;
    const products = { ...productProvider };
    await products.configure!(configureRequest({ "billing:baseUrl": baseUrl, "billing:apiKey": KEY }));
    return products;
  }
  const made = (extra: Partial<Parameters<Simulator["addProduct"]>[0]> = {}) =>
    sim.addProduct({ handle: "rocket", familyHandle: "rockets", name: "Rocket", ...MONTHLY, ...extra });
  /** Answers for `/products/...` that name no family (the contract allows null). */
  const withoutFamily = (_method: string, path: string, body: Json) => {
    const p = body.product as Json | undefined;
    if (path.startsWith("/products/") && p) p.product_family = null;
  };

  it("create records the family's handle, and read keeps it", async () => {
    const products = await setup();
    const { id, outs } = await products.create(launch);
    expect(outs).toMatchObject({ productFamilyId: rockets.id, productFamilyHandle: "rockets" });
    const got = await products.read!(id, outs);
    expect(got.props).toMatchObject({ productFamilyId: rockets.id, productFamilyHandle: "rockets", handle: "rocket" });
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

  it("preview with the family unknown yet: adopted, no failure", async () => {
    const products = await setup();
    const p = made();
    const checked = await products.check!({}, { ...launch, productFamily: UNKNOWN });
    expect(checked.failures).toEqual([]);
    expect(checked.inputs.preview).toEqual({ adopt: { id: p.id, handle: "rocket" } });
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

  describe("preview of an update carries its ids (stable)", () => {
    it("the ids recorded, without asking the service", async () => {
      const products = await setup();
      made();
      sim.reset();
      const checked = await products.check!({ ...launch, productId: 7, productFamilyId: 9001 }, { ...launch, name: "Rocket II" });
      expect(checked.failures).toEqual([]);
      expect(checked.inputs).toMatchObject({ productId: 7, productFamilyId: 9001 });
      expect(sim.requests).toEqual([]);
    });

    it("none recorded: the product with its handle", async () => {
      const products = await setup();
      const p = made();
      const checked = await products.check!(launch, { ...launch, name: "Rocket II" });
      expect(checked.failures).toEqual([]);
      expect(checked.inputs).toMatchObject({ productId: p.id, productFamilyId: rockets.id });
    });
  });

  it("refuse: the family it is in, now given by id where its handle was declared, is no change of family", async () => {
    const products = await setup();
    const s = { productId: 7, productFamilyId: 9001, productFamilyHandle: "rockets", handle: "rocket", name: "Rocket", args: launch };
    const diff = await products.diff!("7", s, { ...launch, productFamily: 9001 });
    expect(diff).toEqual({ changes: true, replaces: [], deleteBeforeReplace: false });
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
});

describe("ProductFamily", () => {
  const family = { handle: "rockets", name: "Rockets" };
  async function setup() {
    sim = await startSimulator({ apiKey: KEY, now: () => new Date(NOW) });
    const families = { ...productFamilyProvider };
    await families.configure!(configureRequest({ "billing:baseUrl": sim.url, "billing:apiKey": KEY }));
    return families;
  }

  it("refuse of a description change names the description the service holds", async () => {
    const families = await setup();
    const s = { familyId: 5, handle: "rockets", name: "Rockets", description: "Held", args: { name: "Rockets", description: "Held" } };
    await expect(families.diff!("5", s, { ...family, description: "New" })).rejects.toThrow(
      new Error(
        'product family `rockets` cannot be changed: the service has no update of a family (description: the service holds "Held"). ' +
          "Declare the values it holds, or declare a new family with a new handle and move products to it.",
      ),
    );
  });

  it.each([
    ["its id recorded: that id, without asking the service", { familyId: 999 }, () => 999, 0],
    ["none recorded: the family with its handle", {}, (id: number) => id, 1],
  ])("preview of an update carries its id: %s", async (_, recorded, expected, asked) => {
    const families = await setup();
    const f = sim.addProductFamily(family);
    const checked = await families.check!({ ...family, ...recorded }, { ...family, adopt: true });
    expect(checked.failures).toEqual([]);
    expect(checked.inputs).toMatchObject({ familyId: expected(f.id) });
    expect(sim.requests.filter((r) => r.method === "GET").length).toBe(asked);
  });

  // A name or description from another resource's output is unknown at preview: it may turn out to be what the
  // service holds, so the preview is the adoption, not the refusal a known different value gets (found 27 Nov).
  it.each([
    ["name", { name: UNKNOWN }],
    ["description", { description: UNKNOWN }],
    ["both", { name: UNKNOWN, description: UNKNOWN }],
  ])("preview of adopting a family whose %s is unknown yet: the adoption, no failure", async (_, unknowns) => {
    const families = await setup();
    const f = sim.addProductFamily({ ...family, description: "Held" });
    const checked = await families.check!({}, { ...family, ...unknowns, adopt: true });
    expect(checked.failures).toEqual([]);
    expect(checked.inputs.preview).toEqual({ adopt: { id: f.id, handle: "rockets" } });
    expect(mutations(sim)).toEqual([]);
  });

  it("read of a pending create: the record as it is, nothing asked", async () => {
    const families = await setup();
    sim.addProductFamily(family);
    const pending = { handle: "rockets", args: { name: "Rockets" }, pendingToken: "tok" };
    expect(await families.read!("pending-tok", pending)).toEqual({ id: "pending-tok", props: pending });
    expect(sim.requests).toEqual([]);
  });

  it("read of a family: its name, description and creation time as the service holds them", async () => {
    const families = await setup();
    const f = sim.addProductFamily({ ...family, description: "Everything that flies" });
    const s = { familyId: f.id, handle: "rockets", name: "stale", description: null, createdAt: "stale", args: { name: "Rockets" } };
    const got = await families.read!(String(f.id), s);
    expect(got.props).toEqual({
      familyId: f.id,
      handle: "rockets",
      name: "Rockets",
      description: "Everything that flies",
      createdAt: "2024-05-01T12:00:00Z",
      args: { name: "Rockets" },
    });
  });

  it("delete names the recorded family id", async () => {
    const families = await setup();
    const { text } = await captureOutput(() => families.delete!("77", { familyId: 5, handle: "rockets", args: { name: "Rockets" } }));
    expect(text).toBe(
      "ProductFamily: family `rockets` (id 5) left the stack and stays at the service, which has no delete of a family; its handle stays taken.\n",
    );
  });

  it("a pending create resumed, the family not there: created with the same uniqueness token", async () => {
    const families = await setup();
    const { result, error } = await captureOutput(() =>
      families.update!("pending-tok", { handle: "rockets", args: { name: "Rockets" }, pendingToken: "tok-1" }, family),
    );
    expect(error).toBeUndefined();
    expect(mutations(sim).map((r) => [r.method, r.path, (r.body as Json).uniqueness_token])).toEqual([
      ["POST", "/product_families.json", "tok-1"],
    ]);
    expect(result?.outs).toMatchObject({ handle: "rockets", name: "Rockets" });
  });
});

describe("ProductPricePoint", () => {
  async function setup() {
    const c = await configured(productPricePointProvider);
    sim = c.sim;
    return c.provider;
  }
  async function listed(): Promise<{ id: number; handle: string; type: string }[]> {
    const answer = await fetch(`${sim.url}/products/${LAUNCH}/price_points.json?include_archived=true`, { headers: auth });
    return ((await answer.json()) as { price_points: { id: number; handle: string; type: string }[] }).price_points;
  }

  it("create on a product handle no product has: refused, naming the handle and the site", async () => {
    const points = await setup();
    const host = new URL(sim.url).host;
    await expect(points.create({ ...annual, product: "handle:nowhere" })).rejects.toThrow(
      new Error(`product: no product has the handle \`nowhere\` at site ${host}: declare a Product and pass it`),
    );
  });

  it("adopting one as it is: the adoption said, nothing sent", async () => {
    const points = await setup();
    const { id } = await points.create(annual);
    sim.reset();
    const { result, text, error } = await captureOutput(() => points.create(annual));
    expect(error).toBeUndefined();
    expect(result?.id).toBe(id);
    expect(text).toBe(`adopted ${label("launch-annual", id)} of site ${new URL(sim.url).host}\n`);
    expect(mutations(sim)).toEqual([]);
  });

  it("adopting the default with default: true: nothing promoted", async () => {
    const points = await setup();
    const { id } = await points.create({ ...annual, default: true });
    sim.reset();
    const { result, error } = await captureOutput(() => points.create({ ...annual, default: true }));
    expect(error).toBeUndefined();
    expect(result?.outs).toMatchObject({ pricePointId: Number(id), isDefault: true });
    expect(mutations(sim)).toEqual([]);
  });

  it("adopting one with other pricing: the notice names the pricing that differs", async () => {
    const points = await setup();
    const { id } = await points.create(annual);
    sim.reset();
    const { text, error } = await captureOutput(() => points.create({ ...annual, priceInCents: 59000 }));
    expect(error).toBeUndefined();
    expect(text.split("\n")[0]).toBe(
      `ProductPricePoint: ${label("launch-annual", id)} is renamed \`launch-annual-replaced-${id}\` to free its handle for its replacement (priceInCents $490.00 → $590.00); it is archived once the new one exists.`,
    );
  });

  it("an outcome unknown: the message says what the next up does", async () => {
    const points = await setup();
    sim.injectFault({ kind: "status", status: 503, rate: 1, match: { method: "POST" } });
    const { error } = await captureOutput(() => points.create(annual));
    expect((error as Error).message).toMatch(
      /\. Recorded: the next `pulumi up` looks for price point `launch-annual` by its handle and only re-sends the create, with the same token, if it is not there\.$/,
    );
  });

  it("a pending replacement resumed: created with its token, then the replaced one archived", async () => {
    const points = await setup();
    const { id: old } = await points.create({ ...annual, handle: "launch-old" });
    sim.reset();
    const pending = { handle: "launch-annual", args: annual, pendingToken: "tok-1", todo: { archive: [Number(old)] } };
    const { result, error } = await captureOutput(() => points.update!("pending-tok-1", pending, annual));
    expect(error).toBeUndefined();
    expect(mutations(sim).map((r) => [r.method, r.path, (r.body as Json | undefined)?.uniqueness_token])).toEqual([
      ["POST", `/products/${LAUNCH}/price_points.json`, "tok-1"],
      ["DELETE", ppPath(old), undefined],
    ]);
    expect(result?.outs).toMatchObject({ handle: "launch-annual" });
  });

  it("an update with a replacement left to finish: finishes it first (the product's default stays live, said so)", async () => {
    const points = await setup();
    const { id, outs } = await points.create(annual);
    const launchDefault = (await listed()).find((pp) => pp.handle === "launch-default")?.id as number;
    sim.reset();
    const { text, error } = await captureOutput(() => points.update!(id, { ...outs, todo: { archive: [launchDefault] } }, annual));
    expect(error).toBeUndefined();
    expect(text).toBe(
      `ProductPricePoint: ${label("launch-default", launchDefault)} stays live: it is still the product's default, which the service cannot archive; promote another price point, then remove it.\n`,
    );
    expect(mutations(sim)).toEqual([]);
  });

  it("an update declaring default: true of the default already: nothing promoted", async () => {
    const points = await setup();
    const { id, outs } = await points.create({ ...annual, default: true });
    sim.reset();
    const { error } = await captureOutput(() => points.update!(id, outs, { ...annual, default: true }));
    expect(error).toBeUndefined();
    expect(mutations(sim)).toEqual([]);
  });

  it("recordedInputs: the service's values where it holds one, the declared ones where it holds null", () => {
    const s = { pricePointId: 9, productId: 3, handle: "launch-annual", name: null, priceInCents: 100, args: annual };
    expect(productPricePoint.operations.recordedInputs(s)).toEqual({ ...annual, priceInCents: 100 });
  });

  it.each([
    ["a pending create", { pendingToken: "tok" }, true],
    ["a replacement left to finish", { todo: {} }, true],
    ["archived outside the stack", { archivedAt: "2024-05-01T12:00:00Z" }, true],
    ["live", { archivedAt: null }, false],
  ])("unfinished: %s", (_, extra, unfinished) => {
    expect(productPricePoint.operations.unfinished!({ pricePointId: 9, handle: "launch-annual", args: annual, ...extra })).toBe(unfinished);
  });

  const priceChange = (effect: string) => ({
    effect,
    fields: ["priceInCents"],
    from: { priceInCents: 49000 },
    to: { priceInCents: 59000 },
  });

  it("preview of a pricing change: the replacement it means", async () => {
    const points = await setup();
    const checked = await points.check!(annual, { ...annual, priceInCents: 59000 });
    expect(checked.inputs.preview).toEqual({
      pricingChange: priceChange(
        "replaced: the old price point's handle is freed, the new one created (and promoted if default), the old one archived; subscriptions on the old one keep it",
      ),
    });
  });

  it("preview of adopting one with other pricing: the replacement it means", async () => {
    const points = await setup();
    const { id } = await points.create(annual);
    const checked = await points.check!({}, { ...annual, priceInCents: 59000 });
    expect(checked.inputs.preview).toEqual({
      adopt: { id: Number(id), handle: "launch-annual" },
      pricingChange: priceChange(
        "the adopted price point is replaced: its handle freed, the new one created (and promoted if default), the old one archived; subscriptions on it keep it",
      ),
    });
  });

  it("preview on a product the key may not list: that failure, not a missing product", async () => {
    const points = await setup();
    await points.configure!(
      configureRequest({
        "billing:baseUrl": sim.url,
        "billing:apiKey": KEY,
        "billing:sites": JSON.stringify({ locked: { baseUrl: sim.url, apiKey: "sk_live_NOT_THIS_SITE_0000" } }),
      }),
    );
    const error = await points.check!({}, { ...annual, product: LAUNCH, site: "locked" }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ name: "BillingApiError", status: 401 });
  });

  it("preview of an update carries the ids of an archived one found by its handle", async () => {
    const points = await setup();
    const { id } = await points.create(annual);
    await fetch(`${sim.url}${ppPath(id)}`, { method: "DELETE", headers: auth });
    sim.reset();
    const checked = await points.check!(annual, { ...annual, default: false });
    expect(checked.failures).toEqual([]);
    expect(checked.inputs).toMatchObject({ pricePointId: Number(id), productId: LAUNCH });
  });
});
