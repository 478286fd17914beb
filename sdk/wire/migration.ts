import { z } from "zod";
import { cents, wireId } from "./common";

/**
 * `Subscription Product Migration` (the object under `migration`). The four
 * options are always sent by the SDK, so state records exactly what was asked.
 */
export const migrationBody = z.object({
  product_id: wireId.optional(),
  product_handle: z.string().min(1).optional(),
  product_price_point_id: wireId.optional(),
  product_price_point_handle: z.string().min(1).optional(),
  include_trial: z.boolean().optional(),
  include_initial_charge: z.boolean().optional(),
  include_coupons: z.boolean().optional(),
  preserve_period: z.boolean().optional(),
});
/** The `migration` object {@link migrationBody} checks: what `migrationBodyOf` builds and the SDK sends. */
export type MigrationBody = z.infer<typeof migrationBody>;

/** Documented defaults of the four options (the contract's `default`s). */
export const MIGRATION_DEFAULTS = {
  include_trial: false,
  include_initial_charge: false,
  include_coupons: true,
  preserve_period: false,
} as const;

/** `POST /subscriptions/{id}/migrations.json` body. */
export const migrationRequest = z.object({
  migration: migrationBody,
  uniqueness_token: z.string().optional(),
});
/** The body {@link migrationRequest} checks: the migration and its `uniqueness_token`. */
export type MigrationRequest = z.infer<typeof migrationRequest>;

/**
 * `POST /subscriptions/{id}/migrations/preview.json` body: the same options, no
 * token (it changes nothing), and the contract's `proration_date`: the moment
 * the charge is computed for (ISO-8601), default now.
 */
export const migrationPreviewRequest = z.object({
  migration: migrationBody.extend({ proration_date: z.string().optional() }),
});
/** The body {@link migrationPreviewRequest} checks: the migration and an optional `proration_date`. */
export type MigrationPreviewRequest = z.infer<typeof migrationPreviewRequest>;

/** `Subscription Migration Preview Response`. */
export const migrationPreviewResponse = z.object({
  migration: z.object({
    prorated_adjustment_in_cents: cents,
    charge_in_cents: cents,
    payment_due_in_cents: cents,
    credit_applied_in_cents: cents,
  }),
});
/** The answer {@link migrationPreviewResponse} reads: the preview's amounts in cents. */
export type MigrationPreviewResponse = z.infer<typeof migrationPreviewResponse>;
