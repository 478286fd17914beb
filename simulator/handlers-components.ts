import { type Answer, errorList, json } from "./answers";
import { decodeSegment } from "./handlers-catalog";
import { withComponentCurrencyPrices } from "./handlers-currency-prices";
import { pricePointHandlers } from "./handlers-price-points";
import { archivedPaging, idList, pageOf } from "./query";
import type { ComponentKind, ComponentRecord } from "./records";
import { asFields, asOrderedList, parse } from "./refusals";
import { renderComponent, renderComponentPricePoint } from "./render-components";
import type { RouteRequest } from "./routes";
import type { Site } from "./site";
import { isObject, type Problems, problemsOf, Refusal, wrapped } from "./wire-catalog";
import {
  COMPONENT_KINDS,
  componentCreateBody,
  componentPricePointBody,
  componentPricePointUpdateBody,
  componentUpdateBody,
  NO_BRACKETS,
} from "./wire-components";

/**
 * Components and their price points. Refusals come in the shape each
 * operation publishes: component creates, updates and archives an error list
 * in the published order (`["Name: cannot be blank.", "Unit name: cannot be
 * blank.", "At least 1 price bracket must be defined", "Pricing scheme: …"]`);
 * a price point's create and update an object of field lists (`{"errors":{"prices":[…]}}`: the update's
 * published 422s; the create publishes none, and the vendor's client reads its 422 as the same shape,
 * `ErrorArrayMapResponseError`: maxio-com/ab-typescript-sdk, src/controllers/componentPricePointsController.ts,
 * createComponentPricePoint).
 */

/** What each kind's create schema has beyond the fields they all share (the contract's five schemas). */
const KIND_ONLY: Record<ComponentKind, readonly string[]> = {
  metered: [
    "unit_name",
    "pricing_scheme",
    "allow_fractional_quantities",
    "display_on_hosted_page",
    "public_signup_page_ids",
    "interval",
    "interval_unit",
  ],
  quantity_based: [
    "unit_name",
    "pricing_scheme",
    "recurring",
    "allow_fractional_quantities",
    "display_on_hosted_page",
    "public_signup_page_ids",
    "interval",
    "interval_unit",
  ],
  on_off: ["allow_fractional_quantities", "display_on_hosted_page", "public_signup_page_ids", "interval", "interval_unit"],
  prepaid_usage: [
    "unit_name",
    "pricing_scheme",
    "allow_fractional_quantities",
    "display_on_hosted_page",
    "public_signup_page_ids",
    "overage_pricing",
    "rollover_prepaid_remainder",
    "renew_prepaid_allocation",
    "expiration_interval",
    "expiration_interval_unit",
  ],
  event_based: ["unit_name", "pricing_scheme", "event_based_billing_metric_id", "interval", "interval_unit"],
};
const SHARED = [
  "name",
  "description",
  "handle",
  "taxable",
  "prices",
  "upgrade_charge",
  "downgrade_credit",
  "price_points",
  "unit_price",
  "price_in_cents",
  "tax_code",
  "hide_date_range_on_invoice",
  "accounting_code",
  "item_category",
];
/** Required beyond `name`, per the kind's create schema. */
const REQUIRED: Record<ComponentKind, readonly ("unit_name" | "pricing_scheme" | "event_based_billing_metric_id")[]> = {
  metered: ["unit_name", "pricing_scheme"],
  quantity_based: ["unit_name", "pricing_scheme"],
  on_off: [],
  prepaid_usage: [],
  event_based: ["unit_name", "pricing_scheme", "event_based_billing_metric_id"],
};
const LABEL = { unit_name: "Unit name", pricing_scheme: "Pricing scheme", event_based_billing_metric_id: "Event based billing metric" };

export const isComponentKind = (k: string): k is ComponentKind => (COMPONENT_KINDS as readonly string[]).includes(k);

const family = (site: Site, ref: string) => site.catalog.family(decodeSegment(ref, "Product family not found"));
const component = (site: Site, ref: string) => site.components.component(decodeSegment(ref, "Component not found"));

export function componentAnswer(site: Site, req: RouteRequest, c: ComponentRecord, status = 200): Answer {
  return json(status, { component: renderComponent(c, site.catalog.family(String(c.familyId)), req.baseUrl) });
}

/** POST /product_families/{id}/{kind}_components.json → 201, the body under `{kind}_component`. */
export function createComponent(site: Site, [ref, kind]: string[], req: RouteRequest): Answer {
  if (!isComponentKind(kind)) return errorList(404, `Not found: ${req.method} ${req.path}`);
  const f = family(site, ref);
  return asOrderedList(() => {
    const key = `${kind}_component`;
    const inner = wrapped(req.body, key);
    if (!isObject(inner)) throw new Refusal({ [key]: [`${key} must be an Object`] });
    const allowed = new Set([...SHARED, ...KIND_ONLY[kind]]);
    const given = Object.fromEntries(Object.entries(inner).filter(([k]) => allowed.has(k)));
    const problems: Problems = {};
    const parsed = componentCreateBody.safeParse(given);
    if (!parsed.success) Object.assign(problems, problemsOf(parsed.error));
    for (const field of REQUIRED[kind])
      if (given[field] === undefined || given[field] === null) {
        problems[field] ??= [];
        const blank = `${LABEL[field]}: cannot be blank.`;
        if (!problems[field].includes(blank)) problems[field].unshift(blank);
        // The published example: a missing scheme is both blank and not one of the allowed values.
        const notAllowed = `${LABEL[field]}: is not one of the allowed values.`;
        if (field === "pricing_scheme" && !problems[field].includes(notAllowed)) problems[field].push(notAllowed);
      }
    const hasPrices = Array.isArray(given.prices) && given.prices.length > 0;
    const hasUnitPrice = given.unit_price != null || given.price_in_cents != null;
    if (!hasPrices && !(hasUnitPrice && (given.pricing_scheme ?? "per_unit") === "per_unit")) problems.prices = [NO_BRACKETS];
    if (Object.keys(problems).length > 0 || !parsed.success) throw new Refusal(problems);
    return componentAnswer(site, req, site.components.create(f, kind, parsed.data), 201);
  });
}

/** GET /components/lookup.json?handle=…: archived components too (they keep their handle). */
export function lookupComponent(site: Site, _p: string[], req: RouteRequest): Answer {
  const handle = req.query.handle;
  if (handle === undefined || handle === "") return errorList(422, "handle: cannot be blank.");
  return componentAnswer(site, req, site.components.byHandle(handle));
}

/** GET /product_families/{id}/components/{id}.json. */
export function readFamilyComponent(site: Site, [fRef, cRef]: string[], req: RouteRequest): Answer {
  return componentAnswer(site, req, site.components.inFamily(family(site, fRef), decodeSegment(cRef, "Component not found")));
}

/** PUT /product_families/{id}/components/{id}.json. */
export function updateFamilyComponent(site: Site, [fRef, cRef]: string[], req: RouteRequest): Answer {
  const c = site.components.inFamily(family(site, fRef), decodeSegment(cRef, "Component not found"));
  return asOrderedList(() => componentAnswer(site, req, site.components.update(c, parse(componentUpdateBody, req.body, "component"))));
}

/** PUT /components/{id}.json. */
export function updateComponent(site: Site, [cRef]: string[], req: RouteRequest): Answer {
  const c = component(site, cRef);
  return asOrderedList(() => componentAnswer(site, req, site.components.update(c, parse(componentUpdateBody, req.body, "component"))));
}

/** DELETE /product_families/{id}/components/{id}.json: archives, and answers the bare component (the contract's `Component`, not wrapped). */
export function archiveComponent(site: Site, [fRef, cRef]: string[], req: RouteRequest): Answer {
  const c = site.components.inFamily(family(site, fRef), decodeSegment(cRef, "Component not found"));
  return asOrderedList(() => {
    site.components.archive(c);
    return json(200, renderComponent(c, site.catalog.family(String(c.familyId)), req.baseUrl));
  });
}

/** GET /product_families/{id}/components.json. */
export function listFamilyComponents(site: Site, [fRef]: string[], req: RouteRequest): Answer {
  return listed(site, req, family(site, fRef).id);
}

/** GET /components.json. */
export function listComponents(site: Site, _p: string[], req: RouteRequest): Answer {
  return listed(site, req, undefined);
}

/** Oldest first, 20 a page (the contract), archived ones only with `include_archived=true`; `filter[ids]`. Date filters are not modelled. */
function listed(site: Site, req: RouteRequest, familyId: number | undefined): Answer {
  const q = archivedPaging(req.query, 20);
  if (typeof q === "string") return errorList(422, q);
  const ids = idList(req.query["filter[ids]"]);
  if (typeof ids === "string") return errorList(422, ids);
  const rows = site.components.list({ familyId, includeArchived: q.includeArchived, ids });
  return json(
    200,
    pageOf(rows, q).map((c) => ({ component: renderComponent(c, site.catalog.family(String(c.familyId)), req.baseUrl) })),
  );
}

// ---- price points -----------------------------------------------------------

/**
 * List (20 a page, the contract's `per_page` default; answered 201, the status
 * the contract publishes for this read: a 200 would break it), read, archive,
 * unarchive (PUT) and promote (PUT, answered with the component).
 */
export const componentPricePoints = pricePointHandlers({
  owner: component,
  pricePoints: (site) => site.components.pricePoints,
  render: (c, pp, site, req) => withComponentCurrencyPrices(site, req, pp, renderComponentPricePoint(c, pp)),
  ownerAnswer: componentAnswer,
  refusals: asOrderedList,
  list: { perPage: 20, status: 201 },
});

/** POST /components/{id}/price_points.json → 200 (the contract's status for it); refusals as an object of field lists (see above). */
export function createComponentPricePoint(site: Site, [cRef]: string[], req: RouteRequest): Answer {
  const c = component(site, cRef);
  return asFields(() => {
    const b = parse(componentPricePointBody, req.body, "price_point");
    return json(200, { price_point: renderComponentPricePoint(c, site.components.createPricePoint(c, b)) });
  });
}

/** PUT …/price_points/{id}.json: refusals as an object of field lists (the published 422s). */
export function updateComponentPricePoint(site: Site, [cRef, ppRef]: string[], req: RouteRequest): Answer {
  const c = component(site, cRef);
  const pp = site.components.pricePoints.find(c, decodeSegment(ppRef, "Price point not found"));
  return asFields(() => {
    const b = parse(componentPricePointUpdateBody, req.body, "price_point");
    return json(200, { price_point: renderComponentPricePoint(c, site.components.updatePricePoint(c, pp, b)) });
  });
}
