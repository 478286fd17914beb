import type { SubscriptionState, WebhookStatus } from "./wire";

/** What the simulator keeps per product; plain data, handed out as copies. */
export interface PricePointRecord {
  id: number;
  handle: string;
  /** Shown as `name` and as the product's `product_price_point_name`. */
  name: string;
  default: boolean;
  priceInCents: number;
  /** Billing period length; 12 for an annual price point. */
  intervalMonths: number;
}

export interface ProductRecord {
  id: number;
  /** The contract's product handle is nullable: a product made without one cannot be found by handle. */
  handle: string | null;
  name: string;
  priceInCents: number;
  pricePoints: PricePointRecord[];
  createdAt: string;
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

export interface PricePointInput {
  id?: number;
  handle: string;
  /** Default "Default" for the default price point, else the handle. */
  name?: string;
  default?: boolean;
  priceInCents?: number;
  intervalMonths?: number;
}

export interface ProductInput {
  id?: number;
  /** Omitted or null: a product without a handle (rendered `"handle": null`). */
  handle?: string | null;
  name?: string;
  priceInCents?: number;
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
