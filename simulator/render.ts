import { createHash, createHmac } from "node:crypto";
import type { Subscription, SubscriptionResponse, Webhook } from "../sdk/wire";
import { isoSeconds, type PricePointRecord, type ProductRecord, type SubscriptionRecord, type WebhookRecord } from "./records";

/**
 * Records to wire shapes. Only properties of the contract's schemas are sent
 * (it has no `additionalProperties: false`, but a field it lacks would be a
 * field no client can rely on); the SDK's zod types cover a subset of them,
 * so the extra contract fields are typed here.
 */

type WireProduct = Subscription["product"] & {
  price_in_cents: number;
  interval: number;
  interval_unit: "month";
  created_at: string;
  updated_at: string;
  default_product_price_point_id: number;
  product_price_point_id: number;
  product_price_point_handle: string;
  product_price_point_name: string;
};

type WireSubscription = Omit<Subscription, "product"> & {
  product: WireProduct;
  product_price_point_type: "default" | "catalog";
  created_at: string;
  updated_at: string;
  current_period_started_at: string;
  activated_at: string | null;
  canceled_at: string | null;
  balance_in_cents: number;
  product_price_in_cents: number;
  current_billing_amount_in_cents: number;
  payment_collection_method: "automatic";
  currency: string;
};

const END_OF_LIFE = new Set(["canceled", "expired", "failed_to_create", "suspended", "on_hold", "trial_ended"]);

export function renderSubscription(s: SubscriptionRecord, product: ProductRecord, pp: PricePointRecord): SubscriptionResponse & { subscription: WireSubscription } {
  const defaultPp = product.pricePoints.find((p) => p.default)!;
  return {
    subscription: {
      id: s.id,
      state: s.state,
      // The contract: "for normal API calls, this will always be the same as the state".
      // After a migration the simulator keeps the state it migrated from, so a read-back
      // agrees with the migration's own answer.
      previous_state: s.previousState ?? s.state,
      product: {
        id: product.id,
        name: product.name,
        handle: product.handle,
        price_in_cents: pp.priceInCents,
        interval: pp.intervalMonths,
        interval_unit: "month",
        created_at: product.createdAt,
        updated_at: product.createdAt,
        default_product_price_point_id: defaultPp.id,
        product_price_point_id: pp.id,
        product_price_point_handle: pp.handle,
        product_price_point_name: pp.handle,
      },
      product_price_point_id: pp.id,
      product_price_point_type: pp.default ? "default" : "catalog",
      created_at: s.createdAt,
      updated_at: s.updatedAt,
      activated_at: s.state === "trialing" ? null : s.createdAt,
      canceled_at: s.state === "canceled" ? s.updatedAt : null,
      current_period_started_at: s.currentPeriodStartedAt,
      current_period_ends_at: s.currentPeriodEndsAt,
      next_assessment_at: END_OF_LIFE.has(s.state) ? null : s.currentPeriodEndsAt,
      balance_in_cents: 0,
      product_price_in_cents: pp.priceInCents,
      current_billing_amount_in_cents: pp.priceInCents,
      payment_collection_method: "automatic",
      currency: "USD",
    },
  };
}

const SIGNING_SECRET = "sim_webhook_shared_key";
const RECEIVER_URL = "https://merchant.example.com/billing/webhooks";

/**
 * Status → wire. `paused` is taken to mean "held back while the site's webhook
 * delivery is off": never sent, so it looks like `pending` on the wire
 * (accepted_at null, no send attempt); only the list filter tells them apart.
 */
export function renderWebhook(w: WebhookRecord): { webhook: Webhook } {
  const body = `id=${w.id}&event=${w.event}` + (w.subscriptionId ? `&payload[subscription][id]=${w.subscriptionId}` : "");
  const sentAt = addSeconds(w.createdAt, 5);
  const base: Webhook = {
    id: w.id,
    event: w.event,
    created_at: w.createdAt,
    body,
    signature: createHash("md5").update(SIGNING_SECRET + body).digest("hex"),
    signature_hmac_sha_256: createHmac("sha256", SIGNING_SECRET).update(body).digest("hex"),
  };
  switch (w.status) {
    case "successful":
      return { webhook: { ...base, successful: true, accepted_at: sentAt, last_sent_at: sentAt, last_sent_url: RECEIVER_URL } };
    case "failed": {
      const lastAt = addSeconds(w.createdAt, 3600);
      return {
        webhook: {
          ...base, successful: false, accepted_at: null, last_sent_at: lastAt, last_sent_url: RECEIVER_URL,
          last_error: "500 Internal Server Error (retry 5 of 5)", last_error_at: lastAt,
        },
      };
    }
    case "pending":
    case "paused":
      return { webhook: { ...base, successful: false, accepted_at: null } };
  }
}

function addSeconds(iso: string, s: number): string {
  return isoSeconds(new Date(Date.parse(iso) + s * 1000));
}
