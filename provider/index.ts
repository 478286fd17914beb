/** Pulumi resources for the subscription-billing service. */

export type { MigrationPreview } from "../sdk";
export {
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
