import { randomUUID } from "node:crypto";
import { z } from "zod";
import { AuthenticationRequiredError, BillingError, MigrationOutcomeUnknownError } from "../../sdk/errors";
import { integer } from "../../sdk/input-values";
import { flag, type MigrationInput, migrationInput, migrationTargetRule, positiveId } from "../../sdk/inputs";
import type { MigrationPreview, Subscription } from "../../sdk/results";
import { isUnknown, type Unknown } from "../engine";
import { shellProvider } from "../shell";
import type { SubscriptionMigrationArgs, SubscriptionMigrationOutputs } from "./generated/subscription-migration";
import { accepting, siteInput } from "./inputs";
import {
  type ArgsOf,
  type Context,
  declareKind,
  type InputsOf,
  type KindModule,
  type PreviewedInputs,
  resourceClass,
  type Verified,
} from "./kind";
import {
  eligibility,
  overMaximum,
  RECOMMENDED_FOR_TRIAL_ENDED,
  readFailure,
  sameProductMessage,
  targetsProduct,
} from "./subscription-migration-checks";

const id = accepting<number>({ type: "integer", minimum: 1 })(positiveId);
const target = migrationInput.shape;

const kind = declareKind({
  key: "subscriptionMigration",
  type: "SubscriptionMigration",
  summary:
    "Moves a subscription to another product, once (any input change is a new migration); a same-product migration is refused at preview.",
  inputs: z
    .object({
      subscriptionId: id.describe("The service's id of the subscription to migrate."),
      productId: id.optional().describe("Target product by id; give exactly one of productId / productHandle."),
      productHandle: target.productHandle.describe("Target product by handle; give exactly one of productId / productHandle."),
      pricePointId: id.optional().describe("Target price point by id; without a price point the product's default is used."),
      pricePointHandle: target.pricePointHandle.describe("Target price point by handle; at most one of pricePointId / pricePointHandle."),
      includeTrial: flag.optional().describe("Default false (sent explicitly). Ignored by the service when preservePeriod is set."),
      includeInitialCharge: flag.optional().describe("Default false (sent explicitly)."),
      includeCoupons: flag.optional().describe("Default true (sent explicitly)."),
      preservePeriod: flag.optional().describe("Default false (sent explicitly)."),
      maxChargeInCents: integer(0, "a whole number of cents, 0 or more (1000 for 10.00)")
        .optional()
        .describe(
          "The most this migration may charge, in cents. The service's migration preview is read at preview and again just before the migration is sent: above it (or when the charge cannot be previewed) nothing is sent. Changing it alone never re-runs the migration.",
        ),
      site: siteInput,
    })
    .superRefine(migrationTargetRule, { when: () => true }),
  outputs: z.object({
    subscriptionState: z.string().describe("The subscription's state after the migration."),
    previousState: z.string().nullable().describe("Its state just before the migration was sent (null when it was not read)."),
    productId: z.number().int().describe("The product the subscription is on."),
    productHandle: z.string().nullable().describe("That product's handle."),
    pricePointId: z.number().int().nullable().describe("The price point now in effect: the product's default when none was named."),
    currentPeriodEndsAt: z.string().nullable().describe("End of the current billing period (ISO-8601)."),
    nextAssessmentAt: z.string().nullable().describe("Next assessment (ISO-8601)."),
    migratedAt: z.string().describe("When the migration was applied (ISO-8601)."),
    warnings: z.array(z.string()).describe("Advice the service's rules call for, e.g. the recommended path for trial_ended subscriptions."),
  }),
  // Any change is a new migration, except the acknowledged charge: raising it after the fact must not migrate again.
  replaceOn: [
    "subscriptionId",
    "productId",
    "productHandle",
    "pricePointId",
    "pricePointHandle",
    "includeTrial",
    "includeInitialCharge",
    "includeCoupons",
    "preservePeriod",
    "site",
  ],
  refresh: true,
  onDelete: "nothing (a migration is not undone)",
  example: { subscriptionId: 1001, productHandle: "pro" },
});

type Inputs = InputsOf<typeof kind>;

/**
 * What is recorded: the outputs (absent while the migration is pending), the
 * inputs it was made with (`args`), the body sent, and while pending the
 * token to resume with and why it is pending.
 */
const state = kind.outputs.partial().extend({
  args: kind.inputs,
  request: z.unknown().optional(),
  warnings: z.array(z.string()).default([]),
  pending: z.boolean().default(false),
  uniquenessToken: z.string().optional(),
  pendingReason: z.enum(["authentication", "unknown"]).optional(),
  actionLink: z.string().optional(),
});
type State = z.output<typeof state>;

export { targetsProduct } from "./subscription-migration-checks";

const targetOf = ({ subscriptionId: _, site: __, maxChargeInCents: ___, ...t }: Inputs): MigrationInput => t;

/** The record of a migration the subscription now shows; `previousState` is the state read just before it was sent. */
function recordOf(
  args: Inputs,
  request: unknown,
  sub: Subscription,
  migratedAt: string,
  warnings: string[],
  previousState: string | null | undefined,
): State {
  return {
    args,
    request,
    subscriptionState: sub.state,
    previousState: previousState ?? null,
    productId: sub.product.id,
    productHandle: sub.product.handle ?? null,
    pricePointId: sub.pricePointId ?? null,
    currentPeriodEndsAt: sub.currentPeriodEndsAt ?? null,
    nextAssessmentAt: sub.nextAssessmentAt ?? null,
    migratedAt,
    warnings,
    pending: false,
  };
}

/**
 * The SDK's migration module (it loads the HTTP client), loaded when a migration is first handled rather
 * than when a program declares one; one import for the process, as a require per call showed in profiles.
 */
let sdkMigration: Promise<typeof import("../../sdk/migration")> | undefined;
const migrationSdk = () => {
  sdkMigration ??= import("../../sdk/migration");
  return sdkMigration;
};

async function bodyOf(args: Inputs) {
  const { migrationBodyOf } = await migrationSdk();
  return migrationBodyOf(args.subscriptionId, targetOf(args)).body;
}

/**
 * Outcomes that leave the migration in the service's hands are recorded as a
 * partial failure (kept in state, pending), so the next `up` adopts the
 * result by reading the subscription instead of posting again.
 */
function pendingFailure(ctx: Context, err: unknown, id: string, args: Inputs, request: unknown, token: string, previousState: unknown) {
  const pending = { args, request, pending: true, uniquenessToken: token, previousState: previousState ?? null };
  if (err instanceof AuthenticationRequiredError) {
    const message =
      `subscription ${args.subscriptionId}: the migration needs 3-D Secure authentication by the customer. ` +
      `Send them to ${err.actionLink}; after they complete it, run \`pulumi up\` again to record the migrated subscription (nothing is posted again).`;
    return ctx.partialFailure(message, id, { ...pending, pendingReason: "authentication", actionLink: err.actionLink });
  }
  if (err instanceof MigrationOutcomeUnknownError) {
    const message = `${err.message}. It is recorded as pending: the next \`pulumi up\` reads the subscription and only re-sends with the same uniqueness token if it was not applied.`;
    return ctx.partialFailure(message, id, { ...pending, pendingReason: "unknown" });
  }
  return err;
}

/**
 * The price point for the record: the one the read reports; else, while the
 * product is unchanged, the one recorded (most of the service's answers leave
 * it out, and a refresh should not turn a known price point into null); when
 * neither, it is resolved now, as the migration itself did.
 */
async function withPricePoint(ctx: Context, args: Inputs, sub: Subscription, recorded: State): Promise<Subscription> {
  if (sub.pricePointId !== undefined) return sub;
  if (sub.product.id === recorded.productId && typeof recorded.pricePointId === "number")
    return { ...sub, pricePointId: recorded.pricePointId };
  const { isOnTarget } = await migrationSdk();
  if (!isOnTarget(sub, await bodyOf(args))) return sub;
  return ctx.client(args.site).resolvePricePoint(sub, targetOf(args));
}

/** The service's migration preview, as recorded at check; or why it could not be read. */
async function chargeOf(ctx: Context, inputs: Inputs): Promise<MigrationPreview | string> {
  try {
    return await ctx.client(inputs.site).previewMigration(inputs.subscriptionId, targetOf(inputs));
  } catch (err) {
    if (!(err instanceof BillingError)) throw err;
    return `the service's migration preview could not be read, so its charge is not known: ${err.message}`;
  }
}

/** A known value, not the engine's placeholder for one known only at apply. */
const known = <T>(v: T | Unknown): v is T => !isUnknown(v);

/** Inputs as check() sees them at preview: each known, or the engine's unknown placeholder. */
type Previewed = PreviewedInputs<typeof kind>;

/** Whether inputs differ from the recorded ones where a difference is a new migration (a replacement). */
function newMigration(olds: Partial<Inputs>, news: Previewed): boolean {
  const keys = kind.replaceOn as readonly (keyof Inputs)[];
  const text = (v: unknown) => JSON.stringify(v ?? null);
  return keys.some((k) => text(olds[k]) !== text((news as Partial<Record<keyof Inputs, unknown>>)[k]));
}

/**
 * A new migration judged at preview: the subscription is read, so a same-product or ineligible migration
 * fails there. It needs the subscription, the target product (productId or productHandle) and the site
 * known; whatever else is unknown. The service's migration preview (the charge, and maxChargeInCents
 * against it) also needs the price point and the options: without them the charge is left out of
 * `preview` (it is read again just before the migration is sent).
 */
async function judge(ctx: Context, inputs: Previewed): Promise<Verified> {
  const { subscriptionId, site } = inputs;
  const product = inputs.productId !== undefined ? inputs.productId : inputs.productHandle;
  if (!known(subscriptionId) || !known(site) || product === undefined || !known(product)) return { failures: [] };
  let sub: Subscription;
  try {
    sub = await ctx.client(site).readSubscription(subscriptionId);
  } catch (err) {
    const failure = readFailure(err, subscriptionId, site);
    if (failure) return { failures: [failure] };
    throw err;
  }
  const verdict = eligibility(inputs, sub);
  if (verdict.warning) ctx.notice(`warning: ${verdict.warning}`);
  if (verdict.failure) return { failures: [verdict.failure] };
  const now = {
    subscriptionState: sub.state,
    productId: sub.product.id,
    productHandle: sub.product.handle ?? null,
    pricePointId: sub.pricePointId ?? null,
  };
  const { maxChargeInCents, ...target } = inputs;
  // The charge depends on the whole target (price point, options): only with all of it known.
  if (isUnknown(target)) return { failures: [], preview: now };
  const charge = await chargeOf(ctx, target as Inputs);
  if (typeof charge === "string") ctx.notice(`warning: subscription ${subscriptionId}: ${charge}`);
  const preview = { ...now, ...(typeof charge === "string" ? {} : charge) };
  if (!known(maxChargeInCents)) return { failures: [], preview };
  const over = overMaximum({ ...(target as Inputs), maxChargeInCents }, charge);
  return { failures: over ? [{ property: "maxChargeInCents", reason: over }] : [], preview };
}

export const subscriptionMigration: KindModule<typeof kind, State> = {
  kind,
  importer: {
    refused:
      "SubscriptionMigration cannot be imported: it records a migration this stack performed (a one-shot event), and the service keeps no migration object to adopt.",
  },
  operations: {
    state,
    recordedInputs: (s) => s.args,
    unfinished: (s) => s.pending,

    /** On a first deploy (or a replacement) with every input known: see {@link judge}. */
    verify: (ctx, inputs) => judge(ctx, inputs),

    /**
     * The same judgement while other inputs are still unknown (outputs of other resources, e.g. a new
     * price point's id): the subscription's state and the same-product rule need only the subscription,
     * the target product and the site, so they are judged whenever those are known. `verify` has judged
     * inputs that are all known; an update that is no new migration reads nothing.
     */
    async preflight(ctx, inputs, olds) {
      if (!isUnknown(inputs)) return { failures: [] };
      if (olds !== undefined && !newMigration(olds, inputs)) return { failures: [] };
      return judge(ctx, inputs);
    },

    /** A change whose target is the product recorded in state is refused here, before anything is sent. */
    refuse(s, news, changed) {
      // Only maxChargeInCents changed: an update that sends nothing, not a migration to refuse.
      if (changed.every((k) => k === "maxChargeInCents")) return;
      const previous = s.args;
      const targetKnown = !isUnknown(news.productId) && !isUnknown(news.productHandle);
      const sameSubscription = news.subscriptionId === previous.subscriptionId && news.site === previous.site;
      if (targetKnown && sameSubscription && !s.pending && targetsProduct(news, { id: s.productId, handle: s.productHandle })) {
        throw new Error(sameProductMessage(news.subscriptionId, { id: s.productId, handle: s.productHandle }));
      }
    },

    /**
     * Performs the migration, once. It reads the subscription first: its state
     * decides eligibility now (the preview may be old), a same-product target is
     * refused before anything is sent, and the state it had is recorded.
     */
    async create(ctx, args) {
      const request = await bodyOf(args);
      const client = ctx.client(args.site);
      const before = await client.readSubscription(args.subscriptionId);
      const verdict = eligibility(args, before);
      if (verdict.failure) throw new Error(`${verdict.failure.property}: ${verdict.failure.reason} (nothing was sent)`);
      if (args.maxChargeInCents !== undefined) {
        // The preview may be old: the charge is read again, just before anything is sent.
        const over = overMaximum(args, await chargeOf(ctx, args));
        if (over) throw new Error(`maxChargeInCents: ${over} (nothing was sent)`);
      }
      const warnings = verdict.warning ? [RECOMMENDED_FOR_TRIAL_ENDED] : [];
      if (verdict.warning) ctx.notice(`warning: ${verdict.warning}`);
      const token = randomUUID();
      const id = `${args.subscriptionId}-${token}`;
      try {
        const sub = await client.migrateSubscription(args.subscriptionId, targetOf(args), { uniquenessToken: token });
        return { id, state: recordOf(args, request, sub, new Date().toISOString(), warnings, before.state) };
      } catch (err) {
        throw pendingFailure(ctx, err, id, args, request, token, before.state);
      }
    },

    /**
     * Only refreshes the record, or adopts a pending migration's outcome. Every input but
     * maxChargeInCents replaces, so the new inputs differ from the recorded ones at most there.
     */
    async update(ctx, id, s, inputs) {
      // No key rather than an undefined one: the engine's protobuf Struct refuses undefined values.
      const { maxChargeInCents: _, ...recorded } = s.args;
      const args = inputs.maxChargeInCents === undefined ? recorded : { ...recorded, maxChargeInCents: inputs.maxChargeInCents };
      const client = ctx.client(args.site);
      const request = await bodyOf(args);
      if (!s.pending) {
        const sub = await client.readSubscription(args.subscriptionId);
        const migratedAt = s.migratedAt ?? new Date().toISOString();
        return recordOf(args, s.request ?? request, await withPricePoint(ctx, args, sub, s), migratedAt, s.warnings, s.previousState);
      }
      const { isOnTarget } = await migrationSdk();
      const sub = await client.readSubscription(args.subscriptionId);
      if (isOnTarget(sub, request)) {
        const resolved = await client.resolvePricePoint(sub, targetOf(args));
        return recordOf(args, request, resolved, new Date().toISOString(), [], s.previousState);
      }
      if (s.pendingReason === "authentication") {
        throw ctx.partialFailure(
          `subscription ${args.subscriptionId}: the 3-D Secure authentication is not completed yet; send the customer to ${String(s.actionLink)} and run \`pulumi up\` again.`,
          id,
          s,
        );
      }
      const token = s.uniquenessToken ?? randomUUID();
      try {
        const migrated = await client.migrateSubscription(args.subscriptionId, targetOf(args), { uniquenessToken: token });
        return recordOf(args, request, migrated, new Date().toISOString(), [], s.previousState);
      } catch (err) {
        throw pendingFailure(ctx, err, id, args, request, token, s.previousState);
      }
    },

    /** Re-reads the subscription, so a product changed elsewhere shows as drift. */
    async read(ctx, _id, s) {
      if (s.pending) return s;
      const sub = await ctx.client(s.args.site).readSubscription(s.args.subscriptionId);
      const migratedAt = s.migratedAt ?? new Date().toISOString();
      return recordOf(s.args, s.request, await withPricePoint(ctx, s.args, sub, s), migratedAt, s.warnings, s.previousState);
    },

    /** A migration cannot be undone by deleting its record: nothing is sent. */
    async del(ctx, _id, s) {
      ctx.notice(
        `SubscriptionMigration: subscription ${s.args.subscriptionId} stays on its current product; deleting this resource sends nothing to the billing service.`,
      );
    },
  },
};

/** The args' TypeScript types, from the declaration; SubscriptionMigrationArgs gives each its docs (generated: ./generated/subscription-migration.ts). */
export type ArgTypes = ArgsOf<typeof kind>;
export type { SubscriptionMigrationArgs, SubscriptionMigrationOutputs };

/** SubscriptionMigration's operations as a dynamic provider, to call directly (configure it first); its resources store the smaller storedProvider, which loads the same. */
export const subscriptionMigrationProvider = shellProvider(kind);

/**
 * Moves a subscription to another product, once. Any input change is a new
 * migration; deleting the resource sends nothing. A migration to the product
 * the subscription already has is refused at preview.
 *
 * @example
 * ```ts
 * import { SubscriptionMigration } from "pulumi-subscription-billing";
 *
 * const subscriptionMigration = new SubscriptionMigration("subscription-migration", {
 *   subscriptionId: 1001,
 *   productHandle: "pro",
 * });
 * ```
 */
export class SubscriptionMigration extends resourceClass<typeof kind, SubscriptionMigrationArgs, SubscriptionMigrationOutputs>(kind) {}
