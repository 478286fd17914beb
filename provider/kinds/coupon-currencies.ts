import { couponCurrencyPricesOf } from "../../sdk/catalog/currency-results";
import type { BillingClient } from "../../sdk/client";
import type { Coupon as ServiceCoupon } from "../../sdk/results";
import { percentOf } from "./coupon-fields";
import { keptNotice } from "./currency-fields";
import type { Context } from "./kind";
import { labelOf } from "./lifecycle";

/**
 * A flat-amount coupon's prices in the site's other currencies: read beside the coupon (the coupon's own read has no
 * `currency_prices`), set after its create or update (neither body carries them), a currency left out kept.
 */

/** A coupon as the service holds it, with its amounts in other currencies when they were read. */
export type HeldCoupon = ServiceCoupon & { readonly currencyPrices?: Record<string, number> };

/** The coupon with its currency prices; a percentage coupon has none (the service takes none for it). */
export async function withCouponCurrencies(client: BillingClient, c: ServiceCoupon): Promise<HeldCoupon> {
  if (percentOf(c) !== null) return c;
  return { ...c, currencyPrices: couponCurrencyPricesOf(await client.readCouponCurrencyPrices(c.id)) };
}

/**
 * Makes the coupon's currency prices the declared ones (the service's PUT creates or changes each by currency); the
 * currencies it keeps that the declaration leaves out are said. A failure says which were not set.
 */
export async function convergeCouponCurrencies(
  ctx: Context,
  c: HeldCoupon,
  declared: Readonly<Record<string, number>> | undefined,
  site: string | undefined,
  recorded: Readonly<Record<string, unknown>> | undefined,
): Promise<HeldCoupon> {
  const name = labelOf("coupon", c.code ?? "?", c.id);
  if (declared === undefined) {
    const before = recorded?.currencyPrices;
    const codes = before && typeof before === "object" ? Object.keys(before) : [];
    if (codes.length > 0) ctx.notice(keptNotice("Coupon", name, codes));
    return c;
  }
  const codes = Object.keys(declared);
  if (codes.length === 0 && recorded === undefined) return c;
  let set: Awaited<ReturnType<BillingClient["setCouponCurrencyPrices"]>>;
  try {
    set = await ctx.client(site).setCouponCurrencyPrices(c.id, declared);
  } catch (err) {
    throw new Error(`its ${codes.join(", ")} prices were not all set: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (set.undeclared.length > 0) ctx.notice(keptNotice("Coupon", name, set.undeclared));
  return { ...c, currencyPrices: couponCurrencyPricesOf(set.prices) };
}
