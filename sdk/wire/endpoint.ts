import { z } from "zod";
import { maybe, wireId } from "./common";

/**
 * The webhook event keys an endpoint may subscribe to: the contract's enum
 * `Webhook Subscription`, at
 * `paths./endpoints.json.post.requestBody.content.application/json.schema.properties.endpoint.properties.webhook_subscriptions.items.enum`
 * (the same 35 keys, in the same order, under `PUT /endpoints/{endpoint_id}.json`).
 */
export const WEBHOOK_EVENTS = [
  "billing_date_change",
  "component_allocation_change",
  "customer_create",
  "customer_update",
  "dunning_step_reached",
  "expiring_card",
  "expiration_date_change",
  "invoice_issued",
  "metered_usage",
  "payment_failure",
  "payment_success",
  "direct_debit_payment_pending",
  "direct_debit_payment_paid_out",
  "direct_debit_payment_rejected",
  "prepaid_subscription_balance_changed",
  "prepaid_usage",
  "refund_failure",
  "refund_success",
  "renewal_failure",
  "renewal_success",
  "signup_failure",
  "signup_success",
  "statement_closed",
  "statement_settled",
  "subscription_card_update",
  "subscription_group_card_update",
  "subscription_product_change",
  "subscription_state_change",
  "trial_end_notice",
  "upcoming_renewal_notice",
  "upgrade_downgrade_failure",
  "upgrade_downgrade_success",
  "pending_cancellation_change",
  "subscription_prepayment_account_balance_changed",
  "subscription_service_credit_account_balance_changed",
] as const;
/** One key of {@link WEBHOOK_EVENTS}: an event an endpoint can subscribe to, e.g. "payment_success". */
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** {@link WEBHOOK_EVENTS} as a schema: what a request's `webhook_subscriptions` may hold (answers are read as any string). */
export const webhookEvent = z.enum(WEBHOOK_EVENTS);

/**
 * `POST /endpoints.json` and `PUT /endpoints/{endpoint_id}.json` body
 * (`Create or Update Endpoint Request`). `webhook_subscriptions` is the complete
 * list: on update an empty list unsubscribes from every event. The SDK sends a
 * `uniqueness_token` with the create (the service's generic duplicate
 * prevention for POST/PUT bodies; the contract does not list it, nor forbid it).
 */
export const endpointRequest = z.object({
  endpoint: z.object({
    url: z.string().min(1),
    webhook_subscriptions: z.array(webhookEvent),
  }),
  uniqueness_token: z.string().optional(),
});
/** The body {@link endpointRequest} checks: what the SDK sends to create or update an endpoint. */
export type EndpointRequest = z.infer<typeof endpointRequest>;

/**
 * `Endpoint`. Only the id is needed to address it. The subscriptions are read
 * as plain strings: an event key this SDK does not know yet (the service adds
 * them) must not make a read of the site's endpoints fail. The list the vendor
 * publishes carries a url with one slash ("https:/example.com/webhooks"): a url
 * is read as whatever text the service sends.
 */
export const endpoint = z.object({
  id: wireId,
  url: maybe(z.string()),
  site_id: maybe(z.number().int()),
  status: maybe(z.string()),
  // Required: an endpoint read without its subscriptions would be reported as subscribed to nothing.
  webhook_subscriptions: z.array(z.string()),
});
/** An endpoint as {@link endpoint} reads it, before the SDK turns it into its `Endpoint` result. */
export type Endpoint = z.infer<typeof endpoint>;

/** `Endpoint Response`: `{ endpoint }`, the answer of create and update. */
export const endpointResponse = z.object({ endpoint });
/** The answer {@link endpointResponse} reads: `{ endpoint }`. */
export type EndpointResponse = z.infer<typeof endpointResponse>;

/** `GET /endpoints.json`: a bare array of endpoints (not wrapped in `{ endpoint }`), not paginated. */
export const endpointListResponse = z.array(endpoint);
/** The answer {@link endpointListResponse} reads: the site's endpoints. */
export type EndpointListResponse = z.infer<typeof endpointListResponse>;
