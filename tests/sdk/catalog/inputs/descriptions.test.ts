import { beforeEach, describe, expect, it, vi } from "vitest";
import { fresh as freshProductInputs } from "./reloaded-product-inputs";

/**
 * The descriptions the input schemas publish (the providers' docs and schema show them), for products, families and
 * price points, components and their price points, and coupons; each schema loaded afresh (vi.resetModules, then
 * import), as it is built when its module loads.
 */

describe("products, families and price points: the descriptions the schemas publish", () => {
  beforeEach(() => {
    vi.resetModules();
  });

  /** Each field of an object schema with its description. */
  const docs = (schema: unknown) =>
    Object.fromEntries(
      Object.entries((schema as { shape: Record<string, { description?: string }> }).shape).map(([k, v]) => [k, v.description]),
    );
  const PRICING_DOCS = {
    priceInCents: "The price per interval, in integer cents.",
    interval: "How many interval units between charges.",
    intervalUnit: '"day" or "month".',
    trialPriceInCents: "The trial's price, in integer cents; needs trialInterval.",
    trialInterval: "The trial's length in trialIntervalUnit; needs trialPriceInCents and trialIntervalUnit.",
    trialIntervalUnit: '"day" or "month"; needs trialInterval.',
    trialType: '"no_obligation" or "payment_expected".',
    initialChargeInCents: "A one-time charge at signup, in integer cents.",
    initialChargeAfterTrial: "Whether the initial charge is made after the trial rather than at signup.",
    expirationInterval: "How long a subscription runs before it expires; needs expirationIntervalUnit.",
    expirationIntervalUnit: '"day" or "month" (with expirationInterval), or "never".',
  };

  it("a product's", async () => {
    const { productInput, productShape } = await freshProductInputs();
    const expected = {
      handle: "The product's API handle, unique among the site's products (archived ones too).",
      name: "The product's name.",
      description: "The product's description.",
      accountingCode: "An internal id or SKU number.",
      taxCode: "The tax code of the product type, at most 10 characters.",
      requireCreditCard: "Whether signup requires a credit card.",
      requestCreditCard:
        "Whether legacy hosted signup pages ask for a credit card (the contract calls it deprecated: public signup pages have their own).",
      requestBillingAddress: "Whether signup asks for a billing address.",
      requireBillingAddress: "Whether signup requires a billing address.",
      requireShippingAddress: "Whether signup requires a shipping address.",
      autoCreateSignupPage: "Whether the service creates a public signup page for the product.",
      ...PRICING_DOCS,
    };
    expect(docs({ shape: productShape })).toStrictEqual(expected);
    expect(docs(productInput)).toStrictEqual(expected);
  });

  it("a family's, a price point's and a price point update's", async () => {
    const { productFamilyInput, pricePointInput, pricePointUpdateInput, pricingShape } = await freshProductInputs();
    expect(docs(productFamilyInput)).toStrictEqual({
      handle: "The family's API handle, unique among the site's families.",
      name: "The family's name.",
      description: "The family's description.",
    });
    expect(docs({ shape: pricingShape })).toStrictEqual(PRICING_DOCS);
    expect(docs(pricePointInput)).toStrictEqual({
      handle: "The price point's API handle, unique among its product's price points.",
      name: "The price point's name.",
      useSiteExchangeRate: "Whether other currencies' prices follow the site's exchange rate (default true).",
      ...PRICING_DOCS,
    });
    expect(docs(pricePointUpdateInput)).toStrictEqual({
      handle: "The price point's new API handle, unique among its product's price points.",
      priceInCents:
        "The new price in integer cents (0 or more: 1000 is 10.00): it is the price of every subscription on the price point (the contract does not say from which renewal).",
    });
  });

  it("a tier's", async () => {
    const { priceTier } = await freshProductInputs();
    expect(docs(priceTier)).toStrictEqual({
      startingQuantity:
        "The first quantity this tier prices: 1 for the first tier, one past the previous tier's endingQuantity for the others.",
      endingQuantity:
        "The last quantity this tier prices (at least its startingQuantity); left out on the last tier only, which is open-ended.",
      unitPrice:
        'The price per unit in this tier, in the site\'s currency (not cents): a number or decimal text ("0.0012"), at most 8 decimal places.',
    });
  });
});

// Only the modules pinned here (and what they import) load afresh: the mutation run gives a test that reloads the whole
// SDK every module-level mutant of it, and runs each such mutant against every such test (mutation/README.md).
const freshComponentInputs = async () => ({
  ...(await import("../../../../sdk/catalog/component-inputs")),
  ...(await import("../../../../sdk/validation")),
});

type ComponentSchemaName =
  | "componentInput"
  | "componentUpdateInput"
  | "componentPricePointInput"
  | "componentPricePointUpdateInput"
  | "meteredComponentInput"
  | "quantityBasedComponentInput"
  | "onOffComponentInput"
  | "prepaidUsageComponentInput"
  | "eventBasedComponentInput";

describe("components and their price points: the descriptions the provider's docs and schema publish", () => {
  beforeEach(() => {
    vi.resetModules();
  });

  const PRICES =
    "The tiers, ascending and contiguous: the first starts at 1, each next one at the previous endingQuantity + 1, the last has no endingQuantity. per_unit takes exactly one tier.";
  const SCHEMES = '"per_unit", "volume", "tiered" or "stairstep".';
  const COMMON = {
    handle: "The component's API handle, unique among the site's components (archived ones too).",
    name: 'The component\'s name, shown to customers and on statements ("Text messages").',
    description: "Shown on the hosted signup page.",
    taxable: "Whether the component is taxable.",
    taxCode: "The tax code of the component type (e.g. for Avalara).",
    hideDateRangeOnInvoice: "Whether invoices leave out the service date range (Relationship Invoicing sites only).",
    displayOnHostedPage: "Whether the component is shown on hosted pages.",
    upgradeCharge: 'The charge made on an upgrade: "full", "prorated" or "none" (default: the site\'s setting).',
    downgradeCredit: 'The credit made on a downgrade: "full", "prorated" or "none" (default: the site\'s setting).',
  };
  const TIERED = {
    unitName: 'The unit the quantity counts, singular ("message"): the service pluralizes it. Create-only.',
    pricingScheme: SCHEMES,
    prices: PRICES,
    allowFractionalQuantities: "Whether quantities may have decimals. Create-only.",
  };
  const FREQUENCY = {
    interval: "How many intervalUnits between charges of the default price point (sites with multifrequency).",
    intervalUnit: '"day" or "month"; with interval.',
  };
  const PREPAID_TERMS = {
    overagePricing: "How usage beyond the prepaid quantity is priced.",
    rolloverPrepaidRemainder: "Whether unused prepaid units roll over to the next period.",
    renewPrepaidAllocation: "Whether the prepaid quantity is renewed at the start of each period.",
    expirationInterval: "After how many expirationIntervalUnits rolled-over units expire (with rolloverPrepaidRemainder).",
    expirationIntervalUnit: '"day" or "month"; with expirationInterval.',
  };
  /** Each field of an object schema with its description. */
  const docs = (schema: unknown) =>
    Object.fromEntries(
      Object.entries((schema as { shape: Record<string, { description?: string }> }).shape).map(([k, v]) => [k, v.description]),
    );

  it.each<[ComponentSchemaName, Record<string, string | undefined>]>([
    ["meteredComponentInput", { kind: '"metered".', ...COMMON, ...TIERED, ...FREQUENCY }],
    [
      "quantityBasedComponentInput",
      {
        kind: '"quantity_based".',
        ...COMMON,
        ...TIERED,
        ...FREQUENCY,
        recurring: "Whether the quantity is billed every period (true) or once. Create-only.",
      },
    ],
    [
      "onOffComponentInput",
      {
        kind: '"on_off".',
        ...COMMON,
        unitPrice: "The price charged while the component is on, in the site's currency: a number or decimal text.",
        ...FREQUENCY,
      },
    ],
    ["prepaidUsageComponentInput", { kind: '"prepaid_usage".', ...COMMON, ...TIERED, ...PREPAID_TERMS }],
    [
      "eventBasedComponentInput",
      {
        kind: '"event_based".',
        ...COMMON,
        // The contract's event-based create takes no fractional quantities.
        ...Object.fromEntries(Object.entries(TIERED).filter(([k]) => k !== "allowFractionalQuantities")),
        ...FREQUENCY,
        eventBasedBillingMetricId: "The id of the event-based billing metric that counts the usage. Create-only.",
      },
    ],
    [
      "componentUpdateInput",
      {
        handle: "The component's new API handle.",
        name: "The component's new name.",
        description: "Shown on the hosted signup page.",
        accountingCode: "An internal id or SKU number.",
        taxable: "Whether the component is taxable.",
        taxCode: "The tax code of the component type.",
        itemCategory: '"Business Software", "Consumer Software", "Digital Services", "Physical Goods" or "Other".',
        displayOnHostedPage: "Whether the component is shown on hosted pages.",
        upgradeCharge: '"full", "prorated" or "none".',
        downgradeCredit: '"full", "prorated" or "none".',
      },
    ],
    [
      "componentPricePointInput",
      {
        handle: "The price point's API handle, unique among its component's price points.",
        name: "The price point's name.",
        pricingScheme: SCHEMES,
        prices: PRICES,
        useSiteExchangeRate: "Whether other currencies' prices follow the site's exchange rate.",
        taxIncluded: "Whether the prices include tax.",
        ...FREQUENCY,
        ...PREPAID_TERMS,
      },
    ],
  ])("%s", async (schema, expected) => {
    const sdk = await freshComponentInputs();
    const found = docs(sdk[schema]);
    // The price point's overage pricing is the prepaid terms' one made optional: its description is the inner one's.
    if (schema === "componentPricePointInput")
      found.overagePricing = sdk.componentPricePointInput.shape.overagePricing.unwrap().description;
    expect(found).toStrictEqual(expected);
  });

  it("the overage pricing's own fields", async () => {
    const { prepaidUsageComponentInput } = await freshComponentInputs();
    expect(docs(prepaidUsageComponentInput.shape.overagePricing)).toStrictEqual({
      pricingScheme: 'The overage\'s scheme: "per_unit", "volume", "tiered" or "stairstep".',
      prices: PRICES,
    });
  });
});

describe("the price point update's descriptions, which the provider's docs and schema publish", () => {
  beforeEach(() => {
    vi.resetModules();
  });

  it("each field's", async () => {
    const { componentPricePointUpdateInput } = await import("../../../../sdk/catalog/component-inputs");
    const docs = Object.fromEntries(Object.entries(componentPricePointUpdateInput.shape).map(([k, v]) => [k, v.description]));
    expect(docs).toStrictEqual({
      handle: undefined,
      name: undefined,
      pricingScheme: '"per_unit", "volume", "tiered" or "stairstep"; with prices.',
      prices: undefined,
      useSiteExchangeRate: "Whether other currencies' prices follow the site's exchange rate.",
      taxIncluded: "Whether the prices include tax.",
      interval: "How many intervalUnits between charges of the default price point (sites with multifrequency).",
      intervalUnit: '"day" or "month"; with interval.',
    });
  });
});

// Only the modules pinned here (and what they import) load afresh: the mutation run gives a test that reloads the whole
// SDK every module-level mutant of it, and runs each such mutant against every such test (mutation/README.md).
const freshCouponInputs = async () => ({
  ...(await import("../../../../sdk/catalog/coupon-inputs")),
  ...(await import("../../../../sdk/validation")),
});

const CODE_RULE = 'uppercase letters, digits and "%", "@", "+", "-", "_", "."';

describe("coupons: the descriptions the provider's docs and schema publish", () => {
  beforeEach(() => {
    vi.resetModules();
  });

  it("each field's", async () => {
    const { couponInput } = await freshCouponInputs();
    const found = Object.fromEntries(
      Object.entries(couponInput.shape as Record<string, { description?: string }>).map(([k, v]) => [k, v.description]),
    );
    expect(found).toStrictEqual({
      code: `The code customers enter: ${CODE_RULE}. Unique among the site's coupons.`,
      name: "The coupon's name.",
      description: "The coupon's description.",
      percentage: "A percentage discount (15 for 15%); exactly one of percentage and amountInCents.",
      amountInCents: "A flat discount in integer cents; exactly one of percentage and amountInCents.",
      recurring: "Whether the discount applies every period (true) or only to the first charge.",
      durationPeriodCount:
        "With recurring: for how many periods the discount applies (default: indefinitely). The contract's answers carry it (duration_period_count); its request schema does not list it, the service's older documentation does.",
      endDate: "When the coupon stops being accepted (ISO-8601).",
      stackable: "Whether the coupon combines with other coupons on a subscription.",
      compoundingStrategy: 'With stackable: "compound" (applied after other coupons) or "full-price" (on the full price).',
      allowNegativeBalance: "Whether a flat discount may exceed the charge (a credit).",
      excludeMidPeriodAllocations: "Whether mid-period component allocations are left undiscounted.",
      applyOnCancelAtEndOfPeriod: "Whether the discount applies to the last period of a subscription canceled at its end.",
      applyOnSubscriptionExpiration: "Whether the discount applies to the charge at a subscription's expiration.",
      restrictedProducts: "The site's product ids the coupon is limited to (ids differ per site: resolve handles first). Default: all.",
      restrictedComponents: "The site's component ids the coupon is limited to (ids differ per site). Default: all.",
    });
  });
});
