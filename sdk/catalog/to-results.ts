import type { PricePoint, Pricing, Product, ProductFamily } from "../results";
import type { CatalogProduct, PricingFields, ProductFamily as WireFamily, PricePoint as WirePricePoint } from "../wire";

/** Wire answers into the SDK's results: nulls read as undefined. */

const u = <T>(v: T | null | undefined): T | undefined => v ?? undefined;
/** A reference to another object: 0 (the vendor's placeholders) refers to nothing. */
const ref = (v: number | null | undefined): number | undefined => (v != null && v > 0 ? v : undefined);

/** The pricing of an answer, or undefined when it lacks the price, the interval or its unit. */
export function toPricing(w: PricingFields): Pricing | undefined {
  if (w.price_in_cents == null || w.interval == null || w.interval_unit == null) return undefined;
  return {
    priceInCents: w.price_in_cents,
    interval: w.interval,
    intervalUnit: w.interval_unit,
    trialPriceInCents: u(w.trial_price_in_cents),
    trialInterval: u(w.trial_interval),
    trialIntervalUnit: u(w.trial_interval_unit),
    trialType: u(w.trial_type),
    initialChargeInCents: u(w.initial_charge_in_cents),
    initialChargeAfterTrial: u(w.initial_charge_after_trial),
    expirationInterval: u(w.expiration_interval),
    expirationIntervalUnit: u(w.expiration_interval_unit),
  };
}

export function toProductFamily(f: WireFamily): ProductFamily {
  return {
    id: f.id,
    handle: u(f.handle),
    name: u(f.name),
    description: u(f.description),
    accountingCode: u(f.accounting_code),
    createdAt: u(f.created_at),
  };
}

export function toProduct(p: CatalogProduct): Product {
  return {
    id: p.id,
    handle: u(p.handle),
    name: u(p.name),
    defaultPricePointId: ref(p.default_product_price_point_id) ?? ref(p.product_price_point_id),
    defaultPricePointHandle: u(p.product_price_point_handle),
    description: u(p.description),
    // The vendor's placeholder example embeds a family with id 0: no family has it.
    productFamilyId: ref(p.product_family?.id),
    productFamilyHandle: u(p.product_family?.handle),
    accountingCode: u(p.accounting_code),
    taxCode: u(p.tax_code),
    requireCreditCard: u(p.require_credit_card),
    requestCreditCard: u(p.request_credit_card),
    requestBillingAddress: u(p.request_billing_address),
    requireBillingAddress: u(p.require_billing_address),
    requireShippingAddress: u(p.require_shipping_address),
    archivedAt: u(p.archived_at),
    pricing: toPricing(p),
    versionNumber: u(p.version_number),
  };
}

export function toPricePoint(p: WirePricePoint): PricePoint {
  return {
    id: p.id,
    handle: u(p.handle),
    name: u(p.name),
    type: u(p.type),
    productId: ref(p.product_id),
    archivedAt: u(p.archived_at),
    pricing: toPricing(p),
    ...(typeof p.use_site_exchange_rate === "boolean" ? { useSiteExchangeRate: p.use_site_exchange_rate } : {}),
  };
}
