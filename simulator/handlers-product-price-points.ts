import { type Answer, json } from "./answers";
import { decodeSegment, productAnswer } from "./handlers-catalog";
import { withProductCurrencyPrices } from "./handlers-currency-prices";
import { pricePointHandlers } from "./handlers-price-points";
import { asFields, asIndexed, asList, parse } from "./refusals";
import { renderPricePoint } from "./render-catalog";
import type { RouteRequest } from "./routes";
import type { Site } from "./site";
import {
  isObject,
  PRICE_POINT_UPDATABLE,
  type PricePointBody,
  type Problems,
  pricePointBody,
  pricePointUpdateBody,
  problemsOf,
  Refusal,
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

/** List (10 a page by default), read, archive, unarchive (PATCH) and promote (PATCH, answered with the product). */
export const productPricePoints = pricePointHandlers({
  owner: product,
  pricePoints: (site) => site.catalog.pricePoints,
  render: (p, pp, site, req) => withProductCurrencyPrices(site, req, pp, renderPricePoint(p, pp)),
  ownerAnswer: (site, _req, p) => productAnswer(site, p),
  refusals: asList,
  list: { perPage: 10, status: 200 },
});

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

/**
 * PUT …/price_points/{id}.json: the contract's request has `handle` and
 * `price_in_cents` only. Anything else is refused naming the field (rather
 * than dropped, as the service's parameter filtering may): a caller that
 * sends an interval expects it to change, and it cannot.
 */
export function updatePricePoint(site: Site, [ref, ppRef]: string[], req: RouteRequest): Answer {
  const p = product(site, ref);
  const pp = site.catalog.pricePoints.find(p, decodeSegment(ppRef, "Price point not found"));
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
