import { defaultPricePoint } from "./catalog";
import type { PricePointRecord, ProductFamilyRecord, ProductRecord } from "./records";
import { pricePointType } from "./site";

/**
 * The catalogue as the service writes it: every key of the contract's
 * `Product Family`, `Product` and `Product Price Point` schemas, an unset
 * value as `null` (a Rails serializer writes every column), with the values
 * the published examples show for what the simulator does not model
 * (return URLs, item category).
 */

export function renderFamily(f: ProductFamilyRecord) {
  return {
    id: f.id,
    name: f.name,
    handle: f.handle,
    accounting_code: f.accountingCode,
    description: f.description,
    created_at: f.createdAt,
    updated_at: f.updatedAt,
  };
}

/**
 * `Product`: the default price point's terms, id, name and handle
 * (`product_price_point_*` are the default's, as in the published
 * promoteProductPricePointToDefault example, where both ids are equal). A
 * product without an expiration writes `"never"` and a null interval, as the
 * published list examples do. A subscription's product has its own price
 * point's terms instead (render.ts).
 */
export function renderProduct(p: ProductRecord, family: ProductFamilyRecord, pp: PricePointRecord = defaultPricePoint(p)) {
  return {
    id: p.id,
    name: p.name,
    handle: p.handle,
    description: p.description,
    accounting_code: p.accountingCode,
    request_credit_card: p.requestCreditCard,
    expiration_interval: pp.expirationInterval,
    expiration_interval_unit: pp.expirationIntervalUnit ?? "never",
    created_at: p.createdAt,
    updated_at: p.updatedAt,
    price_in_cents: pp.priceInCents,
    interval: pp.interval,
    interval_unit: pp.intervalUnit,
    initial_charge_in_cents: pp.initialChargeInCents,
    trial_price_in_cents: pp.trialPriceInCents,
    trial_interval: pp.trialInterval,
    trial_interval_unit: pp.trialIntervalUnit,
    archived_at: p.archivedAt,
    require_credit_card: p.requireCreditCard,
    return_params: null,
    // The request has no field for it; the vendor's create example answers false with a tax code given.
    taxable: false,
    update_return_url: null,
    tax_code: p.taxCode,
    initial_charge_after_trial: pp.initialChargeAfterTrial,
    version_number: p.versionNumber,
    update_return_params: null,
    default_product_price_point_id: pp.id,
    request_billing_address: p.requestBillingAddress,
    require_billing_address: p.requireBillingAddress,
    require_shipping_address: p.requireShippingAddress,
    use_site_exchange_rate: pp.useSiteExchangeRate,
    item_category: null,
    product_price_point_id: pp.id,
    product_price_point_name: pp.name,
    product_price_point_handle: pp.handle,
    product_family: renderFamily(family),
    public_signup_pages: p.signupPages.map((s) => ({ id: s.id, return_url: null, return_params: null, url: s.url })),
  };
}

export type WireProduct = ReturnType<typeof renderProduct>;

/**
 * `Product Price Point`. `trial_type` is a plain (not nullable) string in the
 * contract: a price point without one leaves it out rather than writing null.
 * `currency_prices` comes only with `?currency_prices=true` on a site with
 * several currencies; the simulated site has one (USD), so it is never written.
 */
export function renderPricePoint(p: ProductRecord, pp: PricePointRecord) {
  return {
    id: pp.id,
    name: pp.name,
    handle: pp.handle,
    price_in_cents: pp.priceInCents,
    interval: pp.interval,
    interval_unit: pp.intervalUnit,
    trial_price_in_cents: pp.trialPriceInCents,
    trial_interval: pp.trialInterval,
    trial_interval_unit: pp.trialIntervalUnit,
    ...(pp.trialType !== null ? { trial_type: pp.trialType } : {}),
    introductory_offer: null,
    initial_charge_in_cents: pp.initialChargeInCents,
    initial_charge_after_trial: pp.initialChargeAfterTrial,
    expiration_interval: pp.expirationInterval,
    // The price point schema has no "never": a price point without an expiration writes null.
    expiration_interval_unit: pp.expirationIntervalUnit === "never" ? null : pp.expirationIntervalUnit,
    product_id: p.id,
    archived_at: pp.archivedAt,
    created_at: pp.createdAt,
    updated_at: pp.updatedAt,
    use_site_exchange_rate: pp.useSiteExchangeRate,
    type: pricePointType(pp),
    tax_included: false,
    subscription_id: null,
  };
}

export type WirePricePoint = ReturnType<typeof renderPricePoint>;
