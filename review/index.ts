/**
 * billing-review: a Markdown summary of a `pulumi preview` (one stack's, or a
 * fleet report's per site) for a pull request. The CLI is `billing-review`.
 */
export {
  CATALOG_KINDS,
  type CatalogAction,
  type CatalogKind,
  type CatalogReview,
  catalogKindOf,
  catalogReviews,
  dollars,
  type FieldChange,
  fieldChanges,
  type ProductRef,
} from "./catalog";
export { cell, cellCode, code, money, text, truncate } from "./markdown";
export { type MigrationReview, migrationReviews, type Placement, type Ref } from "./migrations";
export { type PolicyPacksNotRun, policyPacksNotRun } from "./policy-packs";
export { type FleetInput, type FleetSite, parseInput, type ReviewInput, ReviewInputError, readInput, type StackInput } from "./read";
export { changedSteps, countsText, type Note, notesOf, TYPES, violationsOf } from "./steps";
export { reviewSummary } from "./summary";
export { type EndpointReview, type SettingsReview, type SiteWebhooks, webhookReviews } from "./webhooks";
