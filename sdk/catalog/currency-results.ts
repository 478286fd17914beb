import type {
  ComponentCurrencyPrice as WireComponentCurrencyPrice,
  CouponCurrencyPrice as WireCouponCurrencyPrice,
  ProductCurrencyPrice as WireProductCurrencyPrice,
} from "../wire";
import type { CurrencyPriceRole } from "./currency-inputs";

/** Currency prices as the SDK returns them, and the same prices in the shape a caller declares them (`currencyPrices`). */

/** A product price point's price in one currency for one role. */
export interface PricePointCurrencyPrice {
  /** The record's id: what an update names (undefined only when the answer leaves it out). */
  readonly id: number | undefined;
  /** The currency's ISO code, e.g. "EUR". */
  readonly currency: string;
  /** "baseline" (the recurring price), "trial" or "initial" (the setup charge); kept as sent. */
  readonly role: string | undefined;
  /** The amount in the currency's own units (9.5 is €9.50), not cents. */
  readonly price: number;
}

/** A component price point's unit price in one currency for one tier. */
export interface ComponentPricePointCurrencyPrice {
  /** The record's id: what an update names. */
  readonly id: number | undefined;
  /** The currency's ISO code. */
  readonly currency: string;
  /** The unit price as decimal text, exact (the contract's answers send text). */
  readonly price: string;
  /** The id of the tier (the price point's price) it prices. */
  readonly priceId: number | undefined;
}

/** A flat-amount coupon's amount in one currency. */
export interface CouponCurrencyPrice {
  /** The record's id. */
  readonly id: number | undefined;
  /** The currency's ISO code. */
  readonly currency: string;
  /** The amount in the currency's own units, not cents. */
  readonly price: number;
}

const u = <T>(v: T | null | undefined): T | undefined => v ?? undefined;

export const toPricePointCurrencyPrice = (p: WireProductCurrencyPrice): PricePointCurrencyPrice => ({
  id: u(p.id),
  currency: p.currency,
  role: u(p.role),
  price: p.price,
});

export const toComponentPricePointCurrencyPrice = (p: WireComponentCurrencyPrice): ComponentPricePointCurrencyPrice => ({
  id: u(p.id),
  currency: p.currency,
  price: p.price,
  priceId: p.price_id != null && p.price_id > 0 ? p.price_id : undefined,
});

export const toCouponCurrencyPrice = (p: WireCouponCurrencyPrice): CouponCurrencyPrice => ({
  id: u(p.id),
  currency: p.currency,
  price: p.price,
});

/** A product price point's currency prices as declared: `{ EUR: { baseline, trial?, initial? } }` (a role not of the three is left out). */
export function pricePointCurrencyPricesOf(
  prices: readonly PricePointCurrencyPrice[],
): Record<string, Partial<Record<CurrencyPriceRole, number>>> {
  const out: Record<string, Partial<Record<CurrencyPriceRole, number>>> = {};
  for (const p of prices) {
    if (p.role !== "baseline" && p.role !== "trial" && p.role !== "initial") continue;
    out[p.currency] = { ...out[p.currency], [p.role]: p.price };
  }
  return out;
}

/**
 * A component price point's currency prices as declared: per currency, one unit price per tier in the tiers'
 * order (`tierIds`: the price point's price ids, ascending by starting quantity). A currency that lacks a tier
 * gets `undefined` in its place, so that a mirror check or a diff sees the gap rather than a shorter list.
 */
export function componentCurrencyPricesOf(
  prices: readonly ComponentPricePointCurrencyPrice[],
  tierIds: readonly number[],
): Record<string, (string | undefined)[]> {
  const out: Record<string, (string | undefined)[]> = {};
  for (const p of prices) {
    const i = p.priceId === undefined ? -1 : tierIds.indexOf(p.priceId);
    if (i < 0) continue;
    out[p.currency] ??= tierIds.map(() => undefined);
    out[p.currency][i] = p.price;
  }
  return out;
}

/** A coupon's currency prices as declared: `{ EUR: 9 }`. */
export function couponCurrencyPricesOf(prices: readonly CouponCurrencyPrice[]): Record<string, number> {
  return Object.fromEntries(prices.map((p) => [p.currency, p.price]));
}
