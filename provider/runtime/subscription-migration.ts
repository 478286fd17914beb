import { randomUUID } from "node:crypto";
import {
  AuthenticationRequiredError,
  BillingApiError,
  isOnTarget,
  keysOf,
  type MigrationInput,
  MigrationOutcomeUnknownError,
  migrationBodyOf,
  migrationInput,
  positiveId,
  problemsOf,
  type Subscription,
} from "../../sdk";
import { type CheckFailure, changedKeys, failuresOf, isUnknown, notice, partialFailure, unknownInputs, userInputs } from "./common";
import { clientFor, siteCheck } from "./config";

type Props = Record<string, unknown>;

const TARGET_KEYS = ["productId", "productHandle", "pricePointId", "pricePointHandle"] as const;
const OPTION_KEYS = ["includeTrial", "includeInitialCharge", "includeCoupons", "preservePeriod"] as const;
const INPUT_KEYS = ["subscriptionId", ...TARGET_KEYS, ...OPTION_KEYS, "site"] as const;

/** Placeholders of the right type stand in for unknown values, so the rest of the inputs still get checked. */
const PLACEHOLDER: Record<string, unknown> = {
  subscriptionId: 1,
  productId: 1,
  productHandle: "unknown",
  pricePointId: 1,
  pricePointHandle: "unknown",
  includeTrial: false,
  includeInitialCharge: false,
  includeCoupons: true,
  preservePeriod: false,
};

function migrationOf(inputs: Props, known: boolean): MigrationInput {
  const m: Record<string, unknown> = {};
  for (const k of [...TARGET_KEYS, ...OPTION_KEYS]) {
    if (inputs[k] === undefined) continue;
    m[k] = known && isUnknown(inputs[k]) ? PLACEHOLDER[k] : inputs[k];
  }
  return m as MigrationInput;
}

const ELIGIBLE = new Set(["active", "trialing"]);
const RECOMMENDED_FOR_TRIAL_ENDED =
  "the recommended path for a trial_ended subscription is to cancel it, change its product, then reactivate it";

function sameProductMessage(subscriptionId: unknown, product: { id?: unknown; handle?: unknown }): string {
  const name = product.handle ? `'${String(product.handle)}' (id ${String(product.id)})` : `id ${String(product.id)}`;
  return (
    `subscription ${String(subscriptionId)} is already on product ${name}: the service refuses a migration to the ` +
    "product a subscription already has. Target a different product; to move to another price point of the same " +
    "product, that is a price point change, a different operation than a product migration; if nothing should " +
    "change, remove this SubscriptionMigration."
  );
}

function targetsProduct(inputs: Props, product: { id?: unknown; handle?: unknown }): boolean {
  if (inputs.productId !== undefined) return inputs.productId === product.id;
  return inputs.productHandle !== undefined && inputs.productHandle === product.handle;
}

/**
 * check: every input validated with the SDK's own schemas (unknowns pass).
 * On a first deploy (no old inputs) it also reads the subscription, so a
 * same-product or ineligible migration fails at preview, before anything is sent.
 */
export async function check(provider: object, olds: Props, news: Props) {
  const inputs = userInputs(news);
  const failures: CheckFailure[] = unknownInputs("SubscriptionMigration", INPUT_KEYS, inputs);
  if (!isUnknown(inputs.subscriptionId)) {
    const id = positiveId.safeParse(inputs.subscriptionId);
    if (!id.success) failures.push(...failuresOf(problemsOf(id.error, "subscriptionId")));
  }
  const m = migrationInput.safeParse(migrationOf(inputs, true));
  if (!m.success) failures.push(...failuresOf(problemsOf(m.error, undefined, { "": keysOf(migrationInput) })));
  failures.push(...siteCheck(provider, inputs.site));
  const firstDeploy = Object.keys(userInputs(olds)).length === 0;
  const readable = !["subscriptionId", "productId", "productHandle", "site"].some((k) => isUnknown(inputs[k]));
  if (failures.length === 0 && firstDeploy && readable) failures.push(...(await checkAgainstService(provider, inputs)));
  return { inputs: news, failures };
}

async function checkAgainstService(provider: object, inputs: Props): Promise<CheckFailure[]> {
  let sub: Subscription;
  try {
    sub = await clientFor(provider, inputs.site as string | undefined).readSubscription(inputs.subscriptionId as number);
  } catch (err) {
    if (err instanceof BillingApiError && err.status === 404) {
      return [
        {
          property: "subscriptionId",
          reason: `subscription ${String(inputs.subscriptionId)} does not exist on this site: it must be the id of one of the site's subscriptions`,
        },
      ];
    }
    if (err instanceof BillingApiError && (err.status === 401 || err.status === 403)) {
      return [
        {
          property: "site",
          reason: `the service refused the configured credentials (${err.status}); check billing:apiKey / billing:accessToken`,
        },
      ];
    }
    throw err;
  }
  const verdict = eligibility(inputs, sub);
  if (verdict.warning) notice(`warning: ${verdict.warning}`);
  return verdict.failure ? [verdict.failure] : [];
}

/**
 * Whether `sub`, as it is now, may take this migration. Decided on its
 * current `state`: the vendor documents `previous_state` as meaningful in
 * webhooks only (API answers repeat `state` there). A state the contract does
 * not list is not eligible.
 */
function eligibility(inputs: Props, sub: Subscription): { failure?: CheckFailure; warning?: string } {
  if (targetsProduct(inputs, sub.product)) {
    return {
      failure: {
        property: inputs.productId !== undefined ? "productId" : "productHandle",
        reason: sameProductMessage(sub.id, sub.product),
      },
    };
  }
  if (sub.state === "trial_ended") {
    return {
      warning: `subscription ${sub.id} is trial_ended: the API accepts migrating it for backwards compatibility, but ${RECOMMENDED_FOR_TRIAL_ENDED}.`,
    };
  }
  if (!ELIGIBLE.has(sub.state)) {
    return {
      failure: {
        property: "subscriptionId",
        reason: `subscription ${sub.id} is ${sub.state}; only active or trialing subscriptions can be migrated (trial_ended is accepted but not recommended)`,
      },
    };
  }
  return {};
}

/** Normalized inputs as recorded in state, to compare on the next diff. */
function argsOf(inputs: Props): Props {
  const a: Props = {};
  for (const k of INPUT_KEYS) if (inputs[k] !== undefined) a[k] = inputs[k];
  return a;
}

/**
 * Any input change is a new migration (replacement). A change whose target
 * is the product recorded in state is refused here, before anything is sent.
 * A migration left pending (3-D Secure) is updated, which adopts its outcome.
 */
export async function diff(_provider: object, _id: string, olds: Props, news: Props) {
  const previous = (olds.args ?? {}) as Props;
  const changed = changedKeys(INPUT_KEYS, previous, userInputs(news));
  if (changed.length === 0) return { changes: olds.pending === true, replaces: [], deleteBeforeReplace: false };
  const targetKnown = !["productId", "productHandle"].some((k) => isUnknown(news[k]));
  const sameSubscription = news.subscriptionId === previous.subscriptionId && news.site === previous.site;
  if (
    targetKnown &&
    sameSubscription &&
    olds.pending !== true &&
    targetsProduct(news, { id: olds.productId, handle: olds.productHandle })
  ) {
    throw new Error(sameProductMessage(news.subscriptionId, { id: olds.productId, handle: olds.productHandle }));
  }
  return { changes: true, replaces: changed, deleteBeforeReplace: false };
}

/** `previousState` is the state read just before the migration was sent (null when it was not read, e.g. adopted after 3-D Secure). */
function outsOf(args: Props, sent: unknown, sub: Subscription, migratedAt: string, warnings: string[], previousState: unknown): Props {
  return {
    args,
    request: sent,
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
 * create performs the migration, once. It reads the subscription first: its
 * state decides eligibility now (the preview may be old), a same-product
 * target is refused before anything is sent, and the state it had is recorded.
 */
export async function create(provider: object, news: Props) {
  const args = argsOf(userInputs(news));
  const { body } = migrationBodyOf(args.subscriptionId, migrationOf(args, false));
  const client = clientFor(provider, args.site as string | undefined);
  const before = await client.readSubscription(args.subscriptionId as number);
  const verdict = eligibility(args, before);
  if (verdict.failure) throw new Error(`${verdict.failure.property}: ${verdict.failure.reason} (nothing was sent)`);
  const warnings = verdict.warning ? [RECOMMENDED_FOR_TRIAL_ENDED] : [];
  if (verdict.warning) notice(`warning: ${verdict.warning}`);
  const token = randomUUID();
  const id = `${String(args.subscriptionId)}-${token}`;
  try {
    const sub = await client.migrateSubscription(args.subscriptionId as number, migrationOf(args, false), { uniquenessToken: token });
    return { id, outs: outsOf(args, body, sub, new Date().toISOString(), warnings, before.state) };
  } catch (err) {
    throw pendingFailure(err, id, args, body, token, news.__provider, before.state);
  }
}

/**
 * Outcomes that leave the migration in the service's hands are recorded as a
 * partial failure (kept in state, pending), so the next `up` adopts the
 * result by reading the subscription instead of posting again.
 */
function pendingFailure(
  err: unknown,
  id: string,
  args: Props,
  body: unknown,
  token: string,
  provider: unknown,
  previousState: unknown,
): unknown {
  const pending = { args, request: body, pending: true, uniquenessToken: token, previousState: previousState ?? null };
  if (err instanceof AuthenticationRequiredError) {
    const message =
      `subscription ${String(args.subscriptionId)}: the migration needs 3-D Secure authentication by the customer. ` +
      `Send them to ${err.actionLink}; after they complete it, run \`pulumi up\` again to record the migrated subscription (nothing is posted again).`;
    return partialFailure(message, id, { ...pending, pendingReason: "authentication", actionLink: err.actionLink }, provider);
  }
  if (err instanceof MigrationOutcomeUnknownError) {
    const message = `${err.message}. It is recorded as pending: the next \`pulumi up\` reads the subscription and only re-sends with the same uniqueness token if it was not applied.`;
    return partialFailure(message, id, { ...pending, pendingReason: "unknown" }, provider);
  }
  return err;
}

/** update only refreshes state, or adopts a pending migration's outcome. */
export async function update(provider: object, id: string, olds: Props, news: Props) {
  const args = (olds.args ?? argsOf(userInputs(news))) as Props;
  const client = clientFor(provider, args.site as string | undefined);
  const { body } = migrationBodyOf(args.subscriptionId, migrationOf(args, false));
  if (olds.pending === true) {
    const sub = await client.readSubscription(args.subscriptionId as number);
    if (isOnTarget(sub, body))
      return {
        outs: outsOf(
          args,
          body,
          await client.resolvePricePoint(sub, migrationOf(args, false)),
          new Date().toISOString(),
          [],
          olds.previousState,
        ),
      };
    if (olds.pendingReason === "authentication") {
      throw partialFailure(
        `subscription ${String(args.subscriptionId)}: the 3-D Secure authentication is not completed yet; send the customer to ${String(olds.actionLink)} and run \`pulumi up\` again.`,
        id,
        userInputs(olds),
        news.__provider,
      );
    }
    try {
      const migrated = await client.migrateSubscription(args.subscriptionId as number, migrationOf(args, false), {
        uniquenessToken: olds.uniquenessToken as string,
      });
      return { outs: outsOf(args, body, migrated, new Date().toISOString(), [], olds.previousState) };
    } catch (err) {
      throw pendingFailure(err, id, args, body, olds.uniquenessToken as string, news.__provider, olds.previousState);
    }
  }
  const sub = await client.readSubscription(args.subscriptionId as number);
  return {
    outs: outsOf(
      args,
      olds.request ?? body,
      await pricePointFor(provider, args, sub, olds),
      olds.migratedAt as string,
      (olds.warnings ?? []) as string[],
      olds.previousState,
    ),
  };
}

/** refresh re-reads the subscription, so a product changed elsewhere shows as drift. */
export async function read(provider: object, id: string, props: Props) {
  const args = props.args as Props | undefined;
  if (!args || props.pending === true) return { id, props: userInputs(props) };
  const sub = await clientFor(provider, args.site as string | undefined).readSubscription(args.subscriptionId as number);
  const outs = outsOf(
    args,
    props.request,
    await pricePointFor(provider, args, sub, props),
    props.migratedAt as string,
    (props.warnings ?? []) as string[],
    props.previousState,
  );
  return { id, props: outs };
}

/**
 * A read that does not report the price point keeps the recorded one while
 * the product is unchanged: most of the service's answers leave it out, and a
 * refresh should not turn a known price point into null.
 */
function keepPricePoint(sub: Subscription, recorded: Props): Subscription {
  if (sub.pricePointId !== undefined || sub.product.id !== recorded.productId || typeof recorded.pricePointId !== "number") return sub;
  return { ...sub, pricePointId: recorded.pricePointId };
}

/**
 * The price point for the record: the one the read reports, else the one
 * recorded; when neither (the product could not be read right after the
 * migration), it is resolved now, as the migration itself did.
 */
async function pricePointFor(provider: object, args: Props, sub: Subscription, recorded: Props): Promise<Subscription> {
  const kept = keepPricePoint(sub, recorded);
  if (kept.pricePointId !== undefined || !isOnTarget(kept, migrationBodyOf(args.subscriptionId, migrationOf(args, false)).body))
    return kept;
  return clientFor(provider, args.site as string | undefined).resolvePricePoint(kept, migrationOf(args, false));
}

/** A migration cannot be undone by deleting its record: nothing is sent. */
export async function del(_provider: object, _id: string, props: Props) {
  const args = (props.args ?? {}) as Props;
  notice(
    `SubscriptionMigration: subscription ${String(args.subscriptionId)} stays on its current product; deleting this resource sends nothing to the billing service.`,
  );
}
