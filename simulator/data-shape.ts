import { z } from "zod";
import { INT64_MAX, migrationRequest, SUBSCRIPTION_STATES, WEBHOOK_STATUSES } from "./wire";

/**
 * The shape of a `--data` file (`dataFile`): everything a client of the site
 * could observe, so that a restarted simulator answers as the stopped one
 * would have. Not kept: credentials (given at every start, never written),
 * options (latency, capacity, rendering), faults and injected delays, requests
 * in flight and the uniqueness tokens they hold, and the test-only ground truth
 * that measures one run (`requests`, `inFlight`, `peakInFlight`, `peakWaitedOn`).
 *
 * `version` changes whenever a file written by one simulator could be misread
 * by another; a file of another version is refused, never guessed at.
 */
export const DATA_FORMAT = "billing-simulator-data";
export const DATA_VERSION = 1;

const id = z.int().positive();
const timestamp = z.string().refine((s) => !Number.isNaN(Date.parse(s)), "expected a timestamp (RFC 3339)");
// Webhook ids are int64: kept as their exact decimal text, as the webhook log holds them.
const webhookId = z
  .string()
  .regex(/^[1-9]\d*$/, "expected a positive integer as decimal text")
  .refine((s) => BigInt(s) <= INT64_MAX, "expected an id no larger than int64's maximum");

const pricePoint = z.strictObject({
  id,
  handle: z.string().min(1),
  name: z.string(),
  default: z.boolean(),
  priceInCents: z.int().nonnegative(),
  intervalMonths: z.int().positive(),
});

const product = z.strictObject({
  id,
  handle: z.string().min(1).nullable(),
  name: z.string(),
  priceInCents: z.int().nonnegative(),
  pricePoints: z.array(pricePoint).min(1),
  createdAt: timestamp,
});

const state = z.enum(SUBSCRIPTION_STATES);
const subscription = z.strictObject({
  id,
  productId: id,
  pricePointId: id,
  state,
  previousState: state.optional(),
  requiresAuthentication: z.boolean(),
  createdAt: timestamp,
  updatedAt: timestamp,
  currentPeriodStartedAt: timestamp,
  currentPeriodEndsAt: timestamp,
});

/** A 3-D Secure link handed out: visiting it after a restart still applies (or reports) the migration. */
const authentication = z.strictObject({
  token: z.string().min(1),
  subscriptionId: id,
  migration: migrationRequest.shape.migration,
  done: z.boolean(),
});

const webhook = z.strictObject({
  id: webhookId,
  status: z.enum(WEBHOOK_STATUSES),
  subscriptionId: id.optional(),
  event: z.string(),
  createdAt: timestamp,
});

const endpoint = z.strictObject({
  id,
  url: z.string().min(1),
  events: z.array(z.string().min(1)),
  status: z.string().min(1),
});

/** The next id each sequence hands out; never lower than one past the largest id held (checked on load). */
const nextIds = z.strictObject({ product: id, pricePoint: id, subscription: id, webhook: id, endpoint: id });

export const siteData = z
  .strictObject({
    webhooksEnabled: z.boolean(),
    nextIds,
    products: z.array(product),
    subscriptions: z.array(subscription),
    /** How many migrations were applied per subscription (subscriptions without one are left out). */
    migrationsApplied: z.array(z.strictObject({ subscriptionId: id, count: z.int().positive() })),
    authentications: z.array(authentication),
    webhooks: z.array(webhook),
    /** Every id ever queued for replay, in order, as exact decimal text. */
    replayLog: z.array(webhookId),
    /** What is still queued (safe ids only), which a test may have emptied: not always the log. */
    replayQueue: z.array(id),
    endpoints: z.array(endpoint),
    /** Tokens of requests that applied, with when (epoch ms of the simulator's clock): a 409 within 60 minutes of that. */
    uniquenessTokens: z.array(z.strictObject({ token: z.string(), appliedAt: z.number().nonnegative() })),
  })
  .superRefine((site, ctx) => {
    const problem = (path: (string | number)[], message: string) => ctx.addIssue({ code: "custom", path, message });
    distinct(site.products, (p) => p.id, ["products"], "product id", problem);
    distinct(
      site.products.filter((p) => p.handle !== null),
      (p) => p.handle,
      ["products"],
      "product handle",
      problem,
    );
    distinct(
      site.products.flatMap((p) => p.pricePoints),
      (pp) => pp.id,
      ["products"],
      "price point id",
      problem,
    );
    distinct(site.subscriptions, (s) => s.id, ["subscriptions"], "subscription id", problem);
    distinct(site.webhooks, (w) => w.id, ["webhooks"], "webhook id", problem);
    distinct(site.endpoints, (e) => e.id, ["endpoints"], "endpoint id", problem);
    distinct(site.uniquenessTokens, (t) => t.token, ["uniquenessTokens"], "uniqueness token", problem);
    distinct(site.authentications, (a) => a.token, ["authentications"], "authentication token", problem);
    site.products.forEach((p, i) => {
      if (p.pricePoints.filter((pp) => pp.default).length !== 1)
        problem(["products", i, "pricePoints"], "expected exactly one default price point");
    });
    site.subscriptions.forEach((s, i) => {
      const p = site.products.find((x) => x.id === s.productId);
      if (!p) problem(["subscriptions", i, "productId"], `no product has id ${s.productId}`);
      else if (!p.pricePoints.some((pp) => pp.id === s.pricePointId))
        problem(["subscriptions", i, "pricePointId"], `price point ${s.pricePointId} is not one of product ${p.id}'s`);
    });
  });

export const dataFile = z.strictObject({
  format: z.literal(DATA_FORMAT),
  version: z.literal(DATA_VERSION),
  site: siteData,
});

export type SiteData = z.infer<typeof siteData>;
export type DataFile = z.infer<typeof dataFile>;

function distinct<T>(
  items: readonly T[],
  key: (t: T) => unknown,
  path: (string | number)[],
  what: string,
  problem: (path: (string | number)[], message: string) => void,
): void {
  const seen = new Set<unknown>();
  for (const item of items) {
    const k = key(item);
    if (seen.has(k)) problem(path, `${what} ${String(k)} appears more than once`);
    seen.add(k);
  }
}
