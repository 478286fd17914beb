/** The billing API's typed client. */

export type { ComponentKind } from "./catalog/component-inputs";
export {
  COMPONENT_KINDS,
  componentInput,
  componentPricePointInput,
  componentPricePointUpdateInput,
  componentRule,
  componentUpdateInput,
  eventBasedComponentInput,
  ITEM_CATEGORIES,
  meteredComponentInput,
  onOffComponentInput,
  prepaidUsageComponentInput,
  quantityBasedComponentInput,
} from "./catalog/component-inputs";
export type { ListComponentPricePointsOptions } from "./catalog/component-price-points";
export type { ListComponentsOptions } from "./catalog/components";
export { couponCode, couponInput } from "./catalog/coupon-inputs";
export type { FindCouponOptions, ListCouponsOptions } from "./catalog/coupons";
export {
  type ComponentCurrencyPricesInput,
  type CouponCurrencyPricesInput,
  CURRENCY_PRICE_ROLES,
  type CurrencyPriceRole,
  type CurrencyPricesOwner,
  componentCurrencyPricesInput,
  couponCurrencyPricesInput,
  currencyAmount,
  currencyCode,
  currencyPricesProblems,
  type PricePointCurrencyAmountsInput,
  type PricePointCurrencyPricesInput,
  type PrimaryPricingRoles,
  pricePointCurrencyAmounts,
  pricePointCurrencyPricesInput,
  rolesOf,
  type SiteCurrencies,
  siteCurrencyProblems,
} from "./catalog/currency-inputs";
export { type CurrencyPricesPlan, planCurrencyPrices } from "./catalog/currency-prices";
export {
  type ComponentPricePointCurrencyPrice,
  type CouponCurrencyPrice,
  componentCurrencyPricesOf,
  couponCurrencyPricesOf,
  type PricePointCurrencyPrice,
  pricePointCurrencyPricesOf,
} from "./catalog/currency-results";
export type {
  ComponentInput,
  ComponentPricePointInput,
  ComponentPricePointUpdateInput,
  ComponentUpdateInput,
  CouponInput,
  EventBasedComponentInput,
  MeteredComponentInput,
  OnOffComponentInput,
  PrepaidUsageComponentInput,
  QuantityBasedComponentInput,
} from "./catalog/input-types";
export type { ListProductsOptions } from "./catalog/products";
export { catalogErrorMessages } from "./catalog/refusals";
export { PRICING_SCHEMES, priceTier, pricingScheme, tierRule, unitPrice } from "./catalog/tiers";
export { BillingClient } from "./client";
export { EndpointOutcomeUnknownError, endpointBodyOf } from "./endpoints";
export {
  AuthenticationRequiredError,
  BillingApiError,
  BillingConnectionError,
  BillingError,
  BillingValidationError,
  type CatalogKind,
  CatalogOutcomeUnknownError,
  LiveSiteError,
  MigrationOutcomeUnknownError,
  PricePointsPartialFailureError,
  type ReplayBatch,
  ReplayPartialFailureError,
} from "./errors";
export { closestEventKey } from "./events";
export type {
  EndpointInput,
  MigrationInput,
  PricePointInput,
  PricePointUpdateInput,
  PricingInput,
  ProductFamilyInput,
  ProductInput,
  ProductUpdateInput,
  WebhookFilter,
} from "./inputs";
export {
  catalogHandle,
  endpointInput,
  endpointUpdateInput,
  endpointUrl,
  MAX_ENDPOINT_URL_LENGTH,
  migrationInput,
  positiveId,
  pricePointInput,
  pricePointUpdateInput,
  pricingInput,
  pricingRule,
  pricingShape,
  productFamilyInput,
  productInput,
  productShape,
  productUpdateInput,
  replayIdsInput,
  webhookFilterInput,
} from "./inputs";
export { isOnTarget, migrationBodyOf, type PreviewOptions } from "./migration";
export type { BillingClientOptions, BillingEnvironment, RetryEvent } from "./options";
export type { Outcome } from "./outcome";
export type { ListPricePointsOptions, ReadProductOptions } from "./products";
export type {
  Component,
  ComponentPricePoint,
  Coupon,
  CouponRestriction,
  Endpoint,
  IntervalUnit,
  MigrationPreview,
  PricePoint,
  PriceTier,
  Pricing,
  Product,
  ProductFamily,
  ReplayResult,
  Site,
  Subscription,
  Webhook,
} from "./results";
export type {
  MetafieldInput,
  MetafieldUpdateInput,
  OfferInput,
  ReasonCodeInput,
  ReasonCodeUpdateInput,
} from "./site-config/input-types";
export {
  type CleanupScope,
  cleanupScope,
  METAFIELD_INPUT_TYPES,
  METAFIELD_RESOURCE_TYPES,
  type MetafieldResourceType,
  metafieldInput,
  metafieldName,
  metafieldResourceType,
  metafieldScope,
  metafieldUpdateInput,
  offerInput,
  reasonCodeCode,
  reasonCodeInput,
  reasonCodeUpdateInput,
} from "./site-config/inputs";
export type { ListMetafieldsOptions } from "./site-config/metafields";
export type { ListOffersOptions } from "./site-config/offers";
export type { Metafield, Offer, ReasonCode } from "./site-config/results";
export { keysOf, problemsOf } from "./validation";
export type { WebhookId } from "./wire";
export * as wire from "./wire";
export { WEBHOOK_EVENTS, type WebhookEvent } from "./wire";
