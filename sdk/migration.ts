import { randomUUID } from "node:crypto";
import {
  AuthenticationRequiredError, BillingApiError, BillingConnectionError, BillingError,
  BillingValidationError, MigrationOutcomeUnknownError,
} from "./errors";
import { migrationInput, positiveId, type MigrationInput } from "./inputs";
import { toSubscription, type MigrationPreview, type Subscription } from "./results";
import { backoffDelay } from "./retry";
import { apiError, expectOk, type Transport } from "./transport";
import { problemsOf } from "./validation";
import {
  authenticationRequiredResponse, DUPLICATE_SUBMISSION, errorListResponse, MIGRATION_DEFAULTS,
  migrationPreviewResponse, subscriptionResponse, type MigrationBody,
} from "./wire";

/** Validates a migration and builds its wire body, documented defaults sent explicitly. */
export function migrationBodyOf(subscriptionId: unknown, migration: MigrationInput): { id: number; body: MigrationBody } {
  const id = positiveId.safeParse(subscriptionId);
  const m = migrationInput.safeParse(migration);
  const problems = [
    ...(id.success ? [] : problemsOf(id.error, "subscriptionId")),
    ...(m.success ? [] : problemsOf(m.error, "migration")),
  ];
  if (!id.success || !m.success) throw new BillingValidationError("invalid migration", problems);
  const v = m.data;
  return {
    id: id.data,
    body: {
      ...(v.productId !== undefined ? { product_id: v.productId } : { product_handle: v.productHandle }),
      ...(v.pricePointId !== undefined ? { product_price_point_id: v.pricePointId } : {}),
      ...(v.pricePointHandle !== undefined ? { product_price_point_handle: v.pricePointHandle } : {}),
      include_trial: v.includeTrial ?? MIGRATION_DEFAULTS.include_trial,
      include_initial_charge: v.includeInitialCharge ?? MIGRATION_DEFAULTS.include_initial_charge,
      include_coupons: v.includeCoupons ?? MIGRATION_DEFAULTS.include_coupons,
      preserve_period: v.preservePeriod ?? MIGRATION_DEFAULTS.preserve_period,
    },
  };
}

/** Whether `s` already sits on the migration's target (product, and price point when one was named). */
export function isOnTarget(s: Subscription, body: MigrationBody): boolean {
  const product = body.product_id !== undefined ? s.product.id === body.product_id : s.product.handle === body.product_handle;
  const pricePoint = body.product_price_point_id === undefined || s.pricePointId === body.product_price_point_id;
  // A price point named by handle cannot be checked against the subscription (it reports ids only).
  return product && pricePoint;
}

export async function readSubscription(t: Transport, subscriptionId: unknown): Promise<Subscription> {
  const id = positiveId.safeParse(subscriptionId);
  if (!id.success) throw new BillingValidationError("invalid subscription id", problemsOf(id.error, "subscriptionId"));
  const res = await t.call({ method: "GET", path: `/subscriptions/${id.data}.json`, retry: true }, subscriptionResponse);
  return toSubscription(res.subscription);
}

export async function previewMigration(t: Transport, subscriptionId: unknown, migration: MigrationInput): Promise<MigrationPreview> {
  const { id, body } = migrationBodyOf(subscriptionId, migration);
  // A preview changes nothing, so it is retried like a read.
  const res = await t.call({ method: "POST", path: `/subscriptions/${id}/migrations/preview.json`, body: { migration: body }, retry: true }, migrationPreviewResponse);
  const p = res.migration;
  return {
    proratedAdjustmentInCents: p.prorated_adjustment_in_cents,
    chargeInCents: p.charge_in_cents,
    paymentDueInCents: p.payment_due_in_cents,
    creditAppliedInCents: p.credit_applied_in_cents,
  };
}

export interface MigrateOptions {
  /** Reuse a token, e.g. when resuming a migration recorded as pending. Default: a fresh UUID. */
  readonly uniquenessToken?: string;
  readonly maxRetries: number;
  readonly retryBaseDelayMs: number;
}

/**
 * Migrates once. The POST is never retried blindly: it carries a
 * `uniqueness_token`, and after an ambiguous failure (no answer, timeout,
 * 5xx) the subscription is read to learn whether the change took. Only when it
 * did not is the POST sent again, with the same token, so the service itself
 * refuses a double application (409) even if the read raced the write.
 */
export async function migrateSubscription(
  t: Transport, subscriptionId: unknown, migration: MigrationInput, opts: MigrateOptions,
): Promise<Subscription> {
  const { id, body } = migrationBodyOf(subscriptionId, migration);
  const token = opts.uniquenessToken ?? randomUUID();
  const req = { method: "POST", path: `/subscriptions/${id}/migrations.json`, body: { migration: body, uniqueness_token: token }, retry: false } as const;

  for (let attempt = 0; ; attempt++) {
    let failure: BillingError;
    try {
      const res = await t.send(req);
      if (res.status >= 200 && res.status < 300) return toSubscription(expectOk(req, res, subscriptionResponse).subscription);
      if (res.status === 409 && isDuplicate(res.body)) {
        // The token was seen before: it is this migration only if the subscription is now on its target.
        // Otherwise the token was spent by another request (e.g. resumed from stale state): say so.
        const sub = await readSubscription(t, id);
        if (isOnTarget(sub, body)) return sub;
        throw new BillingApiError({
          status: 409, errors: apiError(req, res).errors, method: req.method, path: req.path,
          message: `${req.method} ${req.path}: the uniqueness_token was already used by another request, and subscription ${id} ` +
            `is not on the requested product (it is on ${sub.product.handle ?? `product ${sub.product.id}`}); nothing was applied`,
        });
      }
      if (res.status === 422) {
        const sca = authenticationRequiredResponse.safeParse(res.body);
        if (sca.success) {
          throw new AuthenticationRequiredError({
            errors: sca.data.errors, method: req.method, path: req.path, actionLink: sca.data.action_link,
            gatewayPaymentId: sca.data.gateway_payment_id, description: sca.data.description,
          });
        }
      }
      failure = apiError(req, res);
      // 429: refused before processing, so repeating is safe without a read-back.
      if (res.status === 429) {
        if (attempt >= opts.maxRetries) throw failure;
        await sleep(backoffDelay(attempt, opts.retryBaseDelayMs));
        continue;
      }
      if (res.status < 500) throw failure;
    } catch (err) {
      if (!(err instanceof BillingConnectionError)) throw err;
      failure = err;
    }
    // Ambiguous: the request may have been applied. Ask the subscription.
    let current: Subscription;
    try {
      current = await readSubscription(t, id);
    } catch (readErr) {
      throw new MigrationOutcomeUnknownError(id, token, readErr instanceof BillingError ? readErr : failure);
    }
    if (isOnTarget(current, body)) return current;
    if (attempt >= opts.maxRetries) throw failure;
    await sleep(backoffDelay(attempt, opts.retryBaseDelayMs));
  }
}

function isDuplicate(body: unknown): boolean {
  const list = errorListResponse.safeParse(body);
  return list.success && list.data.errors.includes(DUPLICATE_SUBMISSION);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

