import { z } from "zod";
import { cents, maybe, timestamp, wireId } from "./common";
import { productCurrencyPrice } from "./currency-price";

/**
 * The pricing fields a product and a price point share, as read. All may be null or absent (the
 * vendor's examples leave most out); a value of the wrong type is refused, since reading it as
 * absent would report a price the service does not hold. Units are read as text: the contract's
 * enums (`day`, `month`, and `never` for expirations) may grow.
 */
export const pricingFields = {
  price_in_cents: maybe(cents),
  interval: maybe(z.number().int()),
  interval_unit: maybe(z.string()),
  trial_price_in_cents: maybe(cents),
  trial_interval: maybe(z.number().int()),
  trial_interval_unit: maybe(z.string()),
  trial_type: maybe(z.string()),
  initial_charge_in_cents: maybe(cents),
  initial_charge_after_trial: maybe(z.boolean()),
  expiration_interval: maybe(z.number().int()),
  expiration_interval_unit: maybe(z.string()),
};

/** The pricing fields as a wire object. */
export type PricingFields = { [K in keyof typeof pricingFields]?: z.infer<(typeof pricingFields)[K]> };

/**
 * `Product Price Point`. Timestamps are text: the vendor publishes them with a space instead of
 * 'T' ("2023-11-30 06:37:20-05:00"), and nothing here computes with them.
 */
export const pricePoint = z.object({
  id: wireId,
  name: maybe(z.string()),
  handle: maybe(z.string()),
  type: maybe(z.string()),
  // 0 (a placeholder) names no product and is read as none.
  product_id: maybe(z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER)),
  archived_at: maybe(timestamp),
  created_at: maybe(timestamp),
  updated_at: maybe(timestamp),
  use_site_exchange_rate: maybe(z.boolean()),
  // Only with `?currency_prices=true` on a read, on a site with other currencies.
  currency_prices: maybe(z.array(productCurrencyPrice)),
  ...pricingFields,
});
/** A price point as {@link pricePoint} reads it, before the SDK turns it into its `PricePoint` result. */
export type PricePoint = z.infer<typeof pricePoint>;

/** `Product Price Point Response`: `{ price_point }` (create, read, update, archive, unarchive). */
export const pricePointResponse = z.object({ price_point: pricePoint });
/** The answer {@link pricePointResponse} reads: `{ price_point }`. */
export type PricePointResponse = z.infer<typeof pricePointResponse>;

/** A price point in a list: an id of 0 (the vendor publishes one) is read, then left out by the SDK. */
export const listedPricePoint = pricePoint.extend({ id: z.number().int().nonnegative() });

/** The pricing fields of a create or update body (`Create Product Price Point`, `Create or Update Product`). */
export const pricingRequestFields = {
  price_in_cents: z.number().int().nonnegative(),
  interval: z.number().int().positive(),
  interval_unit: z.enum(["day", "month"]),
  trial_price_in_cents: z.number().int().nonnegative().optional(),
  trial_interval: z.number().int().positive().optional(),
  trial_interval_unit: z.enum(["day", "month"]).optional(),
  trial_type: z.string().optional(),
  initial_charge_in_cents: z.number().int().nonnegative().optional(),
  initial_charge_after_trial: z.boolean().optional(),
  expiration_interval: z.number().int().positive().optional(),
  // "never" is the service's own value (its answers carry it) and is sent only by an update that removes an expiration.
  expiration_interval_unit: z.enum(["day", "month", "never"]).optional(),
};

/** `POST /products/{product_id}/price_points.json` body, with the SDK's `uniqueness_token`. */
export const pricePointRequest = z.object({
  price_point: z.object({
    name: z.string().min(1),
    handle: z.string().min(1),
    use_site_exchange_rate: z.boolean().optional(),
    ...pricingRequestFields,
  }),
  uniqueness_token: z.string().optional(),
});
/** The body {@link pricePointRequest} checks: what the SDK sends to create a price point. */
export type PricePointRequest = z.infer<typeof pricePointRequest>;

/** `PUT /products/{product_id}/price_points/{price_point_id}.json` body: only these two fields. */
export const pricePointUpdateRequest = z.object({
  price_point: z.object({ handle: z.string().min(1).optional(), price_in_cents: z.number().int().nonnegative().optional() }),
});
/** The body {@link pricePointUpdateRequest} checks: `handle` and/or `price_in_cents`, nothing else. */
export type PricePointUpdateRequest = z.infer<typeof pricePointUpdateRequest>;
