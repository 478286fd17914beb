/** Pulumi resources for the subscription-billing service. */

export type { MigrationPreview } from "../sdk";
export { previewSubscriptionMigration } from "./preview";
export { SubscriptionMigration, type SubscriptionMigrationArgs, subscriptionMigrationProvider } from "./subscription-migration";
export { WebhookReplay, type WebhookReplayArgs, type WebhookSelector, webhookReplayProvider } from "./webhook-replay";
export { WebhookSettings, type WebhookSettingsArgs, webhookSettingsProvider } from "./webhook-settings";
