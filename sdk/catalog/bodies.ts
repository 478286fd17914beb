import type { z } from "zod";
import type { pricePointInput, pricingShape, productShape } from "../inputs";

/** Wire bodies from parsed inputs: camelCase to the contract's snake_case, only what was given. */

type Given<T> = { [K in keyof T]?: T[K] };
type Pricing = Given<{ [K in keyof typeof pricingShape]: z.output<(typeof pricingShape)[K]> }>;
type ProductFields = Given<{ [K in keyof typeof productShape]: z.output<(typeof productShape)[K]> }>;

/** Keys of the caller's fields and their wire names, in the contract's order. */
const PRICING_KEYS = [
  ["priceInCents", "price_in_cents"],
  ["interval", "interval"],
  ["intervalUnit", "interval_unit"],
  ["trialPriceInCents", "trial_price_in_cents"],
  ["trialInterval", "trial_interval"],
  ["trialIntervalUnit", "trial_interval_unit"],
  ["trialType", "trial_type"],
  ["initialChargeInCents", "initial_charge_in_cents"],
  ["initialChargeAfterTrial", "initial_charge_after_trial"],
  ["expirationInterval", "expiration_interval"],
  ["expirationIntervalUnit", "expiration_interval_unit"],
] as const;

const PRODUCT_KEYS = [
  ["name", "name"],
  ["handle", "handle"],
  ["description", "description"],
  ["accountingCode", "accounting_code"],
  ["taxCode", "tax_code"],
  ["requireCreditCard", "require_credit_card"],
  ["requestCreditCard", "request_credit_card"],
  ["requestBillingAddress", "request_billing_address"],
  ["requireBillingAddress", "require_billing_address"],
  ["requireShippingAddress", "require_shipping_address"],
  ["autoCreateSignupPage", "auto_create_signup_page"],
] as const;

function pick(from: Record<string, unknown>, keys: readonly (readonly [string, string])[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, wire] of keys) if (from[k] !== undefined) out[wire] = from[k];
  return out;
}

/**
 * The pricing fields. An expiration unit of "never" means no expiration: a create leaves both
 * expiration fields out (the contract's create takes only "day" and "month"), an update sends
 * "never" (the service's own value, which its answers carry) so that an expiration is removed.
 */
export function pricingBody(p: Pricing, mode: "create" | "update"): Record<string, unknown> {
  const out = pick(p, PRICING_KEYS);
  if (p.expirationIntervalUnit === "never" && mode === "create") {
    delete out.expiration_interval;
    delete out.expiration_interval_unit;
  }
  return out;
}

/** `product` of a create: `description` is required by the contract, "" when none is given. */
export function productCreateBody(p: ProductFields): Record<string, unknown> {
  return { ...pick(p, PRODUCT_KEYS), description: p.description ?? "", ...pricingBody(p, "create") };
}

/** `product` of an update: only the fields given. */
export function productUpdateBody(p: ProductFields): Record<string, unknown> {
  return { ...pick(p, PRODUCT_KEYS), ...pricingBody(p, "update") };
}

/** `price_point` of a create. */
export function pricePointCreateBody(p: z.output<typeof pricePointInput>): Record<string, unknown> {
  return {
    name: p.name,
    handle: p.handle,
    ...pricingBody(p, "create"),
    ...(p.useSiteExchangeRate === undefined ? {} : { use_site_exchange_rate: p.useSiteExchangeRate }),
  };
}
