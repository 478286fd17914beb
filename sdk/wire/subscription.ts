import { z } from "zod";
import { maybe, timestamp, wireId } from "./common";

/** The states the contract names (`Subscription State`). */
export const SUBSCRIPTION_STATES = [
  "pending",
  "failed_to_create",
  "trialing",
  "assessing",
  "active",
  "soft_failure",
  "past_due",
  "suspended",
  "canceled",
  "expired",
  "paused",
  "unpaid",
  "trial_ended",
  "on_hold",
  "awaiting_signup",
] as const;
/** The contract's states as a schema; answers are read with any state (see {@link SubscriptionState}). */
export const subscriptionState = z.enum(SUBSCRIPTION_STATES);

/**
 * A state as read from the service: one of the contract's, or a newer one it
 * does not list yet. Refusing an unknown state would make the whole read fail;
 * the callers treat a state they do not know as not eligible for migration.
 */
export type SubscriptionState = (typeof SUBSCRIPTION_STATES)[number] | (string & {});
const anyState = z.string().min(1) as z.ZodType<SubscriptionState>;

/**
 * The product as embedded in a subscription. `handle` is nullable in the
 * contract; the price point fields are in its schema but absent from most of
 * the vendor's examples.
 */
export const product = z.object({
  id: wireId,
  name: maybe(z.string()),
  handle: maybe(z.string()),
  product_price_point_id: maybe(wireId),
  product_price_point_handle: maybe(z.string()),
  default_product_price_point_id: maybe(wireId),
});
/** The product embedded in a subscription, as {@link product} reads it. */
export type Product = z.infer<typeof product>;

/**
 * The fields of `Subscription` this package reads; the others (some sixty)
 * are dropped by the parse. `product_price_point_id` is absent from most of
 * the vendor's examples: the SDK resolves it through the product.
 */
export const subscription = z.object({
  id: wireId,
  state: anyState,
  previous_state: maybe(anyState),
  product,
  product_price_point_id: maybe(wireId),
  product_price_point_type: maybe(z.string()),
  current_period_ends_at: maybe(timestamp),
  next_assessment_at: maybe(timestamp),
});
/** A subscription as {@link subscription} reads it, before the SDK turns it into its `Subscription` result. */
export type Subscription = z.infer<typeof subscription>;

/** `Subscription Response`: `{ subscription }`, used by read and by migrate. */
export const subscriptionResponse = z.object({ subscription });
/** The answer {@link subscriptionResponse} reads: `{ subscription }`. */
export type SubscriptionResponse = z.infer<typeof subscriptionResponse>;
