/** The billing API's typed client. */
export { BillingClient } from "./client";
export type { BillingClientOptions, BillingEnvironment, RetryEvent } from "./options";
export type { EndpointInput, MigrationInput, WebhookFilter } from "./inputs";
export { migrationInput, replayIdsInput, webhookFilterInput, positiveId, endpointInput, endpointUpdateInput, endpointUrl, MAX_ENDPOINT_URL_LENGTH } from "./inputs";
export { closestEventKey } from "./events";
export { EndpointOutcomeUnknownError, endpointBodyOf } from "./endpoints";
export { WEBHOOK_EVENTS, type WebhookEvent } from "./wire";
export { keysOf, problemsOf } from "./validation";
export { isOnTarget, migrationBodyOf, type PreviewOptions } from "./migration";
export type { Endpoint, MigrationPreview, PricePoint, Product, ReplayResult, Subscription, Webhook } from "./results";
export type { WebhookId } from "./wire";
export type { Outcome } from "./outcome";
export {
  AuthenticationRequiredError, BillingApiError, BillingConnectionError, BillingError, BillingValidationError,
  MigrationOutcomeUnknownError, ReplayPartialFailureError, type ReplayBatch,
} from "./errors";
export * as wire from "./wire";
