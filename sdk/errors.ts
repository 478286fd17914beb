import type { PricePoint } from "./results";
import type { WebhookId } from "./wire";

/**
 * Typed errors. None of them ever holds a credential: the transport keeps the
 * Authorization header in a private field and errors are built only from the
 * method, the path, the status and the service's own `errors` list.
 */

/**
 * Carried by every error of this SDK: the names of its classes. A program and
 * a provider host can load two copies of the package, whose classes differ;
 * the brand keeps `instanceof` true across them.
 */
const BRAND = Symbol.for("pulumi-subscription-billing/error-classes");

/** Base class, so callers can `instanceof BillingError` for anything this SDK throws (from any copy of the package). */
export class BillingError extends Error {
  /** The class's name, e.g. "BillingApiError": what a log line shows, and what matches across copies of the package. */
  override name = "BillingError";

  /** Errors are built by the SDK; a subclass records its class names so `instanceof` works across copies. */
  constructor(message?: string) {
    super(message);
    const classes: string[] = [];
    for (let c: unknown = new.target; typeof c === "function" && c !== Error; c = Object.getPrototypeOf(c)) classes.push(c.name);
    Object.defineProperty(this, BRAND, { value: Object.freeze(classes), enumerable: false });
  }

  /** An instance of this class, or an error of this SDK whose brand names it (another copy of the package). */
  static [Symbol.hasInstance](value: unknown): boolean {
    // `this` is the class on the right of `instanceof` (a subclass inherits this method), never BillingError itself.
    // biome-ignore lint/complexity/noThisInStatic: see above
    if (Function.prototype[Symbol.hasInstance].call(this, value)) return true;
    const classes = typeof value === "object" && value !== null ? (value as { [BRAND]?: unknown })[BRAND] : undefined;
    // biome-ignore lint/complexity/noThisInStatic: the class tested, as above
    return Array.isArray(classes) && classes.includes(this.name);
  }
}

/** Bad input or options, raised before any request is sent. */
export class BillingValidationError extends BillingError {
  override name = "BillingValidationError";
  /** One entry per offending property: `{ property: "migration.productId", message: "…" }`. */
  readonly problems: readonly {
    /** The offending property's dotted path as the caller wrote it, e.g. "migration.productId" or "[1].handle". */
    property: string;
    /** What is wrong and what would be accepted, e.g. "must be a positive integer id, got 0". */
    message: string;
  }[];
  /** `what` leads the message ("invalid migration"); every problem follows it, so one error names them all. */
  constructor(what: string, problems: readonly { property: string; message: string }[]) {
    super(`${what}: ${problems.map((p) => `${p.property}: ${p.message}`).join("; ")}`);
    this.problems = problems;
  }
}

/** A non-2xx answer from the service. */
export class BillingApiError extends BillingError {
  override name = "BillingApiError";
  /** The HTTP status, e.g. 404 for an unknown id, 422 for a refused value. */
  readonly status: number;
  /** The service's `errors` list (empty when the body had none). */
  readonly errors: readonly string[];
  /** The request's HTTP method. */
  readonly method: string;
  /** The request's path below the base URL, without its query; never a credential. */
  readonly path: string;
  /**
   * Whether the request may have been applied: true when this answer (a 5xx)
   * or an earlier attempt of the same request left it unknown.
   */
  readonly mayHaveApplied: boolean;
  /** Built by the transport from an answer; `message` replaces the default "METHOD path failed with status: errors". */
  constructor(init: {
    status: number;
    errors: readonly string[];
    method: string;
    path: string;
    message?: string;
    mayHaveApplied?: boolean;
  }) {
    const detail = init.errors.length > 0 ? `: ${init.errors.join("; ")}` : "";
    super(init.message ?? `${init.method} ${init.path} failed with ${init.status}${detail}`);
    this.status = init.status;
    this.errors = init.errors;
    this.method = init.method;
    this.path = init.path;
    this.mayHaveApplied = init.mayHaveApplied ?? false;
  }
}

/**
 * The migration needs 3-D Secure authentication by the customer (a 422 with
 * `action_link`). Nothing is applied until the customer completes the link;
 * the service then finishes the migration itself.
 */
export class AuthenticationRequiredError extends BillingApiError {
  override name = "AuthenticationRequiredError";
  /** Where to send the customer to authenticate the payment; the service completes the migration once they do. */
  readonly actionLink: string;
  /** The payment gateway's id of the payment awaiting authentication, when the service sends it. */
  readonly gatewayPaymentId: string | undefined;
  /** The service's description of what is awaited, when it sends one. */
  readonly description: string | undefined;
  /** Built by the migration from the service's 422 with an `action_link`; its status is always 422. */
  constructor(init: {
    errors: readonly string[];
    method: string;
    path: string;
    actionLink: string;
    gatewayPaymentId?: string;
    description?: string;
  }) {
    super({
      status: 422,
      errors: init.errors,
      method: init.method,
      path: init.path,
      message:
        `${init.method} ${init.path} needs 3-D Secure authentication by the customer; ` +
        `send them to ${init.actionLink} and the service completes the migration after it`,
    });
    this.actionLink = init.actionLink;
    this.gatewayPaymentId = init.gatewayPaymentId;
    this.description = init.description;
  }
}

/**
 * Clearing a site's data was refused because the site is live: the service clears only sites in test mode and
 * answers 403 Forbidden for a live one ("Attempts to perform this on sites in “live” mode will result in a
 * response of 403 FORBIDDEN"). Nothing was cleared.
 */
export class LiveSiteError extends BillingApiError {
  override name = "LiveSiteError";
  /** Built by `clearSiteData` from the service's 403; its status is always 403. */
  constructor(init: { errors: readonly string[]; method: string; path: string; scope: string }) {
    super({
      status: 403,
      errors: init.errors,
      method: init.method,
      path: init.path,
      message:
        `clearing the site's data (${init.scope === "all" ? "its catalog, customers and subscriptions" : "its customers and subscriptions"}) was refused: ` +
        "the service clears only test sites, and answered 403 Forbidden, so this site is live; nothing was cleared",
    });
  }
}

/** No HTTP answer at all (refused, reset, timed out) after the retries allowed. */
export class BillingConnectionError extends BillingError {
  override name = "BillingConnectionError";
  /** The request's HTTP method. */
  readonly method: string;
  /** The request's path below the base URL, without its query; never a credential. */
  readonly path: string;
  /**
   * The failure's code, e.g. "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT" when no answer came within `timeoutMs`, or
   * "QUEUE_TIMEOUT" when the request waited `timeoutMs` behind `maxConcurrency` others and was never sent; undefined
   * when none was given.
   */
  readonly code: string | undefined;
  /** Whether the request may have reached the service and been applied (false only when no connection was ever made). */
  readonly mayHaveApplied: boolean;
  /** Built by the transport after its last attempt; `mayHaveApplied` defaults to true, the safe assumption. */
  constructor(init: { method: string; path: string; code?: string; message: string; mayHaveApplied?: boolean }) {
    super(`${init.method} ${init.path}: ${init.message}${init.code ? ` (${init.code})` : ""}`);
    this.method = init.method;
    this.path = init.path;
    this.code = init.code;
    this.mayHaveApplied = init.mayHaveApplied ?? true;
  }
}

/** A batch of at most 1000 webhook ids and the uniqueness_token it was (or will be) sent with. */
export interface ReplayBatch {
  /** The batch's webhook ids, as sent. */
  readonly ids: readonly WebhookId[];
  /** The token it was sent with: resending with it is what makes a replay never deliver twice. */
  readonly uniquenessToken: string;
}

/**
 * A replay whose batches did not all succeed. Every id is in exactly one of
 * three lists: `queued` (the service accepted its batch), `notQueued` (its
 * batch was refused, or never sent), `unknown` (its batch may have been
 * applied: the answer was lost, or a 5xx came after an attempt that may have
 * been). `unknownBatches` keep their tokens: sending them again with the same
 * token gets a 409 if they were applied, so nothing is delivered twice.
 */
export class ReplayPartialFailureError extends BillingError {
  override name = "ReplayPartialFailureError";
  /** Ids the service accepted into its delivery queue. */
  readonly queued: readonly WebhookId[];
  /** Ids whose batch was refused or never sent: nothing was queued for them; replaying them again is safe. */
  readonly notQueued: readonly WebhookId[];
  /** Ids whose batch may or may not have been queued: resume them through `unknownBatches`, not as new ids. */
  readonly unknown: readonly WebhookId[];
  /** The batches behind `unknown`, with their tokens: pass them as `replayWebhooks(ids, { resume })`. */
  readonly unknownBatches: readonly ReplayBatch[];
  /** The first failure, as thrown by the request that failed. */
  override readonly cause: BillingError;
  /** Built by `replayWebhooks`; `unknown` is derived from `unknownBatches`, so the lists cannot disagree. */
  constructor(
    queued: readonly WebhookId[],
    notQueued: readonly WebhookId[],
    cause: BillingError,
    unknownBatches: readonly ReplayBatch[] = [],
  ) {
    const unknown = unknownBatches.flatMap((b) => b.ids);
    super(
      `webhook replay partly failed: ${queued.length} id(s) queued, ${notQueued.length} not queued` +
        (notQueued.length > 0 ? ` (${summarizeIds(notQueued)})` : "") +
        (unknown.length > 0 ? `, ${unknown.length} unknown (${summarizeIds(unknown)}: the service may have queued them)` : "") +
        `; first failure: ${cause.message}`,
    );
    this.queued = queued;
    this.notQueued = notQueued;
    this.unknown = unknown;
    this.unknownBatches = unknownBatches;
    this.cause = cause;
  }
}

/**
 * A migration whose outcome could not be learnt: the POST failed ambiguously
 * and reading the subscription back failed too, or the service said a request
 * with this token is being processed and it had not landed within the settle
 * time. It may or may not be applied: resume with the same token.
 */
export class MigrationOutcomeUnknownError extends BillingError {
  override name = "MigrationOutcomeUnknownError";
  /** The subscription being migrated. */
  readonly subscriptionId: number;
  /** The token to resume with: `migrateSubscription(subscriptionId, target, { uniquenessToken })`. */
  readonly uniquenessToken: string;
  /** The failure that left the outcome unknown: the ambiguous attempt, or the read-back that failed. */
  override readonly cause: BillingError;
  /** Built by `migrateSubscription`; `why` replaces the default explanation in the message. */
  constructor(subscriptionId: number, uniquenessToken: string, cause: BillingError, why?: string) {
    super(
      `migration of subscription ${subscriptionId} may or may not have been applied: ` +
        (why ?? `the request failed (${cause.message}) and the subscription could not be read back`) +
        `; resume it with the same uniqueness_token (${uniquenessToken}), never with a new one`,
    );
    this.subscriptionId = subscriptionId;
    this.uniquenessToken = uniquenessToken;
    this.cause = cause;
  }
}

function summarizeIds(ids: readonly WebhookId[]): string {
  if (ids.length <= 10) return ids.join(", ");
  return `${ids.slice(0, 10).join(", ")}, … ${ids.length - 10} more`;
}

/**
 * A create whose outcome could not be learnt: the POST failed in a way that
 * may have applied it (5xx, reset, timeout) and the endpoint could not be
 * found by reading the list back, or the service said a request with this
 * token was already submitted and the endpoint did not appear within the
 * settle time. It may or may not exist: resume with the same
 * `uniquenessToken` (`createEndpoint(input, { uniquenessToken })`), never a
 * new one, or look for it with `listEndpoints`.
 */
export class EndpointOutcomeUnknownError extends BillingError {
  override name = "EndpointOutcomeUnknownError";
  /** The url of the endpoint being created, as sent. */
  readonly url: string;
  /** Its events as sent: sorted and distinct. */
  readonly events: readonly string[];
  /** The token to resume with: `createEndpoint(input, { uniquenessToken })`. */
  readonly uniquenessToken: string;
  /** Always true: the point of this error. */
  readonly mayHaveApplied = true;
  /** The failure that left the outcome unknown. */
  override readonly cause: BillingError;
  /** Built by `createEndpoint`; `why` says what was tried and seen. */
  constructor(init: { url: string; events: readonly string[]; uniquenessToken: string; cause: BillingError; why: string }) {
    super(
      `creating the webhook endpoint ${init.url} may or may not have been applied: ${init.why}; ` +
        `resume it with the same uniqueness_token (${init.uniquenessToken}), never with a new one`,
    );
    this.url = init.url;
    this.events = init.events;
    this.uniquenessToken = init.uniquenessToken;
    this.cause = init.cause;
  }
}

/**
 * What a catalog create makes; also the site's configuration that is created once the same way (currency
 * prices, read back by currency; a custom field by name; a reason code by code; an offer by handle).
 */
export type CatalogKind =
  | "product family"
  | "product"
  | "price point"
  | "component"
  | "component price point"
  | "coupon"
  | "currency prices"
  | "metafield"
  | "reason code"
  | "offer";

/**
 * A catalog create whose outcome could not be learnt: the POST failed in a way that may have
 * applied it (5xx, reset, timeout, or a 409 duplicate-submission answer) and nothing with its
 * handle could be read back within the retries, or the read-back itself failed. It may or may not
 * have been created. Resume by reading back by handle first (`readProductFamily(handle)`,
 * `readProduct(handle)`, `listPricePoints(productId, { includeArchived: true })`,
 * `findComponentByHandle(handle)`, `listComponentPricePoints(componentId, { includeArchived: true })`,
 * or by code, `findCoupon(code, { familyId })`; currency prices by reading them, a metafield by name, a reason
 * code by code, an offer by handle), then create again with the same `uniquenessToken`, never a new one.
 */
export class CatalogOutcomeUnknownError extends BillingError {
  override name = "CatalogOutcomeUnknownError";
  /** What was being created. */
  readonly kind: CatalogKind;
  /** The handle it was created with (a coupon's code): what to read it back by. */
  readonly handle: string;
  /** The token to create it again with, after a read-back by handle found nothing. */
  readonly uniquenessToken: string;
  /** Always true: the point of this error. */
  readonly mayHaveApplied = true;
  /** The failure that left the outcome unknown. */
  override readonly cause: BillingError;
  /** Built by the catalog creates; `why` says what was tried and seen. */
  constructor(init: { kind: CatalogKind; handle: string; uniquenessToken: string; cause: BillingError; why: string }) {
    super(
      `creating the ${init.kind} "${init.handle}" may or may not have been applied: ${init.why}; it may or may not have been created. ` +
        `Resuming reads it back by handle first, then creates it with the same uniqueness_token (${init.uniquenessToken}), never a new one`,
    );
    this.kind = init.kind;
    this.handle = init.handle;
    this.uniquenessToken = init.uniquenessToken;
    this.cause = init.cause;
  }
}

/**
 * `createPricePoints` where some creates failed. Every input is in `created` (by its index in the
 * inputs) or in `failures`; a failure that is a {@link CatalogOutcomeUnknownError} may have been
 * created, and carries the token to resume it with (`createPricePoint(productId, input, { uniquenessToken })`).
 */
export class PricePointsPartialFailureError extends BillingError {
  override name = "PricePointsPartialFailureError";
  /** The product the price points were being created for. */
  readonly productId: number;
  /** The price points created, each with the index of its input. */
  readonly created: readonly {
    /** The input's index in the array given to `createPricePoints`. */
    readonly index: number;
    /** The price point as the service created it. */
    readonly pricePoint: PricePoint;
  }[];
  /** The inputs that failed, in the inputs' order. */
  readonly failures: readonly {
    /** The input's index in the array given to `createPricePoints`. */
    readonly index: number;
    /** The input's handle: what to read it back by when `error` is a {@link CatalogOutcomeUnknownError}. */
    readonly handle: string;
    /** Why it failed: a refusal ({@link BillingApiError}), or an outcome left unknown. */
    readonly error: BillingError;
  }[];
  /** Whether any failure left a create unknown (it may exist). */
  readonly mayHaveApplied: boolean;
  /** The first failure's error. */
  override readonly cause: BillingError;
  /** Built by `createPricePoints`; there is always at least one failure. */
  constructor(
    productId: number,
    created: PricePointsPartialFailureError["created"],
    failures: PricePointsPartialFailureError["failures"] & { 0: PricePointsPartialFailureError["failures"][number] },
  ) {
    const shown = failures.slice(0, 5).map((f) => `[${f.index}] "${f.handle}": ${f.error.message}`);
    super(
      `creating price points of product ${productId} partly failed: ${created.length} created, ${failures.length} failed` +
        `: ${shown.join("; ")}${failures.length > 5 ? `; … ${failures.length - 5} more` : ""}`,
    );
    this.productId = productId;
    this.created = created;
    this.failures = failures;
    this.mayHaveApplied = failures.some((f) => f.error instanceof CatalogOutcomeUnknownError);
    this.cause = failures[0].error;
  }
}
