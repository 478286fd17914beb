import type { PricePointRecord, ProductFamilyRecord, ProductRecord, SubscriptionRecord } from "./records";
import { renderFamily, renderProduct } from "./render-catalog";
import { type MigrationTarget, pricePointType } from "./site";
import type { SubscriptionState } from "./wire";

/**
 * Catalogue and subscriptions as the service writes them: modelled on the
 * vendor's published examples (readSubscription, migrateSubscriptionProduct,
 * readProduct), with their nulls. A Rails serializer writes every column, so
 * an unset value is `null`, not a missing key; what the examples leave out
 * (the price point fields of a subscription, mostly) is left out here too.
 */

export interface RenderOptions {
  /** Put `product_price_point_id`/`_type` on subscriptions; most published examples have neither. */
  reportPricePoint: boolean;
}

/** What the published subscription examples leave out of the product they embed. */
const NOT_EMBEDDED = [
  "tax_code",
  "default_product_price_point_id",
  "request_billing_address",
  "require_billing_address",
  "require_shipping_address",
  "use_site_exchange_rate",
  "item_category",
  "product_price_point_id",
  "product_price_point_handle",
  "product_price_point_name",
] as const;

/**
 * The product as a subscription embeds it: the catalogue's product
 * (render-catalog.ts) with the subscription's price point's terms, but as the
 * published subscription examples write it: without the keys they lack, the
 * return fields empty strings, the family without its timestamps, and the price
 * point's name last.
 */
function productWith(p: ProductRecord, pp: PricePointRecord, family: ProductFamilyRecord) {
  const { created_at: _c, updated_at: _u, ...familyBrief } = renderFamily(family);
  return {
    ...omit(renderProduct(p, family, pp), NOT_EMBEDDED),
    return_params: "",
    update_return_url: "",
    update_return_params: "",
    product_family: familyBrief,
    product_price_point_name: pp.name,
  };
}

function omit<T extends object, K extends keyof T>(o: T, keys: readonly K[]): Omit<T, K> {
  return Object.fromEntries(Object.entries(o).filter(([k]) => !(keys as readonly PropertyKey[]).includes(k))) as Omit<T, K>;
}

export type WireSubscriptionProduct = ReturnType<typeof productWith>;

const NO_NEXT_ASSESSMENT: ReadonlySet<SubscriptionState> = new Set([
  "canceled",
  "expired",
  "failed_to_create",
  "suspended",
  "on_hold",
  "trial_ended",
]);
const NEVER_ACTIVATED: ReadonlySet<SubscriptionState> = new Set([
  "trialing",
  "trial_ended",
  "pending",
  "awaiting_signup",
  "failed_to_create",
]);
const IN_OR_AFTER_TRIAL: ReadonlySet<SubscriptionState> = new Set(["trialing", "trial_ended"]);

export function renderSubscription({ subscription: s, product, pricePoint: pp, family }: MigrationTarget, o: RenderOptions) {
  const customerId = 20_000_000 + s.id;
  const trial = IN_OR_AFTER_TRIAL.has(s.state);
  return {
    subscription: {
      id: s.id,
      state: s.state,
      balance_in_cents: 0,
      total_revenue_in_cents: trial ? 0 : pp.priceInCents,
      product_price_in_cents: pp.priceInCents,
      product_version_number: 1,
      current_period_ends_at: s.currentPeriodEndsAt,
      next_assessment_at: NO_NEXT_ASSESSMENT.has(s.state) ? null : s.currentPeriodEndsAt,
      trial_started_at: trial ? s.createdAt : null,
      trial_ended_at: trial ? s.currentPeriodEndsAt : null,
      activated_at: NEVER_ACTIVATED.has(s.state) ? null : s.createdAt,
      expires_at: null,
      created_at: s.createdAt,
      updated_at: s.updatedAt,
      cancellation_message: null,
      cancellation_method: s.state === "canceled" ? "merchant_api" : null,
      cancel_at_end_of_period: false,
      canceled_at: s.state === "canceled" ? s.updatedAt : null,
      current_period_started_at: s.currentPeriodStartedAt,
      // The contract: "for normal API calls, this will always be the same as the state"
      // (it means something only in webhook payloads). The record keeps the real one.
      previous_state: s.state,
      signup_payment_id: 30_000_000 + s.id,
      signup_revenue: trial ? "0.00" : (pp.priceInCents / 100).toFixed(2),
      delayed_cancel_at: null,
      coupon_code: null,
      payment_collection_method: "automatic" as const,
      snap_day: null,
      reason_code: null,
      receives_invoice_emails: false,
      net_terms: 0,
      customer: customer(s, customerId),
      product: productWith(product, pp, family),
      credit_card: creditCard(s, customerId),
      payment_type: "credit_card",
      referral_code: null,
      next_product_id: null,
      next_product_handle: null,
      coupon_use_count: null,
      coupon_uses_allowed: null,
      stored_credential_transaction_id: null,
      on_hold_at: null,
      scheduled_cancellation_at: null,
      ...(o.reportPricePoint ? { product_price_point_id: pp.id, product_price_point_type: pricePointType(pp) } : {}),
    },
  };
}

export type WireSubscription = ReturnType<typeof renderSubscription>["subscription"];

function customer(s: SubscriptionRecord, id: number) {
  return {
    id,
    first_name: "Simulated",
    last_name: `Customer ${s.id}`,
    email: `customer-${s.id}@example.com`,
    cc_emails: null,
    organization: null,
    reference: null,
    created_at: s.createdAt,
    updated_at: s.createdAt,
    address: null,
    address_2: null,
    city: null,
    state: null,
    zip: null,
    country: null,
    phone: null,
    verified: false,
    portal_customer_created_at: null,
    portal_invite_last_sent_at: null,
    portal_invite_last_accepted_at: null,
    tax_exempt: false,
    vat_number: null,
    parent_id: null,
    locale: null,
  };
}

/** The examples' test-gateway card ("bogus" vault), the kind a sandbox site holds. */
function creditCard(s: SubscriptionRecord, customerId: number) {
  return {
    id: 40_000_000 + s.id,
    payment_type: "credit_card" as const,
    first_name: "Simulated",
    last_name: `Customer ${s.id}`,
    masked_card_number: "XXXX-XXXX-XXXX-1",
    card_type: "bogus" as const,
    expiration_month: 12,
    expiration_year: 2030,
    customer_id: customerId,
    current_vault: "bogus" as const,
    vault_token: "1",
    billing_address: null,
    billing_address_2: null,
    billing_city: null,
    billing_state: null,
    billing_zip: null,
    billing_country: null,
    customer_vault_token: null,
  };
}
