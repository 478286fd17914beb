import { priceLevels, primaryPrice, rolesOf } from "./currency-prices";
import type { ComponentPricePointRecord, PricePointRecord } from "./records";
import type {
  ComponentCurrencyPriceRecord,
  CouponCurrencyPriceRecord,
  ProductCurrencyPriceRecord,
  SiteSettingsRecord,
} from "./records-site";
import { decimalText } from "./wire-components";

/**
 * Currency prices as the service writes them: the contract's `Currency Price`
 * (a product price point's: `price` a number), `Component Currency Price`
 * (`price` decimal text, "123"), `Coupon Currency` (`price` an integer).
 *
 * `formatted_price`: the only published one is "€123,00" for 123 EUR (the euro
 * sign first, a decimal comma). Other currencies are written the way their
 * users write them for the few the simulator knows, and "12.50 XYZ" otherwise.
 */
const SYMBOLS: Record<string, { symbol: string; comma: boolean }> = {
  EUR: { symbol: "€", comma: true },
  USD: { symbol: "$", comma: false },
  GBP: { symbol: "£", comma: false },
  CAD: { symbol: "$", comma: false },
  AUD: { symbol: "$", comma: false },
};

export function formattedPrice(currency: string, amount: number): string {
  const fixed = amount.toFixed(2);
  const known = SYMBOLS[currency];
  if (!known) return `${fixed} ${currency}`;
  return `${known.symbol}${known.comma ? fixed.replace(".", ",") : fixed}`;
}

/** A component currency price's text as the published example writes it: "123", "9.99" (no ".0" on a whole amount). */
const componentPriceText = (text: string) => text.replace(/\.0$/, "");

/** Converted at the site's rate, to the cent (a product's) or to 8 decimal places (a component's unit price, as the contract allows). */
const convert = (amount: number, rate: number, places: number) => Math.round(amount * rate * 10 ** places) / 10 ** places;

/**
 * A product price point's `currency_prices`, which "var[y] based on the
 * use_site_exchange_rate setting for the price point … If the product price
 * point is set to use_site_exchange_rate: true, it will return pricing based on
 * the current exchange rate. If the flag is set to false, it will return all of
 * the defined prices for each currency" (the contract's `currency_prices` query
 * parameter). Prices from the exchange rate are computed, not records: they
 * have no `id`.
 */
export function productCurrencyPrices(pp: PricePointRecord, defined: readonly ProductCurrencyPriceRecord[], s: SiteSettingsRecord) {
  if (!pp.useSiteExchangeRate)
    return defined.filter((p) => s.nonPrimaryCurrencies.includes(p.currency)).map((p) => renderProductCurrencyPrice(p));
  return s.nonPrimaryCurrencies.flatMap((currency) =>
    rolesOf(pp).map((role) => {
      const price = convert(primaryPrice(pp, role), s.exchangeRates[currency] ?? 1, 2);
      return { currency, price, formatted_price: formattedPrice(currency, price), product_price_point_id: pp.id, role };
    }),
  );
}

/** A component price point's `currency_prices`, by the same rule: defined prices, or every price level at the exchange rate. */
export function componentCurrencyPrices(
  pp: ComponentPricePointRecord,
  defined: readonly ComponentCurrencyPriceRecord[],
  s: SiteSettingsRecord,
) {
  if (!pp.useSiteExchangeRate)
    return defined.filter((p) => s.nonPrimaryCurrencies.includes(p.currency)).map((p) => renderComponentCurrencyPrice(p));
  const unit = new Map([...pp.prices, ...(pp.overagePricing?.prices ?? [])].map((p) => [p.id, Number(p.unitPrice)]));
  return s.nonPrimaryCurrencies.flatMap((currency) =>
    priceLevels(pp).map((priceId) => {
      const amount = convert(unit.get(priceId) ?? 0, s.exchangeRates[currency] ?? 1, 8);
      return {
        currency,
        price: componentPriceText(decimalText(amount) ?? String(amount)),
        formatted_price: formattedPrice(currency, amount),
        price_id: priceId,
        price_point_id: pp.id,
      };
    }),
  );
}

export const renderProductCurrencyPrice = (p: ProductCurrencyPriceRecord) => ({
  id: p.id,
  currency: p.currency,
  price: p.price,
  formatted_price: formattedPrice(p.currency, p.price),
  product_price_point_id: p.pricePointId,
  role: p.role,
});

export const renderComponentCurrencyPrice = (p: ComponentCurrencyPriceRecord) => ({
  id: p.id,
  currency: p.currency,
  price: componentPriceText(p.price),
  formatted_price: formattedPrice(p.currency, Number(p.price)),
  price_id: p.priceId,
  price_point_id: p.pricePointId,
});

export const renderCouponCurrencyPrice = (p: CouponCurrencyPriceRecord) => ({
  id: p.id,
  currency: p.currency,
  price: p.price,
  coupon_id: p.couponId,
});
