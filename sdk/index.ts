/** The billing API's typed client. */
export { BillingClient } from "./client";
export { EndpointOutcomeUnknownError, endpointBodyOf } from "./endpoints";
export {
  AuthenticationRequiredError,
  BillingApiError,
  BillingConnectionError,
  BillingError,
  BillingValidationError,
  MigrationOutcomeUnknownError,
  type ReplayBatch,
  ReplayPartialFailureError,
} from "./errors";
export { closestEventKey } from "./events";
export type { EndpointInput, MigrationInput, WebhookFilter } from "./inputs";
export {
  endpointInput,
  endpointUpdateInput,
  endpointUrl,
  MAX_ENDPOINT_URL_LENGTH,
  migrationInput,
  positiveId,
  replayIdsInput,
  webhookFilterInput,
} from "./inputs";
export { isOnTarget, migrationBodyOf, type PreviewOptions } from "./migration";
export type { BillingClientOptions, BillingEnvironment, RetryEvent } from "./options";
export type { Outcome } from "./outcome";
export type { Endpoint, MigrationPreview, PricePoint, Product, ReplayResult, Site, Subscription, Webhook } from "./results";
export { keysOf, problemsOf } from "./validation";
export type { WebhookId } from "./wire";
export * as wire from "./wire";
export { WEBHOOK_EVENTS, type WebhookEvent } from "./wire";
