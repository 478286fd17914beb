import { z } from "zod";
import { maybe, wireId } from "./common";

/** `GET /products/{id}.json`: the fields that resolve a price point. */
export const productResponse = z.object({
  product: z.object({
    id: wireId,
    handle: maybe(z.string()),
    name: maybe(z.string()),
    default_product_price_point_id: maybe(wireId),
    // On a product (not a subscription) these describe its default price point; older answers carry only these.
    product_price_point_id: maybe(wireId),
    product_price_point_handle: maybe(z.string()),
  }),
});
export type ProductResponse = z.infer<typeof productResponse>;

/** `GET /products/{id}/price_points.json`: ids, handles and which one is the default. */
export const pricePointListResponse = z.object({
  // One odd entry (the vendor publishes a price point with id 0) must not make the whole list unreadable.
  price_points: z.array(
    z.object({
      id: z.number().int().nonnegative(),
      handle: maybe(z.string()),
      name: maybe(z.string()),
      type: maybe(z.string()),
    }),
  ),
});
export type PricePointListResponse = z.infer<typeof pricePointListResponse>;

/** The contract's `per_page` maximum for price points. */
export const MAX_PRICE_POINTS_PER_PAGE = 200;
