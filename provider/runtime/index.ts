/**
 * The providers' implementation. The serialized provider objects are thin
 * shells that `require` this module by package name at call time, so the
 * text stored in every resource's state stays small and stable, and an
 * upgrade of the package changes behaviour without changing that text.
 */
export { configure } from "./config";
export * as subscriptionMigration from "./subscription-migration";
export * as webhookReplay from "./webhook-replay";
export * as webhookSettings from "./webhook-settings";
