import { describe, expect, it } from "vitest";
import type { BillingClient } from "../../../sdk";
import { BillingApiError } from "../../../sdk";
import type { Simulator } from "../../../simulator";
import { site } from "../helpers";

/**
 * `readBatchWindowMs` over every collection the API lists besides a product's price points and a family's products
 * (read-batches.test.ts): reads asked for together are one list request, each answered as its read alone is, an
 * archived object included, an object the list lacks read alone (its 404 its own).
 */

const WINDOW = 20;
const paths = (sim: Simulator) => sim.requests.map((r) => `${r.method} ${r.path}`);

interface Case {
  readonly name: string;
  /** Seeds two objects (the second archived where the service archives that kind) and says how to read them. */
  readonly seed: (sim: Simulator) => {
    readonly list: string;
    readonly read: (b: BillingClient, which: 0 | 1) => Promise<unknown>;
    /** A read of an object the site does not have. */
    readonly missing: (b: BillingClient) => Promise<unknown>;
  };
}

const familyOf = (sim: Simulator) => sim.addProductFamily({ handle: "plans", name: "Plans" });

const CASES: readonly Case[] = [
  {
    name: "the site's product families",
    seed: (sim) => {
      const f = [sim.addProductFamily({ handle: "a", name: "A" }), sim.addProductFamily({ handle: "b", name: "B" })];
      return {
        list: "GET /product_families.json",
        read: (b, i) => b.readProductFamily(f[i].id),
        missing: (b) => b.readProductFamily(999_999),
      };
    },
  },
  {
    name: "a family's components (by filter[ids])",
    seed: (sim) => {
      const fam = familyOf(sim);
      const c = [
        sim.addComponent({ familyId: fam.id, kind: "quantity_based", handle: "seats", unitPrice: 5 }),
        sim.addComponent({ familyId: fam.id, kind: "on_off", handle: "support", unitPrice: 9, archived: true }),
      ];
      return {
        list: `GET /product_families/${fam.id}/components.json`,
        read: (b, i) => b.readComponent(fam.id, c[i].id),
        missing: (b) => b.readComponent(fam.id, 999_999),
      };
    },
  },
  {
    name: "a component's price points",
    seed: (sim) => {
      const fam = familyOf(sim);
      const c = sim.addComponent({ familyId: fam.id, kind: "quantity_based", handle: "seats", unitPrice: 5 });
      const pp = [
        sim.addComponentPricePoint({ componentId: c.id }, { handle: "seats-a", unitPrice: 4 }),
        sim.addComponentPricePoint({ componentId: c.id }, { handle: "seats-b", unitPrice: 3, archived: true }),
      ];
      return {
        list: `GET /components/${c.id}/price_points.json`,
        read: (b, i) => b.readComponentPricePoint(c.id, pp[i].id),
        missing: (b) => b.readComponentPricePoint(c.id, 999_999),
      };
    },
  },
  {
    name: "a family's coupons (by filter[ids])",
    seed: (sim) => {
      const fam = familyOf(sim);
      const c = [
        sim.addCoupon({ familyId: fam.id, code: "TEN", percentage: 10 }),
        sim.addCoupon({ familyId: fam.id, code: "FIVE", amountInCents: 500, archived: true }),
      ];
      return {
        list: `GET /product_families/${fam.id}/coupons.json`,
        read: (b, i) => b.readCoupon(fam.id, c[i].id),
        missing: (b) => b.readCoupon(fam.id, 999_999),
      };
    },
  },
  {
    name: "the site's reason codes",
    seed: (sim) => {
      const r = [sim.addReasonCode({ code: "price", description: "Too dear" }), sim.addReasonCode({ code: "gone", description: "Moved" })];
      return {
        list: "GET /reason_codes.json",
        read: (b, i) => b.readReasonCode(r[i].id),
        missing: (b) => b.readReasonCode(999_999),
      };
    },
  },
  {
    name: "the site's offers",
    seed: (sim) => {
      familyOf(sim);
      sim.addProduct({ handle: "rocket", familyHandle: "plans", name: "Rocket", priceInCents: 4900 });
      const o = [sim.addOffer({ handle: "launch", productHandle: "rocket" }), sim.addOffer({ handle: "orbit", productHandle: "rocket" })];
      return {
        list: "GET /offers.json",
        read: (b, i) => b.readOffer(o[i].id),
        missing: (b) => b.readOffer(999_999),
      };
    },
  },
  {
    name: "a resource type's custom fields (by name)",
    seed: (sim) => {
      const m = [
        sim.addMetafield({ resourceType: "subscriptions", name: "Region" }),
        sim.addMetafield({ resourceType: "subscriptions", name: "Tier", inputType: "dropdown", enum: ["a", "b"] }),
      ];
      return {
        list: "GET /subscriptions/metafields.json",
        read: (b, i) => b.listMetafields("subscriptions", { name: m[i].name }),
        missing: (b) => b.listMetafields("subscriptions", { name: "Nobody" }),
      };
    },
  },
];

describe.each(CASES)("reads of $name, batched", ({ seed }) => {
  it("asked for together: one list request, each answer equal to its read alone", async () => {
    const { sim, billing } = await site({}, { readBatchWindowMs: WINDOW });
    const { list, read } = seed(sim);
    const alone = await site({}, {});
    const twin = seed(alone.sim);
    sim.reset();
    const batched = await Promise.all([read(billing, 0), read(billing, 1)]);
    expect(paths(sim)).toEqual([list]);
    const byOne = [await twin.read(alone.billing, 0), await twin.read(alone.billing, 1)];
    expect(alone.sim.requests.length).toBe(2);
    // The two simulators were seeded alike: ids, handles and times agree but for when each was made.
    expect(strip(batched)).toEqual(strip(byOne));
  });

  it("an object the list lacks is read alone: its answer (a 404, or no field) is that read's own", async () => {
    const { sim, billing } = await site({}, { readBatchWindowMs: WINDOW });
    const { list, read, missing } = seed(sim);
    sim.reset();
    const [found, gone] = await Promise.allSettled([read(billing, 0), missing(billing)]);
    expect(found.status).toBe("fulfilled");
    if (gone.status === "rejected") expect((gone.reason as BillingApiError).status).toBe(404);
    else expect(gone.value).toEqual([]);
    expect(paths(sim)[0]).toBe(list);
    expect(paths(sim)).toHaveLength(2);
  });

  it("the list failing fails each read it was to answer, with the list's own error (no read alone hides it)", async () => {
    const { sim, billing } = await site({}, { readBatchWindowMs: WINDOW });
    const { list, read } = seed(sim);
    sim.reset();
    sim.injectFault({ kind: "status", status: 500, match: { method: "GET", path: list.slice("GET ".length) } });
    const results = await Promise.allSettled([read(billing, 0), read(billing, 1)]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    for (const r of results) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(BillingApiError);
    expect(new Set(paths(sim))).toEqual(new Set([list]));
  });
});

/** Answers with the times the simulator stamps left out (two simulators seeded alike differ only in those). */
function strip(v: unknown): unknown {
  return JSON.parse(JSON.stringify(v, (k, x) => (/(At|_at)$/.test(k) && typeof x === "string" ? "<time>" : x)));
}
