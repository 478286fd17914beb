import type { z } from "zod";
import { type Answer, json } from "./answers";
import { positiveInt } from "./query";
import type { ComponentPricePointRecord, CouponRecord, PricePointRecord } from "./records";
import { asFields, asList } from "./refusals";
import {
  componentCurrencyPrices,
  productCurrencyPrices,
  renderComponentCurrencyPrice,
  renderCouponCurrencyPrice,
  renderProductCurrencyPrice,
} from "./render-currency-prices";
import type { RouteRequest } from "./routes";
import type { Site } from "./site";
import { SiteError } from "./site-error";
import { hasProblems, Refusal } from "./wire-catalog";
import {
  componentCurrencyPrice,
  couponCurrencyPrice,
  currencyPriceList,
  currencyPriceUpdate,
  productCurrencyPrice,
} from "./wire-site-config";

/**
 * Currency prices. A price point's create and update refuse in the published
 * `Error Array Map Response` (`{"errors":{"currency_prices[0].currency":[…]}}`,
 * `{"errors":{"base":[…]}}`); the coupon's operation publishes no 422, so it
 * refuses with an error list. Each answers every currency price the price point
 * (or coupon) now has, the ones a PUT left alone included (currency-prices.ts).
 */

function productPricePoint(site: Site, ref: string): PricePointRecord {
  const id = positiveInt(ref);
  const pp =
    id === undefined
      ? undefined
      : site.catalog
          .products({ includeArchived: true })
          .flatMap((p) => p.pricePoints)
          .find((x) => x.id === id);
  if (!pp) throw new SiteError(404, "Price point not found");
  return pp;
}

function componentPricePoint(site: Site, ref: string): ComponentPricePointRecord {
  const id = positiveInt(ref);
  const pp =
    id === undefined
      ? undefined
      : site.components
          .list({ includeArchived: true })
          .flatMap((c) => c.pricePoints)
          .find((x) => x.id === id);
  if (!pp) throw new SiteError(404, "Price point not found");
  return pp;
}

function entries<T>(body: unknown, entry: z.ZodType<T>): T[] {
  const { entries: list, problems } = currencyPriceList(body, entry);
  if (hasProblems(problems)) throw new Refusal(problems);
  return list;
}

/** POST /product_price_points/{id}/currency_prices.json → 200. */
export function createProductCurrencyPrices(site: Site, [ref]: string[], req: RouteRequest): Answer {
  const pp = productPricePoint(site, ref);
  return asFields(() => {
    const made = site.currencyPrices.createForProduct(pp, entries(req.body, productCurrencyPrice));
    return json(200, { currency_prices: made.map(renderProductCurrencyPrice) });
  });
}

/** PUT /product_price_points/{id}/currency_prices.json → 200. */
export function updateProductCurrencyPrices(site: Site, [ref]: string[], req: RouteRequest): Answer {
  const pp = productPricePoint(site, ref);
  return asFields(() => {
    const held = site.currencyPrices.updateForProduct(pp, entries(req.body, currencyPriceUpdate));
    return json(200, { currency_prices: held.map(renderProductCurrencyPrice) });
  });
}

/** POST /price_points/{id}/currency_prices.json → 200. */
export function createComponentCurrencyPrices(site: Site, [ref]: string[], req: RouteRequest): Answer {
  const pp = componentPricePoint(site, ref);
  return asFields(() => {
    const made = site.currencyPrices.createForComponent(pp, entries(req.body, componentCurrencyPrice));
    return json(200, { currency_prices: made.map(renderComponentCurrencyPrice) });
  });
}

/** PUT /price_points/{id}/currency_prices.json → 200. */
export function updateComponentCurrencyPrices(site: Site, [ref]: string[], req: RouteRequest): Answer {
  const pp = componentPricePoint(site, ref);
  return asFields(() => {
    const held = site.currencyPrices.updateForComponent(pp, entries(req.body, currencyPriceUpdate));
    return json(200, { currency_prices: held.map(renderComponentCurrencyPrice) });
  });
}

/** PUT /coupons/{id}/currency_prices.json → 200: created or updated by currency. */
export function couponCurrencyPrices(site: Site, [ref]: string[], req: RouteRequest): Answer {
  const id = positiveInt(ref);
  const c = id === undefined ? undefined : site.coupons.list({ ids: [id] })[0];
  if (!c) throw new SiteError(404, "Coupon not found");
  return asList(() => {
    const held = site.currencyPrices.upsertForCoupon(c, entries(req.body, couponCurrencyPrice));
    return json(200, { currency_prices: held.map(renderCouponCurrencyPrice) });
  });
}

// ---- reads ----------------------------------------------------------------------

/**
 * `?currency_prices=true`, on a site with other currencies: "if you have
 * defined multiple currencies at the site level, you can optionally pass the
 * ?currency_prices=true query param to include an array of currency price data
 * in the response" (the contract, on the product price point, component price
 * point and coupon reads). Otherwise the key is left out: "This parameter is
 * present only in the response of read endpoints, after including the
 * appropriate query parameter."
 */
export function wantsCurrencyPrices(site: Site, req: RouteRequest): boolean {
  const v = req.query.currency_prices;
  return (v === "true" || v === "1") && site.settings.nonPrimaryCurrencies.length > 0;
}

export function withProductCurrencyPrices<T extends object>(site: Site, req: RouteRequest, pp: PricePointRecord, rendered: T) {
  if (!wantsCurrencyPrices(site, req)) return rendered;
  return { ...rendered, currency_prices: productCurrencyPrices(pp, site.currencyPrices.forProduct(pp.id), site.settings) };
}

export function withComponentCurrencyPrices<T extends object>(site: Site, req: RouteRequest, pp: ComponentPricePointRecord, rendered: T) {
  if (!wantsCurrencyPrices(site, req)) return rendered;
  return { ...rendered, currency_prices: componentCurrencyPrices(pp, site.currencyPrices.forComponent(pp.id), site.settings) };
}

/**
 * A coupon's defined amounts (the vendor's later `Coupon` has `currency_prices`,
 * "Returned in read, find, and list endpoints if the query parameter is
 * provided": @maxio-com/advanced-billing-sdk 6.1.0, models/coupon.ts). The
 * simulator does not model a coupon's exchange-rate setting (it writes
 * `use_site_exchange_rate: true` for every coupon, as the published examples),
 * so a coupon's currency prices are the ones defined.
 */
export function withCouponCurrencyPrices<T extends object>(site: Site, req: RouteRequest, c: CouponRecord, rendered: T) {
  if (!wantsCurrencyPrices(site, req)) return rendered;
  return { ...rendered, currency_prices: site.currencyPrices.forCoupon(c.id).map(renderCouponCurrencyPrice) };
}
