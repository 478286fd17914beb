import { describe, expect, it, onTestFinished } from "vitest";
import { couponBody, priceBody } from "../../sdk/catalog/component-bodies";
import { recordingProxy } from "../contract/recorder";
import { clientOf, site } from "./helpers";

/**
 * The component, component price point and coupon bodies (sdk/catalog/component-bodies.ts), pinned
 * where the mutation run found them unchecked: the existing tests matched bodies loosely, so a
 * create's `kind` (which is in the path), or the tiers and overage pricing sent raw and then
 * overwritten, went unnoticed. Here each body is compared whole as it crossed the wire (recorded
 * in front of the simulator), keys in order, and the two builders that the wire cannot tell apart
 * (an `ending_quantity: undefined` that JSON drops; restrictions lifted with none given) are called
 * directly.
 */

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
