import { type Answer, errorList, json } from "./answers";
import { asList, decodeSegment, flag, parse, productAnswer } from "./handlers-catalog";
import { paging } from "./query";
import { renderPricePoint } from "./render-catalog";
import type { RouteRequest } from "./routes";
import { pricePointType, type Site } from "./site";
import { PRICE_POINT_TYPES, type PricePointType } from "./wire";
import {
  isObject,
  PRICE_POINT_UPDATABLE,
  type PricePointBody,
  type Problems,
  pricePointBody,
  pricePointUpdateBody,
  problemsOf,
  Refusal,
  sorted,
  wrapped,
} from "./wire-catalog";

/**
 * A product's price points. `{product_id}` is "the id or handle of the
 * product. When using the handle, it must be prefixed with `handle:`", and so
 * is `{price_point_id}` (the contract). Refusals of a create come as an
 * object of field lists (`{"errors":{"price_in_cents":["…"]}}`), of a bulk
 * create as a map of indexed keys at the top level
 * (`{"price_points[0].interval":["…"]}`), both as the published examples
 * write them; the other operations publish (or are patched to) an error list.
 */

const product = (site: Site, ref: string) => site.catalog.productRef(decodeSegment(ref));

/**
 * GET /products/{id}/price_points.json: in the order made, 10 a page by
 * default; `filter[type]` a comma-separated list of types. Archived ones only
 * when asked for: the vendored contract has no parameter for it, the vendor's
 * later SDKs send `archived=true` ("Set to include archived price points in
 * the response", so they are left out otherwise); `include_archived=true`, the
 * product lists' name, is taken too.
 */
export function listPricePoints(site: Site, [ref]: string[], req: RouteRequest): Answer {
  const p = product(site, ref);
  const pages = paging(req.query, 10);
  if (typeof pages === "string") return errorList(422, pages);
  let types: readonly PricePointType[] = PRICE_POINT_TYPES;
  const filter = req.query["filter[type]"];
  if (filter !== undefined) {
    const asked = filter.split(",");
    const unknown = asked.filter((t) => !(PRICE_POINT_TYPES as readonly string[]).includes(t));
    if (unknown.length > 0)
      return errorList(422, `filter[type] must be a comma-separated list of ${PRICE_POINT_TYPES.join(", ")}; got '${unknown.join(",")}'.`);
    types = asked as PricePointType[];
  }
  const archived = flag(req.query, "archived");
  if (typeof archived === "string") return errorList(422, archived);
  const includeArchived = flag(req.query, "include_archived");
  if (typeof includeArchived === "string") return errorList(422, includeArchived);
  const rows = p.pricePoints.filter((pp) => types.includes(pricePointType(pp)) && (archived || includeArchived || pp.archivedAt === null));
  const page = rows.slice((pages.page - 1) * pages.perPage, pages.page * pages.perPage);
  return json(200, { price_points: page.map((pp) => renderPricePoint(p, pp)) });
}

/** POST /products/{id}/price_points.json → 201. An unknown product is a 404 whatever the body. */
export function createPricePoint(site: Site, [ref]: string[], req: RouteRequest): Answer {
  const p = product(site, ref);
  return asFields(() => {
    // The published refusal of a body without its object: a string where the other fields have lists.
    if (!isObject(wrapped(req.body, "price_point"))) return json(422, { errors: { price_point: "can't be blank" } });
    const parsed = pricePointBody.safeParse(wrapped(req.body, "price_point"));
    if (!parsed.success) throw new Refusal(problemsOf(parsed.error));
    return json(201, { price_point: renderPricePoint(p, site.catalog.createPricePoint(p, parsed.data)) });
  });
}

/** POST /products/{id}/price_points/bulk.json → 201, all or nothing. */
export function bulkCreatePricePoints(site: Site, [ref]: string[], req: RouteRequest): Answer {
  const p = product(site, ref);
  return asIndexed(() => {
    const list = wrapped(req.body, "price_points");
    if (!Array.isArray(list) || list.length === 0)
      throw new Refusal({ price_points: ["price_points must be an Array of at least one price point"] });
    const problems: Problems = {};
    const bodies: PricePointBody[] = [];
    list.forEach((entry, i) => {
      const parsed = pricePointBody.safeParse(entry);
      if (parsed.success) bodies.push(parsed.data);
      else for (const [k, v] of Object.entries(problemsOf(parsed.error))) problems[`price_points[${i}].${k}`] = v;
    });
    if (Object.keys(problems).length > 0) throw new Refusal(problems);
    const made = site.catalog.bulkCreatePricePoints(p, bodies);
    return json(201, { price_points: made.map((pp) => renderPricePoint(p, pp)) });
  });
}

export function readPricePoint(site: Site, [ref, ppRef]: string[]): Answer {
  const p = product(site, ref);
  return json(200, { price_point: renderPricePoint(p, site.catalog.pricePoint(p, decodeSegment(ppRef, "Price point not found"))) });
}

/**
 * PUT …/price_points/{id}.json: the contract's request has `handle` and
 * `price_in_cents` only. Anything else is refused naming the field (rather
 * than dropped, as the service's parameter filtering may): a caller that
 * sends an interval expects it to change, and it cannot.
 */
export function updatePricePoint(site: Site, [ref, ppRef]: string[], req: RouteRequest): Answer {
  const p = product(site, ref);
  const pp = site.catalog.pricePoint(p, decodeSegment(ppRef, "Price point not found"));
  return asList(() => {
    const inner = wrapped(req.body, "price_point");
    if (isObject(inner)) {
      const other = Object.keys(inner).filter((k) => !(PRICE_POINT_UPDATABLE as readonly string[]).includes(k));
      if (other.length > 0)
        throw new Refusal(
          Object.fromEntries(
            other.map((k) => [
              k,
              [
                `${k}: cannot be changed; a price point update takes only ${PRICE_POINT_UPDATABLE.join(" and ")} (make a new price point for other terms).`,
              ],
            ]),
          ),
        );
    }
    const b = parse(pricePointUpdateBody, req.body, "price_point");
    return json(200, { price_point: renderPricePoint(p, site.catalog.updatePricePoint(p, pp, b)) });
  });
}

/** DELETE …/price_points/{id}.json. */
export function archivePricePoint(site: Site, [ref, ppRef]: string[]): Answer {
  const p = product(site, ref);
  const pp = site.catalog.pricePoint(p, decodeSegment(ppRef, "Price point not found"));
  return asList(() => json(200, { price_point: renderPricePoint(p, site.catalog.archivePricePoint(pp)) }));
}

/** PATCH …/unarchive.json. */
export function unarchivePricePoint(site: Site, [ref, ppRef]: string[]): Answer {
  const p = product(site, ref);
  const pp = site.catalog.pricePoint(p, decodeSegment(ppRef, "Price point not found"));
  return json(200, { price_point: renderPricePoint(p, site.catalog.unarchivePricePoint(pp)) });
}

/** PATCH …/default.json: answered with the product (the contract's `Product Response`). */
export function promotePricePoint(site: Site, [ref, ppRef]: string[]): Answer {
  const p = product(site, ref);
  const pp = site.catalog.pricePoint(p, decodeSegment(ppRef, "Price point not found"));
  return asList(() => productAnswer(site, site.catalog.promotePricePoint(p, pp)));
}

/** Runs `f`; a Refusal becomes the price point 422: `{"errors":{field:[…]}}`, fields in alphabetical order. */
function asFields(f: () => Answer): Answer {
  try {
    return f();
  } catch (err) {
    if (!(err instanceof Refusal)) throw err;
    return json(422, { errors: sorted(err.problems) });
  }
}

/** Runs `f`; a Refusal becomes the bulk 422: the indexed keys at the top level, by index, then field. */
function asIndexed(f: () => Answer): Answer {
  try {
    return f();
  } catch (err) {
    if (!(err instanceof Refusal)) throw err;
    const order = (k: string) => {
      const m = /^price_points\[(\d+)\]\.(.*)$/.exec(k);
      return m ? ([Number(m[1]), m[2]] as const) : ([-1, k] as const);
    };
    const entries = Object.entries(err.problems).sort(([a], [b]) => {
      const [ia, fa] = order(a);
      const [ib, fb] = order(b);
      return ia !== ib ? ia - ib : fa < fb ? -1 : fa > fb ? 1 : 0;
    });
    return json(422, Object.fromEntries(entries));
  }
}
