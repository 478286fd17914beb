import { describe, expect, it } from "vitest";
import { BillingApiError, type BillingClient } from "../../../../sdk";
import { differsFrom } from "../../../../sdk/catalog/create";
import { site } from "../../helpers";

/**
 * A create whose first POST fails ambiguously reads back by handle. A live object with the handle that does not
 * hold what was asked was there before (the service refuses a taken handle and leaves its holder alone): taking
 * it as created handed its id to the caller, whose delete would archive it. It is not taken: the next attempt
 * gets the service's own refusal, as the same create without the fault does.
 */

const MONTHLY = { priceInCents: 1000, interval: 1, intervalUnit: "month" } as const;

const TIERS = [{ startingQuantity: 1, unitPrice: "5" }];

interface Kind {
  readonly kind: string;
  /** Makes what the create needs and returns the create (by name) and its POST path. */
  prepare(b: BillingClient): Promise<{
    create: (name: string) => Promise<{ id: number; name: string | undefined }>;
    post: string;
    names: () => Promise<(string | undefined)[]>;
  }>;
}

const family = (b: BillingClient) => b.createProductFamily({ handle: "saas", name: "SaaS" });

const KINDS: readonly Kind[] = [
  {
    kind: "product family",
    async prepare(b) {
      return {
        create: (name) => b.createProductFamily({ handle: "other", name }),
        post: "/product_families.json",
        names: async () => (await b.listProductFamilies()).filter((f) => f.handle === "other").map((f) => f.name),
      };
    },
  },
  {
    kind: "product",
    async prepare(b) {
      const f = await family(b);
      return {
        create: (name) => b.createProduct(f.id, { handle: "pro", name, ...MONTHLY }),
        post: `/product_families/${f.id}/products.json`,
        names: async () => (await b.listProducts()).filter((p) => p.handle === "pro").map((p) => p.name),
      };
    },
  },
  {
    kind: "price point",
    async prepare(b) {
      const f = await family(b);
      const p = await b.createProduct(f.id, { handle: "pro", name: "Pro", ...MONTHLY });
      return {
        create: (name) => b.createPricePoint(p.id, { handle: "annual", name, ...MONTHLY, interval: 12 }),
        post: `/products/${p.id}/price_points.json`,
        names: async () => (await b.listPricePoints(p.id)).filter((x) => x.handle === "annual").map((x) => x.name),
      };
    },
  },
  {
    kind: "component",
    async prepare(b) {
      const f = await family(b);
      return {
        create: (name) =>
          b.createComponent(f.id, { kind: "metered", handle: "sms", name, unitName: "message", pricingScheme: "tiered", prices: TIERS }),
        post: `/product_families/${f.id}/metered_components.json`,
        names: async () => (await b.listComponents()).filter((c) => c.handle === "sms").map((c) => c.name),
      };
    },
  },
  {
    kind: "component price point",
    async prepare(b) {
      const f = await family(b);
      const c = await b.createComponent(f.id, {
        kind: "metered",
        handle: "sms",
        name: "SMS",
        unitName: "message",
        pricingScheme: "tiered",
        prices: TIERS,
      });
      return {
        create: (name) => b.createComponentPricePoint(c.id, { handle: "wholesale", name, pricingScheme: "tiered", prices: TIERS }),
        post: `/components/${c.id}/price_points.json`,
        names: async () => (await b.listComponentPricePoints(c.id)).filter((x) => x.handle === "wholesale").map((x) => x.name),
      };
    },
  },
  {
    kind: "coupon",
    async prepare(b) {
      const f = await family(b);
      return {
        create: (name) => b.createCoupon(f.id, { code: "SPRING", name, percentage: 10 }),
        post: `/product_families/${f.id}/coupons.json`,
        names: async () => (await b.listCoupons()).filter((c) => c.code === "SPRING").map((c) => c.name),
      };
    },
  },
];

describe.each(KINDS)("a $kind whose handle another one holds, the first POST answered 503", ({ prepare }) => {
  async function taken() {
    const { sim, billing } = await site({}, { maxRetries: 2, retryBudgetSeconds: 0 });
    const c = await prepare(billing);
    const old = await c.create("Old");
    sim.injectFault({ kind: "status", status: 503, times: 1, match: { method: "POST", path: c.post } });
    return { ...c, old };
  }

  it("asking another name: the holder is not taken as created; the service's refusal, and the holder untouched", async () => {
    const c = await taken();
    const err = await c.create("New").then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(BillingApiError);
    expect((err as BillingApiError).status).toBe(422);
    expect(await c.names()).toStrictEqual(["Old"]);
  });

  // The SDK cannot tell a holder with everything asked from the object this create made: it is the result.
  it("asking what the holder holds: the holder is the result, and nothing is made twice", async () => {
    const c = await taken();
    const got = await c.create("Old");
    expect(got.id).toBe(c.old.id);
    expect(await c.names()).toStrictEqual(["Old"]);
  });
});

describe("the same name, another asked field: not taken either", () => {
  it.each([
    [
      "a coupon of 20% where the holder gives 10%",
      async (b: BillingClient, f: number) => b.createCoupon(f, { code: "SPRING", name: "Spring", percentage: 10 }),
      async (b: BillingClient, f: number) => b.createCoupon(f, { code: "SPRING", name: "Spring", percentage: 20 }),
      "/coupons.json",
    ],
    [
      "a coupon of $5 off where the holder gives $4",
      async (b: BillingClient, f: number) => b.createCoupon(f, { code: "SPRING", name: "Spring", amountInCents: 400 }),
      async (b: BillingClient, f: number) => b.createCoupon(f, { code: "SPRING", name: "Spring", amountInCents: 500 }),
      "/coupons.json",
    ],
    [
      "a product at $20 where the holder costs $10",
      async (b: BillingClient, f: number) => b.createProduct(f, { handle: "pro", name: "Pro", ...MONTHLY }),
      async (b: BillingClient, f: number) => b.createProduct(f, { handle: "pro", name: "Pro", ...MONTHLY, priceInCents: 2000 }),
      "/products.json",
    ],
    [
      "a quantity-based component where the holder is metered",
      async (b: BillingClient, f: number) =>
        b.createComponent(f, { kind: "metered", handle: "sms", name: "SMS", unitName: "message", pricingScheme: "tiered", prices: TIERS }),
      async (b: BillingClient, f: number) =>
        b.createComponent(f, {
          kind: "quantity_based",
          handle: "sms",
          name: "SMS",
          unitName: "message",
          pricingScheme: "tiered",
          prices: TIERS,
        }),
      "/quantity_based_components.json",
    ],
  ] as const)("%s", async (_, first, second, post) => {
    const { sim, billing } = await site({}, { maxRetries: 2, retryBudgetSeconds: 0 });
    const f = await family(billing);
    const old = await first(billing, f.id);
    sim.injectFault({ kind: "status", status: 503, times: 1, match: { method: "POST", path: `/product_families/${f.id}${post}` } });
    const before = sim.requests.length;
    const err = await second(billing, f.id).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(BillingApiError);
    expect((err as BillingApiError).status).toBe(422);
    // The 503 and a read-back that saw the holder was not this create's, the retry refused, and a read-back again
    // (the first attempt might have applied late): one retry, never a third POST.
    expect(sim.requests.slice(before).map((r) => r.method)).toStrictEqual(["POST", "GET", "POST", "GET"]);
    expect(old.id).toBeGreaterThan(0);
  });
});

describe("differsFrom: what a read-back compares", () => {
  it.each([
    ["the same values", [["name", "Pro", "Pro"]], undefined],
    ["a field not asked", [["name", undefined, "Pro"]], undefined],
    ["a field the answer leaves out (null)", [["name", "Pro", null]], undefined],
    ["a field the answer leaves out (absent)", [["name", "Pro", undefined]], undefined],
    ["text the service stored trimmed", [["name", " Pro ", "Pro"]], undefined],
    ["another name", [["name", "New", "Old"]], 'id 7 holds name "Old" where this create asked "New"'],
    [
      "another number, after one that holds",
      [
        ["name", "Pro", "Pro"],
        ["priceInCents", 2000, 1000],
      ],
      "id 7 holds priceInCents 1000 where this create asked 2000",
    ],
    ["a number against its text", [["percentage", 10, "10"]], 'id 7 holds percentage "10" where this create asked 10'],
  ] as const)("%s", (_, fields, expected) => {
    expect(differsFrom(7, fields)).toBe(expected);
  });
});
