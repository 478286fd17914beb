import { z } from "zod";
import { BillingValidationError } from "./errors";
import type { RetryPolicy } from "./retry";
import { keysOf, problemsOf } from "./validation";

/**
 * Where a site lives, which fixes its host and the credential it takes: `"us"` (`{subdomain}.chargify.com`)
 * and `"eu"` (`{subdomain}.ebilling.maxio.com`) take an API key over Basic authentication, `"gateway"`
 * (`{connector}.api.maxio.com`) only bearer tokens.
 */
export type BillingEnvironment = "us" | "eu" | "gateway";

/** Options of {@link BillingClient}. */
export interface BillingClientOptions {
  /** The site's subdomain (us and eu environments). */
  readonly subdomain?: string;
  /** Where the site lives: `"us"` (default), `"eu"`, or `"gateway"` (bearer tokens only). */
  readonly environment?: BillingEnvironment;
  /** The gateway connector name (gateway environment). */
  readonly connector?: string;
  /** Overrides the host, e.g. the local simulator's URL. May carry a base path. */
  readonly baseUrl?: string;
  /** API key, sent with Basic authentication (us and eu). */
  readonly apiKey?: string;
  /** Bearer token (gateway, or a `baseUrl` that expects one). */
  readonly accessToken?: string;
  /**
   * How long one attempt waits for its answer, from when a connection takes it. Default
   * 125 000: longer than the service's 120 s cut-off, so no attempt the client gave
   * up on can land later. A request waiting behind `maxConcurrency` others of this
   * client waits at most this long for a connection too: then it ends unsent, a
   * `BillingConnectionError` of code `"QUEUE_TIMEOUT"`, and is not retried.
   */
  readonly timeoutMs?: number;
  /**
   * Retries of a request that may have been applied (5xx, reset, timeout) when
   * it is safe to repeat, and of one that never left. Default 4. 429s are
   * retried on `retryBudgetSeconds` instead.
   */
  readonly maxRetries?: number;
  /**
   * How long to keep retrying 429s (the vendor asks clients to pause "a few
   * minutes"), honouring Retry-After. Default 300.
   */
  readonly retryBudgetSeconds?: number;
  /**
   * How long a migration, or a create (webhook endpoint, product family,
   * product, price point), whose retry got "duplicate submission" (the first
   * request is still being processed) is read back before its outcome is
   * reported unknown. The service cuts requests at 120 s. Default 120.
   */
  readonly migrationSettleSeconds?: number;
  /** Called before each wait between attempts, e.g. to log what `pulumi up` is waiting for. */
  readonly onRetry?: (event: RetryEvent) => void;
  /** Requests in flight at once; the service refuses a 5th per site. Default 4. */
  readonly maxConcurrency?: number;
  /** First backoff delay; doubles per retry with full jitter. Default 250. */
  readonly retryBaseDelayMs?: number;
  /**
   * Reads of one collection asked for within this many milliseconds of each other, or while a list of it is in
   * flight, go out as one list of it, each answered as its read alone would be, as fresh as the reads it replaces
   * (the list is sent after the last of them was asked for; nothing is kept between batches but the size of the last
   * list, and a batch no larger than that list's pages reads each object alone); 0 (the default) reads each alone. Batched: `readPricePoint` (a
   * product's), `readProduct` with `familyId` (a family's), `readComponent` and `readCoupon` (a family's, listed by
   * id), `readComponentPricePoint` by id (a component's), `readProductFamily`, `readReasonCode` and `readOffer` by id
   * (the site's), and `listMetafields` with `name` (a resource type's). A failed list fails each read it answers. The
   * same lookup or list (by handle or code, a `list*` with the same options) asked for together is sent once, each
   * caller answered with its own copy. The provider sets it: a refresh or preview of many objects reads each
   * collection in a few requests.
   */
  readonly readBatchWindowMs?: number;
}

/** One wait between attempts, as reported to `onRetry`. Holds no credential. */
export interface RetryEvent {
  /** The request's HTTP method, e.g. "POST". */
  readonly method: string;
  /** The request's path below the base URL, e.g. `/subscriptions/42/migrations.json`; no query string. */
  readonly path: string;
  /** Attempts made so far. */
  readonly attempt: number;
  /** How long the client waits before the next attempt, in milliseconds: the Retry-After a 429 asked for, or a jittered backoff. */
  readonly delayMs: number;
  /** Why, e.g. "429 rate limited (Retry-After: 30)" or "answered 503". */
  readonly reason: string;
}

/**
 * An API key or access token. Whitespace at either end is refused rather than trimmed: a key copied with its
 * newline (`$(cat key)` keeps none, a file read by a program often does) or a placeholder of spaces would
 * otherwise reach the service as a different credential and come back as a 401 after the plan looked fine.
 * The message never shows the value.
 */
const credential = () =>
  z
    .string()
    .min(1, "must not be empty")
    .refine((v) => v.trim() === v, { error: "must not begin or end with whitespace (a space, or a newline copied with it)" });

const optionsSchema = z
  .object({
    subdomain: z
      .string()
      .regex(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i, 'must be a DNS label such as "acme"')
      .optional(),
    environment: z.enum(["us", "eu", "gateway"], { error: 'must be "us", "eu" or "gateway"' }).optional(),
    connector: z
      .string()
      .regex(/^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i, "must be a DNS label")
      .optional(),
    baseUrl: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional(),
    apiKey: credential().optional(),
    accessToken: credential().optional(),
    timeoutMs: z.number().int().min(1).max(600_000, "must be at most 600000").optional(),
    maxRetries: z.number().int().min(0).max(20, "must be between 0 and 20").optional(),
    maxConcurrency: z.number().int().min(1).max(64, "must be between 1 and 64").optional(),
    retryBaseDelayMs: z.number().min(0).max(60_000).optional(),
    retryBudgetSeconds: z.number().min(0).max(3600, "must be between 0 and 3600").optional(),
    migrationSettleSeconds: z.number().min(0).max(3600, "must be between 0 and 3600").optional(),
    readBatchWindowMs: z.number().int().min(0).max(1000, "must be between 0 and 1000").optional(),
    onRetry: z.custom<(e: RetryEvent) => void>((v) => typeof v === "function", { error: "must be a function" }).optional(),
  })
  .strict();

/** What the transport needs: where to send, and how to authenticate. */
export interface Connection {
  readonly origin: string;
  readonly basePath: string;
  readonly authorization: string;
  readonly timeoutMs: number;
  readonly maxConcurrency: number;
  readonly retry: RetryPolicy;
  readonly migrationSettleMs: number;
  readonly readBatchWindowMs: number;
  readonly onRetry: ((event: RetryEvent) => void) | undefined;
}

/** Options as given (e.g. read from config), checked field by field; a BillingValidationError names each bad one. */
export function clientOptionsOf(raw: unknown): BillingClientOptions {
  const parsed = optionsSchema.safeParse(raw ?? {});
  if (!parsed.success)
    throw new BillingValidationError("invalid BillingClient options", problemsOf(parsed.error, undefined, { "": keysOf(optionsSchema) }));
  return parsed.data;
}

/**
 * Resolves options to a connection, or throws a {@link BillingValidationError}
 * naming the option. The credential check mirrors the service: us/eu take Basic
 * (`apiKey:x`) and the gateway takes only bearer tokens. A `baseUrl` (the
 * simulator, a proxy) accepts either.
 */
export function resolveConnection(options: BillingClientOptions): Connection {
  const o = clientOptionsOf(options);
  const environment = o.environment ?? "us";
  const problems: { property: string; message: string }[] = [];
  const fail = (property: string, message: string) => problems.push({ property, message });

  if (o.apiKey && o.accessToken) fail("apiKey", "give either apiKey or accessToken, not both");
  if (!o.apiKey && !o.accessToken) {
    fail(
      environment === "gateway" ? "accessToken" : "apiKey",
      environment === "gateway"
        ? "the gateway environment needs an accessToken"
        : `the ${environment} environment needs an apiKey (or an accessToken with baseUrl)`,
    );
  }
  if (environment === "gateway" && o.apiKey)
    fail("apiKey", "the gateway environment does not accept Basic authentication; use accessToken");
  if (environment !== "gateway" && o.accessToken && !o.baseUrl) {
    fail(
      "accessToken",
      `the ${environment} environment uses Basic authentication with an apiKey; bearer tokens apply to the gateway environment`,
    );
  }
  let url: URL | undefined;
  if (o.baseUrl) url = new URL(o.baseUrl);
  else if (environment === "gateway") {
    if (!o.connector) fail("connector", "the gateway environment needs a connector name");
    else url = new URL(`https://${o.connector}.api.maxio.com/api/v1/billing`);
  } else if (!o.subdomain) {
    fail("subdomain", "needs the site's subdomain (or a baseUrl)");
  } else {
    url = new URL(environment === "eu" ? `https://${o.subdomain}.ebilling.maxio.com` : `https://${o.subdomain}.chargify.com`);
  }
  if (problems.length > 0 || !url) throw new BillingValidationError("invalid BillingClient options", problems);

  const authorization = o.apiKey ? `Basic ${Buffer.from(`${o.apiKey}:x`).toString("base64")}` : `Bearer ${o.accessToken}`;
  return {
    origin: url.origin,
    basePath: url.pathname.replace(/\/+$/, ""),
    authorization,
    // Past the service's 120 s cut-off: a client that gives up sooner leaves requests that can still land
    // later (a settings PUT overwriting a newer one, which no read can detect).
    timeoutMs: o.timeoutMs ?? 125_000,
    maxConcurrency: o.maxConcurrency ?? 4,
    retry: { maxRetries: o.maxRetries ?? 4, baseDelayMs: o.retryBaseDelayMs ?? 250, budgetMs: (o.retryBudgetSeconds ?? 300) * 1000 },
    migrationSettleMs: (o.migrationSettleSeconds ?? 120) * 1000,
    readBatchWindowMs: o.readBatchWindowMs ?? 0,
    onRetry: o.onRetry,
  };
}
