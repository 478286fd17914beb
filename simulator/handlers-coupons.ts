import { type Answer, errorList, json } from "./answers";
import type { RestrictionChange } from "./coupons";
import { decodeSegment } from "./handlers-catalog";
import { withCouponCurrencyPrices } from "./handlers-currency-prices";
import { idList, pageOf, paging, positiveInt } from "./query";
import type { CouponRecord } from "./records";
import { asOrderedList, parse } from "./refusals";
import { renderCoupon } from "./render-components";
import type { RouteRequest } from "./routes";
import type { Site } from "./site";
import { SiteError } from "./site-error";
import { isObject, problemsOf, Refusal } from "./wire-catalog";
import { couponCreateBody, couponUpdateBody, restrictionMap } from "./wire-components";

/**
 * Coupons. Refusals are error lists (createCoupon's published 422); the
 * operations that publish none answer the same shape.
 */

const family = (site: Site, ref: string) => site.catalog.family(decodeSegment(ref, "Product family not found"));

function couponOf(site: Site, fRef: string, id: string): CouponRecord {
  const n = positiveInt(id);
  if (n === undefined) throw new SiteError(404, "Coupon not found");
  return site.coupons.inFamily(family(site, fRef), n);
}

export function renderSiteCoupon(site: Site, c: CouponRecord) {
  return renderCoupon(c, site.catalog.family(String(c.familyId)), (type, id) => {
    if (type === "Product") {
      const p = site.catalog.findProduct(id);
      return { name: p?.name ?? "", handle: p?.handle ?? null };
    }
    const k = site.components.find(id);
    return { name: k?.name ?? "", handle: k?.handle ?? null };
  });
}

const answer = (site: Site, c: CouponRecord, status = 200, req?: RouteRequest) =>
  json(status, { coupon: req ? withCouponCurrencyPrices(site, req, c, renderSiteCoupon(site, c)) : renderSiteCoupon(site, c) });

/** `restricted_products` and `restricted_components` beside `coupon` (the contract's request). */
function restrictions(body: unknown): RestrictionChange {
  const out: RestrictionChange = {};
  if (!isObject(body)) return out;
  for (const [key, to] of [
    ["restricted_products", "products"],
    ["restricted_components", "components"],
  ] as const) {
    if (body[key] === undefined || body[key] === null) continue;
    const parsed = restrictionMap.safeParse(body[key]);
    if (!parsed.success) throw new Refusal({ [key]: problemsOf(parsed.error).base ?? [`${key}: must map ids to true or false.`] });
    out[to] = parsed.data;
  }
  return out;
}

/** POST /product_families/{id}/coupons.json → 201. */
export function createCoupon(site: Site, [fRef]: string[], req: RouteRequest): Answer {
  const f = family(site, fRef);
  return asOrderedList(() => {
    const b = parse(couponCreateBody, req.body, "coupon");
    return answer(site, site.coupons.create(f, b, restrictions(req.body)), 201);
  });
}

export function readCoupon(site: Site, [fRef, id]: string[], req: RouteRequest): Answer {
  return answer(site, couponOf(site, fRef, id), 200, req);
}

/** PUT /product_families/{id}/coupons/{id}.json: what is given changes (an archived coupon too). */
export function updateCoupon(site: Site, [fRef, id]: string[], req: RouteRequest): Answer {
  const c = couponOf(site, fRef, id);
  return asOrderedList(() => answer(site, site.coupons.update(c, parse(couponUpdateBody, req.body, "coupon"), restrictions(req.body))));
}

/** DELETE /product_families/{id}/coupons/{id}.json: archives. */
export function archiveCoupon(site: Site, [fRef, id]: string[]): Answer {
  const c = couponOf(site, fRef, id);
  return asOrderedList(() => answer(site, site.coupons.archive(c)));
}

/** GET /coupons/find.json?code=…[&product_family_id=…]. */
export function findCoupon(site: Site, _p: string[], req: RouteRequest): Answer {
  const code = req.query.code;
  if (code === undefined || code === "") return errorList(422, "code: cannot be blank.");
  let familyId: number | undefined;
  if (req.query.product_family_id !== undefined) familyId = family(site, req.query.product_family_id).id;
  return answer(site, site.coupons.findByCode(code, familyId), 200, req);
}

export function listFamilyCoupons(site: Site, [fRef]: string[], req: RouteRequest): Answer {
  return listed(site, req, family(site, fRef).id);
}

export function listCoupons(site: Site, _p: string[], req: RouteRequest): Answer {
  return listed(site, req, undefined);
}

/** Oldest first, 30 a page (the contract's default for coupons); `filter[ids]`, `filter[codes]`. Date filters are not modelled. */
function listed(site: Site, req: RouteRequest, familyId: number | undefined): Answer {
  const pages = paging(req.query, 30);
  if (typeof pages === "string") return errorList(422, pages);
  const ids = idList(req.query["filter[ids]"]);
  if (typeof ids === "string") return errorList(422, ids);
  const codes = req.query["filter[codes]"]?.split(",").filter((s) => s !== "");
  const rows = site.coupons.list({ familyId, ids, codes });
  return json(
    200,
    pageOf(rows, pages).map((c) => ({ coupon: withCouponCurrencyPrices(site, req, c, renderSiteCoupon(site, c)) })),
  );
}
