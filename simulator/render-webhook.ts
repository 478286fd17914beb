import { createHash, createHmac } from "node:crypto";
import { jsonInteger } from "./exact-json";
import { isoSeconds } from "./records";
import type { StoredWebhook } from "./webhook-log";

const SIGNING_SECRET = "sim_webhook_shared_key";
const RECEIVER_URL = "https://merchant.example.com/billing/webhooks";

export interface WireWebhook {
  /** A number, or raw JSON digits for an id past 2^53. */
  id: unknown;
  event: string;
  created_at: string;
  body: string;
  signature: string;
  signature_hmac_sha_256: string;
  successful: boolean;
  accepted_at: string | null;
  last_sent_at: string | null;
  last_sent_url: string | null;
  last_error: string | null;
  last_error_at: string | null;
}

/**
 * Status → wire. The contract types last_error, last_error_at, last_sent_at
 * and last_sent_url as plain strings, but its own descriptions say the error
 * fields are "cleared" once a webhook is accepted, and its list example writes
 * `"accepted_at": null` rather than leaving the key out: the service serializes
 * every column and a cleared or never-set column is null. So:
 *   successful  sent and accepted; no error (null)
 *   failed      sent, never accepted; the receiver's last answer, like the vendor's example
 *   pending     not sent yet: nothing about sending is known (null)
 *   paused      taken as "held while the site's delivery is off": never sent either,
 *               so it looks like pending on the wire; only the list filter tells them apart
 */
export function renderWebhook(w: StoredWebhook): { webhook: WireWebhook } {
  const body = `id=${w.idText}&event=${w.event}` + (w.subscriptionId ? `&payload[subscription][id]=${w.subscriptionId}` : "");
  const base = {
    id: jsonInteger(w.idText),
    event: w.event,
    created_at: w.createdAt,
    body,
    signature: createHash("md5")
      .update(SIGNING_SECRET + body)
      .digest("hex"),
    signature_hmac_sha_256: createHmac("sha256", SIGNING_SECRET).update(body).digest("hex"),
  };
  const unsent = { accepted_at: null, last_sent_at: null, last_sent_url: null, last_error: null, last_error_at: null };
  switch (w.status) {
    case "successful": {
      const sentAt = addSeconds(w.createdAt, 5);
      return { webhook: { ...base, ...unsent, successful: true, accepted_at: sentAt, last_sent_at: sentAt, last_sent_url: RECEIVER_URL } };
    }
    case "failed": {
      // The service retries a failed webhook five times; the fifth attempt is the last one recorded.
      const lastAt = addSeconds(w.createdAt, 3600);
      return {
        webhook: {
          ...base,
          successful: false,
          accepted_at: null,
          last_sent_at: lastAt,
          last_sent_url: RECEIVER_URL,
          last_error: "404 Resource Not Found (retry 5 of 5)",
          last_error_at: lastAt,
        },
      };
    }
    case "pending":
    case "paused":
      return { webhook: { ...base, ...unsent, successful: false } };
  }
}

function addSeconds(iso: string, s: number): string {
  return isoSeconds(new Date(Date.parse(iso) + s * 1000));
}
