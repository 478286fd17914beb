import fc from "fast-check";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { BillingValidationError, type ComponentInput, type Coupon, type PricePointInput } from "../../../sdk";
import { startSimulator } from "../../../simulator";
import { clientOf, deadUrl, KEY, refusedWith, site, TOKEN } from "../helpers";
import { notCents, pricePoint } from "./inputs/arbitraries";
import { component, MONTHLY, product, siteWithFamilies, siteWithUnnamedFamilies, TIERS_TO_10 } from "./simulator-fixtures";

/**
 * The catalog's arguments refused before anything is sent: the BillingValidationError's words, naming the
 * operation and each property, for families, products, price points, components, component price points and
 * coupons. One test loads the SDK afresh (vi.resetModules, then import), as the component schemas it reaches are
 * built when their module loads.
 */

describe("products and price points: refusals name the operation and the property", () => {
  const id0 = "must be a positive integer id, got 0";

  it("createPricePoint with product id 0", async () => {
    const { sim, billing } = await site();
    expect(await refusedWith(billing.createPricePoint(0, { handle: "annual", name: "Annual", ...MONTHLY }))).toStrictEqual({
      message: `invalid price point: productId: ${id0}`,
      problems: [{ property: "productId", message: id0 }],
    });
    expect(sim.requests).toStrictEqual([]);
  });

  it("createPricePoints with product id 0", async () => {
    const { sim, billing } = await site();
    expect(await refusedWith(billing.createPricePoints(0, [{ handle: "annual", name: "Annual", ...MONTHLY }]))).toStrictEqual({
      message: `invalid price points: productId: ${id0}`,
      problems: [{ property: "productId", message: id0 }],
    });
    expect(sim.requests).toStrictEqual([]);
  });

  it("createPricePoints with two inputs of one handle", async () => {
    const { sim, billing, p } = await product();
    const dup = `"annual-2" is also the handle of [0]: a product's price points need distinct handles`;
    const inputs = ["annual-2", "monthly-2", "annual-2"].map((handle) => ({ handle, name: "N", ...MONTHLY }));
    expect(await refusedWith(billing.createPricePoints(p.id, inputs))).toStrictEqual({
      message: `invalid price points: [2].handle: ${dup}`,
      problems: [{ property: "[2].handle", message: dup }],
    });
    expect(sim.requests).toStrictEqual([]);
  });

  it("updatePricePoint with a bad handle", async () => {
    const { sim, billing, p, pp } = await product();
    const bad = `must be a lowercase letter or number first, then only lowercase letters, numbers, '.', ':', '-' and '_', got "Not A Handle"`;
    expect(await refusedWith(billing.updatePricePoint(p.id, pp.id, { handle: "Not A Handle" }))).toStrictEqual({
      message: `invalid price point update: handle: ${bad}`,
      problems: [{ property: "handle", message: bad }],
    });
    expect(sim.requests).toStrictEqual([]);
  });

  it("createProduct with family id 0", async () => {
    const { sim, billing } = await site();
    expect(await refusedWith(billing.createProduct(0, { handle: "pro", name: "Pro", ...MONTHLY }))).toStrictEqual({
      message: `invalid product: familyId: ${id0}`,
      problems: [{ property: "familyId", message: id0 }],
    });
    expect(sim.requests).toStrictEqual([]);
  });

  it("updateProduct with product id 0", async () => {
    const { sim, billing } = await site();
    expect(await refusedWith(billing.updateProduct(0, { name: "Pro 2" }))).toStrictEqual({
      message: `invalid product update: productId: ${id0}`,
      problems: [{ property: "productId", message: id0 }],
    });
    expect(sim.requests).toStrictEqual([]);
  });

  it("archiveProduct with product id 0", async () => {
    const { sim, billing } = await site();
    expect(await refusedWith(billing.archiveProduct(0))).toStrictEqual({
      message: `invalid product: productId: ${id0}`,
      problems: [{ property: "productId", message: id0 }],
    });
    expect(sim.requests).toStrictEqual([]);
  });
});

type Billing = Awaited<ReturnType<typeof site>>["billing"];

describe("price points: refusals of ids name the operation's object", () => {
  it.each([
    ["readPricePoint", (b: Billing) => b.readPricePoint(0, 1), "invalid price point: productId: must be a positive integer id, got 0"],
    [
      "updatePricePoint",
      (b: Billing) => b.updatePricePoint(1, -1, { handle: "a" }),
      "invalid price point: pricePointId: must be a positive integer id, got -1",
    ],
    [
      "readComponentPricePoint",
      (b: Billing) => b.readComponentPricePoint(0, 1),
      "invalid component price point: componentId: must be a positive integer id, got 0",
    ],
    [
      "unarchiveComponentPricePoint",
      (b: Billing) => b.unarchiveComponentPricePoint(1, 1.5),
      "invalid component price point: pricePointId: must be a positive integer id, got 1.5",
    ],
  ] as const)("%s", async (_, call, message) => {
    const { sim, billing } = await site();
    const err = await call(billing).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BillingValidationError);
    expect((err as Error).message).toBe(message);
    expect(sim.requests).toStrictEqual([]);
  });
});

describe("coupons and families: refusals name the operation and the property", () => {
  it("an update of a coupon with a bad input", async () => {
    const { sim, billing } = await siteWithFamilies();
    const r = await refusedWith(billing.updateCoupon(1, 5, { code: "SPRING", name: 5 as unknown as string, percentage: 15 }));
    expect(r).toStrictEqual({
      message: "invalid coupon update: name: must be a name (a string), got 5",
      problems: [{ property: "name", message: "must be a name (a string), got 5" }],
    });
    expect(sim.requests).toStrictEqual([]);
  });

  it.each<[string, unknown, string]>([
    [
      "a bad handle",
      "Not A Handle",
      `must be a lowercase letter or number first, then only lowercase letters, numbers, '.', ':', '-' and '_', got "Not A Handle"`,
    ],
    ["id 0", 0, "must be a positive integer id, got 0"],
  ])("readProductFamily with %s", async (_, idOrHandle, message) => {
    const { sim, billing } = await siteWithFamilies();
    expect(await refusedWith(billing.readProductFamily(idOrHandle as number))).toStrictEqual({
      message: `invalid product family: productFamily: ${message}`,
      problems: [{ property: "productFamily", message }],
    });
    expect(sim.requests).toStrictEqual([]);
  });

  it("createProductFamily with a token that is not a string", async () => {
    const { sim, billing } = await siteWithFamilies();
    const token = "must be a non-empty string (the token of the create being resumed)";
    expect(
      await refusedWith(billing.createProductFamily({ handle: "saas", name: "SaaS" }, { uniquenessToken: 5 as unknown as string })),
    ).toStrictEqual({
      message: `invalid product family: uniquenessToken: ${token}`,
      problems: [{ property: "uniquenessToken", message: token }],
    });
    expect(sim.requests).toStrictEqual([]);
  });
});

const METERED = {
  kind: "metered",
  handle: "sms",
  name: "SMS",
  unitName: "message",
  pricingScheme: "per_unit",
  prices: [{ startingQuantity: 1, unitPrice: 1 }],
} satisfies ComponentInput;

describe("components: refusals name the operation and the property, before anything is sent", () => {
  it("a handle lookup with an empty handle", async () => {
    const { sim, billing } = await siteWithUnnamedFamilies();
    const rule = "a lowercase letter or number first, then only lowercase letters, numbers, '.', ':', '-' and '_'";
    expect(await refusedWith(billing.findComponentByHandle(""))).toStrictEqual({
      message: `invalid component handle: handle: must not be empty: a handle is ${rule}; handle: must be ${rule}, got ""`,
      problems: [
        { property: "handle", message: `must not be empty: a handle is ${rule}` },
        { property: "handle", message: `must be ${rule}, got ""` },
      ],
    });
    expect(sim.requests).toStrictEqual([]);
  });

  it("a family's list with family id 0", async () => {
    const { sim, billing } = await siteWithUnnamedFamilies();
    expect(await refusedWith(billing.listComponents({ familyId: 0 }))).toStrictEqual({
      message: "invalid component list: familyId: must be a positive integer id, got 0",
      problems: [{ property: "familyId", message: "must be a positive integer id, got 0" }],
    });
    expect(sim.requests).toStrictEqual([]);
  });

  it("a create with family id 0 and a token that is not a string: both problems beside a valid component", async () => {
    const { sim, billing } = await siteWithUnnamedFamilies();
    const token = "must be a non-empty string (the token of the create being resumed)";
    expect(await refusedWith(billing.createComponent(0, METERED, { uniquenessToken: 5 as unknown as string }))).toStrictEqual({
      message: `invalid component: familyId: must be a positive integer id, got 0; uniquenessToken: ${token}`,
      problems: [
        { property: "familyId", message: "must be a positive integer id, got 0" },
        { property: "uniquenessToken", message: token },
      ],
    });
    expect(sim.requests).toStrictEqual([]);
  });

  it("a create of something that is not an object says what a component is, not which kinds there are", async () => {
    const { sim, billing } = await siteWithUnnamedFamilies();
    const message = "must be a component object { kind, handle, name, … }";
    for (const v of [null, 5, "metered"])
      expect(await refusedWith(billing.createComponent(1, v as never))).toStrictEqual({
        message: `invalid component: (input): ${message}`,
        problems: [{ property: "(input)", message }],
      });
    expect(sim.requests).toStrictEqual([]);
  });

  it("an update with a name that is not a string", async () => {
    const { sim, billing } = await siteWithUnnamedFamilies();
    const c = sim.addComponent({ familyId: 1, kind: "metered", handle: "sms", name: "SMS" });
    expect(await refusedWith(billing.updateComponent(1, c.id, { name: 5 as unknown as string }))).toStrictEqual({
      message: "invalid component update: name: must be a name (a string), got 5",
      problems: [{ property: "name", message: "must be a name (a string), got 5" }],
    });
    expect(sim.requests).toStrictEqual([]);
  });
});

const ID = "must be a positive integer id";

describe("component price points: refusals name the operation and the property, before anything is sent", () => {
  it.each([["xxxxxxxsms"], ["handle:"], ["handle:-sms"], ["Handle:sms"]])(
    "a read by %j, which is no `handle:<handle>`, is refused as a price point id",
    async (ref) => {
      const { sim, billing } = await component();
      expect(await refusedWith(billing.readComponentPricePoint(30001, ref as unknown as number))).toStrictEqual({
        message: `invalid component price point: pricePointId: ${ID}, got "${ref}"`,
        problems: [{ property: "pricePointId", message: `${ID}, got "${ref}"` }],
      });
      expect(sim.requests).toStrictEqual([]);
    },
  );

  it("a list with component id 0", async () => {
    const { sim, billing } = await component();
    expect(await refusedWith(billing.listComponentPricePoints(0))).toStrictEqual({
      message: `invalid component price point list: componentId: ${ID}, got 0`,
      problems: [{ property: "componentId", message: `${ID}, got 0` }],
    });
    expect(sim.requests).toStrictEqual([]);
  });

  it("a create with component id 0 and a token that is not a string, beside a valid price point", async () => {
    const { sim, billing } = await component();
    const token = "must be a non-empty string (the token of the create being resumed)";
    const input = { handle: "retail", name: "Retail", pricingScheme: "tiered", prices: TIERS_TO_10 } as const;
    expect(await refusedWith(billing.createComponentPricePoint(0, input, { uniquenessToken: 5 as unknown as string }))).toStrictEqual({
      message: `invalid component price point: componentId: ${ID}, got 0; uniquenessToken: ${token}`,
      problems: [
        { property: "componentId", message: `${ID}, got 0` },
        { property: "uniquenessToken", message: token },
      ],
    });
    expect(sim.requests).toStrictEqual([]);
  });

  it("an update with a name that is not a string", async () => {
    const { sim, billing } = await component();
    expect(await refusedWith(billing.updateComponentPricePoint(30001, 50001, { name: 5 as unknown as string }))).toStrictEqual({
      message: "invalid component price point update: name: must be a name (a string), got 5",
      problems: [{ property: "name", message: "must be a name (a string), got 5" }],
    });
    expect(sim.requests).toStrictEqual([]);
  });
});

const PERCENT = { code: "SPRING", name: "Spring", percentage: 15 } as const;

const held = (c: Coupon) => ({ code: c.code, name: c.name, percentage: c.percentage, amountInCents: c.amountInCents });

/** The validation error `p` rejects with; a failed expectation when it rejects with anything else or resolves. */
async function refused(p: Promise<unknown>): Promise<BillingValidationError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(BillingValidationError);
  return err as BillingValidationError;
}

describe("coupon and component arguments refused before anything is sent", () => {
  const ID = (property: string, got: string) => ({ property, message: `must be a positive integer id, got ${got}` });

  it.each([
    ["readCoupon, familyId 0", (b: Billing) => b.readCoupon(0, 1), "invalid coupon", [ID("familyId", "0")]],
    ["readCoupon, couponId -1", (b: Billing) => b.readCoupon(1, -1), "invalid coupon", [ID("couponId", "-1")]],
    ["archiveCoupon, both ids", (b: Billing) => b.archiveCoupon(1.5, 0), "invalid coupon", [ID("familyId", "1.5"), ID("couponId", "0")]],
    ["updateCoupon, couponId 0", (b: Billing) => b.updateCoupon(1, 0, PERCENT), "invalid coupon", [ID("couponId", "0")]],
    ["readComponent, componentId 0", (b: Billing) => b.readComponent(1, 0), "invalid component", [ID("componentId", "0")]],
    ["archiveComponent, familyId 0", (b: Billing) => b.archiveComponent(0, 1), "invalid component", [ID("familyId", "0")]],
    ["listCoupons, familyId 0", (b: Billing) => b.listCoupons({ familyId: 0 }), "invalid coupon list", [ID("familyId", "0")]],
    ["listProducts, familyId -2", (b: Billing) => b.listProducts({ familyId: -2 }), "invalid product list", [ID("familyId", "-2")]],
  ] as const)("%s", async (_, call, what, problems) => {
    const { sim, billing } = await site();
    const err = await refused(call(billing));
    expect(err.problems).toStrictEqual(problems);
    expect(err.message).toBe(`${what}: ${problems.map((p) => `${p.property}: ${p.message}`).join("; ")}`);
    expect(sim.requests).toStrictEqual([]);
  });

  it("findCoupon: a code that is not one, named code, with the family checked too", async () => {
    const { sim, billing } = await site();
    const err = await refused(billing.findCoupon("spring", { familyId: 0 }));
    expect(err.problems).toStrictEqual([
      {
        property: "code",
        message: 'must be only uppercase letters, digits and "%", "@", "+", "-", "_", "." (uppercase: "SPRING"), got "spring"',
      },
      ID("familyId", "0"),
    ]);
    expect(err.message).toBe(
      'invalid coupon code: code: must be only uppercase letters, digits and "%", "@", "+", "-", "_", "." (uppercase: "SPRING"), got "spring"; familyId: must be a positive integer id, got 0',
    );
    expect(sim.requests).toStrictEqual([]);
  });

  it("findCoupon: a good code in a bad family, the family alone named", async () => {
    const { sim, billing } = await site();
    const err = await refused(billing.findCoupon("SPRING", { familyId: -1 }));
    expect(err.message).toBe("invalid coupon code: familyId: must be a positive integer id, got -1");
    expect(sim.requests).toStrictEqual([]);
  });

  it("listCoupons: a code in the list that is not one, named codes", async () => {
    const { sim, billing } = await site();
    const err = await refused(billing.listCoupons({ codes: ["SPRING", "fall"] }));
    const message = 'must be only uppercase letters, digits and "%", "@", "+", "-", "_", "." (uppercase: "FALL"), got "fall"';
    expect(err.problems).toStrictEqual([{ property: "codes", message }]);
    expect(err.message).toBe(`invalid coupon list: codes: ${message}`);
    expect(sim.requests).toStrictEqual([]);
  });

  it("createCoupon: a good coupon in family 0 is refused for the family alone", async () => {
    const { sim, billing } = await site();
    const err = await refused(billing.createCoupon(0, PERCENT));
    expect(err.problems).toStrictEqual([ID("familyId", "0")]);
    expect(err.message).toBe("invalid coupon: familyId: must be a positive integer id, got 0");
    expect(sim.requests).toStrictEqual([]);
  });

  it.each([
    ["an empty string", ""],
    ["a number", 42],
    ["null", null],
  ] as const)("createCoupon: a uniquenessToken that is %s", async (_, token) => {
    const { sim, billing } = await site();
    const f = await billing.createProductFamily({ handle: "saas", name: "SaaS" });
    sim.reset();
    const err = await refused(billing.createCoupon(f.id, PERCENT, { uniquenessToken: token as never }));
    const problem = { property: "uniquenessToken", message: "must be a non-empty string (the token of the create being resumed)" };
    expect(err.problems).toStrictEqual([problem]);
    expect(err.message).toBe(`invalid coupon: uniquenessToken: ${problem.message}`);
    expect(sim.requests).toStrictEqual([]);
  });

  it("createCoupon: a token given is the one sent", async () => {
    const { sim, billing } = await site();
    const f = await billing.createProductFamily({ handle: "saas", name: "SaaS" });
    sim.reset();
    const made = await billing.createCoupon(f.id, PERCENT, { uniquenessToken: "t-1" });
    expect(held(made)).toStrictEqual({ code: "SPRING", name: "Spring", percentage: "15", amountInCents: undefined });
    expect(sim.requests.map((r) => (r.body as { uniqueness_token?: string }).uniqueness_token)).toStrictEqual(["t-1"]);
  });
});

describe("through the client: refused before anything is sent", () => {
  it("any fractional or negative price: a BillingValidationError naming priceInCents, no request", async () => {
    const billing = clientOf(await deadUrl(), { maxRetries: 0 });
    await fc.assert(
      fc.asyncProperty(pricePoint, notCents, async (pp, bad) => {
        const err = await billing.createPricePoint(1, { ...pp, priceInCents: bad } as PricePointInput).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(BillingValidationError);
        expect((err as BillingValidationError).problems.map((p) => p.property)).toStrictEqual(["priceInCents"]);
        expect((err as BillingValidationError).message).toMatch(/^invalid price point: priceInCents: must be a whole number of cents/);
      }),
      { numRuns: 100 },
    );
  });
});

const ONE = [{ startingQuantity: 1, unitPrice: 1 }];

const METERED_PER_UNIT = { kind: "metered", handle: "sms", name: "SMS", unitName: "message", pricingScheme: "per_unit", prices: ONE };

describe("a client refuses a bad component before any request", () => {
  beforeEach(() => {
    vi.resetModules();
  });

  it("createComponent: the problems, and nothing sent", async () => {
    const sim = await startSimulator({ apiKey: KEY, accessToken: TOKEN });
    const { BillingClient } = await import("../../../sdk");
    const billing = new BillingClient({ baseUrl: sim.url, apiKey: KEY, retryBaseDelayMs: 1 });
    try {
      const err = await billing.createComponent(1, { ...METERED_PER_UNIT, name: "", intervalUnit: "week" } as never).then(
        (r) => ({ resolved: r }),
        (e: Error & { problems?: unknown }) => ({ name: e.name, message: e.message, problems: e.problems }),
      );
      expect(err).toEqual({
        name: "BillingValidationError",
        message:
          'invalid component: name: must not be empty (a name of 1 to 255 characters); intervalUnit: must be "day" or "month", got "week"; interval: is required with intervalUnit: a whole number, 1 or more',
        problems: [
          { property: "name", message: "must not be empty (a name of 1 to 255 characters)" },
          { property: "intervalUnit", message: 'must be "day" or "month", got "week"' },
          { property: "interval", message: "is required with intervalUnit: a whole number, 1 or more" },
        ],
      });
      expect(sim.requests).toStrictEqual([]);
    } finally {
      await billing.close();
      await sim.close();
    }
  });
});
