// The component and coupon input types as documented interfaces, made by the generator of sdk/generated/inputs.ts
// (provider/kinds/tsdoc.ts documentedInterface, each field's doc its schema's .describe()); the Proof below fails to
// compile when they and the schemas differ. To be made by `npm run docs` once scripts/lib/sdk-input-types.ts lists them.
import type { z } from "zod";
import type { Assert, Same } from "../type-checks";
import type * as components from "./component-inputs";
import type * as coupons from "./coupon-inputs";

type MeteredComponentInputTypes = z.input<typeof components.meteredComponentInput>;
type QuantityBasedComponentInputTypes = z.input<typeof components.quantityBasedComponentInput>;
type OnOffComponentInputTypes = z.input<typeof components.onOffComponentInput>;
type PrepaidUsageComponentInputTypes = z.input<typeof components.prepaidUsageComponentInput>;
type EventBasedComponentInputTypes = z.input<typeof components.eventBasedComponentInput>;
type ComponentUpdateInputTypes = z.input<typeof components.componentUpdateInput>;
type ComponentPricePointInputTypes = z.input<typeof components.componentPricePointInput>;
type ComponentPricePointUpdateInputTypes = z.input<typeof components.componentPricePointUpdateInput>;
type CouponInputTypes = z.input<typeof coupons.couponInput>;

/**
 * A metered component to create (`createComponent` with `kind: "metered"`): usage reported over a period and billed at its end, priced by `pricingScheme` and its tiers (`prices`, checked by {@link tierRule}).
 */
export interface MeteredComponentInput {
  /**
   * "metered".
   */
  readonly kind: MeteredComponentInputTypes["kind"];
  /**
   * The component's API handle, unique among the site's components (archived ones too).
   */
  readonly handle: MeteredComponentInputTypes["handle"];
  /**
   * The component's name, shown to customers and on statements ("Text messages").
   */
  readonly name: MeteredComponentInputTypes["name"];
  /**
   * Shown on the hosted signup page.
   */
  readonly description?: MeteredComponentInputTypes["description"];
  /**
   * Whether the component is taxable.
   */
  readonly taxable?: MeteredComponentInputTypes["taxable"];
  /**
   * The tax code of the component type (e.g. for Avalara).
   */
  readonly taxCode?: MeteredComponentInputTypes["taxCode"];
  /**
   * Whether invoices leave out the service date range (Relationship Invoicing sites only).
   */
  readonly hideDateRangeOnInvoice?: MeteredComponentInputTypes["hideDateRangeOnInvoice"];
  /**
   * Whether the component is shown on hosted pages.
   */
  readonly displayOnHostedPage?: MeteredComponentInputTypes["displayOnHostedPage"];
  /**
   * The charge made on an upgrade: "full", "prorated" or "none" (default: the site's setting).
   *
   * Accepted values: `"full"`, `"prorated"`, `"none"`.
   */
  readonly upgradeCharge?: MeteredComponentInputTypes["upgradeCharge"];
  /**
   * The credit made on a downgrade: "full", "prorated" or "none" (default: the site's setting).
   *
   * Accepted values: `"full"`, `"prorated"`, `"none"`.
   */
  readonly downgradeCredit?: MeteredComponentInputTypes["downgradeCredit"];
  /**
   * The unit the quantity counts, singular ("message"): the service pluralizes it. Create-only.
   */
  readonly unitName: MeteredComponentInputTypes["unitName"];
  /**
   * "per_unit", "volume", "tiered" or "stairstep".
   *
   * Accepted values: `"per_unit"`, `"volume"`, `"tiered"`, `"stairstep"`.
   */
  readonly pricingScheme: MeteredComponentInputTypes["pricingScheme"];
  /**
   * The tiers, ascending and contiguous: the first starts at 1, each next one at the previous endingQuantity + 1, the last has no endingQuantity. per_unit takes exactly one tier.
   */
  readonly prices: MeteredComponentInputTypes["prices"];
  /**
   * Whether quantities may have decimals. Create-only.
   */
  readonly allowFractionalQuantities?: MeteredComponentInputTypes["allowFractionalQuantities"];
  /**
   * How many intervalUnits between charges of the default price point (sites with multifrequency).
   */
  readonly interval?: MeteredComponentInputTypes["interval"];
  /**
   * "day" or "month"; with interval.
   *
   * Accepted values: `"day"`, `"month"`.
   */
  readonly intervalUnit?: MeteredComponentInputTypes["intervalUnit"];
}

/**
 * A quantity-based component to create (`kind: "quantity_based"`): a quantity allocated to a subscription (seats), priced by `pricingScheme` and its tiers.
 */
export interface QuantityBasedComponentInput {
  /**
   * "quantity_based".
   */
  readonly kind: QuantityBasedComponentInputTypes["kind"];
  /**
   * The component's API handle, unique among the site's components (archived ones too).
   */
  readonly handle: QuantityBasedComponentInputTypes["handle"];
  /**
   * The component's name, shown to customers and on statements ("Text messages").
   */
  readonly name: QuantityBasedComponentInputTypes["name"];
  /**
   * Shown on the hosted signup page.
   */
  readonly description?: QuantityBasedComponentInputTypes["description"];
  /**
   * Whether the component is taxable.
   */
  readonly taxable?: QuantityBasedComponentInputTypes["taxable"];
  /**
   * The tax code of the component type (e.g. for Avalara).
   */
  readonly taxCode?: QuantityBasedComponentInputTypes["taxCode"];
  /**
   * Whether invoices leave out the service date range (Relationship Invoicing sites only).
   */
  readonly hideDateRangeOnInvoice?: QuantityBasedComponentInputTypes["hideDateRangeOnInvoice"];
  /**
   * Whether the component is shown on hosted pages.
   */
  readonly displayOnHostedPage?: QuantityBasedComponentInputTypes["displayOnHostedPage"];
  /**
   * The charge made on an upgrade: "full", "prorated" or "none" (default: the site's setting).
   *
   * Accepted values: `"full"`, `"prorated"`, `"none"`.
   */
  readonly upgradeCharge?: QuantityBasedComponentInputTypes["upgradeCharge"];
  /**
   * The credit made on a downgrade: "full", "prorated" or "none" (default: the site's setting).
   *
   * Accepted values: `"full"`, `"prorated"`, `"none"`.
   */
  readonly downgradeCredit?: QuantityBasedComponentInputTypes["downgradeCredit"];
  /**
   * The unit the quantity counts, singular ("message"): the service pluralizes it. Create-only.
   */
  readonly unitName: QuantityBasedComponentInputTypes["unitName"];
  /**
   * "per_unit", "volume", "tiered" or "stairstep".
   *
   * Accepted values: `"per_unit"`, `"volume"`, `"tiered"`, `"stairstep"`.
   */
  readonly pricingScheme: QuantityBasedComponentInputTypes["pricingScheme"];
  /**
   * The tiers, ascending and contiguous: the first starts at 1, each next one at the previous endingQuantity + 1, the last has no endingQuantity. per_unit takes exactly one tier.
   */
  readonly prices: QuantityBasedComponentInputTypes["prices"];
  /**
   * Whether quantities may have decimals. Create-only.
   */
  readonly allowFractionalQuantities?: QuantityBasedComponentInputTypes["allowFractionalQuantities"];
  /**
   * How many intervalUnits between charges of the default price point (sites with multifrequency).
   */
  readonly interval?: QuantityBasedComponentInputTypes["interval"];
  /**
   * "day" or "month"; with interval.
   *
   * Accepted values: `"day"`, `"month"`.
   */
  readonly intervalUnit?: QuantityBasedComponentInputTypes["intervalUnit"];
  /**
   * Whether the quantity is billed every period (true) or once. Create-only.
   */
  readonly recurring?: QuantityBasedComponentInputTypes["recurring"];
}

/**
 * An on/off component to create (`kind: "on_off"`): one `unitPrice` charged while it is on; no unit name and no tiers.
 */
export interface OnOffComponentInput {
  /**
   * "on_off".
   */
  readonly kind: OnOffComponentInputTypes["kind"];
  /**
   * The component's API handle, unique among the site's components (archived ones too).
   */
  readonly handle: OnOffComponentInputTypes["handle"];
  /**
   * The component's name, shown to customers and on statements ("Text messages").
   */
  readonly name: OnOffComponentInputTypes["name"];
  /**
   * Shown on the hosted signup page.
   */
  readonly description?: OnOffComponentInputTypes["description"];
  /**
   * Whether the component is taxable.
   */
  readonly taxable?: OnOffComponentInputTypes["taxable"];
  /**
   * The tax code of the component type (e.g. for Avalara).
   */
  readonly taxCode?: OnOffComponentInputTypes["taxCode"];
  /**
   * Whether invoices leave out the service date range (Relationship Invoicing sites only).
   */
  readonly hideDateRangeOnInvoice?: OnOffComponentInputTypes["hideDateRangeOnInvoice"];
  /**
   * Whether the component is shown on hosted pages.
   */
  readonly displayOnHostedPage?: OnOffComponentInputTypes["displayOnHostedPage"];
  /**
   * The charge made on an upgrade: "full", "prorated" or "none" (default: the site's setting).
   *
   * Accepted values: `"full"`, `"prorated"`, `"none"`.
   */
  readonly upgradeCharge?: OnOffComponentInputTypes["upgradeCharge"];
  /**
   * The credit made on a downgrade: "full", "prorated" or "none" (default: the site's setting).
   *
   * Accepted values: `"full"`, `"prorated"`, `"none"`.
   */
  readonly downgradeCredit?: OnOffComponentInputTypes["downgradeCredit"];
  /**
   * The price charged while the component is on, in the site's currency: a number or decimal text.
   */
  readonly unitPrice: OnOffComponentInputTypes["unitPrice"];
  /**
   * How many intervalUnits between charges of the default price point (sites with multifrequency).
   */
  readonly interval?: OnOffComponentInputTypes["interval"];
  /**
   * "day" or "month"; with interval.
   *
   * Accepted values: `"day"`, `"month"`.
   */
  readonly intervalUnit?: OnOffComponentInputTypes["intervalUnit"];
}

/**
 * A prepaid usage component to create (`kind: "prepaid_usage"`): units bought ahead, priced by `pricingScheme` and its tiers, with `overagePricing` beyond them and the rollover terms.
 */
export interface PrepaidUsageComponentInput {
  /**
   * "prepaid_usage".
   */
  readonly kind: PrepaidUsageComponentInputTypes["kind"];
  /**
   * The component's API handle, unique among the site's components (archived ones too).
   */
  readonly handle: PrepaidUsageComponentInputTypes["handle"];
  /**
   * The component's name, shown to customers and on statements ("Text messages").
   */
  readonly name: PrepaidUsageComponentInputTypes["name"];
  /**
   * Shown on the hosted signup page.
   */
  readonly description?: PrepaidUsageComponentInputTypes["description"];
  /**
   * Whether the component is taxable.
   */
  readonly taxable?: PrepaidUsageComponentInputTypes["taxable"];
  /**
   * The tax code of the component type (e.g. for Avalara).
   */
  readonly taxCode?: PrepaidUsageComponentInputTypes["taxCode"];
  /**
   * Whether invoices leave out the service date range (Relationship Invoicing sites only).
   */
  readonly hideDateRangeOnInvoice?: PrepaidUsageComponentInputTypes["hideDateRangeOnInvoice"];
  /**
   * Whether the component is shown on hosted pages.
   */
  readonly displayOnHostedPage?: PrepaidUsageComponentInputTypes["displayOnHostedPage"];
  /**
   * The charge made on an upgrade: "full", "prorated" or "none" (default: the site's setting).
   *
   * Accepted values: `"full"`, `"prorated"`, `"none"`.
   */
  readonly upgradeCharge?: PrepaidUsageComponentInputTypes["upgradeCharge"];
  /**
   * The credit made on a downgrade: "full", "prorated" or "none" (default: the site's setting).
   *
   * Accepted values: `"full"`, `"prorated"`, `"none"`.
   */
  readonly downgradeCredit?: PrepaidUsageComponentInputTypes["downgradeCredit"];
  /**
   * The unit the quantity counts, singular ("message"): the service pluralizes it. Create-only.
   */
  readonly unitName: PrepaidUsageComponentInputTypes["unitName"];
  /**
   * "per_unit", "volume", "tiered" or "stairstep".
   *
   * Accepted values: `"per_unit"`, `"volume"`, `"tiered"`, `"stairstep"`.
   */
  readonly pricingScheme: PrepaidUsageComponentInputTypes["pricingScheme"];
  /**
   * The tiers, ascending and contiguous: the first starts at 1, each next one at the previous endingQuantity + 1, the last has no endingQuantity. per_unit takes exactly one tier.
   */
  readonly prices: PrepaidUsageComponentInputTypes["prices"];
  /**
   * Whether quantities may have decimals. Create-only.
   */
  readonly allowFractionalQuantities?: PrepaidUsageComponentInputTypes["allowFractionalQuantities"];
  /**
   * How usage beyond the prepaid quantity is priced.
   */
  readonly overagePricing: PrepaidUsageComponentInputTypes["overagePricing"];
  /**
   * Whether unused prepaid units roll over to the next period.
   */
  readonly rolloverPrepaidRemainder?: PrepaidUsageComponentInputTypes["rolloverPrepaidRemainder"];
  /**
   * Whether the prepaid quantity is renewed at the start of each period.
   */
  readonly renewPrepaidAllocation?: PrepaidUsageComponentInputTypes["renewPrepaidAllocation"];
  /**
   * After how many expirationIntervalUnits rolled-over units expire (with rolloverPrepaidRemainder).
   */
  readonly expirationInterval?: PrepaidUsageComponentInputTypes["expirationInterval"];
  /**
   * "day" or "month"; with expirationInterval.
   *
   * Accepted values: `"day"`, `"month"`.
   */
  readonly expirationIntervalUnit?: PrepaidUsageComponentInputTypes["expirationIntervalUnit"];
}

/**
 * An event-based component to create (`kind: "event_based"`): usage counted from events by the metric `eventBasedBillingMetricId`, priced by `pricingScheme` and its tiers.
 */
export interface EventBasedComponentInput {
  /**
   * "event_based".
   */
  readonly kind: EventBasedComponentInputTypes["kind"];
  /**
   * The component's API handle, unique among the site's components (archived ones too).
   */
  readonly handle: EventBasedComponentInputTypes["handle"];
  /**
   * The component's name, shown to customers and on statements ("Text messages").
   */
  readonly name: EventBasedComponentInputTypes["name"];
  /**
   * Shown on the hosted signup page.
   */
  readonly description?: EventBasedComponentInputTypes["description"];
  /**
   * Whether the component is taxable.
   */
  readonly taxable?: EventBasedComponentInputTypes["taxable"];
  /**
   * The tax code of the component type (e.g. for Avalara).
   */
  readonly taxCode?: EventBasedComponentInputTypes["taxCode"];
  /**
   * Whether invoices leave out the service date range (Relationship Invoicing sites only).
   */
  readonly hideDateRangeOnInvoice?: EventBasedComponentInputTypes["hideDateRangeOnInvoice"];
  /**
   * Whether the component is shown on hosted pages.
   */
  readonly displayOnHostedPage?: EventBasedComponentInputTypes["displayOnHostedPage"];
  /**
   * The charge made on an upgrade: "full", "prorated" or "none" (default: the site's setting).
   *
   * Accepted values: `"full"`, `"prorated"`, `"none"`.
   */
  readonly upgradeCharge?: EventBasedComponentInputTypes["upgradeCharge"];
  /**
   * The credit made on a downgrade: "full", "prorated" or "none" (default: the site's setting).
   *
   * Accepted values: `"full"`, `"prorated"`, `"none"`.
   */
  readonly downgradeCredit?: EventBasedComponentInputTypes["downgradeCredit"];
  /**
   * The unit the quantity counts, singular ("message"): the service pluralizes it. Create-only.
   */
  readonly unitName: EventBasedComponentInputTypes["unitName"];
  /**
   * "per_unit", "volume", "tiered" or "stairstep".
   *
   * Accepted values: `"per_unit"`, `"volume"`, `"tiered"`, `"stairstep"`.
   */
  readonly pricingScheme: EventBasedComponentInputTypes["pricingScheme"];
  /**
   * The tiers, ascending and contiguous: the first starts at 1, each next one at the previous endingQuantity + 1, the last has no endingQuantity. per_unit takes exactly one tier.
   */
  readonly prices: EventBasedComponentInputTypes["prices"];
  /**
   * Whether quantities may have decimals. Create-only.
   */
  readonly allowFractionalQuantities?: EventBasedComponentInputTypes["allowFractionalQuantities"];
  /**
   * How many intervalUnits between charges of the default price point (sites with multifrequency).
   */
  readonly interval?: EventBasedComponentInputTypes["interval"];
  /**
   * "day" or "month"; with interval.
   *
   * Accepted values: `"day"`, `"month"`.
   */
  readonly intervalUnit?: EventBasedComponentInputTypes["intervalUnit"];
  /**
   * The id of the event-based billing metric that counts the usage. Create-only.
   */
  readonly eventBasedBillingMetricId: EventBasedComponentInputTypes["eventBasedBillingMetricId"];
}

/**
 * What `updateComponent` changes, checked by {@link componentUpdateInput}: only the fields given are sent. Prices change through the default price point (`updateComponentPricePoint`); kind, family, unit name, recurring, fractional quantities and the event metric are create-only.
 */
export interface ComponentUpdateInput {
  /**
   * The component's new API handle.
   */
  readonly handle?: ComponentUpdateInputTypes["handle"];
  /**
   * The component's new name.
   */
  readonly name?: ComponentUpdateInputTypes["name"];
  /**
   * Shown on the hosted signup page.
   */
  readonly description?: ComponentUpdateInputTypes["description"];
  /**
   * An internal id or SKU number.
   */
  readonly accountingCode?: ComponentUpdateInputTypes["accountingCode"];
  /**
   * Whether the component is taxable.
   */
  readonly taxable?: ComponentUpdateInputTypes["taxable"];
  /**
   * The tax code of the component type.
   */
  readonly taxCode?: ComponentUpdateInputTypes["taxCode"];
  /**
   * "Business Software", "Consumer Software", "Digital Services", "Physical Goods" or "Other".
   *
   * Accepted values: `"Business Software"`, `"Consumer Software"`, `"Digital Services"`, `"Physical Goods"`, `"Other"`.
   */
  readonly itemCategory?: ComponentUpdateInputTypes["itemCategory"];
  /**
   * Whether the component is shown on hosted pages.
   */
  readonly displayOnHostedPage?: ComponentUpdateInputTypes["displayOnHostedPage"];
  /**
   * "full", "prorated" or "none".
   *
   * Accepted values: `"full"`, `"prorated"`, `"none"`.
   */
  readonly upgradeCharge?: ComponentUpdateInputTypes["upgradeCharge"];
  /**
   * "full", "prorated" or "none".
   *
   * Accepted values: `"full"`, `"prorated"`, `"none"`.
   */
  readonly downgradeCredit?: ComponentUpdateInputTypes["downgradeCredit"];
}

/**
 * A component price point to create (`createComponentPricePoint`), checked by {@link componentPricePointInput}: handle, name, scheme and tiers (the rules of {@link tierRule}); the overage and rollover fields are for a prepaid usage component's price points only.
 */
export interface ComponentPricePointInput {
  /**
   * The price point's API handle, unique among its component's price points.
   */
  readonly handle: ComponentPricePointInputTypes["handle"];
  /**
   * The price point's name.
   */
  readonly name: ComponentPricePointInputTypes["name"];
  /**
   * "per_unit", "volume", "tiered" or "stairstep".
   *
   * Accepted values: `"per_unit"`, `"volume"`, `"tiered"`, `"stairstep"`.
   */
  readonly pricingScheme: ComponentPricePointInputTypes["pricingScheme"];
  /**
   * The tiers, ascending and contiguous: the first starts at 1, each next one at the previous endingQuantity + 1, the last has no endingQuantity. per_unit takes exactly one tier.
   */
  readonly prices: ComponentPricePointInputTypes["prices"];
  /**
   * Whether other currencies' prices follow the site's exchange rate.
   */
  readonly useSiteExchangeRate?: ComponentPricePointInputTypes["useSiteExchangeRate"];
  /**
   * Whether the prices include tax.
   */
  readonly taxIncluded?: ComponentPricePointInputTypes["taxIncluded"];
  /**
   * How many intervalUnits between charges of the default price point (sites with multifrequency).
   */
  readonly interval?: ComponentPricePointInputTypes["interval"];
  /**
   * "day" or "month"; with interval.
   *
   * Accepted values: `"day"`, `"month"`.
   */
  readonly intervalUnit?: ComponentPricePointInputTypes["intervalUnit"];
  /**
   * How usage beyond the prepaid quantity is priced.
   */
  readonly overagePricing?: ComponentPricePointInputTypes["overagePricing"];
  /**
   * Whether unused prepaid units roll over to the next period.
   */
  readonly rolloverPrepaidRemainder?: ComponentPricePointInputTypes["rolloverPrepaidRemainder"];
  /**
   * Whether the prepaid quantity is renewed at the start of each period.
   */
  readonly renewPrepaidAllocation?: ComponentPricePointInputTypes["renewPrepaidAllocation"];
  /**
   * After how many expirationIntervalUnits rolled-over units expire (with rolloverPrepaidRemainder).
   */
  readonly expirationInterval?: ComponentPricePointInputTypes["expirationInterval"];
  /**
   * "day" or "month"; with expirationInterval.
   *
   * Accepted values: `"day"`, `"month"`.
   */
  readonly expirationIntervalUnit?: ComponentPricePointInputTypes["expirationIntervalUnit"];
}

/**
 * What `updateComponentPricePoint` changes, checked by {@link componentPricePointUpdateInput}: only the fields given. New `prices` replace the tiers, for every subscription on the price point.
 */
export interface ComponentPricePointUpdateInput {
  /**
   * The price point's API handle, unique among its component's price points.
   */
  readonly handle?: ComponentPricePointUpdateInputTypes["handle"];
  /**
   * The price point's name.
   */
  readonly name?: ComponentPricePointUpdateInputTypes["name"];
  /**
   * "per_unit", "volume", "tiered" or "stairstep"; with prices.
   *
   * Accepted values: `"per_unit"`, `"volume"`, `"tiered"`, `"stairstep"`.
   */
  readonly pricingScheme?: ComponentPricePointUpdateInputTypes["pricingScheme"];
  /**
   * The tiers, ascending and contiguous: the first starts at 1, each next one at the previous endingQuantity + 1, the last has no endingQuantity. per_unit takes exactly one tier.
   */
  readonly prices?: ComponentPricePointUpdateInputTypes["prices"];
  /**
   * Whether other currencies' prices follow the site's exchange rate.
   */
  readonly useSiteExchangeRate?: ComponentPricePointUpdateInputTypes["useSiteExchangeRate"];
  /**
   * Whether the prices include tax.
   */
  readonly taxIncluded?: ComponentPricePointUpdateInputTypes["taxIncluded"];
  /**
   * How many intervalUnits between charges of the default price point (sites with multifrequency).
   */
  readonly interval?: ComponentPricePointUpdateInputTypes["interval"];
  /**
   * "day" or "month"; with interval.
   *
   * Accepted values: `"day"`, `"month"`.
   */
  readonly intervalUnit?: ComponentPricePointUpdateInputTypes["intervalUnit"];
}

/**
 * A coupon to create (`createCoupon`) or the whole of one to update (`updateCoupon`), checked by {@link couponInput}: its code (uppercase letters, digits and % @ + - _ .), name, and exactly one of `percentage` and `amountInCents`; restrictions are the site's own product and component ids.
 */
export interface CouponInput {
  /**
   * The code customers enter: uppercase letters, digits and "%", "@", "+", "-", "_", ".". Unique among the site's coupons.
   */
  readonly code: CouponInputTypes["code"];
  /**
   * The coupon's name.
   */
  readonly name: CouponInputTypes["name"];
  /**
   * The coupon's description.
   */
  readonly description?: CouponInputTypes["description"];
  /**
   * A percentage discount (15 for 15%); exactly one of percentage and amountInCents.
   */
  readonly percentage?: CouponInputTypes["percentage"];
  /**
   * A flat discount in integer cents; exactly one of percentage and amountInCents.
   */
  readonly amountInCents?: CouponInputTypes["amountInCents"];
  /**
   * Whether the discount applies every period (true) or only to the first charge.
   */
  readonly recurring?: CouponInputTypes["recurring"];
  /**
   * With recurring: for how many periods the discount applies (default: indefinitely). The contract's answers carry it (duration_period_count); its request schema does not list it, the service's older documentation does.
   */
  readonly durationPeriodCount?: CouponInputTypes["durationPeriodCount"];
  /**
   * When the coupon stops being accepted (ISO-8601).
   */
  readonly endDate?: CouponInputTypes["endDate"];
  /**
   * Whether the coupon combines with other coupons on a subscription.
   */
  readonly stackable?: CouponInputTypes["stackable"];
  /**
   * With stackable: "compound" (applied after other coupons) or "full-price" (on the full price).
   *
   * Accepted values: `"compound"`, `"full-price"`.
   */
  readonly compoundingStrategy?: CouponInputTypes["compoundingStrategy"];
  /**
   * Whether a flat discount may exceed the charge (a credit).
   */
  readonly allowNegativeBalance?: CouponInputTypes["allowNegativeBalance"];
  /**
   * Whether mid-period component allocations are left undiscounted.
   */
  readonly excludeMidPeriodAllocations?: CouponInputTypes["excludeMidPeriodAllocations"];
  /**
   * Whether the discount applies to the last period of a subscription canceled at its end.
   */
  readonly applyOnCancelAtEndOfPeriod?: CouponInputTypes["applyOnCancelAtEndOfPeriod"];
  /**
   * Whether the discount applies to the charge at a subscription's expiration.
   */
  readonly applyOnSubscriptionExpiration?: CouponInputTypes["applyOnSubscriptionExpiration"];
  /**
   * The site's product ids the coupon is limited to (ids differ per site: resolve handles first). Default: all.
   */
  readonly restrictedProducts?: CouponInputTypes["restrictedProducts"];
  /**
   * The site's component ids the coupon is limited to (ids differ per site). Default: all.
   */
  readonly restrictedComponents?: CouponInputTypes["restrictedComponents"];
}

/** A component to create, by `kind`: checked by {@link componentInput}. */
export type ComponentInput =
  | MeteredComponentInput
  | QuantityBasedComponentInput
  | OnOffComponentInput
  | PrepaidUsageComponentInput
  | EventBasedComponentInput;

/** Fails to compile when these interfaces and the schemas' types differ. */
export type Proof = [
  Assert<Same<MeteredComponentInput, MeteredComponentInputTypes>>,
  Assert<Same<QuantityBasedComponentInput, QuantityBasedComponentInputTypes>>,
  Assert<Same<OnOffComponentInput, OnOffComponentInputTypes>>,
  Assert<Same<PrepaidUsageComponentInput, PrepaidUsageComponentInputTypes>>,
  Assert<Same<EventBasedComponentInput, EventBasedComponentInputTypes>>,
  Assert<Same<ComponentUpdateInput, ComponentUpdateInputTypes>>,
  Assert<Same<ComponentPricePointInput, ComponentPricePointInputTypes>>,
  Assert<Same<ComponentPricePointUpdateInput, ComponentPricePointUpdateInputTypes>>,
  Assert<Same<CouponInput, CouponInputTypes>>,
  Assert<Same<ComponentInput, z.input<typeof components.componentInput>>>,
];
