import type { ComponentPricePointRecord, PricePointRecord } from "./records";
import type { ComponentCurrencyPriceInput, CouponCurrencyPriceInput, ProductCurrencyPriceInput } from "./records-site";
import type { Site } from "./site";
import { Refusal } from "./wire-catalog";
import { decimalText } from "./wire-components";

/**
 * The seeding calls for currency prices: what the web UI defined, checked by
 * the same rules the API applies (the web UI has them too), a broken rule
 * thrown as an Error naming it. Copies are handed out.
 */
export const seedCurrencyPrices = {
  product(site: Site, pricePointId: number, prices: readonly ProductCurrencyPriceInput[]) {
    const pp = site.catalog
      .products({ includeArchived: true })
      .flatMap((p) => p.pricePoints)
      .find((x): x is PricePointRecord => x.id === pricePointId);
    if (!pp) throw new Error(`addProductCurrencyPrices: no product price point has id ${pricePointId}`);
    const entries = prices.map((p) => ({
      id: p.id,
      currency: p.currency,
      role: p.role,
      price: money(p.price, "addProductCurrencyPrices"),
    }));
    return checked("addProductCurrencyPrices", () => site.currencyPrices.createForProduct(pp, entries));
  },

  component(site: Site, pricePointId: number, prices: readonly ComponentCurrencyPriceInput[]) {
    const pp = site.components
      .list({ includeArchived: true })
      .flatMap((c) => c.pricePoints)
      .find((x): x is ComponentPricePointRecord => x.id === pricePointId);
    if (!pp) throw new Error(`addComponentCurrencyPrices: no component price point has id ${pricePointId}`);
    const entries = prices.map((p) => ({
      id: p.id,
      currency: p.currency,
      price_id: p.priceId,
      price: money(p.price, "addComponentCurrencyPrices"),
    }));
    return checked("addComponentCurrencyPrices", () => site.currencyPrices.createForComponent(pp, entries));
  },

  coupon(site: Site, couponId: number, prices: readonly CouponCurrencyPriceInput[]) {
    const c = site.coupons.list({ ids: [couponId] })[0];
    if (!c) throw new Error(`addCouponCurrencyPrices: no coupon has id ${couponId}`);
    for (const p of prices)
      if (!Number.isSafeInteger(p.price) || p.price < 0)
        throw new Error("addCouponCurrencyPrices: a price must be a whole amount of 0 or more");
    return checked("addCouponCurrencyPrices", () => site.currencyPrices.upsertForCoupon(c, prices));
  },
};

function money(v: number | string, what: string): string {
  const text = decimalText(v);
  if (text === undefined) throw new Error(`${what}: ${String(v)} is not a price`);
  return text;
}

function checked<T>(what: string, f: () => T[]): T[] {
  try {
    return structuredClone(f());
  } catch (err) {
    if (err instanceof Refusal) throw new Error(`${what}: ${err.message}`);
    throw err;
  }
}
