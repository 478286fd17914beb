import { afterEach, describe, expect, it } from "vitest";
import { productFamilyProvider, productPricePointProvider, productProvider } from "../../provider";
import type { Simulator } from "../../simulator";
import { captureOutput, configured, configureRequest, KEY, mutations, UNKNOWN } from "./support";

/**
 * The catalog kinds' provider objects against the simulator over a real socket: checks before
 * anything is sent, adoption by handle, the service's rules (no family update, archive instead of
 * delete, a pricing change as a new default price point), and a price point's replacement in the
 * order that never leaves the product without a default (the simulator's request log).
 */

const MONTHLY = { priceInCents: 4900, interval: 1, intervalUnit: "month" };
const family = { handle: "rockets", name: "Rockets" };
const launch = { productFamily: "handle:rockets", handle: "rocket", name: "Rocket", ...MONTHLY };
const annual = {
  product: "handle:rocket",
  handle: "rocket-annual",
  name: "Annual",
  priceInCents: 49000,
  interval: 12,
  intervalUnit: "month",
};

const steps = (sim: Simulator) => mutations(sim).map((r) => `${r.method} ${r.path}`);

describe("catalog providers", () => {
  let sim: Simulator;
  afterEach(async () => sim?.close());

  async function setup() {
    const c = await configured(productFamilyProvider);
    sim = c.sim;
    const extra = async <P extends typeof productProvider>(exported: P) => {
      const p = { ...exported };
      await p.configure?.(configureRequest({ "billing:baseUrl": sim.url, "billing:apiKey": KEY }));
      return p;
    };
    return { families: c.provider, products: await extra(productProvider), pricePoints: await extra(productPricePointProvider) };
  }

  /** A family, the launch product and, when asked, its annual price point, created through the providers; the log emptied. */
  async function catalog(withAnnual = false) {
    const p = await setup();
    const f = await p.families.create(family);
    const prod = await p.products.create(launch);
    const pp = withAnnual ? await p.pricePoints.create(annual) : undefined;
    sim.reset();
    return { ...p, f, prod, pp };
  }

  describe("check names the property before anything is sent", () => {
    it.each([
      ["a handle the service refuses", { ...launch, handle: "Launch Plan" }, "handle", /lowercase/],
      ["a negative price", { ...launch, priceInCents: -1 }, "priceInCents", /0 or more/],
      ["a fractional price", { ...launch, priceInCents: 49.5 }, "priceInCents", /no fractions/],
      ["an interval without its unit", { ...launch, intervalUnit: undefined }, "intervalUnit", /"day" or "month"/],
      [
        "a trial without its price",
        { ...launch, trialInterval: 14, trialIntervalUnit: "day" },
        "trialPriceInCents",
        /required with a trial/,
      ],
      ["a family that is neither an id nor handle:", { ...launch, productFamily: "plans" }, "productFamily", /handle:<handle>/],
    ])("%s", async (_, inputs, property, reason) => {
      const p = await setup();
      const { failures } = await p.products.check!({}, inputs);
      expect(failures?.map((f) => f.property)).toContain(property);
      expect(failures?.find((f) => f.property === property)?.reason).toMatch(reason);
      expect(mutations(sim)).toEqual([]);
    });

    // The service refuses a name of only spaces as blank: at preview, as an empty one.
    it.each(["families", "products", "pricePoints"] as const)("%s: a name of only spaces", async (which) => {
      const p = await setup();
      const inputs = { families: family, products: launch, pricePoints: annual }[which];
      const { failures } = await p[which].check!({}, { ...inputs, name: "  \t" });
      expect(failures).toStrictEqual([{ property: "name", reason: "must not be only spaces (a name of 1 to 255 characters)" }]);
      expect(mutations(sim)).toEqual([]);
    });

    it("a fraction does not hide a rule across fields: both are named at once", async () => {
      const p = await setup();
      const { failures } = await p.products.check!({}, { ...launch, interval: 0.5, trialInterval: 7, trialIntervalUnit: "day" });
      expect(failures?.map((f) => f.property).sort()).toEqual(["interval", "trialPriceInCents"]);
    });

    it("an unknown family or price still checks the handle and the rules across fields", async () => {
      const p = await setup();
      const { failures } = await p.products.check!(
        {},
        { ...launch, productFamily: UNKNOWN, handle: "Bad", trialInterval: 3, trialIntervalUnit: "day" },
      );
      expect(failures?.map((f) => f.property).sort()).toEqual(["handle", "trialPriceInCents"]);
    });
  });

  describe("ProductFamily", () => {
    it("creates by handle, and a second create adopts the same family", async () => {
      const p = await setup();
      const first = await p.families.create(family);
      expect(first.outs).toMatchObject({ handle: "rockets", name: "Rockets", familyId: Number(first.id) });
      const { result, text } = await captureOutput(() => p.families.create(family));
      expect(result?.id).toBe(first.id);
      expect(text).toContain(`adopted product family \`rockets\` (id ${first.id})`);
      expect(steps(sim)).toEqual(["POST /product_families.json"]);
    });

    it("at preview: an existing handle is announced as adopted, or refused with adopt: false", async () => {
      const p = await setup();
      const { id } = await p.families.create(family);
      const adopted = await p.families.check!({}, family);
      expect(adopted.inputs.preview).toEqual({ adopt: { id: Number(id), handle: "rockets" } });
      const refused = await p.families.check!({}, { ...family, adopt: false });
      expect(refused.failures?.[0]).toMatchObject({ property: "handle" });
      expect(refused.failures?.[0]?.reason).toMatch(/already exists at the service and adopt is false/);
    });

    // The ids an in-place update keeps are known at its preview: check records them beside the inputs (not as
    // declared inputs, so no diff reads them); a first deploy has none to record.
    it("check of an update records the family's id; of a first deploy, nothing beyond the inputs", async () => {
      const p = await setup();
      const { id } = await p.families.create(family);
      expect(await p.families.check!(family, family)).toStrictEqual({ inputs: { ...family, familyId: Number(id) }, failures: [] });
      const first = await p.families.check!({}, family);
      expect(Object.keys(first.inputs).sort()).toEqual(["handle", "name", "preview"]);
    });

    it("diff with nothing changed: no change, nothing replaced, nothing deleted first", async () => {
      const p = await setup();
      const { id, outs } = await p.families.create(family);
      expect(await p.families.diff!(id, outs, family)).toStrictEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
    });

    it("adopted with a description the service holds and the program leaves out: no diff", async () => {
      const p = await setup();
      sim.addProductFamily({ handle: "rockets", name: "Rockets", description: "made in the web UI" });
      const { id, outs } = await p.families.create(family);
      expect(outs.description).toBe("made in the web UI");
      expect(await p.families.diff!(id, outs, family)).toMatchObject({ changes: false });
    });

    it("a change of name fails at preview with the fix; delete leaves it at the service and says so", async () => {
      const { families, f } = await catalog();
      await expect(families.diff!(f.id, f.outs, { ...family, name: "Renamed" })).rejects.toThrow(
        /cannot be changed.*name: the service holds "Rockets"/,
      );
      const { text } = await captureOutput(() => families.delete!(f.id, f.outs));
      expect(text).toMatch(/stays at the service, which has no delete of a family/);
      expect(mutations(sim)).toEqual([]);
    });
  });

  describe("Product", () => {
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

    it("adopts a product made in the web UI, and refuses an archived one naming the fix", async () => {
      const p = await setup();
      await p.families.create(family);
      const made = sim.addProduct({ handle: "rocket", familyHandle: "rockets", priceInCents: 4900 });
      const { result, text } = await captureOutput(() => p.products.create(launch));
      expect(result?.id).toBe(String(made.id));
      expect(text).toContain(`adopted product \`rocket\` (id ${made.id})`);
      sim.addProduct({ handle: "old", familyHandle: "rockets", archived: true });
      const checked = await p.products.check!({}, { ...launch, handle: "old" });
      expect(checked.failures?.[0]?.reason).toMatch(/archived at the service.*keeps its handle.*another handle/);
    });

    it("a handle of digits is a handle, not an id: product 3 exists, yet handle 3 is created, then adopted", async () => {
      const p = await setup();
      await p.families.create(family);
      const first = await p.products.create({ ...launch, handle: "3" });
      expect(first.id).not.toBe("3");
      expect(first.outs.handle).toBe("3");
      const again = await captureOutput(() => p.products.create({ ...launch, handle: "3" }));
      expect(again.result?.id).toBe(first.id);
    });

    it("delete archives it, and its handle stays taken", async () => {
      const { products, prod } = await catalog();
      const { text } = await captureOutput(() => products.delete!(prod.id, prod.outs));
      expect(steps(sim)).toEqual([`DELETE /products/${prod.id}.json`]);
      expect(text).toMatch(/archived product `rocket`.*handle stays taken/);
    });
  });

  describe("ProductPricePoint", () => {
    it("a price change replaces it in the order that never leaves the product without a default", async () => {
      const { pricePoints, pp } = await catalog(true);
      const def = await pricePoints.update!(pp!.id, pp!.outs, { ...annual, default: true });
      expect(def.outs.isDefault).toBe(true);
      sim.reset();
      const news = { ...annual, default: true, priceInCents: 59000 };
      const diff = await pricePoints.diff!(pp!.id, def.outs, news);
      expect(diff.replaces).toEqual(["priceInCents"]);
      const created = await pricePoints.create(news);
      const product = def.outs.productId;
      expect(steps(sim)).toEqual([
        `PUT /products/${product}/price_points/${pp!.id}.json`, // the old one's handle freed
        `POST /products/${product}/price_points.json`, // the new one
        `PATCH /products/${product}/price_points/${created.id}/default.json`, // promoted
        `DELETE /products/${product}/price_points/${pp!.id}.json`, // the old one archived
      ]);
      expect(created.outs).toMatchObject({ handle: "rocket-annual", priceInCents: 59000, isDefault: true });
      // The engine's delete of the replaced resource then finds it archived: nothing more is sent.
      sim.reset();
      await pricePoints.delete!(pp!.id, def.outs);
      expect(mutations(sim)).toEqual([]);
    });

    it("deleting the product's default alone fails with the fix; with its product archived it is fine", async () => {
      const { pricePoints, products, prod, pp } = await catalog(true);
      const def = await pricePoints.update!(pp!.id, pp!.outs, { ...annual, default: true });
      sim.reset();
      await expect(pricePoints.delete!(pp!.id, def.outs)).rejects.toThrow(/default of product `rocket`.*Promote another price point first/);
      expect(mutations(sim)).toEqual([]);
      await products.delete!(prod.id, prod.outs);
      await pricePoints.delete!(pp!.id, def.outs);
    });

    it("an archived price point with the handle is unarchived and adopted", async () => {
      const { pricePoints, pp } = await catalog(true);
      await pricePoints.delete!(pp!.id, pp!.outs);
      sim.reset();
      const { result, text } = await captureOutput(() => pricePoints.create(annual));
      expect(result?.id).toBe(pp!.id);
      expect(text).toMatch(/unarchived price point `rocket-annual`/);
      expect(steps(sim)).toEqual([`PATCH /products/${pp!.outs.productId}/price_points/${pp!.id}/unarchive.json`]);
    });

    it("at preview an existing price point is announced as adopted, with the pricing change converging it means", async () => {
      const { pricePoints, pp } = await catalog(true);
      const same = await pricePoints.check!({}, annual);
      expect(same.inputs.preview).toEqual({ adopt: { id: Number(pp!.id), handle: "rocket-annual" } });
      const dearer = await pricePoints.check!({}, { ...annual, priceInCents: 59000 });
      expect(dearer.inputs.preview).toMatchObject({
        adopt: { id: Number(pp!.id) },
        pricingChange: { fields: ["priceInCents"], from: { priceInCents: 49000 }, to: { priceInCents: 59000 } },
      });
      expect(mutations(sim)).toEqual([]);
    });

    it("a handle change is an update in place", async () => {
      const { pricePoints, pp } = await catalog(true);
      const news = { ...annual, handle: "rocket-yearly" };
      expect((await pricePoints.diff!(pp!.id, pp!.outs, news)).replaces).toEqual([]);
      const { outs } = await pricePoints.update!(pp!.id, pp!.outs, news);
      expect(outs.handle).toBe("rocket-yearly");
      expect(steps(sim)).toEqual([`PUT /products/${pp!.outs.productId}/price_points/${pp!.id}.json`]);
    });
  });
});
