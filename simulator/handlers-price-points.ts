import { type Answer, errorList, json } from "./answers";
import { decodeSegment } from "./handlers-catalog";
import type { Owner, PricePoint, PricePoints } from "./price-points";
import { flag, pageOf, paging } from "./query";
import type { Handler, RouteRequest } from "./routes";
import { pricePointType, type Site } from "./site";
import { PRICE_POINT_TYPES, type PricePointType } from "./wire";

/**
 * The price point operations a product and a component both have: list, read,
 * archive, unarchive, promote to the default. The service answers them by the
 * same rules; what the contract publishes differently for the two (the page
 * size, the list's status, the shape of a refusal, the owner's answer) is the
 * owner's, given by `PricePointOwner`. `{price_point_id}` is the id or
 * `handle:<handle>`, as is the owner's id.
 */
export interface PricePointOwner<O extends Owner<P>, P extends PricePoint> {
  /** The path's `{product_id}` or `{component_id}`; 404 when there is none. */
  owner(site: Site, ref: string): O;
  pricePoints(site: Site): PricePoints<P>;
  /** The price point's answer; `site` and `req` for what a read may add (`?currency_prices=true`). */
  render(o: O, pp: P, site: Site, req: RouteRequest): unknown;
  /** What a promotion answers: the owner (the contract's `Product Response`, `Component Response`). */
  ownerAnswer(site: Site, req: RouteRequest, o: O): Answer;
  /** Runs an archive or a promotion, its refusal in the owner's published shape. */
  refusals(f: () => Answer): Answer;
  /** The list's default page size and its status (the contract's for each). */
  list: { perPage: number; status: number };
}

export function pricePointHandlers<O extends Owner<P>, P extends PricePoint>(k: PricePointOwner<O, P>) {
  const named = (site: Site, [ref, ppRef]: string[]) => {
    const o = k.owner(site, ref);
    return { o, pp: k.pricePoints(site).find(o, decodeSegment(ppRef, "Price point not found")) };
  };
  const answer = (o: O, pp: P, site: Site, req: RouteRequest) => json(200, { price_point: k.render(o, pp, site, req) });
  return {
    /**
     * GET …/price_points.json: in the order made; `filter[type]` a
     * comma-separated list of types. Archived ones only when asked for: the
     * vendored contract has no parameter for it, the vendor's later SDKs send
     * `archived=true` ("Set to include archived price points in the response",
     * so they are left out otherwise); `include_archived=true`, the owner
     * lists' name, is taken too.
     */
    list(site: Site, [ref]: string[], req: RouteRequest): Answer {
      const o = k.owner(site, ref);
      const pages = paging(req.query, k.list.perPage);
      if (typeof pages === "string") return errorList(422, pages);
      let types: readonly PricePointType[] = PRICE_POINT_TYPES;
      const filter = req.query["filter[type]"];
      if (filter !== undefined) {
        const asked = filter.split(",");
        const unknown = asked.filter((t) => !(PRICE_POINT_TYPES as readonly string[]).includes(t));
        if (unknown.length > 0)
          return errorList(
            422,
            `filter[type] must be a comma-separated list of ${PRICE_POINT_TYPES.join(", ")}; got '${unknown.join(",")}'.`,
          );
        types = asked as PricePointType[];
      }
      const archived = flag(req.query, "archived");
      if (typeof archived === "string") return errorList(422, archived);
      const includeArchived = flag(req.query, "include_archived");
      if (typeof includeArchived === "string") return errorList(422, includeArchived);
      const rows = o.pricePoints.filter(
        (pp) => types.includes(pricePointType(pp)) && (archived || includeArchived || pp.archivedAt === null),
      );
      return json(k.list.status, { price_points: pageOf(rows, pages).map((pp) => k.render(o, pp, site, req)) });
    },

    read(site: Site, params: string[], req: RouteRequest): Answer {
      const { o, pp } = named(site, params);
      return answer(o, pp, site, req);
    },

    /** DELETE …/price_points/{id}.json. */
    archive(site: Site, params: string[], req: RouteRequest): Answer {
      const { o, pp } = named(site, params);
      return k.refusals(() => answer(o, k.pricePoints(site).archive(pp), site, req));
    },

    /** …/unarchive.json: it refuses nothing. */
    unarchive(site: Site, params: string[], req: RouteRequest): Answer {
      const { o, pp } = named(site, params);
      return answer(o, k.pricePoints(site).unarchive(pp), site, req);
    },

    /** …/default.json: answered with the owner. */
    promote(site: Site, params: string[], req: RouteRequest): Answer {
      const { o, pp } = named(site, params);
      return k.refusals(() => k.ownerAnswer(site, req, k.pricePoints(site).promote(o, pp)));
    },
  } satisfies Record<string, Handler>;
}
