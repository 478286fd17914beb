import { z } from "zod";
import { ExactInt } from "./exact-json";

/**
 * The simulator's own reading of the published contract
 * (contract/advanced-billing.openapi.json): the enums, limits and request
 * bodies it accepts. Deliberately not shared with the SDK: when the two read
 * the contract differently, a test against the simulator has to show it.
 * Response shapes are typed where they are built (render*.ts).
 */

/** `Subscription State`. */
export const SUBSCRIPTION_STATES = [
  "pending",
  "failed_to_create",
  "trialing",
  "assessing",
  "active",
  "soft_failure",
  "past_due",
  "suspended",
  "canceled",
  "expired",
  "paused",
  "unpaid",
  "trial_ended",
  "on_hold",
  "awaiting_signup",
] as const;
export type SubscriptionState = (typeof SUBSCRIPTION_STATES)[number];

/** `Webhook Status`, the `status` filter of GET /webhooks.json. */
export const WEBHOOK_STATUSES = ["successful", "failed", "pending", "paused"] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

/** `Price Point Type`. */
export const PRICE_POINT_TYPES = ["catalog", "default", "custom"] as const;
export type PricePointType = (typeof PRICE_POINT_TYPES)[number];

/**
 * `Webhook Subscription`: the event keys an endpoint may subscribe to (the
 * enum of `Create or Update Endpoint`'s `webhook_subscriptions`), in the
 * contract's order.
 */
export const WEBHOOK_EVENT_KEYS = [
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
export type WebhookEventKey = (typeof WEBHOOK_EVENT_KEYS)[number];

/** api-spec.md: at most 1000 ids per replay request. */
export const MAX_REPLAY_IDS = 1000;
/** Every list in the contract: "any per_page value over 200 will be changed to 200". */
export const MAX_PER_PAGE = 200;
/** The body's only entry when a `uniqueness_token` repeats (field notes, from the vendor's guide). */
export const DUPLICATE_SUBMISSION = "DuplicatePrevention::DuplicateSubmissionError";
/** Webhook ids are `integer, format int64`. */
export const INT64_MAX = 9223372036854775807n;

/** The `default`s the contract gives the migration options. */
export const MIGRATION_DEFAULTS = {
  include_trial: false,
  include_initial_charge: false,
  include_coupons: true,
  preserve_period: false,
} as const;

export interface ErrorList {
  errors: string[];
}

/** The 3-D Secure 422 of a migration (field notes: errors, gateway_payment_id, description, action_link). */
export interface AuthenticationRequired extends ErrorList {
  gateway_payment_id: string;
  description: string;
  action_link: string;
}

/**
 * `Subscription Product Migration`. The contract types ids as plain integers;
 * whether one exists is the site's question (a 422 naming it), not the schema's.
 * `proration.preserve_period` is the contract's alternative spelling of
 * `preserve_period`.
 */
const migration = z.object({
  product_id: z.number().int().optional(),
  product_handle: z.string().optional(),
  product_price_point_id: z.number().int().optional(),
  product_price_point_handle: z.string().optional(),
  include_trial: z.boolean().optional(),
  include_initial_charge: z.boolean().optional(),
  include_coupons: z.boolean().optional(),
  preserve_period: z.boolean().optional(),
  proration: z.object({ preserve_period: z.boolean().optional() }).optional(),
});
export type Migration = z.infer<typeof migration>;

// `uniqueness_token`, accepted at the top of any POST/PUT body, is read by the
// duplicate prevention before any of these run (routes.ts), not here.

export const migrationRequest = z.object({ migration });

/** Preview adds `proration_date` (when to prorate from); the simulator prorates from "now" regardless. */
export const migrationPreviewRequest = z.object({
  migration: migration.extend({ proration_date: z.string().optional() }),
});

export const webhookSettingsRequest = z.object({ webhooks_enabled: z.boolean() });

export function preservesPeriod(m: Migration): boolean {
  return m.preserve_period ?? m.proration?.preserve_period ?? MIGRATION_DEFAULTS.preserve_period;
}

/**
 * A webhook id as its exact decimal text, or undefined when the value is not
 * one: a positive integer up to int64's maximum, given as a JSON integer.
 */
export function webhookIdText(v: unknown): string | undefined {
  if (typeof v === "number") return Number.isSafeInteger(v) && v > 0 ? String(v) : undefined;
  if (v instanceof ExactInt) return /^[1-9]\d*$/.test(v.text) && BigInt(v.text) <= INT64_MAX ? v.text : undefined;
  return undefined;
}

/**
 * `Replay Webhooks Request`: `ids` (int64, at least 1) and api-spec.md's cap of
 * 1000. Checked by hand so that the refusal names the bad entries, at most ten
 * of them, then a count: a 1000-id batch with one typo should say which.
 */
export function parseReplayRequest(body: unknown): { ids: string[] } | { problems: string[] } {
  const ids = typeof body === "object" && body !== null ? (body as { ids?: unknown }).ids : undefined;
  if (!Array.isArray(ids)) return { problems: [`ids is required: an array of 1 to ${MAX_REPLAY_IDS} webhook ids.`] };
  if (ids.length === 0) return { problems: ["ids must contain at least one webhook id."] };
  const problems: string[] = [];
  if (ids.length > MAX_REPLAY_IDS)
    problems.push(`ids has ${ids.length} entries; at most ${MAX_REPLAY_IDS} webhook ids may be replayed per request.`);
  const texts: string[] = [];
  const bad: number[] = [];
  ids.forEach((v, i) => {
    const t = webhookIdText(v);
    if (t === undefined) bad.push(i);
    else texts.push(t);
  });
  for (const i of bad.slice(0, 10)) {
    problems.push(`ids[${i}] must be a positive integer webhook id (int64), got ${JSON.stringify(ids[i]) ?? String(ids[i])}.`);
  }
  if (bad.length > 10) problems.push(`…and ${bad.length - 10} more ids that are not positive integers.`);
  return problems.length > 0 ? { problems } : { ids: texts };
}

/** zod's issues as "path: message", the way the service's error lists name fields. */
export function fieldProblems(error: z.ZodError): string[] {
  return error.issues.map((i) => (i.path.length > 0 ? `${i.path.map(String).join(".")}: ${i.message}` : i.message));
}

/** The vendor's published wording (createEndpoint's 422 example). */
export const ENDPOINT_URL_INVALID = "URL: invalid, only http and https supported";
/** The wording of the vendor's other blank-field 422s ("Name: cannot be blank."). */
export const ENDPOINT_URL_BLANK = "URL: cannot be blank.";
/** The vendor's published wording (updateEndpoint's 422 example: "Event key is not valid - foobar"). */
export const eventKeyInvalid = (key: string): string => `Event key is not valid - ${key}`;

const EVENT_KEYS: ReadonlySet<string> = new Set(WEBHOOK_EVENT_KEYS);

/**
 * A webhook URL the service takes: an absolute http or https URL with a host.
 * Read as a browser reads it (WHATWG URL), so "https:/example.com/webhooks",
 * which the vendor's own list example shows stored, is absolute; whitespace or
 * control characters anywhere make it invalid (the browser would strip them
 * at the ends; a server-side URI parser refuses them).
 */
export function isWebhookUrl(url: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point (they are refused)
  if (/[\s\u0000-\u001f\u007f]/.test(url)) return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  // A special scheme cannot parse without a host ("https://" throws), so the scheme is all that is left to check.
  return parsed.protocol === "http:" || parsed.protocol === "https:";
}

/**
 * `Create or Update Endpoint Request`, checked by hand so that every problem is
 * named at once in the vendor's words: `endpoint` an object, `url` present and
 * absolute http(s), `webhook_subscriptions` an array of the contract's event
 * keys (each unknown one named, once, up to ten), in the order sent (the
 * store keeps a repeated key once); an empty list is valid (no events). Other keys
 * of `endpoint` are ignored, as the service's parameter filtering drops them.
 */
export function parseEndpointRequest(body: unknown): { url: string; events: WebhookEventKey[] } | { problems: string[] } {
  const endpoint = isObject(body) ? body.endpoint : undefined;
  if (!isObject(endpoint)) return { problems: ["endpoint must be an Object"] };
  const problems: string[] = [];
  const { url, webhook_subscriptions: subs } = endpoint;
  if (url === undefined || url === null || (typeof url === "string" && url.trim() === "")) problems.push(ENDPOINT_URL_BLANK);
  else if (typeof url !== "string" || !isWebhookUrl(url)) problems.push(ENDPOINT_URL_INVALID);
  const events: WebhookEventKey[] = [];
  if (!Array.isArray(subs)) problems.push("webhook_subscriptions must be an Array");
  else {
    const unknown: string[] = [];
    for (const key of subs) {
      if (typeof key === "string" && EVENT_KEYS.has(key)) {
        events.push(key as WebhookEventKey);
        continue;
      }
      const named = typeof key === "string" ? key : (JSON.stringify(key) ?? String(key));
      if (!unknown.includes(named)) unknown.push(named);
    }
    problems.push(...unknown.slice(0, 10).map(eventKeyInvalid));
    if (unknown.length > 10) problems.push(`…and ${unknown.length - 10} more event keys that are not valid.`);
  }
  return problems.length > 0 ? { problems } : { url: url as string, events };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
