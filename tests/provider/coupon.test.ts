import { afterEach, describe, expect, it } from "vitest";
import { couponProvider, productFamilyProvider } from "../../provider";
import type { Simulator } from "../../simulator";
import { captureOutput, configured, configureRequest, KEY, mutations, UNKNOWN } from "./support";

/**
 * The Coupon kind's provider object against the simulator over a real socket: checks before anything is
 * sent (the code's characters, one discount, restricted handles that name nothing), restrictions given by
 * handle and held by the service as its own ids, the in-place update the contract allows (code, discount,
 * restrictions as sets), the replacement a new family needs (the old coupon's code freed first), archive on
 * delete, adoption by code, drift found by refresh. Every assertion on the service reads what it holds.
 */

const spring = { productFamily: "handle:plans", code: "SPRING25", name: "Spring sale", percentage: 25 };
const steps = (sim: Simulator) => mutations(sim).map((r) => `${r.method} ${r.path}`);

describe("Coupon provider", () => {
  let sim: Simulator;
  afterEach(async () => sim?.close());

  /** The coupon provider against a site with products basic (1), pro (2), launch (3) in family "plans", and component "support". */
  async function setup() {
    const c = await configured(couponProvider);
    sim = c.sim;
    const support = sim.addComponent({ familyHandle: "plans", kind: "on_off", handle: "support" });
    const families = { ...productFamilyProvider };
    await families.configure?.(configureRequest({ "billing:baseUrl": sim.url, "billing:apiKey": KEY }));
    return { coupons: c.provider, families, support };
  }
  const held = (code: string) => sim.coupons().filter((c) => c.code === code);
  const restricted = (code: string, type: string) =>
    (held(code)[0]?.restrictions ?? [])
      .filter((r) => r.itemType === type)
      .map((r) => r.itemId)
      .sort((a, b) => a - b);

  describe("check names the property before anything is sent", () => {
    it.each([
      ["a lowercase code, with its uppercase form", { ...spring, code: "spring25" }, "code", /uppercase: "SPRING25"/],
      ["a code with a space", { ...spring, code: "SPRING 25" }, "code", /uppercase letters, digits/],
      ["both a percentage and an amount", { ...spring, amountInCents: 500 }, "amountInCents", /percentage or an amount, not both/],
      ["neither a percentage nor an amount", { ...spring, percentage: undefined }, "percentage", /or amountInCents is required/],
      ["a percentage above 100", { ...spring, percentage: 150 }, "percentage", /at most 100/],
      ["a duration on a one-off coupon", { ...spring, durationPeriodCount: 3 }, "recurring", /must be true with durationPeriodCount/],
      ["a restriction that is no reference", { ...spring, restrictedProducts: ["pro"] }, "restrictedProducts.0", /handle:<handle>/],
      ["a family that is neither an id nor handle:", { ...spring, productFamily: "plans" }, "productFamily", /handle:<handle>/],
    ])("%s", async (_, inputs, property, reason) => {
      const { coupons } = await setup();
      const { failures } = await coupons.check!({}, inputs);
      expect(failures?.map((f) => f.property)).toContain(property);
      expect(failures?.find((f) => f.property === property)?.reason).toMatch(reason);
      expect(mutations(sim)).toEqual([]);
    });

    it("a restricted handle the site has no product or component for is named, with the handle", async () => {
      const { coupons } = await setup();
      const { failures } = await coupons.check!(
        {},
        { ...spring, restrictedProducts: ["handle:pro", "handle:nosuch"], restrictedComponents: ["handle:support", "handle:gone"] },
      );
      expect(failures).toEqual([
        { property: "restrictedProducts", reason: expect.stringMatching(/no product has the handle `nosuch`.*pass the Product/) },
        { property: "restrictedComponents", reason: expect.stringMatching(/no component has the handle `gone`/) },
      ]);
      expect(mutations(sim)).toEqual([]);
    });

    it("unknown values at preview are set aside: a restriction still unknown is not checked, the known ones are", async () => {
      const { coupons } = await setup();
      const unknown = await coupons.check!({}, { ...spring, code: UNKNOWN, restrictedProducts: [UNKNOWN, "handle:pro"] });
      expect(unknown.failures).toEqual([]);
      const bad = await coupons.check!({}, { ...spring, restrictedProducts: [UNKNOWN, "handle:nosuch"] });
      expect(bad.failures?.map((f) => f.property)).toEqual(["restrictedProducts"]);
    });
  });

  it("creates a percentage coupon restricted by handle: the service holds the site's ids", async () => {
    const { coupons, support } = await setup();
    const { id, outs } = await coupons.create({
      ...spring,
      recurring: true,
      durationPeriodCount: 3,
      restrictedProducts: ["handle:pro", 1],
      restrictedComponents: ["handle:support"],
    });
    expect(held("SPRING25")).toHaveLength(1);
    expect(held("SPRING25")[0]).toMatchObject({
      id: Number(id),
      percentage: "25",
      amountInCents: null,
      recurring: true,
      durationPeriodCount: 3,
    });
    expect(restricted("SPRING25", "Product")).toEqual([1, 2]);
    expect(restricted("SPRING25", "Component")).toEqual([support.id]);
    expect(outs).toMatchObject({
      couponId: Number(id),
      code: "SPRING25",
      percentage: 25,
      amountInCents: null,
      restrictedProductIds: [1, 2],
      restrictedComponentIds: [support.id],
      archivedAt: null,
    });
    // The same restrictions in another order, one by id instead of handle, is no change.
    const diff = await coupons.diff!(id, outs, {
      ...spring,
      recurring: true,
      durationPeriodCount: 3,
      restrictedProducts: [1, "handle:pro"],
      restrictedComponents: ["handle:support"],
    });
    expect(diff.changes).toBe(false);
  });

  it("creates an amount coupon with its options as given", async () => {
    const { coupons } = await setup();
    const { outs } = await coupons.create({
      productFamily: "handle:plans",
      code: "TENOFF",
      name: "Ten off",
      amountInCents: 1000,
      stackable: true,
      compoundingStrategy: "full-price",
      allowNegativeBalance: true,
      endDate: "2099-12-31",
    });
    expect(held("TENOFF")[0]).toMatchObject({
      amountInCents: 1000,
      percentage: null,
      stackable: true,
      compoundingStrategy: "full-price",
      allowNegativeBalance: true,
      endDate: "2099-12-31T00:00:00Z",
    });
    expect(outs).toMatchObject({ amountInCents: 1000, percentage: null, endDate: "2099-12-31T00:00:00Z", restrictedProductIds: [] });
  });

  it("updates in place: code, name, discount and restrictions; a repeated update sends nothing", async () => {
    const { coupons, support } = await setup();
    const made = await coupons.create({ ...spring, restrictedProducts: ["handle:pro", "handle:basic"] });
    sim.reset();
    const news = {
      ...spring,
      code: "SPRING30",
      name: "Bigger spring sale",
      percentage: undefined,
      amountInCents: 3000,
      restrictedProducts: ["handle:launch", "handle:pro"],
      restrictedComponents: [support.id],
    };
    const checked = await coupons.check!(made.outs, news);
    expect(checked.failures).toEqual([]);
    expect(await coupons.diff!(made.id, made.outs, news)).toMatchObject({ changes: true, replaces: [] });
    const { outs } = await coupons.update!(made.id, made.outs, news);
    expect(held("SPRING25")).toEqual([]);
    expect(held("SPRING30")[0]).toMatchObject({ id: Number(made.id), name: "Bigger spring sale", amountInCents: 3000, percentage: null });
    expect(restricted("SPRING30", "Product")).toEqual([2, 3]);
    expect(restricted("SPRING30", "Component")).toEqual([support.id]);
    expect(outs).toMatchObject({ couponId: Number(made.id), code: "SPRING30", restrictedProductIds: [2, 3] });
    expect(steps(sim)).toEqual([`PUT /product_families/${outs.productFamilyId}/coupons/${made.id}.json`]);
    sim.reset();
    await coupons.update!(made.id, outs, news);
    expect(mutations(sim)).toEqual([]);
    expect(await coupons.diff!(made.id, outs, news)).toMatchObject({ changes: false });
  });

  it("a new code another coupon holds (archived ones keep theirs) fails at preview", async () => {
    const { coupons } = await setup();
    const made = await coupons.create(spring);
    sim.addCoupon({ familyHandle: "plans", code: "OLD10", percentage: 10, archived: true });
    const { failures } = await coupons.check!(made.outs, { ...spring, code: "OLD10" });
    expect(failures).toEqual([
      { property: "code", reason: expect.stringMatching(/taken by coupon `OLD10`.*archived.*choose another code/) },
    ]);
  });

  it("a new family replaces it: the old coupon's code is freed first, the new one created there, the old one archived", async () => {
    const { coupons, families } = await setup();
    const addons = await families.create({ handle: "addons", name: "Add-ons" });
    const old = await coupons.create(spring);
    const news = { ...spring, productFamily: "handle:addons" };
    expect((await coupons.check!(old.outs, news)).failures).toEqual([]);
    expect(await coupons.diff!(old.id, old.outs, news)).toMatchObject({ changes: true, replaces: ["productFamily"] });
    // As the engine replaces: create the new one, then delete the old one.
    const { result: made, text } = await captureOutput(() => coupons.create(news));
    expect(text).toMatch(/renamed `SPRING25-REPLACED-\d+` to free its code/);
    await coupons.delete!(old.id, old.outs);
    const live = sim.coupons().filter((c) => c.archivedAt === null);
    expect(live.map((c) => [c.code, c.familyId])).toEqual([["SPRING25", Number(addons.id)]]);
    expect(made?.id).toBe(String(live[0]?.id));
    const replaced = sim.coupons().find((c) => c.id === Number(old.id));
    expect(replaced).toMatchObject({ code: `SPRING25-REPLACED-${old.id}`, archivedAt: expect.any(String) });
  });

  it("the same family written another way is refused at preview instead of replacing the coupon", async () => {
    const { coupons } = await setup();
    const made = await coupons.create(spring);
    await expect(coupons.diff!(made.id, made.outs, { ...spring, productFamily: made.outs.productFamilyId })).rejects.toThrow(
      /which is the same family.*write it as before/,
    );
  });

  it("delete archives it; the code stays taken, so declaring it again is a preview error naming the code", async () => {
    const { coupons } = await setup();
    const made = await coupons.create(spring);
    const { text } = await captureOutput(() => coupons.delete!(made.id, made.outs));
    expect(text).toMatch(/archived coupon `SPRING25`/);
    expect(held("SPRING25")[0]?.archivedAt).toEqual(expect.any(String));
    const { failures } = await coupons.check!({}, spring);
    expect(failures).toEqual([{ property: "code", reason: expect.stringMatching(/archived.*cannot unarchive.*another code/) }]);
    // A second delete (a retried destroy) sends nothing.
    sim.reset();
    await coupons.delete!(made.id, made.outs);
    expect(mutations(sim)).toEqual([]);
  });

  it("adopts a coupon made in the web UI by its code and converges it; adopt: false refuses it at preview", async () => {
    const { coupons } = await setup();
    const web = sim.addCoupon({
      familyHandle: "plans",
      code: "SPRING25",
      name: "Made in the UI",
      percentage: 25,
      restrictedProducts: ["basic"],
    });
    const preview = await coupons.check!({}, spring);
    expect(preview.inputs.preview).toEqual({ adopt: { id: web.id, code: "SPRING25" } });
    const refused = await coupons.check!({}, { ...spring, adopt: false });
    expect(refused.failures).toEqual([
      { property: "code", reason: expect.stringMatching(/already exists at the service and adopt is false/) },
    ]);
    const { result, text } = await captureOutput(() => coupons.create({ ...spring, restrictedProducts: [] }));
    expect(result?.id).toBe(String(web.id));
    expect(text).toContain(`adopted coupon \`SPRING25\` (id ${web.id})`);
    expect(held("SPRING25")).toHaveLength(1);
    expect(held("SPRING25")[0]).toMatchObject({ name: "Spring sale", restrictions: [] });
  });

  it("a code held in another family is refused at preview on a first deploy", async () => {
    const { coupons, families } = await setup();
    await families.create({ handle: "addons", name: "Add-ons" });
    sim.addCoupon({ familyHandle: "addons", code: "SPRING25", percentage: 25 });
    const { failures } = await coupons.check!({}, spring);
    expect(failures).toEqual([
      { property: "productFamily", reason: expect.stringMatching(/another product family.*cannot move a coupon/) },
    ]);
  });

  it("refresh reads it: a change in the web UI shows as drift, and up restores it", async () => {
    const { coupons } = await setup();
    const made = await coupons.create({ ...spring, restrictedProducts: ["handle:pro"] });
    const familyId = made.outs.productFamilyId;
    await fetch(`${sim.url}/product_families/${familyId}/coupons/${made.id}.json`, {
      method: "PUT",
      headers: { authorization: `Basic ${Buffer.from(`${KEY}:x`).toString("base64")}`, "content-type": "application/json" },
      body: JSON.stringify({ coupon: { name: "Renamed in the UI" }, restricted_products: { "1": true } }),
    });
    const read = await coupons.read!(made.id, made.outs);
    expect(read.props).toMatchObject({ name: "Renamed in the UI", restrictedProductIds: [1, 2] });
    const diff = await coupons.diff!(made.id, read.props, { ...spring, restrictedProducts: ["handle:pro"] });
    expect(diff).toMatchObject({ changes: true, replaces: [] });
    const { outs } = await coupons.update!(made.id, read.props, { ...spring, restrictedProducts: ["handle:pro"] });
    expect(outs).toMatchObject({ name: "Spring sale", restrictedProductIds: [2] });
    expect(restricted("SPRING25", "Product")).toEqual([2]);
  });

  it("a create whose outcome is unknown is recorded pending; the next up re-sends it with the same token, once", async () => {
    const { coupons } = await setup();
    sim.injectFault({ kind: "status", status: 503, rate: 1, match: { method: "POST" } });
    const { error } = await captureOutput(() => coupons.create(spring));
    const partial = error as { message: string; id?: string; properties?: Record<string, unknown> };
    expect(partial.message).toMatch(/next `pulumi up` looks for coupon `SPRING25` by its code/);
    expect(partial.id).toMatch(/^pending-/);
    const token = partial.properties?.pendingToken;
    expect(token).toEqual(expect.any(String));
    expect(held("SPRING25")).toEqual([]);
    sim.clearFaults();
    const { __provider: _, ...recorded } = partial.properties ?? {};
    expect(await coupons.diff!(partial.id ?? "", recorded, spring)).toMatchObject({ changes: true, replaces: [] });
    const { outs } = await captureOutput(() => coupons.update!(partial.id ?? "", recorded, spring)).then((r) => r.result ?? { outs: {} });
    expect(held("SPRING25")).toHaveLength(1);
    expect(outs).toMatchObject({ couponId: held("SPRING25")[0]?.id, code: "SPRING25" });
    expect(outs.pendingToken).toBeUndefined();
    expect(new Set(sim.requests.filter((r) => r.method === "POST").map((r) => r.uniquenessToken))).toEqual(new Set([token]));
  });

  it("refresh of a coupon archived outside the stack shows it archived; up says what to do and changes nothing", async () => {
    const { coupons } = await setup();
    const made = await coupons.create(spring);
    await fetch(`${sim.url}/product_families/${made.outs.productFamilyId}/coupons/${made.id}.json`, {
      method: "DELETE",
      headers: { authorization: `Basic ${Buffer.from(`${KEY}:x`).toString("base64")}` },
    });
    const read = await coupons.read!(made.id, made.outs);
    expect(read.props?.archivedAt).toEqual(expect.any(String));
    expect((await coupons.diff!(made.id, read.props, spring)).changes).toBe(true);
    sim.reset();
    await expect(coupons.update!(made.id, read.props, spring)).rejects.toThrow(/cannot unarchive a coupon.*Nothing was changed/);
    expect(mutations(sim)).toEqual([]);
  });
});
