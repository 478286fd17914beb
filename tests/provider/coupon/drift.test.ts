import { describe, expect, it } from "vitest";
import { KEY, mutations } from "../support";
import { couponSite, type Props, recorded, spring, steps } from "./site";

/**
 * Coupon drift: refresh reads what the service holds, and the recorded inputs are the service's values for what
 * is declared, so a change made in the web UI shows as a diff and up restores it. What a declaration leaves out,
 * and what the service does not say (null), is never drift; restrictions are compared as the ids they resolved
 * to, element by element. A coupon archived outside the stack shows so, and up says what to do.
 */

describe("Coupon drift", () => {
  const { setup, restricted } = couponSite();

  it("refresh reads it: a change in the web UI shows as drift, and up restores it", async () => {
    const { coupons, sim } = await setup();
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

  it("refresh of a coupon archived outside the stack shows it archived; up says what to do and changes nothing", async () => {
    const { coupons, sim } = await setup();
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

  it("a restriction changed at the service to another of the same size is restored by update and shown as drift", async () => {
    const { coupons, client, sim } = await setup();
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

  describe("read: the resource id is the coupon's only when it is all digits", () => {
    it.each([
      ["its id", (id: string) => id, true],
      ["digits after a prefix", (id: string) => `x${id}`, false],
      ["digits before a suffix", (id: string) => `${id}x`, false],
      ["a leading zero", (id: string) => `0${id}`, false],
    ])("%s", async (_, idOf, read) => {
      const { coupons, sim } = await setup();
      const { id, outs } = await coupons.create(spring);
      const { couponId: _id, ...unrecorded } = outs;
      sim.reset();
      const stale = { ...unrecorded, name: "stale" };
      const got = await coupons.read!(idOf(id), stale);
      expect(got).toEqual({ id: idOf(id), props: read ? outs : stale });
      expect(sim.requests.length).toBe(read ? 1 : 0);
    });
  });

  describe("read of a state that does not say the coupon's family", () => {
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
      const { coupons, sim } = await setup();
      const made = await coupons.create(spring);
      const s = strip(made.outs);
      sim.reset();
      expect(await coupons.read!(made.id, s)).toEqual({ id: made.id, props: s });
      expect(sim.requests).toEqual([]);
    });
  });

  describe("recorded inputs: the service's values for what is declared", () => {
    async function made() {
      const { coupons } = await setup();
      const { outs } = await coupons.create({ ...spring, stackable: true, endDate: "2099-12-31" });
      return outs as Props;
    }

    it("as created: the declaration", async () => {
      const s = await made();
      expect(recorded(s)).toEqual({ ...spring, stackable: true, endDate: "2099-12-31" });
    });

    it.each([
      ["a name changed at the service", { name: "Renamed in the UI" }, { name: "Renamed in the UI" }],
      ["another end date", { endDate: "2099-12-30T00:00:00Z" }, { endDate: "2099-12-30T00:00:00Z" }],
      ["a percentage coupon turned into an amount one", { percentage: null, amountInCents: 500 }, { percentage: null }],
      // A flag the service does not say (null) is not drift: the declaration stands.
      ["a flag the service leaves out", { stackable: null }, {}],
    ])("%s", async (_, change, drift) => {
      const s = await made();
      expect(recorded({ ...s, ...change })).toEqual({ ...spring, stackable: true, endDate: "2099-12-31", ...drift });
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
});
