import { readFileSync } from "node:fs";
import fc from "fast-check";
import { ValidationContext } from "openapi-backend";
import { beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { componentPricePointUpdateInput, pricePointInput, productInput, productUpdateInput } from "../../../sdk";
import { pricePointCreateBody, productCreateBody, productUpdateBody } from "../../../sdk/catalog/bodies";
import { componentPricePointCreateBody, componentPricePointUpdateBody, couponBody, priceBody } from "../../../sdk/catalog/component-bodies";
import type { Simulator } from "../../../simulator";
import { recordingProxy } from "../../contract/recorder";
import { CONTRACT, contractApi } from "../../contract/validator";
import { clientOf, site } from "../helpers";
import { pricePoint, product, RUNS } from "./inputs/arbitraries";
import { component, TIERS_TO_10 } from "./simulator-fixtures";

/**
 * The catalog's request bodies (sdk/catalog/bodies.ts, component-bodies.ts): only the fields given, snake_case, keys
 * in order, the tiers last; compared whole as they crossed the wire (recorded in front of the simulator), and the
 * builders called directly where the wire cannot tell (a key set to undefined, which JSON drops). Every body made of
 * accepted inputs is one the contract's request schema accepts.
 */

const MONTHLY = { priceInCents: 1000, interval: 1, intervalUnit: "month" } as const;

describe("product and price point bodies carry only the fields given", () => {
  it("a product update of its name: the name alone, no other key", () => {
    expect(productUpdateBody(productUpdateInput.parse({ name: "Pro" }))).toStrictEqual({ name: "Pro" });
    expect(productUpdateBody(productUpdateInput.parse({ priceInCents: 2500 }))).toStrictEqual({ price_in_cents: 2500 });
  });

  it("a product create: the fields given and the description the contract requires", () => {
    expect(productCreateBody(productInput.parse({ handle: "pro", name: "Pro", ...MONTHLY }))).toStrictEqual({
      handle: "pro",
      name: "Pro",
      description: "",
      price_in_cents: 1000,
      interval: 1,
      interval_unit: "month",
    });
  });

  it("a price point create: use_site_exchange_rate only when given", () => {
    const base = { handle: "annual", name: "Annual", ...MONTHLY, interval: 12 };
    const wire = { name: "Annual", handle: "annual", price_in_cents: 1000, interval: 12, interval_unit: "month" };
    expect(pricePointCreateBody(pricePointInput.parse(base))).toStrictEqual(wire);
    expect(pricePointCreateBody(pricePointInput.parse({ ...base, useSiteExchangeRate: false }))).toStrictEqual({
      ...wire,
      use_site_exchange_rate: false,
    });
  });
});

describe("the bodies made of accepted inputs are what the contract's request schemas accept", () => {
  const contract = JSON.parse(readFileSync(CONTRACT, "utf8"));
  const requestSchema = (method: string, path: string) => contract.paths[path][method].requestBody.content["application/json"].schema;
  let validate: (schema: object, body: unknown) => string[];
  beforeAll(async () => {
    const ajv = (await contractApi()).validator.getAjv(ValidationContext.RequestBody, { allErrors: true });
    const compiled = new Map<object, ReturnType<typeof ajv.compile>>();
    validate = (schema, body) => {
      let v = compiled.get(schema);
      if (!v) {
        v = ajv.compile(schema);
        compiled.set(schema, v);
      }
      v(body);
      return (v.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
    };
  });

  it("price point create: any accepted input", () => {
    const schema = requestSchema("post", "/products/{product_id}/price_points.json");
    // Sanity: the check does refuse.
    expect(validate(schema, { price_point: { name: "x", price_in_cents: 1.5 } }).length).toBeGreaterThan(1);
    fc.assert(
      fc.property(pricePoint, fc.uuid(), (pp, token) => {
        const body = { price_point: pricePointCreateBody(pricePointInput.parse(pp)), uniqueness_token: token };
        expect(validate(schema, body)).toStrictEqual([]);
      }),
      RUNS,
    );
  });

  it("product create: any accepted input", () => {
    const schema = requestSchema("post", "/product_families/{product_family_id}/products.json");
    fc.assert(
      fc.property(product, (p) => {
        const body = { product: productCreateBody(productInput.parse(p)) };
        expect(validate(schema, body)).toStrictEqual([]);
      }),
      RUNS,
    );
  });

  it("product update: any accepted input with the fields the contract requires (the SDK sends only what is given)", () => {
    const schema = requestSchema("put", "/products/{product_id}.json");
    fc.assert(
      fc.property(product, (p) => {
        const full = { description: "", ...p };
        const body = { product: productUpdateBody(productUpdateInput.parse(full)) };
        const errors = validate(schema, body);
        // "never" is the one value an update sends outside the contract's enum (request-contract.ts).
        if (full.expirationIntervalUnit === "never")
          expect(errors).toStrictEqual(["/product/expiration_interval_unit must be equal to one of the allowed values"]);
        else expect(errors).toStrictEqual([]);
      }),
      RUNS,
    );
  });
});

const TIERS = [
  { startingQuantity: 1, endingQuantity: 100, unitPrice: "5" },
  { startingQuantity: 101, unitPrice: "4" },
];

describe("component bodies on the wire: only the fields given, snake_case, the tiers last", () => {
  async function recorded() {
    const s = await site();
    const proxy = await recordingProxy(s.sim.url);
    onTestFinished(() => proxy.close());
    const billing = clientOf(proxy.url, { maxRetries: 0 });
    const f = await billing.createProductFamily({ handle: "saas", name: "SaaS" });
    // The last request, which the simulator accepted: a body it refused would pin nothing worth keeping.
    const body = () => {
      const last = proxy.exchanges.at(-1);
      expect([200, 201]).toContain(last?.status);
      return last?.requestBody as Record<string, Record<string, unknown>>;
    };
    return { billing, f, body };
  }
  const WIRE_TIERS = [
    { starting_quantity: 1, ending_quantity: 100, unit_price: "5" },
    { starting_quantity: 101, unit_price: "4" },
  ];

  it("a metered component: no kind (it is in the path), the tiers after every other field", async () => {
    const { billing, f, body } = await recorded();
    await billing.createComponent(f.id, {
      kind: "metered",
      handle: "sms",
      name: "SMS",
      unitName: "message",
      pricingScheme: "tiered",
      prices: TIERS,
      allowFractionalQuantities: true,
      interval: 1,
      intervalUnit: "month",
    });
    const { uniqueness_token: token, ...rest } = body();
    expect(rest).toStrictEqual({
      metered_component: {
        handle: "sms",
        name: "SMS",
        unit_name: "message",
        pricing_scheme: "tiered",
        allow_fractional_quantities: true,
        interval: 1,
        interval_unit: "month",
        prices: WIRE_TIERS,
      },
    });
    expect(Object.keys(body().metered_component)).toStrictEqual([
      "handle",
      "name",
      "unit_name",
      "pricing_scheme",
      "allow_fractional_quantities",
      "interval",
      "interval_unit",
      "prices",
    ]);
    expect(token).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it("a prepaid usage component: the tiers, then the overage pricing, after the prepaid terms", async () => {
    const { billing, f, body } = await recorded();
    await billing.createComponent(f.id, {
      kind: "prepaid_usage",
      handle: "minutes",
      name: "Minutes",
      unitName: "minute",
      pricingScheme: "per_unit",
      prices: [{ startingQuantity: 1, unitPrice: 2 }],
      overagePricing: { pricingScheme: "per_unit", prices: [{ startingQuantity: 1, unitPrice: 3 }] },
      rolloverPrepaidRemainder: true,
      expirationInterval: 15,
      expirationIntervalUnit: "day",
    });
    const sent = body().prepaid_usage_component;
    expect(sent).toStrictEqual({
      handle: "minutes",
      name: "Minutes",
      unit_name: "minute",
      pricing_scheme: "per_unit",
      rollover_prepaid_remainder: true,
      expiration_interval: 15,
      expiration_interval_unit: "day",
      prices: [{ starting_quantity: 1, unit_price: 2 }],
      overage_pricing: { pricing_scheme: "per_unit", prices: [{ starting_quantity: 1, unit_price: 3 }] },
    });
    expect(Object.keys(sent)).toStrictEqual([
      "handle",
      "name",
      "unit_name",
      "pricing_scheme",
      "rollover_prepaid_remainder",
      "expiration_interval",
      "expiration_interval_unit",
      "prices",
      "overage_pricing",
    ]);
  });

  it("a component price point: the tiers after the interval", async () => {
    const { billing, f, body } = await recorded();
    const c = await billing.createComponent(f.id, {
      kind: "metered",
      handle: "sms",
      name: "SMS",
      unitName: "message",
      pricingScheme: "tiered",
      prices: TIERS,
    });
    await billing.createComponentPricePoint(c.id, {
      handle: "wholesale",
      name: "Wholesale",
      pricingScheme: "tiered",
      prices: TIERS,
      interval: 1,
      intervalUnit: "month",
    });
    const sent = body().price_point;
    expect(sent).toStrictEqual({
      handle: "wholesale",
      name: "Wholesale",
      pricing_scheme: "tiered",
      interval: 1,
      interval_unit: "month",
      prices: WIRE_TIERS,
    });
    expect(Object.keys(sent)).toStrictEqual(["handle", "name", "pricing_scheme", "interval", "interval_unit", "prices"]);
  });
});

describe("the body builders themselves", () => {
  it("priceBody: an open-ended tier has no ending_quantity key at all", () => {
    expect(priceBody({ startingQuantity: 101, unitPrice: 4 })).toStrictEqual({ starting_quantity: 101, unit_price: 4 });
    expect(Object.keys(priceBody({ startingQuantity: 101, unitPrice: 4 }))).toStrictEqual(["starting_quantity", "unit_price"]);
    expect(priceBody({ startingQuantity: 1, endingQuantity: 100, unitPrice: "5" })).toStrictEqual({
      starting_quantity: 1,
      ending_quantity: 100,
      unit_price: "5",
    });
  });

  it("couponBody: restrictions to lift with none given map only those ids, to false", () => {
    const coupon = { code: "SPRING15", name: "Spring", percentage: 15 } as Parameters<typeof couponBody>[0];
    expect(couponBody(coupon, 7, { products: [11], components: [] })).toStrictEqual({
      coupon: { code: "SPRING15", name: "Spring", percentage: 15, product_family_id: "7" },
      restricted_products: { "11": false },
    });
  });
});

/** The last request's price point, which the simulator took: a body it refused would pin nothing worth keeping. */
function accepted(sim: Simulator): Record<string, unknown> {
  const last = sim.requests[sim.requests.length - 1];
  expect(last.status).toBe(200);
  return (last.body as { price_point: Record<string, unknown> }).price_point;
}

describe("the tiers sit last in a price point's body, after the fields that follow them in the input", () => {
  it("a create", async () => {
    const { sim, billing } = await component();
    await billing.createComponentPricePoint(30001, {
      handle: "retail",
      name: "Retail",
      pricingScheme: "tiered",
      prices: TIERS_TO_10,
      taxIncluded: true,
      interval: 2,
      intervalUnit: "month",
    });
    const sent = accepted(sim);
    expect(Object.keys(sent)).toStrictEqual(["handle", "name", "pricing_scheme", "tax_included", "interval", "interval_unit", "prices"]);
    expect(sent.prices).toStrictEqual([
      { starting_quantity: 1, ending_quantity: 10, unit_price: 5 },
      { starting_quantity: 11, unit_price: 3 },
    ]);
  });

  it("an update", async () => {
    const { sim, billing } = await component();
    await billing.updateComponentPricePoint(30001, 50001, {
      pricingScheme: "volume",
      prices: TIERS_TO_10,
      taxIncluded: true,
      interval: 2,
      intervalUnit: "month",
    });
    const sent = accepted(sim);
    expect(Object.keys(sent)).toStrictEqual(["pricing_scheme", "tax_included", "interval", "interval_unit", "prices"]);
    expect(sent.prices).toStrictEqual([
      { id: 901, starting_quantity: 1, ending_quantity: 10, unit_price: 5 },
      { id: 902, starting_quantity: 11, unit_price: 3 },
    ]);
  });
});

describe("the body builders leave out a field given as undefined (which JSON would drop, so the wire cannot tell)", () => {
  it("create and update", () => {
    const prices = [{ startingQuantity: 1, unitPrice: 2 }];
    expect(componentPricePointCreateBody({ handle: "r", name: "R", pricingScheme: "per_unit", prices, interval: undefined })).toStrictEqual(
      {
        handle: "r",
        name: "R",
        pricing_scheme: "per_unit",
        prices: [{ starting_quantity: 1, unit_price: 2 }],
      },
    );
    expect(componentPricePointUpdateBody({ name: "R", handle: undefined }, [])).toStrictEqual({ price_point: { name: "R" } });
  });
});

describe("the price point update's body from the tiers it replaces", () => {
  const tiers = (...t: [number, number | undefined][]) =>
    t.map(([s, e]) => ({ startingQuantity: s, ...(e === undefined ? {} : { endingQuantity: e }), unitPrice: 1 }));
  const old = (...t: (number | undefined)[]) => t.map((endingQuantity, i) => ({ id: 10 + i, endingQuantity }));
  it.each([
    ["same count, last open kept open", tiers([1, 9], [10, undefined]), old(9, undefined), ["10 rewrite", "11 rewrite"]],
    [
      "fewer: extras destroyed, a closed one never reused as the open last",
      tiers([1, undefined]),
      old(9, 19, undefined),
      ["10 destroy", "11 destroy", "12 destroy", "new"],
    ],
    ["more: the open one closed, the rest added", tiers([1, 9], [10, 19], [20, undefined]), old(undefined), ["10 rewrite", "new", "new"]],
  ] as const)("%s", (_, next, existing, expected) => {
    const body = componentPricePointUpdateBody(componentPricePointUpdateInput.parse({ prices: next }), existing) as any;
    const shape = body.price_point.prices.map((p: any) =>
      p.id === undefined ? "new" : p._destroy ? `${p.id} destroy` : `${p.id} rewrite`,
    );
    expect(shape).toStrictEqual(expected);
    // Never an ending_quantity of null: the contract's update types it integer or text.
    for (const p of body.price_point.prices) expect(p.ending_quantity === null).toBe(false);
  });
});
