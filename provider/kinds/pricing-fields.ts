/**
 * The pricing fields of a product (its default price point's) and of its other price points, in the
 * order the docs, the review and the policy pack list them: a change to any of them changes what new
 * subscriptions pay. A module of its own, importing nothing, so that the policy pack and the review
 * read the one list without loading the provider's modules.
 */
export const PRICING_FIELDS = [
  "priceInCents",
  "interval",
  "intervalUnit",
  "trialPriceInCents",
  "trialInterval",
  "trialIntervalUnit",
  "trialType",
  "initialChargeInCents",
  "initialChargeAfterTrial",
  "expirationInterval",
  "expirationIntervalUnit",
] as const;
export type PricingField = (typeof PRICING_FIELDS)[number];
