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
