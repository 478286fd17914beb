/** Pulumi resources for the subscription-billing service. */

export type { MigrationPreview } from "../sdk";
export {
  /** Every resource kind's declaration (inputs, outputs, docs), by the key its provider stores. */
  KINDS,
  type ProviderKind,
  SubscriptionMigration,
  type SubscriptionMigrationArgs,
  subscriptionMigrationProvider,
  WebhookEndpoint,
  type WebhookEndpointArgs,
  WebhookReplay,
  type WebhookReplayArgs,
  type WebhookSelector,
  WebhookSettings,
  type WebhookSettingsArgs,
  webhookEndpointProvider,
  webhookReplayProvider,
  webhookSettingsProvider,
} from "./kinds";
export { previewSubscriptionMigration } from "./preview";
