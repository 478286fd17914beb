import { z } from "zod";
import { maybe, wireId } from "./common";

/** `GET /products/{id}.json`: the fields that resolve a price point. */
export const productResponse = z.object({
  product: z.object({
    id: wireId,
    handle: maybe(z.string()),
    name: maybe(z.string()),
    default_product_price_point_id: maybe(wireId),
  }),
});
export type ProductResponse = z.infer<typeof productResponse>;

/** `GET /products/{id}/price_points.json`: ids, handles and which one is the default. */
export const pricePointListResponse = z.object({
  price_points: z.array(z.object({
    id: wireId,
    handle: maybe(z.string()),
    name: maybe(z.string()),
    type: maybe(z.string()),
  })),
});
export type PricePointListResponse = z.infer<typeof pricePointListResponse>;

/** The contract's `per_page` maximum for price points. */
export const MAX_PRICE_POINTS_PER_PAGE = 200;
