import type { Subscription as WireSubscription, SubscriptionState, Webhook as WireWebhook } from "./wire";

/** A subscription as this SDK returns it. */
export interface Subscription {
  readonly id: number;
  readonly state: SubscriptionState;
  readonly previousState: SubscriptionState | undefined;
  readonly product: { readonly id: number; readonly handle: string | undefined };
  readonly pricePointId: number | undefined;
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

/** A webhook record from the list. */
export interface Webhook {
  readonly id: number;
  readonly event: string | undefined;
  readonly successful: boolean | undefined;
  readonly createdAt: string | undefined;
  readonly lastError: string | undefined;
}

export function toSubscription(s: WireSubscription): Subscription {
  return {
    id: s.id,
    state: s.state,
    previousState: s.previous_state,
    product: { id: s.product.id, handle: s.product.handle ?? undefined },
    pricePointId: s.product_price_point_id,
    currentPeriodEndsAt: s.current_period_ends_at ?? undefined,
    nextAssessmentAt: s.next_assessment_at ?? undefined,
  };
}

export function toWebhook(w: WireWebhook): Webhook {
  return { id: w.id, event: w.event, successful: w.successful, createdAt: w.created_at, lastError: w.last_error };
}
