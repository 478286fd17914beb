import type { SubscriptionState, WebhookStatus } from "../sdk/wire";

/** What the simulator keeps per product; plain data, handed out as copies. */
export interface PricePointRecord {
  id: number;
  handle: string;
  default: boolean;
  priceInCents: number;
  /** Billing period length; 12 for an annual price point. */
  intervalMonths: number;
}

export interface ProductRecord {
  id: number;
  handle: string;
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
  id: number;
  /** Kept as given: the list's `status` filter works on it, the wire only shows its effects. */
  status: WebhookStatus;
  subscriptionId?: number;
  event: string;
  createdAt: string;
}

export interface PricePointInput {
  id?: number;
  handle: string;
  default?: boolean;
  priceInCents?: number;
  intervalMonths?: number;
}

export interface ProductInput {
  id?: number;
  handle: string;
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
  id?: number;
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
