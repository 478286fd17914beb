import { type Answer, errorList, json } from "./answers";
import type { DuplicateGuard } from "./duplicates";
import { listPricePoints, readProduct, readProductByHandle, readSite } from "./handlers-catalog";
import { createEndpoint, listEndpoints, updateEndpoint } from "./handlers-endpoints";
import { authenticate, migrate, preview, readSubscription } from "./handlers-subscriptions";
import { listWebhooks, replay, settings } from "./handlers-webhooks";
import type { RenderOptions } from "./render";
import { type Site, SiteError } from "./site";
import { DUPLICATE_SUBMISSION } from "./wire";

/** A request as the routes see it: already authenticated (or public) and parsed. */
export interface RouteRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  /** This simulator's own URL, for links it hands out. */
  baseUrl: string;
  render: RenderOptions;
}

export type Handler = (site: Site, params: string[], req: RouteRequest) => Answer;

interface Route {
  pattern: RegExp;
  methods: Record<string, Handler>;
  /** Visited by the customer's browser, not by an API client: no credentials. */
  public?: boolean;
}

const ROUTES: Route[] = [
  { pattern: /^\/webhooks\/replay\.json$/, methods: { POST: replay } },
  { pattern: /^\/webhooks\/settings\.json$/, methods: { PUT: settings } },
  { pattern: /^\/webhooks\.json$/, methods: { GET: listWebhooks } },
  // No DELETE: the contract has none (an endpoint is emptied with PUT and an empty event list).
  { pattern: /^\/endpoints\.json$/, methods: { POST: createEndpoint, GET: listEndpoints } },
  { pattern: /^\/endpoints\/(\d{1,15})\.json$/, methods: { PUT: updateEndpoint } },
  { pattern: /^\/subscriptions\/(\d{1,15})\.json$/, methods: { GET: readSubscription } },
  { pattern: /^\/subscriptions\/(\d{1,15})\/migrations\.json$/, methods: { POST: migrate } },
  { pattern: /^\/subscriptions\/(\d{1,15})\/migrations\/preview\.json$/, methods: { POST: preview } },
  { pattern: /^\/products\/(\d{1,15})\.json$/, methods: { GET: readProduct } },
  { pattern: /^\/products\/handle\/([^/]+)\.json$/, methods: { GET: readProductByHandle } },
  { pattern: /^\/products\/([^/]+)\/price_points\.json$/, methods: { GET: listPricePoints } },
  { pattern: /^\/site\.json$/, methods: { GET: readSite } },
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
 * POST/PUT: the token is claimed before the work (and before `beforeApply`,
 * the time a slow request spends running) and settled by its outcome.
 */
export async function dispatch(
  site: Site,
  guard: DuplicateGuard,
  r: Resolved,
  req: RouteRequest,
  beforeApply?: () => Promise<void>,
): Promise<Answer> {
  if (!r.route) return errorList(404, `Not found: ${req.method} ${req.path}`);
  const handler = r.route.methods[req.method];
  if (!handler) {
    const allow = Object.keys(r.route.methods).join(", ");
    return json(405, { errors: [`Method ${req.method} not allowed on ${req.path}; allowed: ${allow}`] }, { allow });
  }
  const token = req.method === "POST" || req.method === "PUT" ? uniquenessToken(req.body) : undefined;
  if (token !== undefined && !guard.claim(token)) return errorList(409, DUPLICATE_SUBMISSION);
  let applied = false;
  try {
    if (beforeApply) await beforeApply();
    const answer = run(handler, site, r.params, req);
    applied = answer.status >= 200 && answer.status < 300;
    return answer;
  } finally {
    if (token !== undefined) guard.settle(token, applied);
  }
}

function run(handler: Handler, site: Site, params: string[], req: RouteRequest): Answer {
  try {
    return handler(site, params, req);
  } catch (err) {
    if (!(err instanceof SiteError)) throw err;
    return json(err.status, err.body);
  }
}

export function uniquenessToken(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  const t = (body as { uniqueness_token?: unknown }).uniqueness_token;
  return typeof t === "string" ? t : undefined;
}
