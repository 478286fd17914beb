import { type Answer, errorList, json } from "./answers";
import { archivedPaging, pageOf } from "./query";
import { asList, parse } from "./refusals";
import { renderFamily, renderProduct } from "./render-catalog";
import { renderSite } from "./render-site";
import type { RouteRequest } from "./routes";
import { type Site, SiteError } from "./site";
import { FAMILY_REQUIRED, familyBody, productCreateBody, productUpdateBody } from "./wire-catalog";

/**
 * Product families and products. Refusals come in the shape each operation
 * publishes: families and products answer an error list (`{"errors":["Name:
 * cannot be blank."]}`); price points (handlers-product-price-points.ts) an object of
 * field lists, and a bulk create a map of indexed keys.
 */

// ---- families -------------------------------------------------------------

/** POST /product_families.json → 201. */
export function createFamily(site: Site, _p: string[], req: RouteRequest): Answer {
  return asList(() => {
    const b = parse(familyBody, req.body, "product_family");
    return json(201, { product_family: renderFamily(site.catalog.createFamily(b)) });
  });
}

/**
 * GET /product_families.json: every family, oldest first, as a bare array.
 * The contract gives this list no `page`/`per_page` (unlike the product
 * lists), so none is applied: a client that pages it gets every family on
 * every page. Its date filters are not modelled (ignored).
 */
export function listFamilies(site: Site): Answer {
  return json(
    200,
    site.catalog.families().map((f) => ({ product_family: renderFamily(f) })),
  );
}

/** GET /product_families/{id}.json, `{id}` the id or `handle:<handle>`. */
export function readFamily(site: Site, [ref]: string[]): Answer {
  return json(200, { product_family: renderFamily(site.catalog.family(decodeSegment(ref, "Product family not found"))) });
}

// ---- products -------------------------------------------------------------

/** POST /product_families/{id}/products.json → 201. An unknown family is a 404 whatever the body. */
export function createProduct(site: Site, [ref]: string[], req: RouteRequest): Answer {
  const family = site.catalog.family(decodeSegment(ref, "Product family not found"));
  return asList(() => {
    const b = parse(productCreateBody, req.body, "product");
    const p = site.catalog.createProduct(family, b);
    return json(201, { product: renderProduct(p, family) });
  });
}

/**
 * GET /product_families/{id}/products.json. An unknown family is answered
 * with the published 404: a bare JSON string, not an error list.
 */
export function listFamilyProducts(site: Site, [ref]: string[], req: RouteRequest): Answer {
  let familyId: number;
  try {
    familyId = site.catalog.family(decodeSegment(ref, "Product family not found")).id;
  } catch (err) {
    if (err instanceof SiteError && err.status === 404) throw SiteError.bare(404, FAMILY_REQUIRED);
    throw err;
  }
  return listed(site, req, familyId);
}

/** GET /products.json: every family's products. */
export function listProducts(site: Site, _p: string[], req: RouteRequest): Answer {
  return listed(site, req, undefined);
}

/** Oldest first, 20 a page by default (the contract), archived ones only with `include_archived=true`. Date filters are not modelled. */
function listed(site: Site, req: RouteRequest, familyId: number | undefined): Answer {
  const q = archivedPaging(req.query, 20);
  if (typeof q === "string") return errorList(422, q);
  const rows = site.catalog.products({ familyId, includeArchived: q.includeArchived });
  return json(
    200,
    pageOf(rows, q).map((p) => ({ product: renderProduct(p, site.catalog.familyOf(p)) })),
  );
}

export function readProduct(site: Site, [id]: string[]): Answer {
  return productAnswer(site, site.catalog.product(Number(id)));
}

/** GET /products/handle/{handle}.json: archived products too (with `archived_at` set): they keep their handle. */
export function readProductByHandle(site: Site, [handle]: string[]): Answer {
  return productAnswer(site, site.catalog.productByHandle(decodeSegment(handle)));
}

/** PUT /products/{id}.json. An unknown product is a 404 whatever the body. */
export function updateProduct(site: Site, [id]: string[], req: RouteRequest): Answer {
  const p = site.catalog.product(Number(id));
  return asList(() => productAnswer(site, site.catalog.updateProduct(p, parse(productUpdateBody, req.body, "product"))));
}

/** DELETE /products/{id}.json: archives. */
export function archiveProduct(site: Site, [id]: string[]): Answer {
  const p = site.catalog.product(Number(id));
  return asList(() => productAnswer(site, site.catalog.archiveProduct(p)));
}

export function readSite(site: Site): Answer {
  return json(200, renderSite("simulator", site.settings));
}

// ---- shared ---------------------------------------------------------------

export function productAnswer(site: Site, p: Parameters<typeof renderProduct>[0]): Answer {
  return json(200, { product: renderProduct(p, site.catalog.familyOf(p)) });
}

/** A path segment as text; one that does not decode names nothing (404 with `what`). */
export function decodeSegment(s: string, what = "Product not found"): string {
  try {
    return decodeURIComponent(s);
  } catch {
    throw new SiteError(404, what);
  }
}
