import { z } from "zod";
import { timestamp, wireId } from "./common";

/** Filter values of `GET /webhooks.json?status=`. */
export const webhookStatus = z.enum(["successful", "failed", "pending", "paused"]);
export type WebhookStatus = z.infer<typeof webhookStatus>;

/** The contract's `per_page` maximum for the webhook list. */
export const MAX_WEBHOOKS_PER_PAGE = 200;

/** One webhook record (`Webhook` in the contract); every field but `id` is optional there. */
export const webhook = z.object({
  id: wireId,
  event: z.string().optional(),
  created_at: timestamp.optional(),
  last_error: z.string().optional(),
  last_error_at: timestamp.optional(),
  accepted_at: timestamp.nullable().optional(),
  last_sent_at: timestamp.optional(),
  last_sent_url: z.string().optional(),
  successful: z.boolean().optional(),
  body: z.string().optional(),
  signature: z.string().optional(),
  signature_hmac_sha_256: z.string().optional(),
});
export type Webhook = z.infer<typeof webhook>;

/** `GET /webhooks.json`: a bare array of `{ webhook }` envelopes, one page of them. */
export const webhookListResponse = z.array(z.object({ webhook }));
export type WebhookListResponse = z.infer<typeof webhookListResponse>;
