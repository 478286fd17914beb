import { type Answer, empty, errorList, json } from "./answers";
import { includeOption, METAFIELD_INPUT_TYPES, METAFIELD_RESOURCES, type MetafieldChange, NAME_REQUIRED, NO_SCOPE } from "./metafields";
import type { MetafieldInputType, MetafieldRecord, MetafieldResource, MetafieldScopeRecord } from "./records-site";
import type { RouteRequest } from "./routes";
import type { Site } from "./site";
import { SiteError } from "./site-error";
import { MAX_PER_PAGE } from "./wire";
import { isObject } from "./wire-catalog";

/**
 * `/{resource_type}/metafields.json`, `resource_type` subscriptions or
 * customers. Refusals of a body are the contract's `Single Error Response`
 * (`{"error": "…"}`, createMetafields' and updateMetafield's published 422s);
 * a bad page is an error list, worded as the vendor's end-to-end suite reads
 * it from a real site ("invalid page: -1").
 */

export function renderMetafield(m: MetafieldRecord) {
  return {
    id: m.id,
    name: m.name,
    scope: {
      csv: m.scope.csv,
      invoices: m.scope.invoices,
      statements: m.scope.statements,
      portal: m.scope.portal,
      public_show: m.scope.publicShow,
      public_edit: m.scope.publicEdit,
      hosted: m.scope.hosted,
    },
    data_count: m.dataCount,
    input_type: m.inputType,
    enum: m.enum,
  };
}

function resourceOf(ref: string): MetafieldResource {
  if (!(METAFIELD_RESOURCES as readonly string[]).includes(ref)) throw new SiteError(404, `Not found: no metafields for '${ref}'`);
  return ref as MetafieldResource;
}

const refuse = (error: string): never => {
  throw new SiteError(422, { error });
};

/** `metafields`: one object or a list of them (the contract's `oneOf`). */
function entriesOf(body: unknown): Record<string, unknown>[] {
  const inner = isObject(body) ? body.metafields : undefined;
  const list = Array.isArray(inner) ? inner : inner === undefined || inner === null ? [] : [inner];
  if (list.length === 0 || !list.every(isObject)) refuse(NAME_REQUIRED);
  return list as Record<string, unknown>[];
}

/** What an entry says about a field: each key only when given; a scope given is made whole (left-out options excluded). */
function changeOf(e: Record<string, unknown>): MetafieldChange {
  const c: MetafieldChange = {};
  if (e.name !== undefined) {
    if (typeof e.name !== "string" || e.name.trim() === "") refuse(NAME_REQUIRED);
    c.name = e.name as string;
  }
  if (e.input_type !== undefined) {
    if (!(METAFIELD_INPUT_TYPES as readonly unknown[]).includes(e.input_type))
      refuse(`'input_type' must be one of ${METAFIELD_INPUT_TYPES.join(", ")}`);
    c.inputType = e.input_type as MetafieldInputType;
  }
  if (e.enum !== undefined) {
    if (e.enum !== null && !(Array.isArray(e.enum) && e.enum.every((v) => typeof v === "string")))
      refuse("'enum' must be a list of the allowed values");
    // Blank values are dropped: the suite's update with `enum: ["", ""]` is answered 200.
    c.enum = e.enum === null ? null : (e.enum as string[]).filter((v) => v.trim() !== "");
  }
  if (e.scope !== undefined) c.scope = scopeOf(e.scope);
  return c;
}

function scopeOf(raw: unknown): MetafieldScopeRecord {
  if (!isObject(raw)) return refuse("'scope' must be an object");
  const scope: MetafieldScopeRecord = { ...NO_SCOPE, hosted: [] };
  for (const [wire, key] of [
    ["csv", "csv"],
    ["invoices", "invoices"],
    ["statements", "statements"],
    ["portal", "portal"],
    ["public_show", "publicShow"],
    ["public_edit", "publicEdit"],
  ] as const) {
    if (raw[wire] === undefined) continue;
    const v = includeOption(raw[wire]);
    if (v === undefined) refuse(`'scope.${wire}' must be "0" or "1"`);
    else scope[key] = v;
  }
  if (raw.hosted !== undefined) {
    if (!Array.isArray(raw.hosted) || !raw.hosted.every((h) => typeof h === "string")) refuse("'scope.hosted' must be a list");
    scope.hosted = [...(raw.hosted as string[])];
  }
  return scope;
}

/** POST → 200 with the fields made (or, for a name that exists, changed), in the order given. */
export function createMetafields(site: Site, [ref]: string[], req: RouteRequest): Answer {
  const resource = resourceOf(ref);
  const changes = entriesOf(req.body).map((e) => {
    const c = changeOf(e);
    if (c.name === undefined) return refuse(NAME_REQUIRED);
    // A text field has no allowed values (the published create example writes null).
    if ((c.inputType ?? "text") === "text" && c.enum !== undefined && c.enum !== null && c.enum.length === 0) c.enum = null;
    return { ...c, name: c.name };
  });
  return json(200, site.metafields.create(resource, changes).map(renderMetafield));
}

/** GET: `name`, `page`, `per_page` (20, at most 200; a bad one is the default, as the suite reads it), `direction`. */
export function listMetafields(site: Site, [ref]: string[], req: RouteRequest): Answer {
  const resource = resourceOf(ref);
  const q = req.query;
  let page = 1;
  if (q.page !== undefined) {
    if (!/^\d{1,9}$/.test(q.page) || Number(q.page) < 1) return errorList(422, `invalid page: ${q.page}`);
    page = Number(q.page);
  }
  const asked = q.per_page !== undefined && /^\d{1,9}$/.test(q.per_page) ? Number(q.per_page) : 0;
  const perPage = asked >= 1 ? Math.min(asked, MAX_PER_PAGE) : 20;
  if (q.direction !== undefined && q.direction !== "asc" && q.direction !== "desc")
    return errorList(422, `direction must be asc or desc; got '${q.direction}'.`);
  const rows = site.metafields.list(resource, { name: q.name, descending: q.direction === "desc" });
  return json(200, {
    total_count: rows.length,
    current_page: page,
    total_pages: Math.ceil(rows.length / perPage),
    per_page: perPage,
    metafields: rows.slice((page - 1) * perPage, page * perPage).map(renderMetafield),
  });
}

/** PUT → 200 with the fields changed; each entry names its field by `current_name`. */
export function updateMetafields(site: Site, [ref]: string[], req: RouteRequest): Answer {
  const resource = resourceOf(ref);
  const updates = entriesOf(req.body).map((e) => {
    if (typeof e.current_name !== "string" || e.current_name === "") return refuse("'current_name' must be present to update metafields");
    return { currentName: e.current_name, change: changeOf(e) };
  });
  return json(200, site.metafields.update(resource, updates).map(renderMetafield));
}

/** DELETE ?name=… → 200 without a body; no name, or an unknown one, is a 404. */
export function deleteMetafield(site: Site, [ref]: string[], req: RouteRequest): Answer {
  const resource = resourceOf(ref);
  const name = req.query.name;
  if (name === undefined || name === "") throw new SiteError(404, "Metafield not found: give its name (?name=)");
  site.metafields.delete(resource, name);
  return empty(200);
}
