import { BillingValidationError } from "./errors";
import { type WebhookFilter, webhookFilterInput } from "./inputs";
import { toWebhook, type Webhook } from "./results";
import type { Transport } from "./transport";
import { keysOf, problemsOf } from "./validation";
import { MAX_WEBHOOKS_PER_PAGE, type WebhookId, webhookListResponse, webhookSettingsResponse } from "./wire";

export async function setWebhooksEnabled(t: Transport, enabled: unknown): Promise<{ webhooksEnabled: boolean }> {
  if (typeof enabled !== "boolean") {
    throw new BillingValidationError("invalid webhook settings", [
      { property: "webhooksEnabled", message: `must be true or false, got ${typeof enabled}` },
    ]);
  }
  // A PUT of a value is idempotent: repeated transparently, no token needed.
  const res = await t.call(
    { method: "PUT", path: "/webhooks/settings.json", body: { webhooks_enabled: enabled }, repeatable: true },
    webhookSettingsResponse,
  );
  return { webhooksEnabled: res.webhooks_enabled };
}

/**
 * Every webhook matching `filter`, following pagination. Pages are read
 * oldest first so that webhooks arriving meanwhile append at the end instead
 * of shifting earlier pages; ids already seen are skipped, and a full page
 * of them ends the list.
 */
export async function listWebhooks(t: Transport, filter: WebhookFilter = {}): Promise<Webhook[]> {
  const f = webhookFilterInput.safeParse(filter);
  if (!f.success)
    throw new BillingValidationError("invalid webhook filter", problemsOf(f.error, "filter", { "": keysOf(webhookFilterInput) }));
  const seen = new Set<WebhookId>();
  const out: Webhook[] = [];
  for (let page = 1; ; page++) {
    const rows = await t.call(
      {
        method: "GET",
        path: "/webhooks.json",
        repeatable: true,
        query: {
          status: f.data.status,
          since_date: f.data.sinceDate,
          until_date: f.data.untilDate,
          subscription: f.data.subscriptionId,
          page,
          per_page: MAX_WEBHOOKS_PER_PAGE,
          order: "oldest_first",
        },
      },
      webhookListResponse,
    );
    let fresh = 0;
    for (const { webhook } of rows) {
      if (seen.has(webhook.id)) continue;
      seen.add(webhook.id);
      out.push(toWebhook(webhook));
      fresh++;
    }
    // A full page with nothing new: a service that ignores `page` answers page 1 again, forever (allPages's rule;
    // webhook ids are int64 text, so not allPages itself).
    if (rows.length < MAX_WEBHOOKS_PER_PAGE || fresh === 0) return out;
  }
}
