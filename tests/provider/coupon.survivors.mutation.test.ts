import { afterEach, describe, expect, it } from "vitest";
import { couponProvider, productFamilyProvider } from "../../provider";
import { coupon, outputsOf } from "../../provider/kinds/coupon";
import type { Context } from "../../provider/kinds/kind";
import { partialFailure } from "../../provider/engine";
import { BillingClient } from "../../sdk/client";
import type { Simulator } from "../../simulator";
import { captureOutput, configured, configureRequest, KEY, mutations } from "./support";

/**
 * Coupon behaviour the mutation run found unchecked even with coupon.test.ts and coupon.mutation.test.ts:
 * restriction lists recorded as sets (ids first, then handles, each sorted), an amount coupon's null
 * percentage, what the recorded state holds (only declared args, the family's handle, the resolved ids),
 * restrictions compared as sets by element, the restrictions named in a refusal, how a code is looked for
 * (in the family first, then across the site, archived included), the freed code of a long or archived
 * name, what the old coupon keeps through the rename, the recorded inputs' drift rules, and read/delete
 * of states without a family. Against the simulator over a real socket; values and messages are exact.
 */

const spring = { productFamily: "handle:plans", code: "SPRING25", name: "Spring sale", percentage: 25 };
const steps = (sim: Simulator) => mutations(sim).map((r) => `${r.method} ${r.path}`);
const label = (code: string, id: number | string) => `coupon \`${code}\` (id ${id})`;
type Props = Record<string, unknown>;
const ids: Record<string, number> = { "handle:basic": 1, "handle:pro": 2, "handle:launch": 3 };
const recorded = (s: Props) => coupon.operations.recordedInputs(s as never) as Props;

describe("Coupon, the paths the mutation run left unchecked", () => {
  let sim: Simulator;
  let client: BillingClient | undefined;
  afterEach(async () => {
    await client?.close();
    client = undefined;
    await sim?.close();
  });

  /** The coupon provider against a site with products basic (1), pro (2), launch (3) in family "plans", and component "support". */
  async function setup() {
    const c = await configured(couponProvider);
    sim = c.sim;
    const support = sim.addComponent({ familyHandle: "plans", kind: "on_off", handle: "support" });
    client = new BillingClient({ baseUrl: sim.url, apiKey: KEY, maxRetries: 0 });
    return { coupons: c.provider, support, client };
  }
  /** A second family, "addons", made through its own provider (as a program would). */
  async function addons() {
    const families = { ...productFamilyProvider };
    await families.configure!(configureRequest({ "billing:baseUrl": sim.url, "billing:apiKey": KEY }));
    return Number((await families.create({ handle: "addons", name: "Add-ons" })).id);
  }
  /** The kind's operations called directly (the provider shell drops undefined values, which hides them). */
  const context = (c: BillingClient): Context => ({
    client: () => c,
    siteLabel: () => "default",
    partialFailure: (message, resourceId, kept) => partialFailure(message, resourceId, { ...kept }, undefined),
    notice: () => undefined,
  });

  describe("a restriction list is recorded as a set: ids ascending, then handles ascending, each once", () => {
    it.each([
      [
        [3, 2, 1],
        [1, 2, 3],
      ],
      [
        [2, 3, 1, 3],
        [1, 2, 3],
      ],
      [
        ["handle:pro", "handle:basic", "handle:launch"],
        ["handle:basic", "handle:launch", "handle:pro"],
      ],
      [
        ["handle:pro", 3, "handle:basic", 1, "handle:pro", 2],
        [1, 2, 3, "handle:basic", "handle:pro"],
      ],
      [
        ["handle:launch", 2],
        [2, "handle:launch"],
      ],
      [
        [2, "handle:launch"],
        [2, "handle:launch"],
      ],
    ])("%j -> %j", async (given, want) => {
      const { coupons } = await setup();
      const { outs } = await coupons.create({ ...spring, restrictedProducts: given });
      expect((outs.args as Props).restrictedProducts).toEqual(want);
      expect(outs.restrictedProductIds).toEqual([...new Set(given.map((r) => (typeof r === "number" ? r : ids[r])))].sort());
    });
  });

  it("an amount coupon's percentage is null, not a number", async () => {
    const { coupons } = await setup();
    const { outs } = await coupons.create({ productFamily: "handle:plans", code: "TENOFF", name: "Ten off", amountInCents: 1000 });
    expect(outs.percentage).toBe(null);
    expect(outs.amountInCents).toBe(1000);
    expect(recorded(outs).percentage).toBe(undefined);
  });

  describe("the recorded state", () => {
    it("holds only the declared args, no site, and no resolved ids for restrictions left out", async () => {
      const { client } = await setup();
      const ctx = context(client);
      const inputs = coupon.kind.inputs.parse(spring);
      const { state } = (await coupon.operations.create(ctx, inputs)) as { state: Props };
      expect(state.args).toStrictEqual(spring);
      expect("site" in state).toBe(false);
      expect("resolvedProductIds" in state).toBe(false);
      expect("resolvedComponentIds" in state).toBe(false);
      expect(state.productFamilyHandle).toBe("plans");
    });

    it("holds the ids the declared restrictions resolved to, and the family's handle read for an id", async () => {
      const { coupons, support } = await setup();
      const first = await coupons.create({
        ...spring,
        restrictedProducts: ["handle:pro", 1],
        restrictedComponents: ["handle:support"],
      });
      expect(first.outs.resolvedProductIds).toEqual([1, 2]);
      expect(first.outs.resolvedComponentIds).toEqual([support.id]);
      expect(first.outs.productFamilyHandle).toBe("plans");
      const byId = { productFamily: first.outs.productFamilyId, code: "BYID", name: "By id", amountInCents: 100 };
      const second = await coupons.create(byId);
      expect(second.outs.productFamilyHandle).toBe("plans");
      expect(second.outs.resolvedProductIds).toBe(undefined);
      expect(second.outs.resolvedComponentIds).toBe(undefined);
    });

    it("outputs name the site only when one was named", async () => {
      const { client } = await setup();
      const web = sim.addCoupon({ familyHandle: "plans", code: "WEB5", name: "Web", percentage: 5 });
      const read = await client.readCoupon(web.familyId, web.id);
      expect("site" in outputsOf(read, undefined)).toBe(false);
      expect(outputsOf(read, "eu").site).toBe("eu");
    });
  });
  describe("restrictions are compared as sets, element by element", () => {
    it("a restriction changed at the service to another of the same size is restored by update and shown as drift", async () => {
      const { coupons, client } = await setup();
      const declared = { ...spring, restrictedProducts: [1, 2] };
      const made = await coupons.create(declared);
      const familyId = made.outs.productFamilyId as number;
      await client.updateCoupon(familyId, Number(made.id), {
        code: "SPRING25",
        name: "Spring sale",
        percentage: 25,
        restrictedProducts: [1, 3],
      });
      const { props } = await coupons.read!(made.id, made.outs);
      expect(props.restrictedProductIds).toEqual([1, 3]);
      expect(recorded(props).restrictedProducts).toEqual([1, 3]);
      sim.reset();
      const { outs } = await coupons.update!(made.id, props, declared);
      expect(steps(sim)).toEqual([`PUT /product_families/${familyId}/coupons/${made.id}.json`]);
      expect(outs.restrictedProductIds).toEqual([1, 2]);
    });

    it("a refusal of the restrictions names both properties", async () => {
      const { coupons } = await setup();
      const made = await coupons.create(spring);
      sim.reset();
      const news = { ...spring, restrictedProducts: [999], restrictedComponents: [998] };
      await expect(coupons.update!(made.id, made.outs, news)).rejects.toThrow(
        new Error(
          "Coupon `SPRING25`: the service refused the update of restrictedProducts, restrictedComponents: Restricted products: no product has id 999.; Restricted components: no component has id 998. (nothing was changed)",
        ),
      );
    });
  });

  it.each([
    ["a description", "For spring"],
    ["an empty description", ""],
  ])("%s held as declared sends nothing on update", async (_, description) => {
    const { coupons } = await setup();
    const made = await coupons.create({ ...spring, description });
    sim.reset();
    const { outs } = await coupons.update!(made.id, made.outs, { ...spring, description });
    expect(mutations(sim)).toEqual([]);
    expect(outs.description).toBe(description);
  });

  describe("a code is looked for in the family first, then across the site, archived coupons included", () => {
    const lookups = (sim: Simulator) =>
      sim.requests.filter((r) => r.path.includes("coupons")).map((r) => [`${r.method} ${r.path}`, r.query]);

    it("held in the family: found there, with one request", async () => {
      const { coupons } = await setup();
      const web = sim.addCoupon({ familyHandle: "plans", code: "SPRING25", name: "Web", percentage: 10 });
      sim.reset();
      expect((await coupons.check!({}, spring)).failures).toEqual([]);
      expect(lookups(sim)).toEqual([["GET /coupons/find.json", { code: "SPRING25", product_family_id: String(web.familyId) }]]);
    });

    it("held in another family: the site's list by code says which, and preview refuses", async () => {
      const { coupons } = await setup();
      const addonsId = await addons();
      const other = sim.addCoupon({ familyId: addonsId, code: "SPRING25", name: "Add-on", percentage: 10 });
      const plansId = (await client!.readProductFamily("handle:plans")).id;
      sim.reset();
      const { failures } = await coupons.check!({}, spring);
      expect(failures).toEqual([
        {
          property: "productFamily",
          reason: `${label("SPRING25", other.id)} exists in another product family (id ${addonsId}, not ${plansId}), and codes are unique within the site: the service cannot move a coupon between families; declare that family, or another code`,
        },
      ]);
      expect(lookups(sim)).toEqual([
        ["GET /coupons/find.json", { code: "SPRING25", product_family_id: String(plansId) }],
        ["GET /coupons.json", { "filter[codes]": "SPRING25", page: "1", per_page: "200" }],
      ]);
    });

    it("a pending create's coupon already archived is found and left alone", async () => {
      const { coupons } = await setup();
      sim.addCoupon({ familyHandle: "plans", code: "SPRING25", name: "Spring sale", percentage: 25, archived: true });
      sim.reset();
      const { error, text } = await captureOutput(() =>
        coupons.delete!("pending-token-1", { code: "SPRING25", args: spring, pendingToken: "token-1" }),
      );
      expect(error).toBeUndefined();
      expect(text).toBe("");
      expect(mutations(sim)).toEqual([]);
    });
  });

  describe("a replacement frees the old code: the freed code, and what the old coupon keeps", () => {
    it("a code of 255 characters is cut so that the freed one stays at 255", async () => {
      const { coupons } = await setup();
      await addons();
      const code = "A".repeat(255);
      const old = await coupons.create({ ...spring, code });
      const { error } = await captureOutput(() => coupons.create({ ...spring, code, productFamily: "handle:addons" }));
      expect(error).toBeUndefined();
      const suffix = `-REPLACED-${old.id}`;
      expect(sim.coupons().find((c) => c.id === Number(old.id))?.code).toBe(`${"A".repeat(255 - suffix.length)}${suffix}`);
    });

    it("a freed code held by an archived coupon is taken: a count is added", async () => {
      const { coupons } = await setup();
      await addons();
      const old = await coupons.create(spring);
      sim.addCoupon({ familyHandle: "plans", code: `SPRING25-REPLACED-${old.id}`, percentage: 5, archived: true });
      const { error } = await captureOutput(() => coupons.create({ ...spring, productFamily: "handle:addons" }));
      expect(error).toBeUndefined();
      expect(sim.coupons().find((c) => c.id === Number(old.id))?.code).toBe(`SPRING25-REPLACED-${old.id}-1`);
    });

    it("the old coupon keeps its name, its past end date and its recurrence through the rename", async () => {
      const { coupons } = await setup();
      const addonsId = await addons();
      const old = sim.addCoupon({
        familyHandle: "plans",
        code: "SPRING25",
        name: "Old spring",
        description: "Last year's",
        amountInCents: 500,
        recurring: true,
        durationPeriodCount: 3,
        stackable: true,
        endDate: "2001-01-01T00:00:00Z",
      });
      const { result, error } = await captureOutput(() => coupons.create({ ...spring, productFamily: addonsId }));
      expect(error).toBeUndefined();
      expect(result?.outs.productFamilyId).toBe(addonsId);
      const renamed = sim.coupons().find((c) => c.id === old.id);
      expect(renamed).toMatchObject({
        code: `SPRING25-REPLACED-${old.id}`,
        name: "Old spring",
        description: "Last year's",
        amountInCents: 500,
        percentage: null,
        recurring: true,
        durationPeriodCount: 3,
        stackable: true,
        endDate: "2001-01-01T00:00:00Z",
      });
    });

    it("an old coupon without a name is sent its code as the name", async () => {
      const { coupons } = await setup();
      await addons();
      const old = sim.addCoupon({ familyHandle: "plans", code: "SPRING25", name: "", percentage: 10 });
      const { error } = await captureOutput(() => coupons.create({ ...spring, productFamily: "handle:addons" }));
      expect(error).toBeUndefined();
      expect(sim.coupons().find((c) => c.id === old.id)?.name).toBe("SPRING25");
    });
  });

  describe("recorded inputs: the drift rules", () => {
    it("a state with no outputs yet (a pending create) records the declaration as it is", async () => {
      const args = { ...spring, description: "For spring", stackable: true, restrictedProducts: ["handle:pro"] };
      expect(recorded({ code: "SPRING25", args, pendingToken: "token-1" })).toStrictEqual(args);
    });

    it("a description the service holds none of is an empty one", async () => {
      const { coupons } = await setup();
      const { outs } = await coupons.create({ ...spring, description: "" });
      expect(recorded({ ...outs, description: null }).description).toBe("");
    });

    it("an amount coupon turned into a percentage one at the service shows the amount gone", async () => {
      const { coupons } = await setup();
      const tenoff = { productFamily: "handle:plans", code: "TENOFF", name: "Ten off", amountInCents: 1000 };
      const { outs } = await coupons.create(tenoff);
      expect(recorded({ ...outs, amountInCents: null, percentage: 10 })).toStrictEqual({ ...tenoff, amountInCents: null });
    });

    it.each([
      ["restrictedProducts", "resolvedProductIds", "restrictedProductIds", "handle:pro"],
      ["restrictedComponents", "resolvedComponentIds", "restrictedComponentIds", "handle:support"],
    ] as const)(
      "%s: the declaration while the held ids are the resolved ones, the held ids once they differ",
      async (property, resolvedKey, heldKey, handle) => {
        const { coupons, support } = await setup();
        const declared = { ...spring, [property]: [handle] };
        const { outs } = await coupons.create(declared);
        const id = property === "restrictedProducts" ? 2 : support.id;
        expect(outs[resolvedKey]).toEqual([id]);
        expect(outs[heldKey]).toEqual([id]);
        expect(recorded(outs)).toStrictEqual(declared);
        expect(recorded({ ...outs, [heldKey]: [1, id] })).toStrictEqual({ ...declared, [property]: [1, id] });
        // Restrictions left out of the declaration are the service's choice, whatever ids are on record.
        expect(recorded({ ...outs, args: spring, [heldKey]: [1, id] })).toStrictEqual(spring);
      },
    );
  });

  describe("read and delete of a state that does not say the coupon's family", () => {
    it.each([
      [
        "no family",
        (s: Props) => {
          const { productFamilyId: _, ...rest } = s;
          return rest;
        },
      ],
      ["a null family", (s: Props) => ({ ...s, productFamilyId: null })],
    ])("read with %s returns the state as it is, asking nothing", async (_, strip) => {
      const { coupons } = await setup();
      const made = await coupons.create(spring);
      const s = strip(made.outs);
      sim.reset();
      expect(await coupons.read!(made.id, s)).toEqual({ id: made.id, props: s });
      expect(sim.requests).toEqual([]);
    });

    it("delete with a null family looks the coupon up by its code, then archives it", async () => {
      const { coupons } = await setup();
      const made = await coupons.create(spring);
      const familyId = made.outs.productFamilyId;
      sim.reset();
      const { error, text } = await captureOutput(() => coupons.delete!(made.id, { ...made.outs, productFamilyId: null }));
      // No family to ask in: straight to the site's list by code.
      expect(sim.requests.map((r) => [`${r.method} ${r.path}`, r.query])).toEqual([
        ["GET /coupons.json", { "filter[codes]": "SPRING25", page: "1", per_page: "200" }],
        [`GET /product_families/${familyId}/coupons/${made.id}.json`, {}],
        [`DELETE /product_families/${familyId}/coupons/${made.id}.json`, {}],
      ]);
      expect(error).toBeUndefined();
      expect(text).toBe(
        `Coupon: archived ${label("SPRING25", made.id)}; subscriptions using it keep it, and the service keeps its code taken.\n`,
      );
      expect(steps(sim)).toEqual([`DELETE /product_families/${familyId}/coupons/${made.id}.json`]);
    });

    it("delete of a pending create that carries a family still looks the coupon up by its code", async () => {
      const { coupons } = await setup();
      const landed = sim.addCoupon({ familyHandle: "plans", code: "SPRING25", name: "Spring sale", percentage: 25 });
      sim.reset();
      const pending = { code: "SPRING25", args: spring, pendingToken: "token-1", productFamilyId: landed.familyId };
      const { error, text } = await captureOutput(() => coupons.delete!("pending-token-1", pending));
      // Asked in the family it carries, found there: the site's list is not needed.
      expect(sim.requests.map((r) => [`${r.method} ${r.path}`, r.query])).toEqual([
        ["GET /coupons/find.json", { code: "SPRING25", product_family_id: String(landed.familyId) }],
        [`GET /product_families/${landed.familyId}/coupons/${landed.id}.json`, {}],
        [`DELETE /product_families/${landed.familyId}/coupons/${landed.id}.json`, {}],
      ]);
      expect(error).toBeUndefined();
      expect(text).toBe(
        `Coupon: archived ${label("SPRING25", landed.id)}; subscriptions using it keep it, and the service keeps its code taken.\n`,
      );
      expect(steps(sim)).toEqual([`DELETE /product_families/${landed.familyId}/coupons/${landed.id}.json`]);
    });
  });
});
