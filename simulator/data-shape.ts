import { z } from "zod";
import { INT64_MAX, migrationRequest, SUBSCRIPTION_STATES, WEBHOOK_STATUSES } from "./wire";
import { EXPIRATION_UNITS, INTERVAL_UNITS } from "./wire-catalog";
import { COMPONENT_KINDS, COMPOUNDING_STRATEGIES, COUPON_CODE, CREDIT_TYPES, ITEM_CATEGORIES, PRICING_SCHEMES } from "./wire-components";
import { CURRENCY_PRICE_ROLES, OFFER_HANDLE } from "./wire-site-config";

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
 * 4: the site's settings (currencies, exchange rates, live or test), the
 * catalogue's prices in other currencies, custom fields (metafields), reason
 * codes and offers (and their next ids).
 * Files of versions 1 to 3 are still read (data-shape-v1.ts to -v3.ts upgrade
 * them) and are written as version 4 at the first change.
 */
export const DATA_VERSION = 4;

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
const nextIdsV3 = {
  ...nextIdsV2,
  component: id,
  componentPricePoint: id,
  price: id,
  coupon: id,
  couponRestriction: id,
};
const nextIds = z.strictObject({
  ...nextIdsV3,
  currencyPrice: id,
  metafield: id,
  reasonCode: id,
  offer: id,
  offerSignupPage: id,
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

/** A version 3 site's fields: everything but the site's settings and configuration of issue 41. */
export const siteFieldsV3 = {
  ...siteFieldsV2,
  nextIds: z.strictObject(nextIdsV3),
  /** Components with their price points (archived ones too), oldest first. */
  components: z.array(component),
  /** Coupons with their restrictions (archived ones too), oldest first. */
  coupons: z.array(coupon),
};

const currencyCode = z.string().regex(/^[A-Z]{3}$/, "expected an ISO 4217 currency code");
const settings = z.strictObject({
  currency: currencyCode,
  nonPrimaryCurrencies: z.array(currencyCode),
  exchangeRates: z.record(currencyCode, z.number().positive()),
  live: z.boolean(),
});
const decimal = z.string().regex(/^\d+\.\d+$/);
const include = z.enum(["0", "1"]);
const metafield = z.strictObject({
  id,
  resourceType: z.enum(["subscriptions", "customers"]),
  name: z.string().min(1),
  inputType: z.enum(["balance_tracker", "text", "radio", "dropdown"]),
  enum: z.array(z.string()).nullable(),
  scope: z.strictObject({
    csv: include,
    invoices: include,
    statements: include,
    portal: include,
    publicShow: include,
    publicEdit: include,
    hosted: z.array(z.string()),
  }),
  dataCount: z.int().nonnegative(),
});
const reasonCode = z.strictObject({
  id,
  code: z.string().min(1),
  description: z.string().min(1),
  position: z.int(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
const offer = z.strictObject({
  id,
  handle: z.string().regex(OFFER_HANDLE),
  name: z.string().min(1),
  description: z.string().nullable(),
  productId: id,
  pricePointId: id,
  items: z.array(z.strictObject({ componentId: id, pricePointId: id, startingQuantity: z.int().nonnegative() })),
  couponIds: z.array(id),
  signupPages: z.array(z.strictObject({ id, nickname: z.string(), enabled: z.boolean(), url: z.string().min(1) })),
  archivedAt: timestamp.nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
});

const siteShape = z.strictObject({
  ...siteFieldsV3,
  nextIds,
  /** The site's currencies, their exchange rates, and whether it is live. */
  settings,
  productCurrencyPrices: z.array(
    z.strictObject({ id, pricePointId: id, currency: currencyCode, role: z.enum(CURRENCY_PRICE_ROLES), price: z.number().nonnegative() }),
  ),
  componentCurrencyPrices: z.array(z.strictObject({ id, pricePointId: id, priceId: id, currency: currencyCode, price: decimal })),
  couponCurrencyPrices: z.array(z.strictObject({ id, couponId: id, currency: currencyCode, price: z.int().nonnegative() })),
  metafields: z.array(metafield),
  /** Reason codes, by id. */
  reasonCodes: z.array(reasonCode),
  /** Offers (archived ones too), oldest first. */
  offers: z.array(offer),
});

export const siteData = siteShape.superRefine((site, ctx) => {
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
  siteConfigurationRefs(site, problem);
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

/**
 * What version 4 added refers to what the site holds: currency prices to held
 * price points, brackets and coupons in a non-primary currency; offers to held
 * products, price points, components and coupons; names, codes and handles
 * unique where the service keeps them unique.
 */
function siteConfigurationRefs(site: z.infer<typeof siteShape>, problem: Problem): void {
  const s = site.settings;
  if (s.nonPrimaryCurrencies.includes(s.currency)) problem(["settings"], "the primary currency is also a non-primary one");
  distinct(s.nonPrimaryCurrencies, (c) => c, ["settings", "nonPrimaryCurrencies"], "currency", problem);
  const productPricePoints = new Set(site.products.flatMap((p) => p.pricePoints.map((pp) => pp.id)));
  // A bracket a currency price names may have been removed since (a price point update's `_destroy`): not checked.
  const componentPricePoints = new Set(site.components.flatMap((c) => c.pricePoints.map((pp) => pp.id)));
  const currency = (path: (string | number)[], c: string) => {
    if (!s.nonPrimaryCurrencies.includes(c)) problem(path, `${c} is not one of the site's non-primary currencies`);
  };
  site.productCurrencyPrices.forEach((p, i) => {
    currency(["productCurrencyPrices", i, "currency"], p.currency);
    if (!productPricePoints.has(p.pricePointId))
      problem(["productCurrencyPrices", i, "pricePointId"], `no price point has id ${p.pricePointId}`);
  });
  site.componentCurrencyPrices.forEach((p, i) => {
    currency(["componentCurrencyPrices", i, "currency"], p.currency);
    if (!componentPricePoints.has(p.pricePointId))
      problem(["componentCurrencyPrices", i, "pricePointId"], `no component price point has id ${p.pricePointId}`);
  });
  site.couponCurrencyPrices.forEach((p, i) => {
    currency(["couponCurrencyPrices", i, "currency"], p.currency);
    if (!site.coupons.some((c) => c.id === p.couponId)) problem(["couponCurrencyPrices", i, "couponId"], `no coupon has id ${p.couponId}`);
  });
  distinct(
    [...site.productCurrencyPrices, ...site.componentCurrencyPrices, ...site.couponCurrencyPrices],
    (p) => p.id,
    ["productCurrencyPrices"],
    "currency price id",
    problem,
  );
  distinct(site.metafields, (m) => m.id, ["metafields"], "metafield id", problem);
  distinct(site.metafields, (m) => `${m.resourceType}/${m.name}`, ["metafields"], "metafield", problem);
  distinct(site.reasonCodes, (r) => r.id, ["reasonCodes"], "reason code id", problem);
  distinct(site.reasonCodes, (r) => r.code, ["reasonCodes"], "reason code", problem);
  distinct(site.offers, (o) => o.id, ["offers"], "offer id", problem);
  distinct(site.offers, (o) => o.handle, ["offers"], "offer handle", problem);
  site.offers.forEach((o, i) => {
    const p = site.products.find((x) => x.id === o.productId);
    if (!p) problem(["offers", i, "productId"], `no product has id ${o.productId}`);
    else if (!p.pricePoints.some((pp) => pp.id === o.pricePointId))
      problem(["offers", i, "pricePointId"], `price point ${o.pricePointId} is not one of product ${p.id}'s`);
    o.items.forEach((item, j) => {
      const c = site.components.find((x) => x.id === item.componentId);
      if (!c) problem(["offers", i, "items", j], `no component has id ${item.componentId}`);
      else if (!c.pricePoints.some((pp) => pp.id === item.pricePointId))
        problem(["offers", i, "items", j], `price point ${item.pricePointId} is not one of component ${c.id}'s`);
    });
    o.couponIds.forEach((c, j) => {
      if (!site.coupons.some((x) => x.id === c)) problem(["offers", i, "couponIds", j], `no coupon has id ${c}`);
    });
  });
}

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
