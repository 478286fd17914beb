import { type Answer, errorList, json } from "./answers";
import { paging } from "./query";
import { renderPricePoint, renderProduct } from "./render";
import { renderSite } from "./render-site";
import type { RouteRequest } from "./routes";
import { pricePointType, type Site, SiteError } from "./site";
import { PRICE_POINT_TYPES, type PricePointType } from "./wire";

export function readProduct(site: Site, [id]: string[]): Answer {
  return json(200, renderProduct(site.product(Number(id))));
}

export function readProductByHandle(site: Site, [handle]: string[]): Answer {
  return json(200, renderProduct(site.productByHandle(decodeSegment(handle))));
}

/**
 * The contract's `product_id` here is "the id or handle of the product. When
 * using the handle, it must be prefixed with `handle:`". Price points come in
 * the order they were made; `filter[type]` is a comma-separated list.
 */
export function listPricePoints(site: Site, [ref]: string[], req: RouteRequest): Answer {
  const segment = decodeSegment(ref);
  const product = /^\d{1,15}$/.test(segment)
    ? site.product(Number(segment))
    : segment.startsWith("handle:")
      ? site.productByHandle(segment.slice("handle:".length))
      : notFound();
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
  const rows = product.pricePoints.filter((pp) => types.includes(pricePointType(pp)));
  const page = rows.slice((pages.page - 1) * pages.perPage, pages.page * pages.perPage);
  return json(200, { price_points: page.map((pp) => renderPricePoint(product, pp)) });
}

export function readSite(): Answer {
  return json(200, renderSite("simulator"));
}

function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return notFound();
  }
}

function notFound(): never {
  throw new SiteError(404, "Product not found");
}
