/** The billing API's typed client. */
export { BillingClient } from "./client";
export type { BillingClientOptions, BillingEnvironment } from "./options";
export type { MigrationInput, WebhookFilter } from "./inputs";
export { migrationInput, replayIdsInput, webhookFilterInput, positiveId } from "./inputs";
export { problemsOf } from "./validation";
export { isOnTarget, migrationBodyOf } from "./migration";
export type { MigrationPreview, ReplayResult, Subscription, Webhook } from "./results";
export {
  AuthenticationRequiredError, BillingApiError, BillingConnectionError, BillingError, BillingValidationError,
  MigrationOutcomeUnknownError, ReplayPartialFailureError,
} from "./errors";
export * as wire from "./wire";
