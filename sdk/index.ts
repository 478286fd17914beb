/** The billing API's typed client. */

export type { ListProductsOptions } from "./catalog/products";
export { catalogErrorMessages } from "./catalog/refusals";
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
export type { ListPricePointsOptions } from "./products";
export type {
  Endpoint,
  IntervalUnit,
  MigrationPreview,
  PricePoint,
  Pricing,
  Product,
  ProductFamily,
  ReplayResult,
  Site,
  Subscription,
  Webhook,
} from "./results";
export { keysOf, problemsOf } from "./validation";
export type { WebhookId } from "./wire";
export * as wire from "./wire";
export { WEBHOOK_EVENTS, type WebhookEvent } from "./wire";
