import { z } from "zod";
import { INT64_MAX, migrationRequest, SUBSCRIPTION_STATES, WEBHOOK_STATUSES } from "./wire";
import { EXPIRATION_UNITS, INTERVAL_UNITS } from "./wire-catalog";
import { COMPONENT_KINDS, COMPOUNDING_STRATEGIES, COUPON_CODE, CREDIT_TYPES, ITEM_CATEGORIES, PRICING_SCHEMES } from "./wire-components";

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
/**
 * 2: product families; products with their family, description, codes,
 * options, signup pages, version and archiving; price points with their full
 * terms (interval and unit instead of `intervalMonths`), archiving and times.
 * 3: components with their price points and brackets, and coupons with their
 * restrictions (and their next ids).
 * Files of versions 1 and 2 are still read (data-shape-v1.ts and
 * data-shape-v2.ts upgrade them) and are written as version 3 at the first change.
 */
export const DATA_VERSION = 3;

export const id = z.int().positive();
export const timestamp = z.string().refine((s) => !Number.isNaN(Date.parse(s)), "expected a timestamp (RFC 3339)");
// Webhook ids are int64: kept as their exact decimal text, as the webhook log holds them.
export const webhookId = z
  .string()
  .regex(/^[1-9]\d*$/, "expected a positive integer as decimal text")
  .refine((s) => BigInt(s) <= INT64_MAX, "expected an id no larger than int64's maximum");

const cents = z.int().nonnegative();
const unit = z.enum(INTERVAL_UNITS);

const pricePoint = z.strictObject({
  id,
  handle: z.string().min(1),
  name: z.string(),
  default: z.boolean(),
  priceInCents: cents,
  interval: z.int().positive(),
  intervalUnit: unit,
  trialPriceInCents: cents.nullable(),
  trialInterval: z.int().positive().nullable(),
  trialIntervalUnit: unit.nullable(),
  trialType: z.string().nullable(),
  initialChargeInCents: cents.nullable(),
  initialChargeAfterTrial: z.boolean(),
  expirationInterval: z.int().positive().nullable(),
  expirationIntervalUnit: z.enum(EXPIRATION_UNITS).nullable(),
  useSiteExchangeRate: z.boolean(),
  archivedAt: timestamp.nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
});

const productFamily = z.strictObject({
  id,
  handle: z.string().min(1),
  name: z.string(),
  description: z.string().nullable(),
  accountingCode: z.string().nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
});

const product = z.strictObject({
  id,
  handle: z.string().min(1).nullable(),
  name: z.string(),
  description: z.string().nullable(),
  familyId: id,
  accountingCode: z.string().nullable(),
  taxCode: z.string().nullable(),
  requireCreditCard: z.boolean(),
  requestCreditCard: z.boolean(),
  requestBillingAddress: z.boolean(),
  requireBillingAddress: z.boolean(),
  requireShippingAddress: z.boolean(),
  signupPages: z.array(z.strictObject({ id, url: z.string().min(1) })),
  versionNumber: z.int().positive(),
  archivedAt: timestamp.nullable(),
  pricePoints: z.array(pricePoint).min(1),
  createdAt: timestamp,
  updatedAt: timestamp,
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
const nextIdsV2 = {
  family: id,
  product: id,
  pricePoint: id,
  signupPage: id,
  subscription: id,
  webhook: id,
  endpoint: id,
};
const nextIds = z.strictObject({
  ...nextIdsV2,
  component: id,
  componentPricePoint: id,
  price: id,
  coupon: id,
  couponRestriction: id,
});

const scheme = z.enum(PRICING_SCHEMES);
const price = z.strictObject({
  id,
  startingQuantity: z.int().nonnegative(),
  endingQuantity: z.int().nonnegative().nullable(),
  unitPrice: z.string().regex(/^\d+\.\d+$/),
});
const pricing = z.strictObject({ pricingScheme: scheme, prices: z.array(price) });
const componentPricePoint = z.strictObject({
  id,
  handle: z.string().min(1),
  name: z.string(),
  default: z.boolean(),
  pricingScheme: scheme,
  prices: z.array(price),
  interval: z.int().positive().nullable(),
  intervalUnit: unit.nullable(),
  useSiteExchangeRate: z.boolean(),
  taxIncluded: z.boolean(),
  overagePricing: pricing.nullable(),
  rolloverPrepaidRemainder: z.boolean().nullable(),
  renewPrepaidAllocation: z.boolean().nullable(),
  expirationInterval: z.int().positive().nullable(),
  expirationIntervalUnit: unit.nullable(),
  archivedAt: timestamp.nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
const credit = z.enum(CREDIT_TYPES).nullable();
const component = z.strictObject({
  id,
  kind: z.enum(COMPONENT_KINDS),
  familyId: id,
  handle: z.string().min(1).nullable(),
  name: z.string(),
  unitName: z.string(),
  description: z.string().nullable(),
  taxable: z.boolean(),
  taxCode: z.string().nullable(),
  accountingCode: z.string().nullable(),
  itemCategory: z.enum(ITEM_CATEGORIES).nullable(),
  displayOnHostedPage: z.boolean(),
  allowFractionalQuantities: z.boolean(),
  hideDateRangeOnInvoice: z.boolean(),
  recurring: z.boolean(),
  upgradeCharge: credit,
  downgradeCredit: credit,
  eventBasedBillingMetricId: id.nullable(),
  publicSignupPageIds: z.array(id),
  archivedAt: timestamp.nullable(),
  pricePoints: z.array(componentPricePoint).min(1),
  createdAt: timestamp,
  updatedAt: timestamp,
});
const coupon = z.strictObject({
  id,
  familyId: id,
  code: z.string().regex(COUPON_CODE),
  name: z.string(),
  description: z.string(),
  percentage: z.string().nullable(),
  amountInCents: z.int().positive().nullable(),
  recurring: z.boolean(),
  durationPeriodCount: z.int().positive().nullable(),
  allowNegativeBalance: z.boolean(),
  stackable: z.boolean(),
  compoundingStrategy: z.enum(COMPOUNDING_STRATEGIES).nullable(),
  excludeMidPeriodAllocations: z.boolean(),
  applyOnCancelAtEndOfPeriod: z.boolean(),
  applyOnSubscriptionExpiration: z.boolean(),
  startDate: timestamp,
  endDate: timestamp.nullable(),
  restrictions: z.array(z.strictObject({ id, itemType: z.enum(["Product", "Component"]), itemId: id })),
  archivedAt: timestamp.nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
});

/** What a site of every version holds alike (data-shape-v1.ts and data-shape-v2.ts read the older files). */
export const siteActivity = {
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
};

/** A version 2 site's fields: everything but components and coupons. */
export const siteFieldsV2 = {
  webhooksEnabled: z.boolean(),
  nextIds: z.strictObject(nextIdsV2),
  productFamilies: z.array(productFamily),
  products: z.array(product),
  ...siteActivity,
};

export const siteData = z
  .strictObject({
    ...siteFieldsV2,
    nextIds,
    /** Components with their price points (archived ones too), oldest first. */
    components: z.array(component),
    /** Coupons with their restrictions (archived ones too), oldest first. */
    coupons: z.array(coupon),
  })
  .superRefine((site, ctx) => {
    const problem = (path: (string | number)[], message: string) => ctx.addIssue({ code: "custom", path, message });
    distinct(site.productFamilies, (f) => f.id, ["productFamilies"], "product family id", problem);
    distinct(site.productFamilies, (f) => f.handle, ["productFamilies"], "product family handle", problem);
    const products = { key: "products", what: "product", pricePoint: "price point" } as const;
    const components = { key: "components", what: "component", pricePoint: "component price point" } as const;
    distinctOwners(site.products, products, problem);
    distinct(site.subscriptions, (s) => s.id, ["subscriptions"], "subscription id", problem);
    distinct(site.webhooks, (w) => w.id, ["webhooks"], "webhook id", problem);
    distinct(site.endpoints, (e) => e.id, ["endpoints"], "endpoint id", problem);
    distinct(site.uniquenessTokens, (t) => t.token, ["uniquenessTokens"], "uniqueness token", problem);
    distinct(site.authentications, (a) => a.token, ["authentications"], "authentication token", problem);
    ownersPricePoints(site.products, products, site.productFamilies, problem);
    distinctOwners(site.components, components, problem);
    ownersPricePoints(site.components, components, site.productFamilies, problem);
    distinct(site.coupons, (c) => c.id, ["coupons"], "coupon id", problem);
    distinct(site.coupons, (c) => c.code, ["coupons"], "coupon code", problem);
    site.coupons.forEach((c, i) => {
      if ((c.percentage === null) === (c.amountInCents === null))
        problem(["coupons", i], "expected exactly one of percentage and amountInCents");
      if (!site.productFamilies.some((f) => f.id === c.familyId))
        problem(["coupons", i, "familyId"], `no product family has id ${c.familyId}`);
      c.restrictions.forEach((r, j) => {
        const known =
          r.itemType === "Product" ? site.products.some((p) => p.id === r.itemId) : site.components.some((k) => k.id === r.itemId);
        if (!known) problem(["coupons", i, "restrictions", j], `no ${r.itemType.toLowerCase()} has id ${r.itemId}`);
      });
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

type Problem = (path: (string | number)[], message: string) => void;

/** A product or a component: they hold their price points by the same rules. */
interface Owner {
  id: number;
  handle: string | null;
  familyId: number;
  pricePoints: { id: number; handle: string; default: boolean; archivedAt: string | null }[];
}
/** How the problems name an owner kind: its list, itself, its price points. */
interface OwnerNames {
  key: "products" | "components";
  what: string;
  pricePoint: string;
}

/** Ids and handles unique within the site, price point ids too (each owner kind has its own sequence). */
function distinctOwners(owners: readonly Owner[], n: OwnerNames, problem: Problem): void {
  distinct(owners, (o) => o.id, [n.key], `${n.what} id`, problem);
  distinct(
    owners.filter((o) => o.handle !== null),
    (o) => o.handle,
    [n.key],
    `${n.what} handle`,
    problem,
  );
  distinct(
    owners.flatMap((o) => o.pricePoints),
    (pp) => pp.id,
    [n.key],
    `${n.pricePoint} id`,
    problem,
  );
}

/** Exactly one default, never archived; handles unique within the owner; the owner's family held. */
function ownersPricePoints(owners: readonly Owner[], n: OwnerNames, families: readonly { id: number }[], problem: Problem): void {
  owners.forEach((o, i) => {
    if (o.pricePoints.filter((pp) => pp.default).length !== 1)
      problem([n.key, i, "pricePoints"], "expected exactly one default price point");
    if (o.pricePoints.some((pp) => pp.default && pp.archivedAt !== null))
      problem([n.key, i, "pricePoints"], "the default price point cannot be archived");
    distinct(o.pricePoints, (pp) => pp.handle, [n.key, i, "pricePoints"], "price point handle", problem);
    if (!families.some((f) => f.id === o.familyId)) problem([n.key, i, "familyId"], `no product family has id ${o.familyId}`);
  });
}

export function distinct<T>(items: readonly T[], key: (t: T) => unknown, path: (string | number)[], what: string, problem: Problem): void {
  const seen = new Set<unknown>();
  for (const item of items) {
    const k = key(item);
    if (seen.has(k)) problem(path, `${what} ${String(k)} appears more than once`);
    seen.add(k);
  }
}
