import { randomBytes } from "node:crypto";
import { Catalog, defaultPricePoint, productLabel } from "./catalog";
import { CLEAR_DATA_DELAY_MS, type CleanupScope, ClearDataJobs } from "./clear-data";
import { Components } from "./components";
import { Coupons } from "./coupons";
import { CurrencyPrices } from "./currency-prices";
import type { SiteData } from "./data-shape";
import { Endpoints } from "./endpoints";
import { Metafields } from "./metafields";
import { Offers } from "./offers";
import { ReasonCodes } from "./reason-codes";
import {
  addInterval,
  isoSeconds,
  type PricePointRecord,
  type ProductFamilyRecord,
  type ProductRecord,
  type SubscriptionInput,
  type SubscriptionRecord,
} from "./records";
import type { SiteSettingsInput, SiteSettingsRecord } from "./records-site";
import { SiteError } from "./site-error";
import { changedSettings, DEFAULT_SETTINGS } from "./site-settings";
import { WebhookLog } from "./webhook-log";
import { type Migration, type PricePointType, preservesPeriod, type SubscriptionState } from "./wire";

export { defaultPricePoint, productLabel } from "./catalog";
export { SiteError } from "./site-error";

export interface MigrationTarget {
  subscription: SubscriptionRecord;
  product: ProductRecord;
  pricePoint: PricePointRecord;
  family: ProductFamilyRecord;
}

/** `Subscription Migration Preview` (the object under `migration`). */
export interface MigrationPreview {
  prorated_adjustment_in_cents: number;
  charge_in_cents: number;
  payment_due_in_cents: number;
  credit_applied_in_cents: number;
}

const MIGRATABLE: ReadonlySet<SubscriptionState> = new Set(["active", "trialing", "trial_ended"]);

/** A product's or a component's price point: the simulator makes no custom (subscription-only) ones. */
export const pricePointType = (pp: { default: boolean }): PricePointType => (pp.default ? "default" : "catalog");

/** What a site is told at its start beyond its clock. */
export interface SiteOptions {
  /** How long after `POST /sites/clear_data.json` the data disappears. Default CLEAR_DATA_DELAY_MS. */
  clearDataDelayMs?: number;
  /** Called after a change made outside a request (a clear applied by its timer): the server writes its data file. */
  changed?: () => void;
}

/**
 * One site of the service: its catalogue, subscriptions, webhooks, webhook
 * endpoints and settings, its currencies and their prices, custom fields,
 * reason codes and offers.
 */
export class Site {
  webhooksEnabled = false;
  readonly webhooks: WebhookLog;
  readonly endpoints = new Endpoints();
  readonly catalog: Catalog;
  readonly components: Components;
  readonly coupons: Coupons;
  readonly currencyPrices: CurrencyPrices;
  readonly metafields = new Metafields();
  readonly reasonCodes: ReasonCodes;
  readonly offers: Offers;
  /** `POST /sites/clear_data.json`'s pending clears. */
  readonly clearing: ClearDataJobs;
  #settings: SiteSettingsRecord = structuredClone(DEFAULT_SETTINGS);

  readonly #now: () => Date;
  readonly #subscriptions = new Map<number, SubscriptionRecord>();
  readonly #migrationsApplied = new Map<number, number>();
  readonly #authentications = new Map<string, { subscriptionId: number; migration: Migration; done: boolean }>();
  // Distinct id ranges per kind make a mixed-up id fail loudly in tests.
  #next = { subscription: 1001 };

  constructor(now: () => Date, o: SiteOptions = {}) {
    this.#now = now;
    this.webhooks = new WebhookLog(() => this.nowIso());
    this.catalog = new Catalog(() => this.nowIso());
    this.components = new Components(() => this.nowIso(), this.catalog);
    this.coupons = new Coupons(() => this.nowIso(), this.catalog, this.components);
    this.currencyPrices = new CurrencyPrices(() => this.#settings);
    this.reasonCodes = new ReasonCodes(() => this.nowIso());
    this.offers = new Offers(() => this.nowIso(), this.catalog, this.components, this.coupons);
    this.clearing = new ClearDataJobs(o.clearDataDelayMs ?? CLEAR_DATA_DELAY_MS, (scope) => {
      this.clearData(scope);
      o.changed?.();
    });
  }

  /** The site's currencies and mode (a copy). */
  get settings(): SiteSettingsRecord {
    return structuredClone(this.#settings);
  }

  /**
   * A change made in the web UI's settings. A currency that prices something
   * cannot be dropped (the web UI would have to remove those prices first,
   * which the API cannot do).
   */
  configure(change: SiteSettingsInput): SiteSettingsRecord {
    const next = changedSettings(this.#settings, change, "configureSite");
    for (const c of this.currencyPrices.currenciesInUse())
      if (!next.nonPrimaryCurrencies.includes(c)) throw new Error(`configureSite: ${c} prices catalogue items; it cannot be removed`);
    this.#settings = next;
    return this.settings;
  }

  /**
   * What `POST /sites/clear_data.json` does once its delay is over (see
   * clear-data.ts): subscriptions (and so their migrations and 3-D Secure
   * links) and the custom fields' data always; the catalogue and offers with
   * `all`. Ids keep counting: nothing cleared is ever answered again.
   */
  clearData(scope: CleanupScope): void {
    this.#subscriptions.clear();
    this.#migrationsApplied.clear();
    this.#authentications.clear();
    this.metafields.clearData();
    if (scope !== "all") return;
    this.offers.clear();
    this.currencyPrices.clear();
    this.coupons.clear();
    this.components.clear();
    this.catalog.clear();
  }

  nowIso(): string {
    return isoSeconds(this.#now());
  }

  addSubscription(s: SubscriptionInput): SubscriptionRecord {
    const product =
      s.productId !== undefined
        ? this.catalog.findProduct(s.productId)
        : s.productHandle !== undefined
          ? this.catalog.findProductByHandle(s.productHandle)
          : undefined;
    if (!product) throw new Error(`addSubscription: unknown product ${s.productId ?? s.productHandle ?? "(none given)"}`);
    const pp = s.pricePointId === undefined ? defaultPricePoint(product) : product.pricePoints.find((x) => x.id === s.pricePointId);
    if (!pp) throw new Error(`addSubscription: price point ${s.pricePointId} is not one of product ${productLabel(product)}`);
    const id = this.#claim(s.id);
    const createdAt = s.createdAt ?? this.nowIso();
    const record: SubscriptionRecord = {
      id,
      productId: product.id,
      pricePointId: pp.id,
      state: s.state,
      requiresAuthentication: s.requiresAuthentication === true,
      createdAt,
      updatedAt: createdAt,
      currentPeriodStartedAt: createdAt,
      currentPeriodEndsAt: addInterval(createdAt, pp),
    };
    this.#subscriptions.set(id, record);
    return structuredClone(record);
  }

  getSubscription(id: number): SubscriptionRecord | undefined {
    const s = this.#subscriptions.get(id);
    return s && structuredClone(s);
  }

  migrationsApplied(subscriptionId: number): number {
    return this.#migrationsApplied.get(subscriptionId) ?? 0;
  }

  /** The subscription with its product and price point, for rendering; 404 when unknown. */
  view(id: number): MigrationTarget {
    const subscription = this.#subscriptions.get(id);
    if (!subscription) throw new SiteError(404, "Subscription not found");
    const product = present(this.catalog.findProduct(subscription.productId), "a subscription's product");
    const pricePoint = present(
      product.pricePoints.find((pp) => pp.id === subscription.pricePointId),
      "a subscription's price point",
    );
    return { subscription, product, pricePoint, family: this.catalog.familyOf(product) };
  }

  /**
   * The migration's target, or the first rule it breaks. Rules in the order a
   * caller can fix them: what was asked, then whether this subscription can
   * take it. A price point named both by id and handle must be the same one.
   */
  resolveMigration(subscriptionId: number, m: Migration): MigrationTarget {
    const { subscription, product: current } = this.view(subscriptionId);
    if (m.product_id === undefined && m.product_handle === undefined) {
      throw new SiteError(422, "A product_id or product_handle is required to migrate a subscription.");
    }
    const byId = m.product_id !== undefined ? this.catalog.findProduct(m.product_id) : undefined;
    const byHandle = m.product_handle !== undefined ? this.catalog.findProductByHandle(m.product_handle) : undefined;
    if (m.product_id !== undefined && !byId) throw new SiteError(422, `Product not found: no product has id ${m.product_id}.`);
    if (m.product_handle !== undefined && !byHandle)
      throw new SiteError(422, `Product not found: no product has handle '${m.product_handle}'.`);
    if (byId && byHandle && byId !== byHandle) {
      throw new SiteError(422, `product_id ${m.product_id} and product_handle '${m.product_handle}' name different products.`);
    }
    // One of them was given and found (checked above).
    const product = present(byId ?? byHandle, "the migration's product");

    let pricePoint = defaultPricePoint(product);
    if (m.product_price_point_id !== undefined) {
      const pp = product.pricePoints.find((x) => x.id === m.product_price_point_id);
      if (!pp)
        throw new SiteError(422, `Price point ${m.product_price_point_id} is not a price point of product ${productLabel(product)}.`);
      pricePoint = pp;
    }
    if (m.product_price_point_handle !== undefined) {
      const pp = product.pricePoints.find((x) => x.handle === m.product_price_point_handle);
      if (!pp)
        throw new SiteError(422, `Price point '${m.product_price_point_handle}' is not a price point of product ${productLabel(product)}.`);
      if (m.product_price_point_id !== undefined && pp.id !== pricePoint.id) {
        throw new SiteError(
          422,
          `product_price_point_id ${m.product_price_point_id} and product_price_point_handle '${m.product_price_point_handle}' name different price points.`,
        );
      }
      pricePoint = pp;
    }
    // The contract is silent; archived means no new subscribers (the vendor: "this will restrict the option to
    // choose the product for purchase"), and a subscription moved onto one would be exactly that.
    if (product.archivedAt !== null)
      throw new SiteError(422, `Product ${productLabel(product)} is archived: subscriptions cannot be moved onto it.`);
    if (pricePoint.archivedAt !== null)
      throw new SiteError(422, `Price point '${pricePoint.handle}' is archived: subscriptions cannot be moved onto it.`);

    if (product.id === current.id) {
      throw new SiteError(
        422,
        `The subscription is already on product ${productLabel(current)}. A migration must move it to a different product; ` +
          "to change only the price point, change the price point instead.",
      );
    }
    if (!MIGRATABLE.has(subscription.state)) {
      throw new SiteError(
        422,
        `Subscription ${subscription.id} is '${subscription.state}'; only active or trialing subscriptions can be migrated.`,
      );
    }
    return { subscription, product, pricePoint, family: this.catalog.familyOf(product) };
  }

  /**
   * Applies a migration, or parks it behind 3-D Secure: the 422 carries a link
   * whose visit (`completeAuthentication`) applies exactly what was asked.
   */
  migrate(subscriptionId: number, m: Migration, actionLinkBase: string): MigrationTarget {
    const target = this.resolveMigration(subscriptionId, m);
    if (target.subscription.requiresAuthentication) {
      const token = randomBytes(16).toString("hex");
      this.#authentications.set(token, { subscriptionId, migration: m, done: false });
      throw new SiteError(422, {
        errors: ["This migration requires 3-D Secure authentication. Direct the customer to action_link to complete it."],
        gateway_payment_id: `pi_sim_${token.slice(0, 24)}`,
        description: "This card requires 3DSecure verification.",
        action_link: `${actionLinkBase}/authentications/${token}`,
      });
    }
    return this.#apply(target, m);
  }

  /**
   * The customer passed 3-D Secure. The migration is validated again: the
   * subscription may have moved since the link was issued. A second visit
   * changes nothing. Afterwards the subscription no longer asks for
   * authentication (the card is now authenticated).
   */
  completeAuthentication(token: string): { subscriptionId: number; alreadyCompleted: boolean } {
    const auth = this.#authentications.get(token);
    if (!auth) throw new SiteError(404, "Authentication not found");
    if (auth.done) return { subscriptionId: auth.subscriptionId, alreadyCompleted: true };
    const target = this.resolveMigration(auth.subscriptionId, auth.migration);
    this.#apply(target, auth.migration);
    target.subscription.requiresAuthentication = false;
    auth.done = true;
    return { subscriptionId: auth.subscriptionId, alreadyCompleted: false };
  }

  /**
   * Deterministic charges from list prices, as if half of the current period
   * were left: the unused half of the old price is credited, the new price
   * charged in full (or half, with preserve_period). A trial paid nothing, so
   * it earns no credit.
   */
  preview(subscriptionId: number, m: Migration): MigrationPreview {
    const { subscription, pricePoint } = this.resolveMigration(subscriptionId, m);
    const old = this.view(subscriptionId).pricePoint.priceInCents;
    const credit = subscription.state === "trialing" ? 0 : Math.round(old / 2);
    const charge = preservesPeriod(m) ? Math.round(pricePoint.priceInCents / 2) : pricePoint.priceInCents;
    const applied = Math.min(charge, credit);
    return {
      prorated_adjustment_in_cents: credit === 0 ? 0 : -credit, // never -0
      charge_in_cents: charge,
      payment_due_in_cents: charge - applied,
      credit_applied_in_cents: applied,
    };
  }

  #apply(t: MigrationTarget, m: Migration): MigrationTarget {
    const s = t.subscription;
    const now = this.nowIso();
    s.previousState = s.state;
    // trial_ended is past its trial: a migration starts it paying. A trial stays a trial.
    if (s.state === "trial_ended") s.state = "active";
    s.productId = t.product.id;
    s.pricePointId = t.pricePoint.id;
    s.updatedAt = now;
    if (!preservesPeriod(m)) {
      s.currentPeriodStartedAt = now;
      s.currentPeriodEndsAt = addInterval(now, t.pricePoint);
    }
    this.#migrationsApplied.set(s.id, this.migrationsApplied(s.id) + 1);
    return t;
  }

  /** What a data file keeps of the site (the duplicate guard's tokens are the server's, not the site's). */
  snapshot(): Omit<SiteData, "uniquenessTokens"> {
    const log = this.webhooks.snapshot();
    const catalog = this.catalog.snapshot();
    const components = this.components.snapshot();
    const coupons = this.coupons.snapshot();
    const prices = this.currencyPrices.snapshot();
    const metafields = this.metafields.snapshot();
    const reasonCodes = this.reasonCodes.snapshot();
    const offers = this.offers.snapshot();
    return {
      webhooksEnabled: this.webhooksEnabled,
      nextIds: {
        ...catalog.next,
        ...components.next,
        coupon: coupons.next.coupon,
        couponRestriction: coupons.next.restriction,
        subscription: this.#next.subscription,
        webhook: log.nextId,
        endpoint: this.endpoints.nextId,
        currencyPrice: prices.next,
        metafield: metafields.next,
        reasonCode: reasonCodes.next,
        offer: offers.next.offer,
        offerSignupPage: offers.next.signupPage,
      },
      productFamilies: catalog.families,
      products: catalog.products,
      subscriptions: [...this.#subscriptions.values()].map((s) => structuredClone(s)),
      migrationsApplied: [...this.#migrationsApplied].map(([subscriptionId, count]) => ({ subscriptionId, count })),
      authentications: [...this.#authentications].map(([token, a]) => ({ token, ...structuredClone(a) })),
      webhooks: log.webhooks,
      replayLog: log.replayLog,
      replayQueue: log.replayQueue,
      endpoints: this.endpoints.list(),
      components: components.components,
      coupons: coupons.coupons,
      settings: this.settings,
      productCurrencyPrices: prices.product,
      componentCurrencyPrices: prices.component,
      couponCurrencyPrices: prices.coupon,
      metafields: metafields.metafields,
      reasonCodes: reasonCodes.reasonCodes,
      offers: offers.offers,
    };
  }

  /**
   * Fills an empty site from a data file (already checked by its schema, which
   * also checks what refers to what). The next ids never go below one past the
   * largest id held, so an id is never handed out twice.
   */
  restore(d: Omit<SiteData, "uniquenessTokens">): void {
    if (
      !this.catalog.isEmpty ||
      !this.components.isEmpty ||
      !this.coupons.isEmpty ||
      !this.currencyPrices.isEmpty ||
      !this.metafields.isEmpty ||
      !this.reasonCodes.isEmpty ||
      !this.offers.isEmpty ||
      this.#subscriptions.size > 0
    )
      throw new Error("simulator bookkeeping: restore into a used site");
    this.webhooksEnabled = d.webhooksEnabled;
    const { family, product, pricePoint, signupPage, component, componentPricePoint, price, coupon, couponRestriction } = d.nextIds;
    this.catalog.restore({ families: d.productFamilies, products: d.products, next: { family, product, pricePoint, signupPage } });
    this.components.restore({ components: d.components, next: { component, componentPricePoint, price } });
    this.coupons.restore({ coupons: d.coupons, next: { coupon, restriction: couponRestriction } });
    this.#settings = structuredClone(d.settings);
    this.currencyPrices.restore({
      product: d.productCurrencyPrices,
      component: d.componentCurrencyPrices,
      coupon: d.couponCurrencyPrices,
      next: d.nextIds.currencyPrice,
    });
    this.metafields.restore({ metafields: d.metafields, next: d.nextIds.metafield });
    this.reasonCodes.restore({ reasonCodes: d.reasonCodes, next: d.nextIds.reasonCode });
    this.offers.restore({ offers: d.offers, next: { offer: d.nextIds.offer, signupPage: d.nextIds.offerSignupPage } });
    for (const s of d.subscriptions) this.#subscriptions.set(s.id, structuredClone(s));
    for (const m of d.migrationsApplied) this.#migrationsApplied.set(m.subscriptionId, m.count);
    for (const { token, ...a } of d.authentications) this.#authentications.set(token, structuredClone(a));
    const highest = (ids: Iterable<number>) => Math.max(0, ...ids) + 1;
    this.#next = { subscription: Math.max(d.nextIds.subscription, highest(this.#subscriptions.keys())) };
    this.webhooks.restore({ webhooks: d.webhooks, replayLog: d.replayLog, replayQueue: d.replayQueue, nextId: d.nextIds.webhook });
    this.endpoints.restore(d.endpoints, d.nextIds.endpoint);
  }

  #claim(given: number | undefined): number {
    const id = given ?? this.#next.subscription;
    if (!Number.isSafeInteger(id) || id <= 0) throw new Error(`subscription id must be a positive integer, got ${id}`);
    if (this.#subscriptions.has(id)) throw new Error(`subscription id ${id} exists`);
    this.#next.subscription = Math.max(this.#next.subscription, id + 1);
    return id;
  }
}

/** A record the site's own bookkeeping guarantees (never the caller's input: that is a SiteError). */
function present<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`simulator bookkeeping: ${what} is missing`);
  return value;
}
