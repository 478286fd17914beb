import { z } from "zod";
import { timestamp, wireId } from "./common";

/** `Subscription State` from the contract. */
export const subscriptionState = z.enum([
  "pending", "failed_to_create", "trialing", "assessing", "active", "soft_failure", "past_due",
  "suspended", "canceled", "expired", "paused", "unpaid", "trial_ended", "on_hold", "awaiting_signup",
]);
export type SubscriptionState = z.infer<typeof subscriptionState>;

/** The product as embedded in a subscription; `handle` is nullable in the contract. */
export const product = z.object({
  id: wireId,
  name: z.string().optional(),
  handle: z.string().nullable().optional(),
});
export type Product = z.infer<typeof product>;

/**
 * The fields of `Subscription` this package reads. Unknown fields are dropped by
 * the parse; the contract has some sixty of them.
 */
export const subscription = z.object({
  id: wireId,
  state: subscriptionState,
  previous_state: subscriptionState.optional(),
  product: product,
  product_price_point_id: wireId.optional(),
  product_price_point_handle: z.string().nullable().optional(),
  current_period_ends_at: timestamp.nullable().optional(),
  next_assessment_at: timestamp.nullable().optional(),
});
export type Subscription = z.infer<typeof subscription>;

/** `Subscription Response`: `{ subscription }`, used by read and by migrate. */
export const subscriptionResponse = z.object({ subscription });
export type SubscriptionResponse = z.infer<typeof subscriptionResponse>;
