import { z } from "zod";
import { valueText } from "../input-values";
import type { Problem } from "./checks";
import { problemsUnder } from "./checks";
import { unitPrice } from "./tiers";

/**
 * What callers give as a catalog object's prices in the site's other currencies (`currencyPrices`), and the
 * checks the providers also run at preview: the structure mirrors the primary pricing, the object takes
 * currency prices at all, and each currency is one the site has. Amounts are in the currency's own units
 * (9.5 is €9.50), as the service's currency prices are (its example: `"price": 123` is `"€123,00"`), not cents.
 *
 * The service's rules, from the contract's operation descriptions (advanced-billing.openapi.json):
 * - createProductCurrencyPrices: "they need to mirror the structure of your primary pricing. If the product
 *   price point defines a trial and/or setup fee, each currency must also define a trial and/or setup fee."
 *   and "Currency Prices are not able to be created for custom product price points."
 * - createCurrencyPrices (component price points): "For each price level defined on the component price
 *   point, there should be a matching price level created in the given currency."
 * - createOrUpdateCouponCurrencyPrices: "each of the currencies must be defined on the site level already and
 *   the coupon must be an amount-based coupon, not percentage."
 */

const CODE = 'a currency\'s ISO 4217 code: three uppercase letters ("EUR")';

/** A currency code: three uppercase letters (the site's `non_primary_currencies` are ISO codes). */
export const currencyCode = z.string({ error: (i) => `must be ${CODE}, got ${valueText(i.input)}` }).regex(/^[A-Z]{3}$/, {
  error: (i) => {
    const s = String(i.input);
    const hint = /^[a-z]{3}$/i.test(s) ? ` (uppercase: "${s.toUpperCase()}")` : "";
    return `must be ${CODE}${hint}, got ${valueText(i.input)}`;
  },
});

const AMOUNT = "an amount in the currency's own units (not cents), 0 or more, at most 2 decimal places (9.5 for 9.50)";

/**
 * An amount of a product price point or a coupon in one currency: 0 or more, at most 2 decimal places.
 * (The contract types the request's `price` as an integer; its answers and the vendor's later SDKs carry
 * fractions, `Update Currency Price.price` a Float in maxio-com/ab-ruby-sdk, so fractions are sent.)
 */
export const currencyAmount = z
  .number({ error: (i) => (i.input === undefined ? `is required: ${AMOUNT}` : `must be ${AMOUNT}, got ${valueText(i.input)}`) })
  .refine((v) => Number.isFinite(v) && v >= 0 && Number(v.toFixed(2)) === v, {
    error: (i) => `must be ${AMOUNT}, got ${valueText(i.input)}`,
  });

/** The roles of a product price point's currency prices, as the service names them. */
export const CURRENCY_PRICE_ROLES = ["baseline", "trial", "initial"] as const;
/** A role: the recurring price, the trial's price, or the initial (setup) charge. */
export type CurrencyPriceRole = (typeof CURRENCY_PRICE_ROLES)[number];

/** A product price point's prices in one currency, one per role its primary pricing has. */
export const pricePointCurrencyAmounts = z
  .object(
    {
      baseline: currencyAmount.describe("The recurring price in this currency (the primary pricing's priceInCents)."),
      trial: currencyAmount
        .optional()
        .describe("The trial's price in this currency: required exactly when the price point has a trial (trialPriceInCents)."),
      initial: currencyAmount
        .optional()
        .describe("The initial (setup) charge in this currency: required exactly when the price point has one (initialChargeInCents)."),
    },
    { error: "must be an object { baseline, trial?, initial? } of amounts in the currency's own units" },
  )
  .strict();

const byCurrency = <S extends z.ZodType>(amounts: S, shape: string) =>
  z.record(currencyCode, amounts, { error: `must be an object from currency code to ${shape}, e.g. { EUR: … }` });

/** A product price point's `currencyPrices`: `{ EUR: { baseline: 9, trial: 1, initial: 20 } }`. */
export const pricePointCurrencyPricesInput = byCurrency(pricePointCurrencyAmounts, "{ baseline, trial?, initial? }");
/** A product price point's amounts in one currency, one per role its primary pricing has (checked by {@link pricePointCurrencyAmounts}). */
export interface PricePointCurrencyAmountsInput {
  /** The recurring price in this currency, in its own units (9.5 for 9.50), not cents. */
  readonly baseline: number;
  /** The trial's price in this currency: given exactly when the price point has a trial. */
  readonly trial?: number;
  /** The initial (setup) charge in this currency: given exactly when the price point has one. */
  readonly initial?: number;
}

/**
 * A product price point's `currencyPrices`, checked by {@link pricePointCurrencyPricesInput}: from a currency's
 * ISO code to its amounts, `{ EUR: { baseline: 9, trial: 1 } }`.
 */
export type PricePointCurrencyPricesInput = Readonly<Record<string, PricePointCurrencyAmountsInput>>;

/**
 * A component price point's `currencyPrices`: per currency, one unit price per tier of its `prices`, in their
 * order, then (a prepaid price point) one per tier of its `overagePricing.prices` (`{ EUR: [1.5, "0.9"] }`); a unit
 * price as a tier's (a number or decimal text, at most 8 decimal places).
 */
export const componentCurrencyPricesInput = byCurrency(
  z.array(unitPrice, { error: "must be an array of unit prices, one per tier of prices (then of overagePricing.prices), in their order" }),
  "[unit price per tier]",
);
/**
 * A component price point's `currencyPrices`, checked by {@link componentCurrencyPricesInput}: from a currency's
 * ISO code to one unit price per tier, in the tiers' order (a number, or decimal text kept exact).
 */
export type ComponentCurrencyPricesInput = Readonly<Record<string, (number | string)[]>>;

const WHOLE = "a whole amount in the currency's own units (not cents), 0 or more: 9 for 9.00";

/**
 * A flat-amount coupon's amount in one currency: whole units only. Unlike a price point's, the coupon's currency
 * price is an integer everywhere it is published: the contract's `Update Coupon Currency.price` and the coupon's
 * answers, and every vendor SDK (maxio-com's Java, C#, Python and PHP `UpdateCouponCurrency` take an `int`).
 * A fraction would be refused by the service (or cut, which is worse), so it is refused here, before anything is sent.
 */
export const couponCurrencyAmount = z
  .number({ error: (i) => (i.input === undefined ? `is required: ${WHOLE}` : `must be ${WHOLE}, got ${valueText(i.input)}`) })
  .refine((v) => Number.isSafeInteger(v) && v >= 0, { error: (i) => `must be ${WHOLE}, got ${valueText(i.input)}` });

/** A flat-amount coupon's `currencyPrices`: its amount in each currency, in whole units (`{ EUR: 9, GBP: 8 }`). */
export const couponCurrencyPricesInput = byCurrency(couponCurrencyAmount, "a whole amount");
/** A flat-amount coupon's `currencyPrices`, checked by {@link couponCurrencyPricesInput}: from a currency's ISO code to its whole amount. */
export type CouponCurrencyPricesInput = Readonly<Record<string, number>>;

/** The parts of a product price point's primary pricing that decide its currency prices' roles (its pricing as declared or read). */
export interface PrimaryPricingRoles {
  /** The trial's price: with it (or `trialInterval`) each currency needs a "trial" amount. */
  readonly trialPriceInCents?: unknown;
  /** The trial's length: with it (or `trialPriceInCents`) each currency needs a "trial" amount. */
  readonly trialInterval?: unknown;
  /** The initial (setup) charge: with it each currency needs an "initial" amount. */
  readonly initialChargeInCents?: unknown;
}

/** What currency prices belong to, as far as their checks need it: the primary pricing they mirror. */
export type CurrencyPricesOwner =
  | {
      /** A product's price point. */
      readonly kind: "product price point";
      /** The price point's pricing: a trial and an initial charge ask for those roles. */
      readonly pricing: PrimaryPricingRoles;
      /** The price point's type, when known ("custom" takes no currency prices). */
      readonly type?: string;
      /** The price point's `useSiteExchangeRate` as declared (the service's default is true). */
      readonly useSiteExchangeRate?: boolean;
    }
  | {
      /** A component's price point. */
      readonly kind: "component price point";
      /** How many tiers its `prices` has, and a prepaid price point's `overagePricing.prices` after them. */
      readonly tiers: number;
      /** The price point's type, when known ("custom" takes no currency prices). */
      readonly type?: string;
      /** The price point's `useSiteExchangeRate` as declared (the service's default is true). */
      readonly useSiteExchangeRate?: boolean;
    }
  | {
      /** A coupon. */
      readonly kind: "coupon";
      /** Set for a percentage coupon, which takes no currency prices. */
      readonly percentage?: unknown;
    };

/** The site's currencies as `readSite` reports them. */
export interface SiteCurrencies {
  /** The primary currency (the objects' own prices are in it); undefined when not known. */
  readonly currency: string | undefined;
  /** The other currencies: the ones currency prices may name. */
  readonly nonPrimaryCurrencies: readonly string[];
}

const SCHEMAS = {
  "product price point": pricePointCurrencyPricesInput,
  "component price point": componentCurrencyPricesInput,
  coupon: couponCurrencyPricesInput,
} as const;

/**
 * Every problem of a declared `currencyPrices` for `owner`, named under `property` (default "currencyPrices"),
 * each saying what would be accepted; [] when there is none. Pure: it sends nothing. Checked, in order:
 * the value's shape; whether the owner takes currency prices at all (not a custom price point, not a
 * percentage coupon: the service's own reasons); whether a price point uses its own prices
 * (`useSiteExchangeRate` false); whether each currency's amounts mirror the primary pricing (the roles of a
 * product price point, one per tier of a component's); and, with `site`, whether the site has each currency.
 * An empty map has no problem (no currency prices).
 */
export function currencyPricesProblems(
  owner: CurrencyPricesOwner,
  declared: unknown,
  site?: SiteCurrencies,
  property = "currencyPrices",
): Problem[] {
  if (declared === undefined) return [];
  const shape = problemsUnder(SCHEMAS[owner.kind], declared, property);
  if (typeof declared !== "object" || declared === null || Array.isArray(declared)) return shape;
  const entries = Object.entries(declared as Record<string, unknown>);
  if (entries.length === 0) return shape;
  const problems: Problem[] = [...shape];
  if (owner.kind === "coupon") {
    if (owner.percentage !== undefined)
      problems.push({
        property,
        message:
          `must be left out for a percentage coupon (percentage ${valueText(owner.percentage)}): the service takes currency prices only ` +
          `for an amount-based coupon ("if the primary coupon is percentage based, you will not be able to define pricing in non-primary currencies")`,
      });
  } else {
    if (owner.type === "custom")
      problems.push({
        property,
        message: `must be left out for a custom price point: the service's rule is "Currency Prices are not able to be created for custom ${owner.kind === "product price point" ? "product " : ""}price points"`,
      });
    if (owner.useSiteExchangeRate !== false)
      problems.push({
        property: "useSiteExchangeRate",
        message:
          `must be false with ${property}: a price point that follows the site's exchange rate (true, the service's default) ` +
          "is priced by the rate in other currencies, not by prices of its own, and reads back the rate's prices",
      });
  }
  if (owner.kind === "product price point") problems.push(...roleProblems(owner.pricing, entries, property));
  if (owner.kind === "component price point")
    for (const [code, prices] of entries)
      if (Array.isArray(prices) && prices.length !== owner.tiers)
        problems.push({
          property: `${property}.${code}`,
          message: `must hold ${owner.tiers} unit price${owner.tiers === 1 ? "" : "s"}, one per tier of prices in their order, then one per tier of a prepaid price point's overagePricing.prices (currency prices mirror the tiers), got ${prices.length}`,
        });
  if (site)
    problems.push(
      ...siteCurrencyProblems(
        entries.map(([code]) => code),
        site,
        property,
      ),
    );
  return problems;
}

/** The roles the primary pricing has: baseline always, trial with a trial, initial with an initial charge. */
export function rolesOf(pricing: PrimaryPricingRoles): CurrencyPriceRole[] {
  const roles: CurrencyPriceRole[] = ["baseline"];
  if (pricing.trialInterval !== undefined || pricing.trialPriceInCents !== undefined) roles.push("trial");
  if (pricing.initialChargeInCents !== undefined) roles.push("initial");
  return roles;
}

const ROLE_FIELD: Record<CurrencyPriceRole, string> = {
  baseline: "priceInCents",
  trial: "trialPriceInCents",
  initial: "initialChargeInCents",
};
const ROLE_WORDS: Record<CurrencyPriceRole, string> = { baseline: "its recurring price", trial: "a trial", initial: "an initial charge" };

function roleProblems(pricing: PrimaryPricingRoles, entries: [string, unknown][], property: string): Problem[] {
  const roles = rolesOf(pricing);
  const problems: Problem[] = [];
  for (const [code, amounts] of entries) {
    if (typeof amounts !== "object" || amounts === null || Array.isArray(amounts)) continue;
    const given = amounts as Record<string, unknown>;
    for (const role of CURRENCY_PRICE_ROLES) {
      const has = roles.includes(role);
      // A missing baseline is the shape's own "is required".
      if (has && given[role] === undefined && role !== "baseline")
        problems.push({
          property: `${property}.${code}.${role}`,
          message: `is required: the price point has ${ROLE_WORDS[role]} (${ROLE_FIELD[role]}), and each currency must define it too (currency prices mirror the primary pricing)`,
        });
      if (!has && given[role] !== undefined)
        problems.push({
          property: `${property}.${code}.${role}`,
          message: `must be left out: the price point has no ${role === "trial" ? "trial" : "initial charge"} (${ROLE_FIELD[role]}), and currency prices mirror the primary pricing (roles: ${roles.join(", ")})`,
        });
    }
  }
  return problems;
}

/**
 * The currencies among `codes` the site does not have, each a problem naming the site's currencies; the
 * site's primary currency is refused too (the object's own prices are in it).
 */
export function siteCurrencyProblems(codes: readonly string[], site: SiteCurrencies, property = "currencyPrices"): Problem[] {
  const others = site.nonPrimaryCurrencies;
  const has =
    others.length > 0 ? `the site's other currencies are ${others.join(", ")}` : "the site has no currency besides its primary one";
  const primary = site.currency ? ` (its primary currency is ${site.currency})` : "";
  return codes.flatMap((code) => {
    if (!/^[A-Z]{3}$/.test(code) || others.includes(code)) return [];
    if (code === site.currency)
      return [
        {
          property: `${property}.${code}`,
          message: `is the site's primary currency: the object's own prices are in it; currency prices are for its other currencies (${others.length > 0 ? others.join(", ") : "none yet"})`,
        },
      ];
    return [
      {
        property: `${property}.${code}`,
        message: `is not one of the site's currencies: ${has}${primary}; a currency is added to the site in its settings (Multi-Currency) first`,
      },
    ];
  });
}
