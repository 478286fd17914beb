import { z } from "zod";
import { maybe, timestamp, wireId } from "./common";
import { wireDecimal } from "./component";
import { couponCurrencyPrice } from "./currency-price";

/** An id that refers to another object; 0 (a placeholder) is read, and means none. */
const ref = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/**
 * `Coupon Restriction`: a product or component the coupon is limited to. `item_type` is
 * `Product` or `Component` (text: kept as sent).
 */
export const couponRestriction = z.object({
  id: maybe(z.number().int()),
  item_type: maybe(z.string()),
  item_id: ref,
  name: maybe(z.string()),
  handle: maybe(z.string()),
});
/** A restriction as {@link couponRestriction} reads it. */
export type CouponRestriction = z.infer<typeof couponRestriction>;

/**
 * `Coupon`, as read. `percentage` is decimal text in the contract's answers (a number is read too);
 * `amount_in_cents` integer cents. Enums (`recurring_scheme`, `discount_type`,
 * `compounding_strategy`, the duration's unit) are read as text.
 */
export const coupon = z.object({
  id: wireId,
  name: maybe(z.string()),
  code: maybe(z.string()),
  description: maybe(z.string()),
  amount: maybe(z.number()),
  amount_in_cents: maybe(z.number().int()),
  percentage: maybe(wireDecimal),
  product_family_id: maybe(ref),
  product_family_name: maybe(z.string()),
  start_date: maybe(timestamp),
  end_date: maybe(timestamp),
  recurring: maybe(z.boolean()),
  recurring_scheme: maybe(z.string()),
  duration_period_count: maybe(z.number().int()),
  duration_interval: maybe(z.number().int()),
  duration_interval_unit: maybe(z.string()),
  duration_interval_span: maybe(z.string()),
  allow_negative_balance: maybe(z.boolean()),
  archived_at: maybe(timestamp),
  conversion_limit: maybe(z.string()),
  stackable: maybe(z.boolean()),
  compounding_strategy: maybe(z.string()),
  use_site_exchange_rate: maybe(z.boolean()),
  discount_type: maybe(z.string()),
  exclude_mid_period_allocations: maybe(z.boolean()),
  apply_on_cancel_at_end_of_period: maybe(z.boolean()),
  apply_on_subscription_expiration: maybe(z.boolean()),
  coupon_restrictions: maybe(z.array(couponRestriction)),
  // Only with `?currency_prices=true` on a read (the contract's coupon schema leaves the key out; its
  // descriptions and the vendor's later SDKs, \`Coupon.currency_prices\` of \`Coupon Currency\`, name it).
  currency_prices: maybe(z.array(couponCurrencyPrice)),
  created_at: maybe(timestamp),
  updated_at: maybe(timestamp),
});
/** A coupon as {@link coupon} reads it, before the SDK turns it into its `Coupon` result. */
export type Coupon = z.infer<typeof coupon>;

/** `Coupon Response`: `{ coupon }` (create, read, find by code, update, archive). */
export const couponResponse = z.object({ coupon });
/** The answer {@link couponResponse} reads: `{ coupon }`. */
export type CouponResponse = z.infer<typeof couponResponse>;

/**
 * `GET /coupons.json` and `GET /product_families/{id}/coupons.json`: a bare array of `{ coupon }`.
 * An entry with id 0 (a placeholder) is read, then left out by the SDK.
 */
export const couponListResponse = z.array(z.object({ coupon: coupon.extend({ id: z.number().int().nonnegative() }) }));
/** The answer {@link couponListResponse} reads: one page of `{ coupon }`. */
export type CouponListResponse = z.infer<typeof couponListResponse>;

/** The contract's `per_page` maximum for coupons (its default is 30). */
export const MAX_COUPONS_PER_PAGE = 200;
