import type {
  SubscriptionState,
  WebhookId,
  Endpoint as WireEndpoint,
  Subscription as WireSubscription,
  Webhook as WireWebhook,
} from "./wire";

/** A subscription as this SDK returns it. */
export interface Subscription {
  readonly id: number;
  readonly state: SubscriptionState;
  /**
   * The state the service reported before this one. The vendor documents it as
   * meaningful in webhooks only: for API reads it is usually the same as `state`.
   */
  readonly previousState: SubscriptionState | undefined;
  readonly product: { readonly id: number; readonly handle: string | undefined };
  /**
   * The price point, when the answer says it (most do not). After a migration
   * the SDK resolves it: the one named, or the product's default.
   */
  readonly pricePointId: number | undefined;
  /** The price point's handle, when the answer says it (the embedded product's `product_price_point_handle`). */
  readonly pricePointHandle: string | undefined;
  readonly currentPeriodEndsAt: string | undefined;
  readonly nextAssessmentAt: string | undefined;
}

/** What a migration preview says it would charge, in cents. */
export interface MigrationPreview {
  readonly proratedAdjustmentInCents: number;
  readonly chargeInCents: number;
  readonly paymentDueInCents: number;
  readonly creditAppliedInCents: number;
}

/** Result of `replayWebhooks`. */
export interface ReplayResult {
  /** Distinct ids the service accepted into its delivery queue. */
  readonly queued: number;
  /** Requests sent (at most 1000 ids each). */
  readonly batches: number;
}

/** A webhook record from the list; the service sends null for what does not apply, read here as undefined. */
export interface Webhook {
  /** int64: a number below 2^53, the exact decimal text above. */
  readonly id: WebhookId;
  readonly event: string | undefined;
  readonly successful: boolean | undefined;
  readonly createdAt: string | undefined;
  readonly lastError: string | undefined;
  readonly lastErrorAt: string | undefined;
  readonly acceptedAt: string | undefined;
  readonly lastSentAt: string | undefined;
  readonly lastSentUrl: string | undefined;
}

/** The site a client's credentials reach (`GET /site.json`). */
export interface Site {
  readonly id: number | undefined;
  readonly name: string | undefined;
  readonly subdomain: string | undefined;
  /** A test site, not a production one. */
  readonly test: boolean | undefined;
}

/** The units of a recurring or trial interval. */
export type IntervalUnit = "day" | "month";

/**
 * A price point's or product's pricing as the service holds it (a product's is its default price
 * point's). Units are the service's text: "day" or "month", and "never" for an expiration.
 */
export interface Pricing {
  readonly priceInCents: number;
  readonly interval: number;
  readonly intervalUnit: string;
  readonly trialPriceInCents: number | undefined;
  readonly trialInterval: number | undefined;
  readonly trialIntervalUnit: string | undefined;
  readonly trialType: string | undefined;
  readonly initialChargeInCents: number | undefined;
  readonly initialChargeAfterTrial: boolean | undefined;
  readonly expirationInterval: number | undefined;
  readonly expirationIntervalUnit: string | undefined;
}

/** A product family: the container of products (it has no update and no delete). */
export interface ProductFamily {
  readonly id: number;
  readonly handle: string | undefined;
  readonly name: string | undefined;
  readonly description: string | undefined;
  readonly accountingCode: string | undefined;
  readonly createdAt: string | undefined;
}

/**
 * A product: what resolves a migration's price point, and its catalog fields. The fields after
 * `defaultPricePointHandle` are optional in the type (older code builds products without them);
 * the SDK always fills them, with undefined for what the answer does not say.
 */
export interface Product {
  readonly id: number;
  readonly handle: string | undefined;
  readonly name: string | undefined;
  readonly defaultPricePointId: number | undefined;
  readonly defaultPricePointHandle: string | undefined;
  readonly description?: string | undefined;
  readonly productFamilyId?: number | undefined;
  readonly productFamilyHandle?: string | undefined;
  readonly accountingCode?: string | undefined;
  readonly taxCode?: string | undefined;
  readonly requireCreditCard?: boolean | undefined;
  readonly requestCreditCard?: boolean | undefined;
  /** When it was archived; undefined while it is not. */
  readonly archivedAt?: string | undefined;
  /** Its default price point's pricing; undefined when the answer lacks the price, interval or unit. */
  readonly pricing?: Pricing | undefined;
  readonly versionNumber?: number | undefined;
}

/** One of a product's price points. The fields after `type` are optional in the type, always filled by the SDK. */
export interface PricePoint {
  readonly id: number;
  readonly handle: string | undefined;
  readonly name: string | undefined;
  /** "default", "catalog" or "custom". */
  readonly type: string | undefined;
  readonly productId?: number | undefined;
  /** When it was archived; undefined while it is not. */
  readonly archivedAt?: string | undefined;
  /** Undefined when the answer lacks the price, interval or unit. */
  readonly pricing?: Pricing | undefined;
}

export function toSubscription(s: WireSubscription): Subscription {
  return {
    id: s.id,
    state: s.state,
    previousState: s.previous_state ?? undefined,
    product: { id: s.product.id, handle: s.product.handle ?? undefined },
    pricePointId: s.product_price_point_id ?? s.product.product_price_point_id ?? undefined,
    pricePointHandle: s.product.product_price_point_handle ?? undefined,
    currentPeriodEndsAt: s.current_period_ends_at ?? undefined,
    nextAssessmentAt: s.next_assessment_at ?? undefined,
  };
}

export function toWebhook(w: WireWebhook): Webhook {
  return {
    id: w.id,
    event: w.event ?? undefined,
    successful: w.successful ?? undefined,
    createdAt: w.created_at ?? undefined,
    lastError: w.last_error ?? undefined,
    lastErrorAt: w.last_error_at ?? undefined,
    acceptedAt: w.accepted_at ?? undefined,
    lastSentAt: w.last_sent_at ?? undefined,
    lastSentUrl: w.last_sent_url ?? undefined,
  };
}

/** A webhook endpoint: where the service sends the site's webhooks, and for which events. */
export interface Endpoint {
  readonly id: number;
  /** As the service stores it; empty in the (undocumented) case of an answer without one. */
  readonly url: string;
  /** Event keys, sorted and distinct; a key this SDK does not know (a newer one) is kept as sent. */
  readonly events: string[];
  /** "enabled" in the vendor's examples; undefined when the answer does not say. */
  readonly status: string | undefined;
  readonly siteId: number | undefined;
}

export function toEndpoint(e: WireEndpoint): Endpoint {
  return {
    id: e.id,
    url: e.url ?? "",
    events: [...new Set(e.webhook_subscriptions)].sort(),
    status: e.status ?? undefined,
    siteId: e.site_id ?? undefined,
  };
}
