import { z } from "zod";
import { maybe, timestamp, wireId } from "./common";
import { listedPricePoint, pricingFields, pricingRequestFields } from "./price-point";

/** An id that refers to another object; 0 is read, and means none (see `to-results.ts`). */
const ref = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/** The family embedded in a product: read for its id and handle, whatever else it holds. */
const embeddedFamily = z.object({
  id: maybe(z.number().int()),
  handle: maybe(z.string()),
  name: maybe(z.string()),
});

/**
 * `Product`, as read: what resolves a migration's price point, and the catalog's fields. Every
 * field but the id may be null or absent. On a product (not a subscription)
 * `product_price_point_id` and `product_price_point_handle` describe its default price point;
 * older answers carry only these.
 */
export const catalogProduct = z.object({
  id: wireId,
  handle: maybe(z.string()),
  name: maybe(z.string()),
  description: maybe(z.string()),
  accounting_code: maybe(z.string()),
  tax_code: maybe(z.string()),
  require_credit_card: maybe(z.boolean()),
  request_credit_card: maybe(z.boolean()),
  request_billing_address: maybe(z.boolean()),
  require_billing_address: maybe(z.boolean()),
  require_shipping_address: maybe(z.boolean()),
  archived_at: maybe(timestamp),
  created_at: maybe(timestamp),
  updated_at: maybe(timestamp),
  version_number: maybe(z.number().int()),
  // References: 0 (the vendor's placeholder example) names no price point and is read as none.
  default_product_price_point_id: maybe(ref),
  product_price_point_id: maybe(ref),
  product_price_point_handle: maybe(z.string()),
  product_price_point_name: maybe(z.string()),
  product_family: maybe(embeddedFamily),
  ...pricingFields,
});
/** A product as {@link catalogProduct} reads it, before the SDK turns it into its `Product` result. */
export type CatalogProduct = z.infer<typeof catalogProduct>;

/** `Product Response`: `GET /products/{id}.json`, by handle, create, update, archive, and the promote PATCH. */
export const productResponse = z.object({ product: catalogProduct });
/** The answer {@link productResponse} reads: `{ product }`. */
export type ProductResponse = z.infer<typeof productResponse>;

/**
 * `GET /products.json` and `GET /product_families/{id}/products.json`: a bare array of `{ product }`.
 * The vendor's example of the first is a placeholder with id 0: such an entry is read, then left
 * out by the SDK, so that one odd entry never makes the whole list unreadable.
 */
export const productListResponse = z.array(z.object({ product: catalogProduct.extend({ id: z.number().int().nonnegative() }) }));
/** The answer {@link productListResponse} reads: one page of `{ product }`, placeholder entries (id 0) included. */
export type ProductListResponse = z.infer<typeof productListResponse>;

/** `GET /products/{id}/price_points.json`: the price points, with their pricing when the answer has it. */
export const pricePointListResponse = z.object({
  // One odd entry (the vendor publishes a price point with id 0) must not make the whole list unreadable.
  price_points: z.array(listedPricePoint),
});
/** The answer {@link pricePointListResponse} reads: one page of a product's price points. */
export type PricePointListResponse = z.infer<typeof pricePointListResponse>;

/** The contract's `per_page` maximum for price points. */
export const MAX_PRICE_POINTS_PER_PAGE = 200;

/** The contract's `per_page` maximum for products. */
export const MAX_PRODUCTS_PER_PAGE = 200;

const productRequestFields = {
  name: z.string().min(1),
  handle: z.string().min(1),
  description: z.string(),
  accounting_code: z.string().optional(),
  tax_code: z.string().max(10).optional(),
  require_credit_card: z.boolean().optional(),
  request_credit_card: z.boolean().optional(),
  request_billing_address: z.boolean().optional(),
  require_billing_address: z.boolean().optional(),
  require_shipping_address: z.boolean().optional(),
  auto_create_signup_page: z.boolean().optional(),
  ...pricingRequestFields,
};

/**
 * `POST /product_families/{id}/products.json` body (`Create or Update Product Request`), with the
 * SDK's `uniqueness_token`. The contract requires `description`: the SDK sends "" when none is given.
 */
export const productRequest = z.object({ product: z.object(productRequestFields), uniqueness_token: z.string().optional() });
/** The body {@link productRequest} checks: what the SDK sends to create a product. */
export type ProductRequest = z.infer<typeof productRequest>;

/** `PUT /products/{id}.json` body: only the fields being changed. */
export const productUpdateRequest = z.object({ product: z.object(productRequestFields).partial() });
/** The body {@link productUpdateRequest} checks: only the fields being changed. */
export type ProductUpdateRequest = z.infer<typeof productUpdateRequest>;
