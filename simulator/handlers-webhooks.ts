import { type Answer, errorList, json } from "./answers";
import { paging, positiveInt } from "./query";
import { renderWebhook } from "./render-webhook";
import type { RouteRequest } from "./routes";
import type { Site } from "./site";
import type { WebhookQuery } from "./webhook-log";
import { parseReplayRequest, WEBHOOK_STATUSES, type WebhookStatus, webhookSettingsRequest } from "./wire";

export function replay(site: Site, _p: string[], req: RouteRequest): Answer {
  const parsed = parseReplayRequest(req.body);
  if ("problems" in parsed) return errorList(422, ...parsed.problems);
  site.webhooks.replay(parsed.ids);
  return json(200, { status: "ok" });
}

export function settings(site: Site, _p: string[], req: RouteRequest): Answer {
  const parsed = webhookSettingsRequest.safeParse(req.body);
  if (!parsed.success) return errorList(422, "webhooks_enabled is required and must be true or false.");
  site.webhooksEnabled = parsed.data.webhooks_enabled;
  return json(200, { webhooks_enabled: site.webhooksEnabled });
}

/**
 * A bare array of `{webhook}`, answered 200 although the contract lists only
 * 201 for this GET: a read creates nothing, and the 201 is the published
 * spec's slip (the vendor's own SDKs treat any 2xx as success here).
 */
export function listWebhooks(site: Site, _p: string[], req: RouteRequest): Answer {
  const q = webhookQuery(req.query);
  if (typeof q === "string") return errorList(422, q);
  return json(200, site.webhooks.list(q).map(renderWebhook));
}

function webhookQuery(raw: Record<string, string>): WebhookQuery | string {
  const pages = paging(raw, 20);
  if (typeof pages === "string") return pages;
  const q: WebhookQuery = { order: "newest_first", ...pages };
  if (raw.status !== undefined) {
    if (!(WEBHOOK_STATUSES as readonly string[]).includes(raw.status))
      return `status must be one of ${WEBHOOK_STATUSES.join(", ")}; got '${raw.status}'.`;
    q.status = raw.status as WebhookStatus;
  }
  for (const [key, field] of [
    ["since_date", "sinceDate"],
    ["until_date", "untilDate"],
  ] as const) {
    const v = raw[key];
    if (v === undefined) continue;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(v) || Number.isNaN(Date.parse(v))) return `${key} must be a date as YYYY-MM-DD; got '${v}'.`;
    q[field] = v;
  }
  if (raw.subscription !== undefined) {
    const n = positiveInt(raw.subscription);
    if (n === undefined) return `subscription must be a subscription id; got '${raw.subscription}'.`;
    q.subscriptionId = n;
  }
  if (raw.order !== undefined) {
    if (raw.order !== "newest_first" && raw.order !== "oldest_first")
      return `order must be newest_first or oldest_first; got '${raw.order}'.`;
    q.order = raw.order;
  }
  return q;
}
