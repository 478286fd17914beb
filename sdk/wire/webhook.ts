import { z } from "zod";
import { maybe, timestamp, wireWebhookId } from "./common";

/** Filter values of `GET /webhooks.json?status=`. */
export const webhookStatus = z.enum(["successful", "failed", "pending", "paused"]);
/** A delivery status a webhook list can be filtered by: "successful", "failed", "pending" or "paused". */
export type WebhookStatus = z.infer<typeof webhookStatus>;

/** The contract's `per_page` maximum for the webhook list. */
export const MAX_WEBHOOKS_PER_PAGE = 200;

/**
 * One webhook record (`Webhook` in the contract). Only `id` is needed. The
 * contract types `last_error` and friends as strings, but the service sends
 * `null` for a webhook that succeeded or was never sent, so every field but
 * the id is nullable.
 */
export const webhook = z.object({
  id: wireWebhookId,
  event: maybe(z.string()),
  created_at: maybe(timestamp),
  last_error: maybe(z.string()),
  last_error_at: maybe(timestamp),
  accepted_at: maybe(timestamp),
  last_sent_at: maybe(timestamp),
  last_sent_url: maybe(z.string()),
  successful: maybe(z.boolean()),
});
/** A webhook record as {@link webhook} reads it, before the SDK turns it into its `Webhook` result. */
export type Webhook = z.infer<typeof webhook>;

/** `GET /webhooks.json`: a bare array of `{ webhook }` envelopes, one page of them. */
export const webhookListResponse = z.array(z.object({ webhook }));
/** The answer {@link webhookListResponse} reads: one page of `{ webhook }`. */
export type WebhookListResponse = z.infer<typeof webhookListResponse>;
