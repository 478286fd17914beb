import type { ComponentPricePointRecord, CouponRecord, PricePointRecord } from "./records";
import type {
  ComponentCurrencyPriceRecord,
  CouponCurrencyPriceRecord,
  CurrencyPriceRole,
  ProductCurrencyPriceRecord,
  SiteSettingsRecord,
} from "./records-site";
import { hasProblems, type Problems, Refusal } from "./wire-catalog";
import { NOT_ALLOWED_CURRENCY, PRICING_EXISTS } from "./wire-site-config";

/** The next id of the currency prices' one sequence (products', components' and coupons' alike). */
export const FIRST_CURRENCY_PRICE_ID = 80001;

export interface CurrencyPriceSnapshot {
  product: ProductCurrencyPriceRecord[];
  component: ComponentCurrencyPriceRecord[];
  coupon: CouponCurrencyPriceRecord[];
  next: number;
}

/** Not published: the refusal of currency prices on a percentage coupon (the contract: "you will not be able to define pricing"). */
export const PERCENTAGE_COUPON =
  "Currency prices can only be defined for a flat amount coupon; this coupon is percentage based, and a percentage applies in every currency.";

/**
 * The roles a product price point's primary pricing has: always its price
 * (baseline), a trial price when it defines a trial, an initial charge (setup
 * fee) when it defines one. "If the product price point defines a trial and/or
 * setup fee, each currency must also define a trial and/or setup fee."
 */
export function rolesOf(pp: PricePointRecord): CurrencyPriceRole[] {
  return [
    "baseline",
    ...(pp.trialPriceInCents !== null ? (["trial"] as const) : []),
    ...(pp.initialChargeInCents !== null ? (["initial"] as const) : []),
  ];
}

/** The primary price of a role, in the primary currency's units. */
export function primaryPrice(pp: PricePointRecord, role: CurrencyPriceRole): number {
  const cents = role === "baseline" ? pp.priceInCents : role === "trial" ? pp.trialPriceInCents : pp.initialChargeInCents;
  return (cents ?? 0) / 100;
}

/** A component price point's price levels: its brackets and, for prepaid usage, its overage brackets. */
export const priceLevels = (pp: ComponentPricePointRecord): number[] => [
  ...pp.prices.map((p) => p.id),
  ...(pp.overagePricing?.prices.map((p) => p.id) ?? []),
];

/**
 * Prices in the site's non-primary currencies, of product price points,
 * component price points and flat-amount coupons, with the service's rules:
 * a currency must be one of the site's non-primary currencies; the prices
 * must mirror the primary pricing (a price per role of a product price point,
 * per price level of a component's); a currency already priced is refused by a
 * create ("Pricing already exists for this currency.").
 *
 * What a PUT leaves out stays. A price point's PUT names the currency price
 * records it changes by `id` and gives each a new `price` (`Update Currency
 * Price`: id and price, both required; "update the `price`s of currency prices
 * … that exists on the product price point"): it has no way to name a currency
 * or role to remove, so the prices it does not name are kept as they were. A
 * coupon's PUT "create[s] and/or update[s]" by currency ("Multiple prices can
 * be created or updated in a single request"): a currency it does not name
 * keeps its price. Sources: the contract's descriptions and request schemas of
 * updateProductCurrencyPrices, updateCurrencyPrices and
 * createOrUpdateCouponCurrencyPrices, and the vendor's SDKs built from the
 * same spec (@maxio-com/advanced-billing-sdk 6.1.0 `UpdateCurrencyPrice`
 * {id, price}, `UpdateCouponCurrency` {currency, price}); none of them has a
 * delete of a currency price.
 *
 * Custom price points (a subscription's own) cannot have currency prices (the
 * contract's note); the simulator makes none, so that refusal cannot arise.
 */
export class CurrencyPrices {
  readonly #settings: () => SiteSettingsRecord;
  #product: ProductCurrencyPriceRecord[] = [];
  #component: ComponentCurrencyPriceRecord[] = [];
  #coupon: CouponCurrencyPriceRecord[] = [];
  #next = FIRST_CURRENCY_PRICE_ID;

  constructor(settings: () => SiteSettingsRecord) {
    this.#settings = settings;
  }

  get isEmpty(): boolean {
    return this.#product.length + this.#component.length + this.#coupon.length === 0;
  }

  /** The currencies any price names: a site's settings may not drop one of them. */
  currenciesInUse(): Set<string> {
    return new Set([...this.#product, ...this.#component, ...this.#coupon].map((p) => p.currency));
  }

  forProduct(pricePointId: number): ProductCurrencyPriceRecord[] {
    return this.#product.filter((p) => p.pricePointId === pricePointId);
  }

  forComponent(pricePointId: number): ComponentCurrencyPriceRecord[] {
    return this.#component.filter((p) => p.pricePointId === pricePointId);
  }

  forCoupon(couponId: number): CouponCurrencyPriceRecord[] {
    return this.#coupon.filter((p) => p.couponId === couponId);
  }

  // ---- product price points ---------------------------------------------------

  /** POST /product_price_points/{id}/currency_prices.json: every currency named gets exactly the roles of the primary pricing. */
  createForProduct(pp: PricePointRecord, entries: readonly { id?: number; currency: string; role: CurrencyPriceRole; price: string }[]) {
    const problems: Problems = {};
    const add = addTo(problems);
    const roles = rolesOf(pp);
    const held = new Set(this.forProduct(pp.id).map((p) => p.currency));
    const seen = new Set<string>();
    const byCurrency = new Map<string, CurrencyPriceRole[]>();
    for (const [i, e] of entries.entries()) {
      if (!this.#allowed(e.currency)) {
        add(`currency_prices[${i}].currency`, NOT_ALLOWED_CURRENCY);
        continue;
      }
      if (held.has(e.currency)) {
        add(`currency_prices[${i}].currency`, PRICING_EXISTS);
        continue;
      }
      const key = `${e.currency}/${e.role}`;
      if (seen.has(key)) {
        add(`currency_prices[${i}].role`, `Role: ${e.role} is given twice for ${e.currency}.`);
        continue;
      }
      seen.add(key);
      byCurrency.set(e.currency, [...(byCurrency.get(e.currency) ?? []), e.role]);
    }
    for (const given of byCurrency.values())
      if (given.length !== roles.length || !roles.every((r) => given.includes(r)))
        add("base", `This product price point requires that prices are defined for: [${roles.join(", ")}].`);
    if (hasProblems(problems)) throw new Refusal(problems);
    this.#claim(entries);
    for (const e of entries)
      this.#product.push({ id: this.#id(e.id), pricePointId: pp.id, currency: e.currency, role: e.role, price: Number(e.price) });
    return this.forProduct(pp.id);
  }

  /** PUT …: the named records' prices change; the others stay. */
  updateForProduct(pp: PricePointRecord, entries: readonly { id: number; price: string }[]) {
    const held = this.forProduct(pp.id);
    this.#checkIds(held, entries);
    for (const e of entries) {
      const record = held.find((p) => p.id === e.id);
      if (record) record.price = Number(e.price);
    }
    return held;
  }

  // ---- component price points -------------------------------------------------

  /** POST /price_points/{id}/currency_prices.json: every currency named gets a price for each price level, and only those. */
  createForComponent(
    pp: ComponentPricePointRecord,
    entries: readonly { id?: number; currency: string; price_id: number; price: string }[],
  ) {
    const problems: Problems = {};
    const add = addTo(problems);
    const levels = priceLevels(pp);
    const held = new Set(this.forComponent(pp.id).map((p) => p.currency));
    const seen = new Set<string>();
    const byCurrency = new Map<string, number[]>();
    for (const [i, e] of entries.entries()) {
      if (!this.#allowed(e.currency)) {
        add(`currency_prices[${i}].currency`, NOT_ALLOWED_CURRENCY);
        continue;
      }
      if (held.has(e.currency)) {
        add(`currency_prices[${i}].currency`, PRICING_EXISTS);
        continue;
      }
      if (!levels.includes(e.price_id)) {
        add(`currency_prices[${i}].price_id`, `Price id: ${e.price_id} is not one of this price point's prices.`);
        continue;
      }
      const key = `${e.currency}/${e.price_id}`;
      if (seen.has(key)) {
        add(`currency_prices[${i}].price_id`, `Price id: ${e.price_id} is given twice for ${e.currency}.`);
        continue;
      }
      seen.add(key);
      byCurrency.set(e.currency, [...(byCurrency.get(e.currency) ?? []), e.price_id]);
    }
    for (const given of byCurrency.values())
      if (given.length !== levels.length)
        add("base", `This price point requires that prices are defined for each of its price levels: [${levels.join(", ")}].`);
    if (hasProblems(problems)) throw new Refusal(problems);
    this.#claim(entries);
    for (const e of entries)
      this.#component.push({ id: this.#id(e.id), pricePointId: pp.id, priceId: e.price_id, currency: e.currency, price: e.price });
    return this.forComponent(pp.id);
  }

  updateForComponent(pp: ComponentPricePointRecord, entries: readonly { id: number; price: string }[]) {
    const held = this.forComponent(pp.id);
    this.#checkIds(held, entries);
    for (const e of entries) {
      const record = held.find((p) => p.id === e.id);
      if (record) record.price = e.price;
    }
    return held;
  }

  // ---- coupons ------------------------------------------------------------------

  /** PUT /coupons/{id}/currency_prices.json: each currency named is created or updated; flat-amount coupons only. */
  upsertForCoupon(c: CouponRecord, entries: readonly { currency: string; price: number }[]) {
    if (c.percentage !== null) throw new Refusal({ base: [PERCENTAGE_COUPON] });
    const problems: Problems = {};
    const add = addTo(problems);
    const seen = new Set<string>();
    entries.forEach((e, i) => {
      if (!this.#allowed(e.currency)) add(`currency_prices[${i}].currency`, NOT_ALLOWED_CURRENCY);
      else if (seen.has(e.currency)) add(`currency_prices[${i}].currency`, `Currency: ${e.currency} is given twice.`);
      seen.add(e.currency);
    });
    if (hasProblems(problems)) throw new Refusal(problems);
    for (const e of entries) {
      const record = this.#coupon.find((p) => p.couponId === c.id && p.currency === e.currency);
      if (record) record.price = e.price;
      else this.#coupon.push({ id: this.#next++, couponId: c.id, currency: e.currency, price: e.price });
    }
    return this.forCoupon(c.id);
  }

  // ---- the site -------------------------------------------------------------------

  /** What `POST /sites/clear_data.json` with `cleanup_scope=all` leaves: the catalogue is gone, so are its prices. */
  clear(): void {
    this.#product = [];
    this.#component = [];
    this.#coupon = [];
  }

  snapshot(): CurrencyPriceSnapshot {
    return {
      product: structuredClone(this.#product),
      component: structuredClone(this.#component),
      coupon: structuredClone(this.#coupon),
      next: this.#next,
    };
  }

  restore(d: CurrencyPriceSnapshot): void {
    if (!this.isEmpty) throw new Error("simulator bookkeeping: restore into used currency prices");
    this.#product = structuredClone(d.product);
    this.#component = structuredClone(d.component);
    this.#coupon = structuredClone(d.coupon);
    const ids = [...this.#product, ...this.#component, ...this.#coupon].map((p) => p.id);
    this.#next = Math.max(d.next, Math.max(0, ...ids) + 1);
  }

  /** Ids a seeding call gives (the web UI's records) must be free positive integers; checked before anything is made. */
  #claim(entries: readonly { id?: number }[]): void {
    const held = new Set([...this.#product, ...this.#component, ...this.#coupon].map((p) => p.id));
    for (const { id } of entries) {
      if (id === undefined) continue;
      if (!Number.isSafeInteger(id) || id <= 0 || held.has(id))
        throw new Error(`currency price id ${id} is taken or not a positive integer`);
      held.add(id);
    }
  }

  #id(given: number | undefined): number {
    if (given === undefined) return this.#next++;
    this.#next = Math.max(this.#next, given + 1);
    return given;
  }

  #allowed(currency: string): boolean {
    return this.#settings().nonPrimaryCurrencies.includes(currency);
  }

  #checkIds(held: readonly { id: number }[], entries: readonly { id: number }[]): void {
    const problems: Problems = {};
    entries.forEach((e, i) => {
      if (!held.some((p) => p.id === e.id))
        addTo(problems)(`currency_prices[${i}].id`, `Id: ${e.id} is not a currency price of this price point.`);
    });
    if (hasProblems(problems)) throw new Refusal(problems);
  }
}

function addTo(problems: Problems) {
  return (key: string, message: string): void => {
    problems[key] ??= [];
    if (!problems[key].includes(message)) problems[key].push(message);
  };
}
