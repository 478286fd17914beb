import { type Answer, errorList, json } from "./answers";
import { clearSite } from "./clear-data";
import type { DuplicateGuard } from "./duplicates";
import {
  archiveProduct,
  createFamily,
  createProduct,
  listFamilies,
  listFamilyProducts,
  listProducts,
  readFamily,
  readProduct,
  readProductByHandle,
  readSite,
  updateProduct,
} from "./handlers-catalog";
import {
  archiveComponent,
  componentPricePoints,
  createComponent,
  createComponentPricePoint,
  listComponents,
  listFamilyComponents,
  lookupComponent,
  readFamilyComponent,
  updateComponent,
  updateComponentPricePoint,
  updateFamilyComponent,
} from "./handlers-components";
import { archiveCoupon, createCoupon, findCoupon, listCoupons, listFamilyCoupons, readCoupon, updateCoupon } from "./handlers-coupons";
import {
  couponCurrencyPrices,
  createComponentCurrencyPrices,
  createProductCurrencyPrices,
  updateComponentCurrencyPrices,
  updateProductCurrencyPrices,
} from "./handlers-currency-prices";
import { createEndpoint, listEndpoints, updateEndpoint } from "./handlers-endpoints";
import { createMetafields, deleteMetafield, listMetafields, updateMetafields } from "./handlers-metafields";
import { archiveOffer, createOffer, listOffers, readOffer, unarchiveOffer } from "./handlers-offers";
import { bulkCreatePricePoints, createPricePoint, productPricePoints, updatePricePoint } from "./handlers-product-price-points";
import { createReasonCode, deleteReasonCode, listReasonCodes, readReasonCode, updateReasonCode } from "./handlers-reason-codes";
import { authenticate, migrate, preview, readSubscription } from "./handlers-subscriptions";
import { listWebhooks, replay, settings } from "./handlers-webhooks";
import type { RenderOptions } from "./render";
import type { Site } from "./site";
import { SiteError } from "./site-error";
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
  // The catalogue. No update or delete of a family (the contract has none); products and price points are archived (DELETE).
  { pattern: /^\/product_families\.json$/, methods: { POST: createFamily, GET: listFamilies } },
  { pattern: /^\/product_families\/([^/]+)\.json$/, methods: { GET: readFamily } },
  { pattern: /^\/product_families\/([^/]+)\/products\.json$/, methods: { POST: createProduct, GET: listFamilyProducts } },
  { pattern: /^\/products\.json$/, methods: { GET: listProducts } },
  { pattern: /^\/products\/(\d{1,15})\.json$/, methods: { GET: readProduct, PUT: updateProduct, DELETE: archiveProduct } },
  { pattern: /^\/products\/handle\/([^/]+)\.json$/, methods: { GET: readProductByHandle } },
  { pattern: /^\/products\/([^/]+)\/price_points\.json$/, methods: { GET: productPricePoints.list, POST: createPricePoint } },
  // Before the price point's own path: "bulk" is not a price point.
  { pattern: /^\/products\/([^/]+)\/price_points\/bulk\.json$/, methods: { POST: bulkCreatePricePoints } },
  {
    pattern: /^\/products\/([^/]+)\/price_points\/([^/]+)\.json$/,
    methods: { GET: productPricePoints.read, PUT: updatePricePoint, DELETE: productPricePoints.archive },
  },
  { pattern: /^\/products\/([^/]+)\/price_points\/([^/]+)\/unarchive\.json$/, methods: { PATCH: productPricePoints.unarchive } },
  { pattern: /^\/products\/([^/]+)\/price_points\/([^/]+)\/default\.json$/, methods: { PATCH: productPricePoints.promote } },
  // Components: one create path per kind; no unarchive of a component (the contract has none). Price points archive (DELETE).
  { pattern: /^\/product_families\/([^/]+)\/([a-z_]+)_components\.json$/, methods: { POST: createComponent } },
  { pattern: /^\/product_families\/([^/]+)\/components\.json$/, methods: { GET: listFamilyComponents } },
  {
    pattern: /^\/product_families\/([^/]+)\/components\/([^/]+)\.json$/,
    methods: { GET: readFamilyComponent, PUT: updateFamilyComponent, DELETE: archiveComponent },
  },
  { pattern: /^\/components\.json$/, methods: { GET: listComponents } },
  // Before a component's own path: "lookup" is not a component.
  { pattern: /^\/components\/lookup\.json$/, methods: { GET: lookupComponent } },
  { pattern: /^\/components\/([^/]+)\.json$/, methods: { PUT: updateComponent } },
  { pattern: /^\/components\/([^/]+)\/price_points\.json$/, methods: { GET: componentPricePoints.list, POST: createComponentPricePoint } },
  {
    pattern: /^\/components\/([^/]+)\/price_points\/([^/]+)\.json$/,
    methods: { GET: componentPricePoints.read, PUT: updateComponentPricePoint, DELETE: componentPricePoints.archive },
  },
  { pattern: /^\/components\/([^/]+)\/price_points\/([^/]+)\/unarchive\.json$/, methods: { PUT: componentPricePoints.unarchive } },
  { pattern: /^\/components\/([^/]+)\/price_points\/([^/]+)\/default\.json$/, methods: { PUT: componentPricePoints.promote } },
  // Coupons: updated, read and archived under their family; found by code.
  { pattern: /^\/product_families\/([^/]+)\/coupons\.json$/, methods: { POST: createCoupon, GET: listFamilyCoupons } },
  {
    pattern: /^\/product_families\/([^/]+)\/coupons\/([^/]+)\.json$/,
    methods: { GET: readCoupon, PUT: updateCoupon, DELETE: archiveCoupon },
  },
  { pattern: /^\/coupons\/find\.json$/, methods: { GET: findCoupon } },
  { pattern: /^\/coupons\.json$/, methods: { GET: listCoupons } },
  // Prices in the site's other currencies (issue 41): a price point's by its id alone, a coupon's by its id.
  {
    pattern: /^\/product_price_points\/([^/]+)\/currency_prices\.json$/,
    methods: { POST: createProductCurrencyPrices, PUT: updateProductCurrencyPrices },
  },
  {
    pattern: /^\/price_points\/([^/]+)\/currency_prices\.json$/,
    methods: { POST: createComponentCurrencyPrices, PUT: updateComponentCurrencyPrices },
  },
  { pattern: /^\/coupons\/([^/]+)\/currency_prices\.json$/, methods: { PUT: couponCurrencyPrices } },
  // Custom fields of subscriptions and customers; the handlers refuse other resource types (404).
  {
    pattern: /^\/([a-z_]+)\/metafields\.json$/,
    methods: { POST: createMetafields, GET: listMetafields, PUT: updateMetafields, DELETE: deleteMetafield },
  },
  { pattern: /^\/reason_codes\.json$/, methods: { POST: createReasonCode, GET: listReasonCodes } },
  { pattern: /^\/reason_codes\/([^/]+)\.json$/, methods: { GET: readReasonCode, PUT: updateReasonCode, DELETE: deleteReasonCode } },
  // Offers: no update (the contract has none).
  { pattern: /^\/offers\.json$/, methods: { POST: createOffer, GET: listOffers } },
  { pattern: /^\/offers\/([^/]+)\.json$/, methods: { GET: readOffer } },
  { pattern: /^\/offers\/([^/]+)\/archive\.json$/, methods: { PUT: archiveOffer } },
  { pattern: /^\/offers\/([^/]+)\/unarchive\.json$/, methods: { PUT: unarchiveOffer } },
  { pattern: /^\/sites\/clear_data\.json$/, methods: { POST: clearSite } },
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
