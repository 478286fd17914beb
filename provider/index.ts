/** Pulumi resources for the subscription-billing service. */

export type { MigrationPreview } from "../sdk";
export * from "./kinds";
export { previewSubscriptionMigration, type SubscriptionMigrationPreview } from "./preview";
