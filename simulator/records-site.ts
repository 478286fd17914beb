/**
 * The records and seeding inputs of a site's configuration beyond its catalogue
 * (issue 41): its currencies and mode, the catalogue's prices in the other
 * currencies, custom fields (metafields), churn reason codes and offers. Plain
 * data, handed out as copies, as records.ts's are.
 */

/** The site's currencies, their exchange rates, and whether it is live (production) or a test site. */
export interface SiteSettingsRecord {
  /** The primary currency (ISO 4217), `GET /site.json`'s `currency`. */
  currency: string;
  /** `GET /site.json`'s `non_primary_currencies`: the only currencies a currency price may name. */
  nonPrimaryCurrencies: string[];
  /** Primary to each non-primary currency (1 USD = `rate` EUR): what `use_site_exchange_rate: true` prices by. */
  exchangeRates: Record<string, number>;
  /** A live site refuses `POST /sites/clear_data.json` (403); `GET /site.json` writes `test: !live`. */
  live: boolean;
}

/** A change to the site's settings (a seeding call or `startSimulator`'s options); what is left out stays. */
export interface SiteSettingsInput {
  currency?: string;
  nonPrimaryCurrencies?: readonly string[];
  /** By non-primary currency; one left out is 1. */
  exchangeRates?: Readonly<Record<string, number>>;
  live?: boolean;
}

/** The contract's `Currency Price Role`: which of a product price point's prices it stands for. */
export type CurrencyPriceRole = "baseline" | "trial" | "initial";

/** A product price point's price in one non-primary currency for one role; `price` in that currency's units (not cents). */
export interface ProductCurrencyPriceRecord {
  id: number;
  pricePointId: number;
  currency: string;
  role: CurrencyPriceRole;
  price: number;
}

/** A component price point's price for one of its brackets (`priceId`) in one currency; decimal text as the service writes it. */
export interface ComponentCurrencyPriceRecord {
  id: number;
  pricePointId: number;
  priceId: number;
  currency: string;
  price: string;
}

/** A flat-amount coupon's amount in one currency, in whole units of it (the contract types it integer). */
export interface CouponCurrencyPriceRecord {
  id: number;
  couponId: number;
  currency: string;
  price: number;
}

export type MetafieldResource = "subscriptions" | "customers";
export type MetafieldInputType = "balance_tracker" | "text" | "radio" | "dropdown";
/** The contract's `Include Option`: "1" includes, "0" excludes. */
export type IncludeOption = "0" | "1";

export interface MetafieldScopeRecord {
  csv: IncludeOption;
  invoices: IncludeOption;
  statements: IncludeOption;
  portal: IncludeOption;
  publicShow: IncludeOption;
  publicEdit: IncludeOption;
  hosted: string[];
}

/** A custom field of subscriptions or of customers; names are unique per resource type. */
export interface MetafieldRecord {
  id: number;
  resourceType: MetafieldResource;
  name: string;
  inputType: MetafieldInputType;
  /** The allowed values of a radio or dropdown field; null for one that never had any. */
  enum: string[] | null;
  scope: MetafieldScopeRecord;
  /** How many subscriptions (or customers) hold a value for it: what deleting it deletes. */
  dataCount: number;
}

/** A metafield made elsewhere (the web UI), with values on `dataCount` records. */
export interface MetafieldInput {
  id?: number;
  resourceType: MetafieldResource;
  name: string;
  /** Default "text". */
  inputType?: MetafieldInputType;
  enum?: readonly string[] | null;
  /** What is left out is excluded ("0"), hosted none. */
  scope?: Partial<MetafieldScopeRecord>;
  dataCount?: number;
}

/** A churn reason code. */
export interface ReasonCodeRecord {
  id: number;
  code: string;
  description: string;
  /** Where it appears in lists (ascending). */
  position: number;
  createdAt: string;
  updatedAt: string;
}

export interface ReasonCodeInput {
  id?: number;
  code: string;
  description: string;
  /** Default: after the last one. */
  position?: number;
}

/** One component of an offer, at one of its price points, with its starting quantity. */
export interface OfferItemRecord {
  componentId: number;
  pricePointId: number;
  startingQuantity: number;
}

/** A public signup page of an offer (made in the web UI; the API's create has no field for them). */
export interface OfferSignupPageRecord {
  id: number;
  nickname: string;
  enabled: boolean;
  url: string;
}

/** A product at one of its price points, with components and coupons, sold as one signup offer. No update: archive and make another. */
export interface OfferRecord {
  id: number;
  /** Unique within the site, archived offers' included. */
  handle: string;
  name: string;
  description: string | null;
  productId: number;
  pricePointId: number;
  items: OfferItemRecord[];
  couponIds: number[];
  signupPages: OfferSignupPageRecord[];
  archivedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** An offer made elsewhere (the web UI): its product, price point, components and coupons by this site's handles (or ids). */
export interface OfferInput {
  id?: number;
  handle: string;
  /** Default: the handle. */
  name?: string;
  description?: string | null;
  productId?: number;
  productHandle?: string;
  /** Default: the product's default price point. */
  pricePointId?: number;
  pricePointHandle?: string;
  components?: readonly {
    componentId?: number;
    componentHandle?: string;
    /** Default: the component's default price point. */
    pricePointId?: number;
    pricePointHandle?: string;
    /** Default 1 (0 or 1 for an on/off component). */
    startingQuantity?: number;
  }[];
  couponCodes?: readonly string[];
  signupPages?: readonly { nickname: string; url?: string; enabled?: boolean }[];
  archived?: boolean;
}

/** Prices in other currencies for a seeding call: the web UI's, checked by the API's rules. */
export interface ProductCurrencyPriceInput {
  /** Default: the next free one. */
  id?: number;
  currency: string;
  role: CurrencyPriceRole;
  price: number;
}
export interface ComponentCurrencyPriceInput {
  /** Default: the next free one. */
  id?: number;
  currency: string;
  priceId: number;
  price: number | string;
}
export interface CouponCurrencyPriceInput {
  currency: string;
  price: number;
}
