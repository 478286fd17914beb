import type { SubscriptionState, WebhookStatus } from "./wire";

export type IntervalUnit = "day" | "month";
/** A product's expiration may also be "never" (the contract's product schema; a price point writes null). */
export type ExpirationIntervalUnit = IntervalUnit | "never";

/**
 * A price point's terms as the service holds them (a product's are its
 * default price point's). Unset optional terms are null, as the service
 * writes them.
 */
export interface PricingRecord {
  priceInCents: number;
  /** The billing period: `interval` `intervalUnit`s (12 months for an annual price point). */
  interval: number;
  intervalUnit: IntervalUnit;
  trialPriceInCents: number | null;
  trialInterval: number | null;
  trialIntervalUnit: IntervalUnit | null;
  /** "no_obligation" or "payment_expected" (a plain string in the contract). */
  trialType: string | null;
  initialChargeInCents: number | null;
  initialChargeAfterTrial: boolean;
  expirationInterval: number | null;
  expirationIntervalUnit: ExpirationIntervalUnit | null;
}

/** What the simulator keeps per price point; plain data, handed out as copies. */
export interface PricePointRecord extends PricingRecord {
  id: number;
  /** Unique within its product, archived price points included. */
  handle: string;
  /** Shown as `name` and, for the default, as the product's `product_price_point_name`. */
  name: string;
  default: boolean;
  useSiteExchangeRate: boolean;
  archivedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A product family: a container of products. The API has no update and no delete of one. */
export interface ProductFamilyRecord {
  id: number;
  /** Unique within the site. */
  handle: string;
  name: string;
  description: string | null;
  accountingCode: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A public signup page, made by `auto_create_signup_page`. */
export interface SignupPageRecord {
  id: number;
  url: string;
}

/** What the simulator keeps per product; plain data, handed out as copies. */
export interface ProductRecord {
  id: number;
  /** The contract's product handle is nullable: a product made without one cannot be found by handle. */
  handle: string | null;
  name: string;
  description: string | null;
  familyId: number;
  accountingCode: string | null;
  /** At most 10 characters (the contract). */
  taxCode: string | null;
  requireCreditCard: boolean;
  requestCreditCard: boolean;
  requestBillingAddress: boolean;
  requireBillingAddress: boolean;
  requireShippingAddress: boolean;
  signupPages: SignupPageRecord[];
  /** Counts the product's pricing changes (an update that changes pricing makes a new default price point). */
  versionNumber: number;
  /** Archived products keep their handle and their subscribers; they take no new price points or subscribers. */
  archivedAt: string | null;
  /** In the order made; exactly one is the default. */
  pricePoints: PricePointRecord[];
  createdAt: string;
  updatedAt: string;
}

export interface SubscriptionRecord {
  id: number;
  productId: number;
  pricePointId: number;
  state: SubscriptionState;
  /** The state before the last migration; absent until one happened. */
  previousState?: SubscriptionState;
  requiresAuthentication: boolean;
  createdAt: string;
  updatedAt: string;
  currentPeriodStartedAt: string;
  currentPeriodEndsAt: string;
}

export interface WebhookRecord {
  /** Given as a number (or generated): a safe integer. */
  id: number;
  /** Kept as given: the list's `status` filter works on it, the wire only shows its effects. */
  status: WebhookStatus;
  subscriptionId?: number;
  event: string;
  createdAt: string;
}

/** A webhook added with its id as a decimal string (e.g. beyond 2^53): the id stays that exact text. */
export type BigIdWebhookRecord = Omit<WebhookRecord, "id"> & { id: string };

/**
 * Terms given to a seeding call; what is left out comes from the product (for
 * its price points) or the defaults: one month, no trial, no initial charge,
 * no expiration. `intervalMonths: N` is the older spelling of `interval: N,
 * intervalUnit: "month"`.
 */
export interface PricingInput {
  priceInCents?: number;
  interval?: number;
  intervalUnit?: IntervalUnit;
  intervalMonths?: number;
  trialPriceInCents?: number | null;
  trialInterval?: number | null;
  trialIntervalUnit?: IntervalUnit | null;
  trialType?: string | null;
  initialChargeInCents?: number | null;
  initialChargeAfterTrial?: boolean;
  expirationInterval?: number | null;
  expirationIntervalUnit?: ExpirationIntervalUnit | null;
}

export interface PricePointInput extends PricingInput {
  id?: number;
  handle: string;
  /** Default "Default" for the default price point, else the handle. */
  name?: string;
  default?: boolean;
  /** Archived as made (in the web UI); a default price point cannot be archived. */
  archived?: boolean;
  useSiteExchangeRate?: boolean;
}

/** A product family made elsewhere (the web UI). */
export interface ProductFamilyInput {
  id?: number;
  handle: string;
  /** Default: the handle. */
  name?: string;
  description?: string | null;
  accountingCode?: string | null;
}

/** A product made elsewhere (the web UI). Its pricing is its default price point's. */
export interface ProductInput extends PricingInput {
  id?: number;
  /** Omitted or null: a product without a handle (rendered `"handle": null`). */
  handle?: string | null;
  name?: string;
  description?: string | null;
  /**
   * The family, by id or handle (at most one of them). Without either, the
   * product goes into the site's default family ("plans", made on first use).
   */
  familyId?: number;
  familyHandle?: string;
  accountingCode?: string | null;
  taxCode?: string | null;
  requireCreditCard?: boolean;
  requestCreditCard?: boolean;
  /** Default false, as the service makes a product. */
  requestBillingAddress?: boolean;
  requireBillingAddress?: boolean;
  requireShippingAddress?: boolean;
  /** Archived as made (in the web UI): it keeps its handle, and takes no new price points or subscribers. */
  archived?: boolean;
  pricePoints?: PricePointInput[];
}

export interface SubscriptionInput {
  id?: number;
  productId?: number;
  productHandle?: string;
  pricePointId?: number;
  state: SubscriptionState;
  requiresAuthentication?: boolean;
  createdAt?: string;
}

export interface WebhookInput {
  /**
   * A number (safe integer) or a decimal string up to int64's maximum: ids past
   * 2^53 only survive as text, and GET /webhooks.json writes them digit for digit.
   */
  id?: number | string;
  status: WebhookStatus;
  subscriptionId?: number;
  event?: string;
  createdAt?: string;
}

/** Timestamps the way the service writes them: RFC 3339, whole seconds. */
export function isoSeconds(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, "Z");
}

export function addMonths(iso: string, months: number): string {
  const d = new Date(iso);
  d.setUTCMonth(d.getUTCMonth() + months);
  return isoSeconds(d);
}

/** `iso` plus one billing period of these terms. */
export function addInterval(iso: string, p: Pick<PricingRecord, "interval" | "intervalUnit">): string {
  if (p.intervalUnit === "month") return addMonths(iso, p.interval);
  return isoSeconds(new Date(Date.parse(iso) + p.interval * 86_400_000));
}

/**
 * A webhook endpoint as the site holds it. `events` are its
 * `webhook_subscriptions`, in the order stored, each once. `status` is a plain
 * string (the contract does not enumerate it); the published examples only
 * ever show "enabled".
 */
export interface EndpointRecord {
  id: number;
  url: string;
  events: string[];
  status: string;
}

/**
 * An endpoint "made elsewhere" (the web UI): url and events are taken as given,
 * not checked the way the API checks them (the published list example holds a
 * url the API's own rule would hardly produce), only for being non-empty
 * strings. Repeated events are kept once. `status` defaults to "enabled".
 */
export interface EndpointInput {
  id?: number;
  url: string;
  events: readonly string[];
  status?: string;
}

/** A change made to an endpoint outside the API (the web UI): what is given replaces what was held. */
export interface EndpointChange {
  url?: string;
  events?: readonly string[];
  status?: string;
}

// ---- components and coupons -------------------------------------------------

/** The five kinds of component, each created on its own path (`/product_families/{id}/<kind>_components.json`). */
export type ComponentKind = "metered" | "quantity_based" | "on_off" | "prepaid_usage" | "event_based";
export type PricingScheme = "per_unit" | "volume" | "tiered" | "stairstep";
/** The contract's `Item Category`. */
export type ItemCategory = "Business Software" | "Consumer Software" | "Digital Services" | "Physical Goods" | "Other";
/** The contract's `Credit Type` of an upgrade or downgrade. */
export type CreditType = "full" | "prorated" | "none";

/** One price bracket. `unitPrice` is decimal text as the service writes it ("10.0", "0.49"): never a float. */
export interface PriceRecord {
  id: number;
  startingQuantity: number;
  /** null: open-ended (the last bracket). */
  endingQuantity: number | null;
  unitPrice: string;
}

/** A scheme and its brackets (a price point's own, or a prepaid component's overage). */
export interface PricingSchemeRecord {
  pricingScheme: PricingScheme;
  prices: PriceRecord[];
}

/** What the simulator keeps per component price point. */
export interface ComponentPricePointRecord extends PricingSchemeRecord {
  id: number;
  /** Unique within its component, archived price points included; a `uuid:` one when none was given. */
  handle: string;
  name: string;
  default: boolean;
  /** null: the component's billing period (the site's, without multifrequency). */
  interval: number | null;
  intervalUnit: IntervalUnit | null;
  useSiteExchangeRate: boolean;
  taxIncluded: boolean;
  /** Prepaid usage components only: what usage beyond the prepaid quantity costs. */
  overagePricing: PricingSchemeRecord | null;
  rolloverPrepaidRemainder: boolean | null;
  renewPrepaidAllocation: boolean | null;
  expirationInterval: number | null;
  expirationIntervalUnit: IntervalUnit | null;
  archivedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** What the simulator keeps per component. Its pricing is its default price point's. */
export interface ComponentRecord {
  id: number;
  kind: ComponentKind;
  familyId: number;
  /** Unique within the site, archived components included. */
  handle: string | null;
  name: string;
  unitName: string;
  description: string | null;
  taxable: boolean;
  taxCode: string | null;
  accountingCode: string | null;
  itemCategory: ItemCategory | null;
  displayOnHostedPage: boolean;
  allowFractionalQuantities: boolean;
  hideDateRangeOnInvoice: boolean;
  recurring: boolean;
  upgradeCharge: CreditType | null;
  downgradeCredit: CreditType | null;
  /** Event based components only. */
  eventBasedBillingMetricId: number | null;
  publicSignupPageIds: number[];
  /** Archived components keep their handle; the API has no unarchive. */
  archivedAt: string | null;
  /** In the order made; exactly one is the default, never archived. */
  pricePoints: ComponentPricePointRecord[];
  createdAt: string;
  updatedAt: string;
}

export type CompoundingStrategy = "compound" | "full-price";

/** A coupon's restriction to one product or component of its site (by that site's id). */
export interface CouponRestrictionRecord {
  id: number;
  itemType: "Product" | "Component";
  itemId: number;
}

/** What the simulator keeps per coupon. Exactly one of `percentage` and `amountInCents` is set. */
export interface CouponRecord {
  id: number;
  familyId: number;
  /** Unique within the site, archived coupons included; uppercase letters, digits and `% @ + - _ .`. */
  code: string;
  name: string;
  description: string;
  /** Decimal text as the service writes it ("15", "33.3333"). */
  percentage: string | null;
  amountInCents: number | null;
  recurring: boolean;
  /** With `recurring`: how many periods it applies for; null for ever. */
  durationPeriodCount: number | null;
  allowNegativeBalance: boolean;
  stackable: boolean;
  compoundingStrategy: CompoundingStrategy | null;
  excludeMidPeriodAllocations: boolean;
  applyOnCancelAtEndOfPeriod: boolean;
  applyOnSubscriptionExpiration: boolean;
  startDate: string;
  endDate: string | null;
  restrictions: CouponRestrictionRecord[];
  archivedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A price bracket given to a seeding call; `unitPrice` as a number or decimal text. */
export interface PriceInput {
  /** Default: the next free one. */
  id?: number;
  startingQuantity: number;
  endingQuantity?: number | null;
  unitPrice: number | string;
}

/** A component price point made elsewhere (the web UI). */
export interface ComponentPricePointInput {
  id?: number;
  /** Default: a `uuid:` handle, as the service makes. */
  handle?: string;
  /** Default: the handle, or "Original" for the default one. */
  name?: string;
  /** Default: the component's scheme. */
  pricingScheme?: PricingScheme;
  /** Default: the component's brackets; a per-unit price point may give `unitPrice` instead. */
  prices?: PriceInput[];
  unitPrice?: number | string;
  default?: boolean;
  /** Archived as made; a default price point cannot be archived. */
  archived?: boolean;
  interval?: number | null;
  intervalUnit?: IntervalUnit | null;
  useSiteExchangeRate?: boolean;
  taxIncluded?: boolean;
  overagePricing?: { pricingScheme: PricingScheme; prices: PriceInput[] } | null;
  rolloverPrepaidRemainder?: boolean | null;
  renewPrepaidAllocation?: boolean | null;
  expirationInterval?: number | null;
  expirationIntervalUnit?: IntervalUnit | null;
}

/**
 * A component made elsewhere (the web UI), with its default price point
 * ("Original", as the service names it) from `pricingScheme` and
 * `prices`/`unitPrice`, and any more `pricePoints` (one of them may be the
 * default instead). Tiers are checked as the API checks them.
 */
export interface ComponentInput {
  id?: number;
  /** The family, by id or handle (exactly one of them). */
  familyId?: number;
  familyHandle?: string;
  kind: ComponentKind;
  handle?: string | null;
  /** Default: the handle. */
  name?: string;
  /** Default: "unit" ("on/off" for on/off components, as the service names theirs). */
  unitName?: string;
  /** Default: per_unit. */
  pricingScheme?: PricingScheme;
  /** Brackets; or `unitPrice` for per_unit (one open bracket from 1). Default: one bracket at 1.0. */
  prices?: PriceInput[];
  unitPrice?: number | string;
  description?: string | null;
  taxable?: boolean;
  taxCode?: string | null;
  accountingCode?: string | null;
  itemCategory?: ItemCategory | null;
  displayOnHostedPage?: boolean;
  allowFractionalQuantities?: boolean;
  hideDateRangeOnInvoice?: boolean;
  recurring?: boolean;
  upgradeCharge?: CreditType | null;
  downgradeCredit?: CreditType | null;
  /** Required for event based components. */
  eventBasedBillingMetricId?: number;
  interval?: number | null;
  intervalUnit?: IntervalUnit | null;
  overagePricing?: { pricingScheme: PricingScheme; prices: PriceInput[] } | null;
  rolloverPrepaidRemainder?: boolean | null;
  renewPrepaidAllocation?: boolean | null;
  expirationInterval?: number | null;
  expirationIntervalUnit?: IntervalUnit | null;
  archived?: boolean;
  pricePoints?: ComponentPricePointInput[];
}

/**
 * A coupon made elsewhere (the web UI): `percentage` or `amountInCents`
 * (exactly one); restrictions by the site's own product and component handles
 * (or ids). The code is checked as the API checks it.
 */
export interface CouponInput {
  id?: number;
  familyId?: number;
  familyHandle?: string;
  code: string;
  /** Default: the code. */
  name?: string;
  description?: string;
  percentage?: number | string;
  amountInCents?: number;
  recurring?: boolean;
  durationPeriodCount?: number | null;
  allowNegativeBalance?: boolean;
  stackable?: boolean;
  compoundingStrategy?: CompoundingStrategy | null;
  excludeMidPeriodAllocations?: boolean;
  applyOnCancelAtEndOfPeriod?: boolean;
  applyOnSubscriptionExpiration?: boolean;
  endDate?: string | null;
  restrictedProducts?: (string | number)[];
  restrictedComponents?: (string | number)[];
  archived?: boolean;
}
