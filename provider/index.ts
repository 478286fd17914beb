/** Pulumi resources for the subscription-billing service. */
export { WebhookSettings, webhookSettingsProvider, type WebhookSettingsArgs } from "./webhook-settings";
export { SubscriptionMigration, subscriptionMigrationProvider, type SubscriptionMigrationArgs } from "./subscription-migration";
export { WebhookReplay, webhookReplayProvider, type WebhookReplayArgs, type WebhookSelector } from "./webhook-replay";
export { previewSubscriptionMigration } from "./preview";
export type { MigrationPreview } from "../sdk";
