import { type Answer, empty, errorList, json } from "./answers";
import { defaultComponentPricePoint } from "./components";
import { archivedPaging, pageOf, positiveInt } from "./query";
import type { OfferRecord } from "./records-site";
import { asFields } from "./refusals";
import { SITE_ID } from "./render-site";
import type { RouteRequest } from "./routes";
import type { Site } from "./site";
import { SiteError } from "./site-error";
import { isObject, Refusal, wrapped } from "./wire-catalog";
import { offerBody, offerProblems } from "./wire-site-config";

/**
 * Offers. A create's refusals are the contract's `Error Array Map Response`
 * (`{"errors":{"components":["…"]}}`, createOffer's published 422). Archive
 * and unarchive answer 200 with no body (the contract publishes no content for
 * them; the vendor's SDKs type them `void`).
 */

/**
 * The contract's `Offer`: every key of the schema, the names and prices of
 * what it holds as they are now. `starting_quantity` is decimal text ("1.0",
 * published); an item's `component_unit_price` is its price point's first
 * bracket's; `currency_prices` of an item is always empty, as the published
 * list example writes it (the schema types it a product price point's
 * `Currency Price`, which a component has none of).
 */
export function renderOffer(site: Site, o: OfferRecord) {
  const product = site.catalog.findProduct(o.productId);
  const pp = product?.pricePoints.find((x) => x.id === o.pricePointId);
  const family = product ? site.catalog.familyOf(product) : undefined;
  return {
    id: o.id,
    site_id: SITE_ID,
    product_family_id: family?.id ?? 0,
    product_family_name: family?.name ?? "",
    product_id: o.productId,
    product_name: product?.name ?? "",
    product_price_in_cents: pp?.priceInCents ?? 0,
    product_revisable_number: 0,
    product_price_point_id: o.pricePointId,
    product_price_point_name: pp?.name ?? "",
    name: o.name,
    handle: o.handle,
    description: o.description,
    created_at: o.createdAt,
    updated_at: o.updatedAt,
    archived_at: o.archivedAt,
    offer_items: o.items.map((i) => {
      const c = site.components.find(i.componentId);
      const cpp = c?.pricePoints.find((x) => x.id === i.pricePointId) ?? (c ? defaultComponentPricePoint(c) : undefined);
      return {
        component_id: i.componentId,
        component_name: c?.name ?? "",
        component_unit_price: cpp?.prices[0]?.unitPrice ?? "0.0",
        price_point_id: i.pricePointId,
        price_point_name: cpp?.name ?? "",
        starting_quantity: `${i.startingQuantity}.0`,
        editable: false,
        currency_prices: [],
      };
    }),
    offer_discounts: o.couponIds.map((id) => {
      const c = site.coupons.list({ ids: [id] })[0];
      return { coupon_id: id, coupon_code: c?.code ?? "", coupon_name: c?.name ?? "" };
    }),
    offer_signup_pages: o.signupPages.map((s) => ({
      id: s.id,
      nickname: s.nickname,
      enabled: s.enabled,
      return_url: "",
      return_params: "",
      url: s.url,
    })),
  };
}

function offerOf(site: Site, ref: string): OfferRecord {
  const id = positiveInt(ref);
  if (id === undefined) throw new SiteError(404, "Offer not found");
  return site.offers.get(id);
}

/** POST /offers.json → 201. */
export function createOffer(site: Site, _p: string[], req: RouteRequest): Answer {
  return asFields(() => {
    const inner = wrapped(req.body, "offer");
    if (!isObject(inner)) throw new Refusal({ offer: ["offer must be an Object"] });
    const parsed = offerBody.safeParse(inner);
    if (!parsed.success) throw new Refusal(offerProblems(parsed.error));
    return json(201, { offer: renderOffer(site, site.offers.create(parsed.data)) });
  });
}

/** GET /offers.json: oldest first, 20 a page, archived ones only with `include_archived=true`. */
export function listOffers(site: Site, _p: string[], req: RouteRequest): Answer {
  const q = archivedPaging(req.query, 20);
  if (typeof q === "string") return errorList(422, q);
  return json(200, { offers: pageOf(site.offers.list(q.includeArchived), q).map((o) => renderOffer(site, o)) });
}

export function readOffer(site: Site, [ref]: string[]): Answer {
  return json(200, { offer: renderOffer(site, offerOf(site, ref)) });
}

export function archiveOffer(site: Site, [ref]: string[]): Answer {
  site.offers.archive(offerOf(site, ref));
  return empty(200);
}

export function unarchiveOffer(site: Site, [ref]: string[]): Answer {
  site.offers.unarchive(offerOf(site, ref));
  return empty(200);
}
