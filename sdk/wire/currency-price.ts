import { z } from "zod";
import { maybe } from "./common";
import { componentCurrencyPrice } from "./component";

/**
 * Prices in a site's other currencies, as read: a product price point's (one per currency and role), a
 * component price point's (one per currency and tier) and a flat-amount coupon's (one per currency).
 * Amounts are in the currency's own units, not cents (the contract's example: `"price": 123` is
 * `"formatted_price": "€123,00"`). The currency and the amount are required: a price without them cannot be
 * told apart from a currency with no price, which is what a caller would then be shown. The role and the ids
 * are read as given (a role newer than this SDK is kept as text).
 */

/** An amount as the contract's answers send it: a number (products, coupons) or decimal text (components); read as a number. */
export const wireAmount = z.union([
  z.number().finite(),
  z
    .string()
    .regex(/^-?\d+(\.\d+)?$/)
    .transform(Number),
]);

/** An id that refers to another object; 0 (a placeholder) is read, and means none. */
const ref = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/** `Currency Price`: a product price point's price in one currency for one role (`baseline`, `trial`, `initial`). */
export const productCurrencyPrice = z.object({
  id: maybe(z.number().int()),
  currency: z.string(),
  price: wireAmount,
  formatted_price: maybe(z.string()),
  product_price_point_id: maybe(ref),
  role: maybe(z.string()),
});
/** A product price point's currency price as {@link productCurrencyPrice} reads it. */
export type ProductCurrencyPrice = z.infer<typeof productCurrencyPrice>;

/** `Currency Prices Response`: `{ currency_prices }` (`POST`/`PUT /product_price_points/{id}/currency_prices.json`). */
export const productCurrencyPricesResponse = z.object({ currency_prices: z.array(productCurrencyPrice) });
/** The answer {@link productCurrencyPricesResponse} reads. */
export type ProductCurrencyPricesResponse = z.infer<typeof productCurrencyPricesResponse>;

/** `Component Currency Prices Response`: `{ currency_prices }` (`POST`/`PUT /price_points/{id}/currency_prices.json`). */
export const componentCurrencyPricesResponse = z.object({ currency_prices: z.array(componentCurrencyPrice) });
/** The answer {@link componentCurrencyPricesResponse} reads. */
export type ComponentCurrencyPricesResponse = z.infer<typeof componentCurrencyPricesResponse>;

/** `Coupon Currency`: a flat-amount coupon's amount in one currency. */
export const couponCurrencyPrice = z.object({
  id: maybe(z.number().int()),
  currency: z.string(),
  price: wireAmount,
  coupon_id: maybe(ref),
});
/** A coupon's currency price as {@link couponCurrencyPrice} reads it. */
export type CouponCurrencyPrice = z.infer<typeof couponCurrencyPrice>;

/**
 * `Coupon Currency Response` (`PUT /coupons/{id}/currency_prices.json`). The contract does not mark
 * `currency_prices` required here (it does in the price points' answers): an answer without it is read as
 * saying nothing, and the SDK reads the coupon back instead.
 */
export const couponCurrencyPricesResponse = z.object({ currency_prices: maybe(z.array(couponCurrencyPrice)) });
/** The answer {@link couponCurrencyPricesResponse} reads. */
export type CouponCurrencyPricesResponse = z.infer<typeof couponCurrencyPricesResponse>;

/** `POST /product_price_points/{id}/currency_prices.json` body (`Create Product Currency Prices Request`). */
export const productCurrencyPricesCreateRequest = z.object({
  currency_prices: z.array(z.object({ currency: z.string(), price: z.number(), role: z.enum(["baseline", "trial", "initial"]) })),
});

/** `PUT` body of both price points' currency prices (`Update Currency Prices Request`): the records by id, with their new prices. */
export const currencyPricesUpdateRequest = z.object({
  currency_prices: z.array(z.object({ id: z.number().int(), price: z.number() })),
});

/** `POST /price_points/{id}/currency_prices.json` body (`Create Currency Prices Request`): one per tier (`price_id`) and currency. */
export const componentCurrencyPricesCreateRequest = z.object({
  currency_prices: z.array(z.object({ currency: z.string(), price: z.number(), price_id: z.number().int() })),
});

/** `PUT /coupons/{id}/currency_prices.json` body (`Coupon Currency Request`): create or update, by currency. */
export const couponCurrencyPricesRequest = z.object({
  currency_prices: z.array(z.object({ currency: z.string(), price: z.number() })),
});
