import type { Component, ComponentPricePoint, Coupon, PriceTier } from "../results";
import type {
  ComponentPrice,
  Component as WireComponent,
  ComponentPricePoint as WireComponentPricePoint,
  Coupon as WireCoupon,
  CouponRestriction as WireCouponRestriction,
} from "../wire";

/** Component, component price point and coupon answers into the SDK's results: nulls read as undefined. */

const u = <T>(v: T | null | undefined): T | undefined => v ?? undefined;
/** A reference to another object: 0 (the vendor's placeholders) refers to nothing. */
const ref = (v: number | null | undefined): number | undefined => (v != null && v > 0 ? v : undefined);

const KINDS: Readonly<Record<string, string>> = {
  metered_component: "metered",
  quantity_based_component: "quantity_based",
  on_off_component: "on_off",
  prepaid_usage_component: "prepaid_usage",
  event_based_component: "event_based",
};

/** Tiers in ascending order of their start. */
export function toTiers(prices: readonly ComponentPrice[] | null | undefined): PriceTier[] {
  return [...(prices ?? [])]
    .sort((a, b) => a.starting_quantity - b.starting_quantity)
    .map((p) => ({ startingQuantity: p.starting_quantity, endingQuantity: u(p.ending_quantity), unitPrice: p.unit_price }));
}

export function toComponent(c: WireComponent): Component {
  return {
    id: c.id,
    kind: c.kind == null ? undefined : (KINDS[c.kind] ?? c.kind),
    handle: u(c.handle),
    name: u(c.name),
    description: u(c.description),
    productFamilyId: ref(c.product_family_id),
    unitName: u(c.unit_name),
    pricingScheme: u(c.pricing_scheme),
    unitPrice: u(c.unit_price),
    prices: toTiers(c.prices),
    overagePrices: toTiers(c.overage_prices),
    defaultPricePointId: ref(c.default_price_point_id),
    defaultPricePointName: u(c.default_price_point_name),
    taxable: u(c.taxable),
    taxCode: u(c.tax_code),
    accountingCode: u(c.accounting_code),
    itemCategory: u(c.item_category),
    recurring: u(c.recurring),
    upgradeCharge: u(c.upgrade_charge),
    downgradeCredit: u(c.downgrade_credit),
    hideDateRangeOnInvoice: u(c.hide_date_range_on_invoice),
    displayOnHostedPage: u(c.display_on_hosted_page),
    allowFractionalQuantities: u(c.allow_fractional_quantities),
    eventBasedBillingMetricId: ref(c.event_based_billing_metric_id),
    interval: u(c.interval),
    intervalUnit: u(c.interval_unit),
    // `archived: true` without a time still means archived.
    archivedAt: u(c.archived_at) ?? (c.archived === true ? "archived" : undefined),
  };
}

export function toComponentPricePoint(p: WireComponentPricePoint): ComponentPricePoint {
  return {
    id: p.id,
    handle: u(p.handle),
    name: u(p.name),
    type: u(p.type),
    componentId: ref(p.component_id),
    pricingScheme: u(p.pricing_scheme),
    prices: toTiers(p.prices),
    overagePrices: toTiers(p.overage_prices),
    // Only when answered: the contract does not publish it, and a result without it stays as it was.
    ...(p.overage_pricing_scheme != null ? { overagePricingScheme: p.overage_pricing_scheme } : {}),
    interval: u(p.interval),
    intervalUnit: u(p.interval_unit),
    useSiteExchangeRate: u(p.use_site_exchange_rate),
    taxIncluded: u(p.tax_included),
    rolloverPrepaidRemainder: u(p.rollover_prepaid_remainder),
    renewPrepaidAllocation: u(p.renew_prepaid_allocation),
    expirationInterval: u(p.expiration_interval),
    expirationIntervalUnit: u(p.expiration_interval_unit),
    archivedAt: u(p.archived_at),
  };
}

const toRestriction = (r: WireCouponRestriction) => ({ itemType: u(r.item_type), itemId: r.item_id, handle: u(r.handle), name: u(r.name) });

export function toCoupon(c: WireCoupon): Coupon {
  return {
    id: c.id,
    code: u(c.code),
    name: u(c.name),
    description: u(c.description),
    productFamilyId: ref(c.product_family_id),
    percentage: u(c.percentage),
    amountInCents: u(c.amount_in_cents),
    recurring: u(c.recurring),
    recurringScheme: u(c.recurring_scheme),
    durationPeriodCount: u(c.duration_period_count),
    endDate: u(c.end_date),
    stackable: u(c.stackable),
    compoundingStrategy: u(c.compounding_strategy),
    allowNegativeBalance: u(c.allow_negative_balance),
    excludeMidPeriodAllocations: u(c.exclude_mid_period_allocations),
    applyOnCancelAtEndOfPeriod: u(c.apply_on_cancel_at_end_of_period),
    applyOnSubscriptionExpiration: u(c.apply_on_subscription_expiration),
    restrictions: (c.coupon_restrictions ?? []).filter((r) => r.item_id > 0).map(toRestriction),
    archivedAt: u(c.archived_at),
  };
}
