import type { z } from "zod";
import {
  DUPLICATE_SUBMISSION, MAX_REPLAY_IDS, MAX_WEBHOOKS_PER_PAGE,
  migrationPreviewRequest, migrationRequest, replayWebhooksRequest, webhookSettingsRequest, webhookStatus,
  type ErrorListResponse, type MigrationPreviewResponse, type ReplayWebhooksResponse, type SubscriptionResponse,
  type WebhookListResponse, type WebhookSettingsResponse,
} from "../sdk/wire";
import type { DuplicateGuard } from "./duplicates";
import { renderSubscription, renderWebhook } from "./render";
import { SiteError, type Site, type WebhookQuery } from "./site";

/** A request as the routes see it: already authenticated (or public) and parsed. */
export interface RouteRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  /** This simulator's own URL, for links it hands out. */
  baseUrl: string;
}

export interface RouteAnswer {
  status: number;
  body: unknown;
}

type Handler = (site: Site, params: string[], req: RouteRequest) => RouteAnswer;

interface Route {
  pattern: RegExp;
  methods: Record<string, Handler>;
  /** Visited by the customer's browser, not by an API client: no credentials. */
  public?: boolean;
}

const ok = <T>(body: T): RouteAnswer => ({ status: 200, body });
const errorList = (status: number, errors: string[]): RouteAnswer => ({ status, body: { errors } satisfies ErrorListResponse });

const ROUTES: Route[] = [
  { pattern: /^\/webhooks\/replay\.json$/, methods: { POST: replay } },
  { pattern: /^\/webhooks\/settings\.json$/, methods: { PUT: settings } },
  { pattern: /^\/webhooks\.json$/, methods: { GET: listWebhooks } },
  { pattern: /^\/subscriptions\/(\d{1,15})\.json$/, methods: { GET: readSubscription } },
  { pattern: /^\/subscriptions\/(\d{1,15})\/migrations\.json$/, methods: { POST: migrate } },
  { pattern: /^\/subscriptions\/(\d{1,15})\/migrations\/preview\.json$/, methods: { POST: preview } },
  { pattern: /^\/authentications\/([^/]+)$/, methods: { GET: authenticate }, public: true },
];

export interface Resolved {
  route: Route | undefined;
  params: string[];
}

export function resolve(path: string): Resolved {
  for (const route of ROUTES) {
    const m = route.pattern.exec(path);
    if (m) return { route, params: m.slice(1) };
  }
  return { route: undefined, params: [] };
}

export const isPublic = (r: Resolved): boolean => r.route?.public === true;

/**
 * Runs the route, with the service's duplicate prevention around every
 * POST/PUT. Returns the answer and whether the headers need an `Allow`.
 */
export function dispatch(site: Site, guard: DuplicateGuard, r: Resolved, req: RouteRequest): RouteAnswer & { allow?: string } {
  if (!r.route) return errorList(404, [`Not found: ${req.method} ${req.path}`]);
  const handler = r.route.methods[req.method];
  if (!handler) {
    const allow = Object.keys(r.route.methods).join(", ");
    return { ...errorList(405, [`Method ${req.method} not allowed on ${req.path}; allowed: ${allow}`]), allow };
  }
  const token = uniquenessToken(req.body);
  if (token !== undefined && (req.method === "POST" || req.method === "PUT")) {
    if (guard.seen(token)) return errorList(409, [DUPLICATE_SUBMISSION]);
  }
  let answer: RouteAnswer;
  try {
    answer = handler(site, r.params, req);
  } catch (err) {
    if (!(err instanceof SiteError)) throw err;
    answer = { status: err.status, body: err.body };
  }
  if (token !== undefined && answer.status >= 200 && answer.status < 300) guard.record(token);
  return answer;
}

export function uniquenessToken(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  const t = (body as { uniqueness_token?: unknown }).uniqueness_token;
  return typeof t === "string" ? t : undefined;
}

function replay(site: Site, _p: string[], req: RouteRequest): RouteAnswer {
  const parsed = replayWebhooksRequest.safeParse(req.body);
  if (!parsed.success) return errorList(422, replayProblems(req.body, parsed.error));
  site.replay(parsed.data.ids);
  return ok({ status: "ok" } satisfies ReplayWebhooksResponse);
}

/** Messages that name the bad entries, not zod's generic wording. At most ten, then a count. */
function replayProblems(body: unknown, error: z.ZodError): string[] {
  const ids = (body as { ids?: unknown } | undefined)?.ids;
  if (!Array.isArray(ids)) return ["ids is required: an array of 1 to 1000 webhook ids."];
  if (ids.length === 0) return ["ids must contain at least one webhook id."];
  const out: string[] = [];
  if (ids.length > MAX_REPLAY_IDS) out.push(`ids has ${ids.length} entries; at most ${MAX_REPLAY_IDS} webhook ids may be replayed per request.`);
  const bad: number[] = [];
  ids.forEach((v, i) => {
    if (!(typeof v === "number" && Number.isSafeInteger(v) && v > 0)) bad.push(i);
  });
  for (const i of bad.slice(0, 10)) out.push(`ids[${i}] must be a positive integer webhook id, got ${JSON.stringify(ids[i]) ?? String(ids[i])}.`);
  if (bad.length > 10) out.push(`…and ${bad.length - 10} more ids that are not positive integers.`);
  return out.length > 0 ? out : fieldProblems(error);
}

function settings(site: Site, _p: string[], req: RouteRequest): RouteAnswer {
  const parsed = webhookSettingsRequest.safeParse(req.body);
  if (!parsed.success) return errorList(422, ["webhooks_enabled is required and must be true or false."]);
  site.webhooksEnabled = parsed.data.webhooks_enabled;
  return ok({ webhooks_enabled: site.webhooksEnabled } satisfies WebhookSettingsResponse);
}

/**
 * Answers 200 although the contract lists only 201 for this GET: the real
 * service answers 200, and a 201 for a read is the published spec's slip.
 */
function listWebhooks(site: Site, _p: string[], req: RouteRequest): RouteAnswer {
  const q = webhookQuery(req.query);
  if (typeof q === "string") return errorList(422, [q]);
  const body: WebhookListResponse = site.listWebhooks(q).map(renderWebhook);
  return ok(body);
}

function webhookQuery(raw: Record<string, string>): WebhookQuery | string {
  const q: WebhookQuery = { order: "newest_first", page: 1, perPage: 20 };
  if (raw.status !== undefined) {
    const s = webhookStatus.safeParse(raw.status);
    if (!s.success) return `status must be one of ${webhookStatus.options.join(", ")}; got '${raw.status}'.`;
    q.status = s.data;
  }
  for (const [key, field] of [["since_date", "sinceDate"], ["until_date", "untilDate"]] as const) {
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
  if (raw.page !== undefined) {
    const n = positiveInt(raw.page);
    if (n === undefined) return `page must be an integer from 1; got '${raw.page}'.`;
    q.page = n;
  }
  if (raw.per_page !== undefined) {
    const n = positiveInt(raw.per_page);
    if (n === undefined) return `per_page must be an integer from 1; got '${raw.per_page}'.`;
    // The contract: "any per_page value over 200 will be changed to 200".
    q.perPage = Math.min(n, MAX_WEBHOOKS_PER_PAGE);
  }
  if (raw.order !== undefined) {
    if (raw.order !== "newest_first" && raw.order !== "oldest_first") return `order must be newest_first or oldest_first; got '${raw.order}'.`;
    q.order = raw.order;
  }
  return q;
}

function readSubscription(site: Site, [id]: string[]): RouteAnswer {
  const v = site.view(Number(id));
  return ok(renderSubscription(v.subscription, v.product, v.pricePoint) satisfies SubscriptionResponse);
}

function migrate(site: Site, [id]: string[], req: RouteRequest): RouteAnswer {
  const parsed = migrationRequest.safeParse(req.body);
  if (!parsed.success) {
    site.view(Number(id)); // an unknown subscription is a 404 whatever the body
    return errorList(422, fieldProblems(parsed.error));
  }
  const t = site.migrate(Number(id), parsed.data.migration, req.baseUrl);
  return ok(renderSubscription(t.subscription, t.product, t.pricePoint) satisfies SubscriptionResponse);
}

function preview(site: Site, [id]: string[], req: RouteRequest): RouteAnswer {
  const parsed = migrationPreviewRequest.safeParse(req.body);
  if (!parsed.success) {
    site.view(Number(id));
    return errorList(422, fieldProblems(parsed.error));
  }
  return ok(site.preview(Number(id), parsed.data.migration) satisfies MigrationPreviewResponse);
}

function authenticate(site: Site, [token]: string[]): RouteAnswer {
  const r = site.completeAuthentication(token);
  return ok({
    authentication: "completed",
    subscription_id: r.subscriptionId,
    message: r.alreadyCompleted ? "This authentication was already completed." : "Authentication complete; the migration was applied.",
  });
}

function fieldProblems(error: z.ZodError): string[] {
  return error.issues.map((i) => (i.path.length > 0 ? `${i.path.map(String).join(".")}: ${i.message}` : i.message));
}

function positiveInt(s: string): number | undefined {
  if (!/^\d{1,15}$/.test(s)) return undefined;
  const n = Number(s);
  return n > 0 ? n : undefined;
}
