import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { AuthenticationRequiredError, BillingError, BillingValidationError, MigrationOutcomeUnknownError } from "./errors";
import { type MigrationInput, migrationInput, positiveId } from "./inputs";
import { resolvePricePoint } from "./products";
import { type MigrationPreview, type Subscription, toSubscription } from "./results";
import { backoffDelay, readBack } from "./retry";
import { failureOf, parseBody, type Transport } from "./transport";
import { keysOf, problemsOf } from "./validation";
import {
  authenticationRequiredResponse,
  MIGRATION_DEFAULTS,
  type MigrationBody,
  migrationPreviewResponse,
  subscriptionResponse,
} from "./wire";

/**
 * Validates a migration and builds its wire body, documented defaults sent explicitly, so that what a
 * provider records is exactly what was asked. Throws a {@link BillingValidationError} naming every bad
 * field (`subscriptionId`, `migration.productId`, …) before anything is sent.
 */
export function migrationBodyOf(
  subscriptionId: unknown,
  migration: MigrationInput,
): {
  /** The subscription id, checked. */
  id: number;
  /** The contract's `migration` object: one product, at most one price point, and the four options. */
  body: MigrationBody;
} {
  const id = positiveId.safeParse(subscriptionId);
  const m = migrationInput.safeParse(migration);
  const problems = [
    ...(id.success ? [] : problemsOf(id.error, "subscriptionId")),
    ...(m.success ? [] : problemsOf(m.error, "migration", { "": keysOf(migrationInput) })),
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

/**
 * Whether `s` sits on the migration's target: the product, and the price
 * point when one was named and the subscription reports its own. Most of the
 * service's answers do not report the price point; then the product decides.
 */
export function isOnTarget(s: Subscription, body: MigrationBody): boolean {
  const product = body.product_id !== undefined ? s.product.id === body.product_id : s.product.handle === body.product_handle;
  const byId = body.product_price_point_id === undefined || s.pricePointId === undefined || s.pricePointId === body.product_price_point_id;
  const byHandle =
    body.product_price_point_handle === undefined ||
    s.pricePointHandle === undefined ||
    s.pricePointHandle === body.product_price_point_handle;
  return product && byId && byHandle;
}

export async function readSubscription(t: Transport, subscriptionId: unknown): Promise<Subscription> {
  const id = positiveId.safeParse(subscriptionId);
  if (!id.success) throw new BillingValidationError("invalid subscription id", problemsOf(id.error, "subscriptionId"));
  const res = await t.call({ method: "GET", path: `/subscriptions/${id.data}.json`, repeatable: true }, subscriptionResponse);
  return toSubscription(res.subscription);
}

/** Options of {@link BillingClient.previewMigration}. */
export interface PreviewOptions {
  /** The moment the charge is computed for (the contract's `proration_date`); default now. */
  readonly prorationDate?: string | Date;
}

export async function previewMigration(
  t: Transport,
  subscriptionId: unknown,
  migration: MigrationInput,
  options: PreviewOptions = {},
): Promise<MigrationPreview> {
  const { id, body } = migrationBodyOf(subscriptionId, migration);
  const prorationDate = prorationDateOf(options.prorationDate);
  const res = await t.call(
    {
      // A preview changes nothing, so it is repeated like a read.
      method: "POST",
      path: `/subscriptions/${id}/migrations/preview.json`,
      repeatable: true,
      body: { migration: { ...body, ...(prorationDate ? { proration_date: prorationDate } : {}) } },
    },
    migrationPreviewResponse,
  );
  const p = res.migration;
  return {
    proratedAdjustmentInCents: p.prorated_adjustment_in_cents,
    chargeInCents: p.charge_in_cents,
    paymentDueInCents: p.payment_due_in_cents,
    creditAppliedInCents: p.credit_applied_in_cents,
  };
}

function prorationDateOf(v: unknown): string | undefined {
  if (v === undefined) return undefined;
  const ms =
    v instanceof Date
      ? v.getTime()
      : typeof v === "string" && /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(v)
        ? Date.parse(v)
        : Number.NaN;
  if (Number.isNaN(ms)) {
    throw new BillingValidationError("invalid migration preview", [
      { property: "prorationDate", message: "must be a Date or an ISO-8601 date-time such as 2026-12-01T00:00:00Z" },
    ]);
  }
  return typeof v === "string" ? v : new Date(ms).toISOString();
}

export interface MigrateOptions {
  /** Reuse a token, e.g. when resuming a migration recorded as pending. Default: a fresh UUID. */
  readonly uniquenessToken?: string;
  readonly maxRetries: number;
  readonly retryBaseDelayMs: number;
  /** How long to read back after a duplicate-submission answer before calling the outcome unknown. */
  readonly settleMs: number;
}

/**
 * Migrates once. The POST carries a `uniqueness_token` and is never repeated
 * blindly: after an outcome that may have been applied (5xx, reset, timeout)
 * the subscription is read, and only when it is not on the target is the POST
 * sent again with the same token. A 409 "duplicate submission" means a request
 * with this token was applied or is still being processed: the subscription
 * is read until it lands, for at most `settleMs`, and otherwise the outcome is
 * reported unknown, never "nothing was applied".
 */
export async function migrateSubscription(
  t: Transport,
  subscriptionId: unknown,
  migration: MigrationInput,
  opts: MigrateOptions,
): Promise<Subscription> {
  const { id, body } = migrationBodyOf(subscriptionId, migration);
  const token = opts.uniquenessToken ?? randomUUID();
  const req = {
    method: "POST",
    path: `/subscriptions/${id}/migrations.json`,
    body: { migration: body, uniqueness_token: token },
    repeatable: false,
  } as const;
  const unknown = (cause: BillingError, why?: string) => new MigrationOutcomeUnknownError(id, token, cause, why);
  let ambiguous: BillingError | undefined;

  for (let attempt = 0; ; attempt++) {
    const x = await t.send(req);
    const o = x.outcome;
    if (o.kind === "success") {
      const sub = toSubscription(parseBody(req, o.status, o.body, subscriptionResponse).subscription);
      return resolvePricePoint(t, sub, body);
    }
    if (o.kind === "duplicate") return settle(t, id, body, opts, (last) => unknown(failureOf(req, x), last));
    if (o.kind === "refused" && o.status === 422) {
      const sca = authenticationRequiredResponse.safeParse(o.body);
      if (sca.success) {
        throw new AuthenticationRequiredError({
          errors: sca.data.errors ?? [],
          method: req.method,
          path: req.path,
          actionLink: sca.data.action_link,
          gatewayPaymentId: sca.data.gateway_payment_id ?? undefined,
          description: sca.data.description ?? undefined,
        });
      }
    }
    const failure = failureOf(req, x);
    if (o.kind !== "ambiguous") {
      // Refused, rate limited past the budget, or never sent: this attempt applied nothing,
      // but an earlier ambiguous one might have.
      throw ambiguous
        ? unknown(ambiguous, `an attempt failed ambiguously (${ambiguous.message}), then the next one ${failure.message}`)
        : failure;
    }
    ambiguous = failure;
    let current: Subscription;
    try {
      current = await readSubscription(t, id);
    } catch (readErr) {
      throw unknown(readErr instanceof BillingError ? readErr : failure);
    }
    if (isOnTarget(current, body)) return resolvePricePoint(t, current, body);
    if (attempt >= opts.maxRetries) {
      throw unknown(
        failure,
        `${attempt + 1} attempt(s) failed ambiguously (last: ${failure.message}) and subscription ${id} is not on the target yet`,
      );
    }
    await sleep(backoffDelay(attempt, opts.retryBaseDelayMs));
  }
}

/**
 * Reads the subscription until it is on the target or `settleMs` has passed.
 * The service cuts a request at 120 s, so a first request still being
 * processed has landed or failed by then.
 */
async function settle(
  t: Transport,
  id: number,
  body: MigrationBody,
  opts: MigrateOptions,
  unknown: (why: string) => MigrationOutcomeUnknownError,
): Promise<Subscription> {
  const r = await readBack<Subscription>(opts.settleMs, opts.retryBaseDelayMs, async () => {
    const current = await readSubscription(t, id);
    if (isOnTarget(current, body)) return { found: current };
    return { seen: `on ${current.product.handle ?? `product ${current.product.id}`}` };
  });
  if ("found" in r) return resolvePricePoint(t, r.found, body);
  throw unknown(
    `the service answered that a request with this uniqueness_token was already submitted (it may still be processing), ` +
      `and after ${Math.round(opts.settleMs / 1000)} s of reading back subscription ${id} is ${r.last}, not on the target`,
  );
}
