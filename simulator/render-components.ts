import { defaultComponentPricePoint } from "./components";
import type { ComponentPricePointRecord, ComponentRecord, CouponRecord, PriceRecord, ProductFamilyRecord } from "./records";

/**
 * Components, their price points and coupons as the service writes them:
 * every key of the contract's `Component`, `Component Price Point` and
 * `Coupon` schemas whose value the simulator has, an unset nullable one as
 * `null`. Keys the schema types without null are left out when there is no
 * value (`event_based_billing_metric_id` of other kinds, `interval` without
 * multifrequency, a price point's `subscription_id`), rather than written with
 * a value the schema refuses. Beyond the vendored schemas: a prepaid usage
 * component's price point terms (see {@link prepaidTerms}).
 *
 * Not written: a component's `display_on_hosted_page`. The creates and `Update
 * Component` take it and the record keeps it, but no component answer of the
 * contract has it (neither the `Component` schema of any operation answering
 * one nor their examples), nor does the vendor's later `Component` (its SDKs
 * up to 2026); the vendor answers it only on a subscription's component line
 * (`Subscription Component`). Answering it would make a setting look readable
 * here that the service is not published to give back.
 */

/** "$10.00", "$0.49", "$0.00000065": at least two decimals, more when the price has them. */
export function formatted(unitPrice: string): string {
  const [whole, frac = ""] = unitPrice.split(".");
  return `$${whole}.${frac.padEnd(2, "0")}`;
}

const renderPrice = (c: ComponentRecord, pp: ComponentPricePointRecord) => (p: PriceRecord) => ({
  id: p.id,
  component_id: c.id,
  starting_quantity: p.startingQuantity,
  ending_quantity: p.endingQuantity,
  unit_price: p.unitPrice,
  price_point_id: pp.id,
  formatted_unit_price: formatted(p.unitPrice),
  segment_id: null,
});

/**
 * `Component`: its pricing is its default price point's. `unit_price` only for
 * per_unit ("only populated for ‘per_unit’ pricing schemes"); an on/off
 * component's `pricing_scheme` is null (the published lookup example).
 */
export function renderComponent(c: ComponentRecord, family: ProductFamilyRecord, baseUrl: string) {
  const pp = defaultComponentPricePoint(c);
  return {
    id: c.id,
    name: c.name,
    handle: c.handle,
    pricing_scheme: c.kind === "on_off" ? null : pp.pricingScheme,
    unit_name: c.unitName,
    unit_price: pp.pricingScheme === "per_unit" ? (pp.prices[0]?.unitPrice ?? null) : null,
    product_family_id: family.id,
    product_family_name: family.name,
    price_per_unit_in_cents: null,
    kind: `${c.kind}_component` as const,
    archived: c.archivedAt !== null,
    taxable: c.taxable,
    description: c.description,
    default_price_point_id: pp.id,
    overage_prices: pp.overagePricing ? pp.overagePricing.prices.map(renderPrice(c, pp)) : null,
    prices: pp.prices.map(renderPrice(c, pp)),
    price_point_count: c.pricePoints.length,
    price_points_url: `${baseUrl}/components/${c.id}/price_points`,
    default_price_point_name: pp.name,
    tax_code: c.taxCode,
    recurring: c.recurring,
    upgrade_charge: c.upgradeCharge,
    downgrade_credit: c.downgradeCredit,
    created_at: c.createdAt,
    updated_at: c.updatedAt,
    archived_at: c.archivedAt,
    hide_date_range_on_invoice: c.hideDateRangeOnInvoice,
    allow_fractional_quantities: c.allowFractionalQuantities,
    item_category: c.itemCategory,
    use_site_exchange_rate: pp.useSiteExchangeRate,
    accounting_code: c.accountingCode,
    ...(c.eventBasedBillingMetricId !== null ? { event_based_billing_metric_id: c.eventBasedBillingMetricId } : {}),
    ...(pp.interval !== null && pp.intervalUnit !== null ? { interval: pp.interval, interval_unit: pp.intervalUnit } : {}),
  };
}

export type WireComponent = ReturnType<typeof renderComponent>;

/**
 * A prepaid usage component's price point terms: its overage tiers and their
 * scheme, rollover, renewal and the rollover's expiration.
 *
 * The vendored contract (the vendor's spec at c9ebc9aed12b, 2024-07-02) does
 * not have them in `Component Price Point`, though its create takes them
 * (`Create Prepaid Usage Component Price Point`). The vendor's later `Component
 * Price Point` publishes them (from its SDKs' 6.0.0 of 2024-12, generated from
 * its spec; @maxio-com/advanced-billing-sdk 6.1.0, this repository's
 * devDependency, models/componentPricePoint; in the vendor's SDK docs the
 * clone operation's example answers all six), each "Applicable only to prepaid
 * usage components":
 * `overage_prices` (Component Price list), `overage_pricing_scheme` (Pricing
 * Scheme), `renew_prepaid_allocation` and `rollover_prepaid_remainder`
 * (boolean), `expiration_interval` (integer or null), `expiration_interval_unit`
 * (day, month, never or null). Written as that schema types them:
 * - other kinds' price points leave all six out: the vendor's examples of
 *   theirs show none of them, and their records hold none;
 * - keys typed without null are left out when the record holds no value (a
 *   prepaid price point made without overage pricing has no overage tiers nor
 *   scheme), as for the other keys of this file;
 * - `expiration_interval` and `expiration_interval_unit` are null when there is
 *   no expiration (as a product price point's are).
 */
function prepaidTerms(c: ComponentRecord, pp: ComponentPricePointRecord) {
  if (c.kind !== "prepaid_usage") return {};
  return {
    ...(pp.overagePricing
      ? { overage_prices: pp.overagePricing.prices.map(renderPrice(c, pp)), overage_pricing_scheme: pp.overagePricing.pricingScheme }
      : {}),
    ...(pp.rolloverPrepaidRemainder !== null ? { rollover_prepaid_remainder: pp.rolloverPrepaidRemainder } : {}),
    ...(pp.renewPrepaidAllocation !== null ? { renew_prepaid_allocation: pp.renewPrepaidAllocation } : {}),
    expiration_interval: pp.expirationInterval,
    expiration_interval_unit: pp.expirationIntervalUnit,
  };
}

/**
 * `Component Price Point`, and a prepaid usage component's terms (see
 * {@link prepaidTerms}). `currency_prices` comes only with several currencies;
 * the simulated site has one.
 */
export function renderComponentPricePoint(c: ComponentRecord, pp: ComponentPricePointRecord) {
  return {
    id: pp.id,
    type: pp.default ? ("default" as const) : ("catalog" as const),
    default: pp.default,
    name: pp.name,
    pricing_scheme: pp.pricingScheme,
    component_id: c.id,
    handle: pp.handle,
    archived_at: pp.archivedAt,
    created_at: pp.createdAt,
    updated_at: pp.updatedAt,
    prices: pp.prices.map(renderPrice(c, pp)),
    use_site_exchange_rate: pp.useSiteExchangeRate,
    tax_included: pp.taxIncluded,
    interval: pp.interval,
    interval_unit: pp.intervalUnit,
    ...prepaidTerms(c, pp),
  };
}

export type WireComponentPricePoint = ReturnType<typeof renderComponentPricePoint>;

/** What a restriction's `name` and `handle` say: the restricted item as it is now. */
export interface RestrictedItem {
  name: string;
  handle: string | null;
}

/**
 * `Coupon`. `recurring_scheme` follows from `recurring` and the duration; the
 * duration interval fields, conversion limit and currency prices are not
 * modelled (null, as in the published examples of coupons without them).
 */
export function renderCoupon(
  c: CouponRecord,
  family: ProductFamilyRecord,
  item: (type: "Product" | "Component", id: number) => RestrictedItem,
) {
  return {
    id: c.id,
    name: c.name,
    code: c.code,
    description: c.description,
    amount: c.amountInCents !== null ? c.amountInCents / 100 : null,
    amount_in_cents: c.amountInCents,
    product_family_id: family.id,
    product_family_name: family.name,
    start_date: c.startDate,
    end_date: c.endDate,
    percentage: c.percentage,
    recurring: c.recurring,
    recurring_scheme: !c.recurring
      ? ("do_not_recur" as const)
      : c.durationPeriodCount === null
        ? ("recur_indefinitely" as const)
        : ("recur_with_duration" as const),
    duration_period_count: c.durationPeriodCount,
    duration_interval: null,
    duration_interval_unit: null,
    duration_interval_span: null,
    allow_negative_balance: c.allowNegativeBalance,
    archived_at: c.archivedAt,
    conversion_limit: null,
    stackable: c.stackable,
    compounding_strategy: c.compoundingStrategy,
    use_site_exchange_rate: true,
    created_at: c.createdAt,
    updated_at: c.updatedAt,
    discount_type: c.percentage !== null ? ("percent" as const) : ("amount" as const),
    exclude_mid_period_allocations: c.excludeMidPeriodAllocations,
    apply_on_cancel_at_end_of_period: c.applyOnCancelAtEndOfPeriod,
    apply_on_subscription_expiration: c.applyOnSubscriptionExpiration,
    coupon_restrictions: c.restrictions.map((r) => ({ id: r.id, item_type: r.itemType, item_id: r.itemId, ...item(r.itemType, r.itemId) })),
  };
}

export type WireCoupon = ReturnType<typeof renderCoupon>;
