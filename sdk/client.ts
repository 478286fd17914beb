import * as componentPricePoints from "./catalog/component-price-points";
import * as components from "./catalog/components";
import * as coupons from "./catalog/coupons";
import type {
  ComponentCurrencyPricesInput,
  CouponCurrencyPricesInput,
  PricePointCurrencyPricesInput,
  PrimaryPricingRoles,
} from "./catalog/currency-inputs";
import * as currencyPrices from "./catalog/currency-prices";
import type { ComponentPricePointCurrencyPrice, CouponCurrencyPrice, PricePointCurrencyPrice } from "./catalog/currency-results";
import * as families from "./catalog/families";
import type {
  ComponentInput,
  ComponentPricePointInput,
  ComponentPricePointUpdateInput,
  ComponentUpdateInput,
  CouponInput,
} from "./catalog/input-types";
import * as pricePoints from "./catalog/price-points";
import * as products from "./catalog/products";
import * as endpoints from "./endpoints";
import type { ReplayBatch } from "./errors";
import type {
  EndpointInput,
  MigrationInput,
  PricePointInput,
  PricePointUpdateInput,
  ProductFamilyInput,
  ProductInput,
  ProductUpdateInput,
  WebhookFilter,
} from "./inputs";
import * as migration from "./migration";
import { type BillingClientOptions, type Connection, resolveConnection } from "./options";
import { type ListPricePointsOptions, listPricePoints, type ReadProductOptions, readProduct, resolvePricePoint } from "./products";
import { ReadBatches, SameReads } from "./read-batches";
import { replayWebhooks } from "./replay";
import type {
  Component,
  ComponentPricePoint,
  Coupon,
  Endpoint,
  MigrationPreview,
  PricePoint,
  Product,
  ProductFamily,
  ReplayResult,
  Site,
  Subscription,
  Webhook,
} from "./results";
import { readSite } from "./site";
import { clearSiteData } from "./site-config/clear-data";
import type { MetafieldInput, MetafieldUpdateInput, OfferInput, ReasonCodeInput, ReasonCodeUpdateInput } from "./site-config/input-types";
import type { CleanupScope, MetafieldResourceType } from "./site-config/inputs";
import * as metafields from "./site-config/metafields";
import * as offers from "./site-config/offers";
import * as reasonCodes from "./site-config/reason-codes";
import type { Metafield, Offer, ReasonCode } from "./site-config/results";
import { Transport } from "./transport";
import { listWebhooks, setWebhooksEnabled } from "./webhooks";
import type { WebhookId } from "./wire";

/**
 * Typed client of the billing API for one site. Options are checked in the
 * constructor, inputs before any request; auth, retries and the per-site
 * concurrency cap live in its single transport.
 */
export class BillingClient {
  readonly #transport: Transport;
  readonly #connection: Connection;
  readonly #reads: ReadBatches | undefined;
  readonly #same: SameReads | undefined;

  /**
   * Checks every option at once and sends nothing: a bad or missing one (a credential the
   * environment does not take, a subdomain that is no DNS label) is a {@link BillingValidationError}
   * naming each. Connections open with the first request and stay pooled until {@link BillingClient.close}.
   */
  constructor(options: BillingClientOptions) {
    this.#connection = resolveConnection(options);
    this.#transport = new Transport(this.#connection);
    const window = this.#connection.readBatchWindowMs;
    this.#reads = window > 0 ? new ReadBatches(this.#transport, window) : undefined;
    this.#same = window > 0 ? new SameReads(window) : undefined;
  }

  /** With `readBatchWindowMs`, the same lookup or list asked for together is sent once (see {@link SameReads}). */
  #once<T>(method: string, args: readonly unknown[], send: () => Promise<T>): Promise<T> {
    return this.#same ? this.#same.read(`${method}(${JSON.stringify(args)})`, send) : send();
  }

  /**
   * Queues webhooks for re-delivery; any number of ids (numbers, or decimal
   * strings for int64 ids above 2^53), sent in batches of at most 1000.
   * `resume` re-sends batches whose outcome was unknown with their own tokens.
   * On failure: {@link ReplayPartialFailureError} with queued / notQueued / unknown.
   */
  replayWebhooks(
    ids: readonly WebhookId[],
    options: {
      /**
       * The `unknownBatches` of an earlier {@link ReplayPartialFailureError}, sent again with their
       * own tokens before the new ids: the service answers 409 for a batch it already queued, so
       * resuming never delivers a webhook twice. Never rebuild them with new tokens.
       */
      resume?: readonly ReplayBatch[];
    } = {},
  ): Promise<ReplayResult> {
    return replayWebhooks(this.#transport, ids, this.#connection.maxConcurrency, options);
  }

  /**
   * Turns webhook delivery on or off for the site. A PUT of a value, so it is retried like a
   * read; no read can tell the setting afterwards (see {@link BillingClient.readSite}).
   */
  setWebhooksEnabled(enabled: boolean): Promise<{
    /** The setting as the service answered it, which is the one now in force. */
    webhooksEnabled: boolean;
  }> {
    return setWebhooksEnabled(this.#transport, enabled);
  }

  /**
   * Moves a subscription to another product; returns the updated subscription
   * with its price point resolved. On an outcome it cannot learn:
   * {@link MigrationOutcomeUnknownError}, to be resumed with the same token.
   */
  migrateSubscription(
    subscriptionId: number,
    target: MigrationInput,
    options: {
      /**
       * The token of an earlier attempt whose outcome was unknown ({@link MigrationOutcomeUnknownError}'s
       * `uniquenessToken`): the service then applies the migration at most once. Default: a new UUID.
       */
      uniquenessToken?: string;
    } = {},
  ): Promise<Subscription> {
    const c = this.#connection;
    return migration.migrateSubscription(this.#transport, subscriptionId, target, {
      uniquenessToken: options.uniquenessToken,
      maxRetries: c.retry.maxRetries,
      retryBaseDelayMs: c.retry.baseDelayMs,
      settleMs: c.migrationSettleMs,
    });
  }

  /** What a migration would charge, without applying it; `prorationDate` is the contract's `proration_date`. */
  previewMigration(subscriptionId: number, target: MigrationInput, options: migration.PreviewOptions = {}): Promise<MigrationPreview> {
    return migration.previewMigration(this.#transport, subscriptionId, target, options);
  }

  /**
   * A subscription by id, as the service answers it: the price point is set only when the answer
   * names it, which most do not (a migration's result resolves it). A 404 is a {@link BillingApiError}.
   */
  readSubscription(subscriptionId: number): Promise<Subscription> {
    return migration.readSubscription(this.#transport, subscriptionId);
  }

  /**
   * The site these credentials reach: a read that proves the site and its credentials without
   * changing anything (it does not show whether webhooks are enabled: nothing does).
   */
  readSite(): Promise<Site> {
    return readSite(this.#transport);
  }

  /**
   * A product by id or handle (a string of digits is an id), with its default price point and its
   * catalog fields. Archived products are read too (`archivedAt` set). A 404 is a {@link BillingApiError}.
   * With `readBatchWindowMs` and the family it is in (`familyId`), reads by id of one family's products asked for
   * together go out as one list of the family's.
   */
  readProduct(idOrHandle: number | string, options: ReadProductOptions = {}): Promise<Product> {
    const id = typeof idOrHandle === "number" ? idOrHandle : /^\d+$/.test(idOrHandle) ? Number(idOrHandle) : undefined;
    if (this.#reads && options.familyId !== undefined && id !== undefined) return this.#reads.products.read(options.familyId, id);
    return this.#once("readProduct", [idOrHandle], () => readProduct(this.#transport, idOrHandle));
  }

  /** Every price point of a product, across pages; archived ones only with `includeArchived`. */
  listPricePoints(productId: number, options: ListPricePointsOptions = {}): Promise<PricePoint[]> {
    return this.#once("listPricePoints", [productId, options], () => listPricePoints(this.#transport, productId, options));
  }

  /** How catalog creates retry and resolve: the client's retry settings, and its settle time after a 409. */
  #createOptions(uniquenessToken?: string) {
    const c = this.#connection;
    return { uniquenessToken, maxRetries: c.retry.maxRetries, retryBaseDelayMs: c.retry.baseDelayMs, settleMs: c.migrationSettleMs };
  }

  /**
   * Creates a product family ({@link productFamilyInput}). Never creates two: an ambiguous failure
   * is resolved by reading back by handle and by the request's `uniqueness_token`. On an outcome
   * it cannot learn: {@link CatalogOutcomeUnknownError}, to be resumed with the same token.
   */
  createProductFamily(
    input: ProductFamilyInput,
    options: {
      /**
       * The token of an earlier create whose outcome was unknown ({@link CatalogOutcomeUnknownError}'s
       * `uniquenessToken`); read back by handle first, then resume with it, never a new one. Default: a new UUID.
       */
      uniquenessToken?: string;
    } = {},
  ): Promise<ProductFamily> {
    return families.createProductFamily(this.#transport, input, this.#createOptions(options?.uniquenessToken));
  }

  /**
   * A family by id, or by handle (any string; sent as `handle:x`, and `"handle:x"` is read as that too). With
   * `readBatchWindowMs`, reads by id asked for together are one list of the site's families.
   */
  readProductFamily(idOrHandle: number | string): Promise<ProductFamily> {
    if (this.#reads && typeof idOrHandle === "number") return this.#reads.families.read("site", idOrHandle);
    return this.#once("readProductFamily", [idOrHandle], () => families.readProductFamily(this.#transport, idOrHandle));
  }

  /** Every product family of the site. */
  listProductFamilies(): Promise<ProductFamily[]> {
    return this.#once("listProductFamilies", [], () => families.listProductFamilies(this.#transport));
  }

  /**
   * Creates a product in a family ({@link productInput}: its fields and its default price point's
   * pricing), once, like {@link createProductFamily}.
   */
  createProduct(
    familyId: number,
    input: ProductInput,
    options: {
      /**
       * The token of an earlier create whose outcome was unknown ({@link CatalogOutcomeUnknownError}'s
       * `uniquenessToken`); read back by handle first, then resume with it, never a new one. Default: a new UUID.
       */
      uniquenessToken?: string;
    } = {},
  ): Promise<Product> {
    return products.createProduct(this.#transport, familyId, input, this.#createOptions(options?.uniquenessToken));
  }

  /** Every product of the site, or of one family (`familyId`), across pages; archived ones only with `includeArchived`. */
  listProducts(options: products.ListProductsOptions = {}): Promise<Product[]> {
    return this.#once("listProducts", [options], () => products.listProducts(this.#transport, options));
  }

  /**
   * Changes the fields given, and only those ({@link productUpdateInput}). A pricing change makes
   * the service create a new price point and make it the default; subscriptions keep theirs.
   */
  updateProduct(productId: number, input: ProductUpdateInput): Promise<Product> {
    return products.updateProduct(this.#transport, productId, input);
  }

  /** Archives a product (the service never deletes one); returns it with `archivedAt` set. */
  archiveProduct(productId: number): Promise<Product> {
    return products.archiveProduct(this.#transport, productId);
  }

  /** Creates a price point of a product ({@link pricePointInput}), once, like {@link createProductFamily}. */
  createPricePoint(
    productId: number,
    input: PricePointInput,
    options: {
      /**
       * The token of an earlier create whose outcome was unknown ({@link CatalogOutcomeUnknownError}'s
       * `uniquenessToken`); read back by handle first, then resume with it, never a new one. Default: a new UUID.
       */
      uniquenessToken?: string;
    } = {},
  ): Promise<PricePoint> {
    return pricePoints.createPricePoint(this.#transport, productId, input, this.#createOptions(options?.uniquenessToken));
  }

  /**
   * Creates many price points of a product, each once with its own token, at most `maxConcurrency`
   * at a time; results in the inputs' order. All inputs are checked before anything is sent. When
   * some fail: {@link PricePointsPartialFailureError} with what was created and each failure.
   */
  createPricePoints(productId: number, inputs: readonly PricePointInput[]): Promise<PricePoint[]> {
    const { uniquenessToken: _, ...opts } = this.#createOptions();
    return pricePoints.createPricePoints(this.#transport, productId, inputs, this.#connection.maxConcurrency, opts);
  }

  /** A price point by id (with `readBatchWindowMs`, batched with other reads of its product's). */
  readPricePoint(productId: number, pricePointId: number): Promise<PricePoint> {
    if (this.#reads) return this.#reads.pricePoints.read(productId, pricePointId);
    return pricePoints.readPricePoint(this.#transport, productId, pricePointId);
  }

  /** Changes a price point's handle and/or price (the only fields the service's update takes). */
  updatePricePoint(productId: number, pricePointId: number, input: PricePointUpdateInput): Promise<PricePoint> {
    return pricePoints.updatePricePoint(this.#transport, productId, pricePointId, input);
  }

  /** Archives a price point; the product's default cannot be (a 422). */
  archivePricePoint(productId: number, pricePointId: number): Promise<PricePoint> {
    return pricePoints.archivePricePoint(this.#transport, productId, pricePointId);
  }

  /** Unarchives a price point. */
  unarchivePricePoint(productId: number, pricePointId: number): Promise<PricePoint> {
    return pricePoints.unarchivePricePoint(this.#transport, productId, pricePointId);
  }

  /** Makes a price point its product's default (the old default becomes "catalog"); returns it as it now is. */
  promotePricePoint(productId: number, pricePointId: number): Promise<PricePoint> {
    return pricePoints.promotePricePoint(this.#transport, productId, pricePointId);
  }

  /**
   * Creates a component in a family ({@link componentInput}: its `kind` picks the create path), once,
   * like {@link createProductFamily}: after an ambiguous failure it is read back by handle
   * (`/components/lookup.json`) before anything is sent again. Tiers are checked before sending.
   */
  createComponent(
    familyId: number,
    input: ComponentInput,
    options: {
      /**
       * The token of an earlier create whose outcome was unknown ({@link CatalogOutcomeUnknownError}'s
       * `uniquenessToken`); read back by handle first, then resume with it, never a new one. Default: a new UUID.
       */
      uniquenessToken?: string;
    } = {},
  ): Promise<Component> {
    return components.createComponent(this.#transport, familyId, input, this.#createOptions(options?.uniquenessToken));
  }

  /** Every component of the site, or of one family (`familyId`), across pages; archived ones only with `includeArchived`. */
  listComponents(options: components.ListComponentsOptions = {}): Promise<Component[]> {
    return this.#once("listComponents", [options], () => components.listComponents(this.#transport, options));
  }

  /** A component by its family and id (with `readBatchWindowMs`, batched with other reads of its family's). A 404 is a {@link BillingApiError}. */
  readComponent(familyId: number, componentId: number): Promise<Component> {
    if (this.#reads) return this.#reads.components.read(familyId, componentId);
    return components.readComponent(this.#transport, familyId, componentId);
  }

  /** A component by handle (`GET /components/lookup.json?handle=`). A 404 is a {@link BillingApiError}. */
  findComponentByHandle(handle: string): Promise<Component> {
    return this.#once("findComponentByHandle", [handle], () => components.findComponentByHandle(this.#transport, handle));
  }

  /**
   * Changes the fields given, and only those ({@link componentUpdateInput}: names, handle, accounting,
   * tax, display and upgrade options). Prices change through the default price point
   * ({@link BillingClient.updateComponentPricePoint}); kind, family, unit name and the rest are create-only.
   */
  updateComponent(familyId: number, componentId: number, input: ComponentUpdateInput): Promise<Component> {
    return components.updateComponent(this.#transport, familyId, componentId, input);
  }

  /** Archives a component (the service has no delete and no unarchive for components); returns it with `archivedAt` set. */
  archiveComponent(familyId: number, componentId: number): Promise<Component> {
    return components.archiveComponent(this.#transport, familyId, componentId);
  }

  /** Creates a price point of a component ({@link componentPricePointInput}), once, like {@link createProductFamily}. */
  createComponentPricePoint(
    componentId: number,
    input: ComponentPricePointInput,
    options: {
      /**
       * The token of an earlier create whose outcome was unknown ({@link CatalogOutcomeUnknownError}'s
       * `uniquenessToken`); read back by handle first, then resume with it, never a new one. Default: a new UUID.
       */
      uniquenessToken?: string;
    } = {},
  ): Promise<ComponentPricePoint> {
    return componentPricePoints.createComponentPricePoint(
      this.#transport,
      componentId,
      input,
      this.#createOptions(options?.uniquenessToken),
    );
  }

  /** Every price point of a component, across pages; archived ones only with `includeArchived`. */
  listComponentPricePoints(
    componentId: number,
    options: componentPricePoints.ListComponentPricePointsOptions = {},
  ): Promise<ComponentPricePoint[]> {
    return this.#once("listComponentPricePoints", [componentId, options], () =>
      componentPricePoints.listComponentPricePoints(this.#transport, componentId, options),
    );
  }

  /** A component price point by id (with `readBatchWindowMs`, batched with other reads of its component's). */
  readComponentPricePoint(componentId: number, pricePointId: number): Promise<ComponentPricePoint> {
    // A `handle:` reference (the provider's lookup) is not an id: it is read alone.
    if (this.#reads && typeof pricePointId === "number") return this.#reads.componentPricePoints.read(componentId, pricePointId);
    return this.#once("readComponentPricePoint", [componentId, pricePointId], () =>
      componentPricePoints.readComponentPricePoint(this.#transport, componentId, pricePointId),
    );
  }

  /**
   * Changes a component price point ({@link componentPricePointUpdateInput}), its prices included:
   * new tiers apply to every subscription on it, from the service's next charge.
   */
  updateComponentPricePoint(
    componentId: number,
    pricePointId: number,
    input: ComponentPricePointUpdateInput,
  ): Promise<ComponentPricePoint> {
    return componentPricePoints.updateComponentPricePoint(this.#transport, componentId, pricePointId, input);
  }

  /** Archives a component price point; the component's default cannot be (the service refuses). */
  archiveComponentPricePoint(componentId: number, pricePointId: number): Promise<ComponentPricePoint> {
    return componentPricePoints.archiveComponentPricePoint(this.#transport, componentId, pricePointId);
  }

  /** Unarchives a component price point. */
  unarchiveComponentPricePoint(componentId: number, pricePointId: number): Promise<ComponentPricePoint> {
    return componentPricePoints.unarchiveComponentPricePoint(this.#transport, componentId, pricePointId);
  }

  /** Makes a price point its component's default (existing subscriptions keep theirs); returns it as it now is. */
  setDefaultComponentPricePoint(componentId: number, pricePointId: number): Promise<ComponentPricePoint> {
    return componentPricePoints.setDefaultComponentPricePoint(this.#transport, componentId, pricePointId);
  }

  /**
   * Creates a coupon in a family ({@link couponInput}), once, like {@link createProductFamily}: after
   * an ambiguous failure it is read back by code (`/coupons/find.json`) before anything is sent again.
   */
  createCoupon(
    familyId: number,
    input: CouponInput,
    options: {
      /**
       * The token of an earlier create whose outcome was unknown ({@link CatalogOutcomeUnknownError}'s
       * `uniquenessToken`); read back by code first, then resume with it, never a new one. Default: a new UUID.
       */
      uniquenessToken?: string;
    } = {},
  ): Promise<Coupon> {
    return coupons.createCoupon(this.#transport, familyId, input, this.#createOptions(options?.uniquenessToken));
  }

  /** Every coupon of the site, or of one family (`familyId`), across pages; archived ones only with `includeArchived`. */
  listCoupons(options: coupons.ListCouponsOptions = {}): Promise<Coupon[]> {
    return this.#once("listCoupons", [options], () => coupons.listCoupons(this.#transport, options));
  }

  /** A coupon by its family and id (with `readBatchWindowMs`, batched with other reads of its family's). A 404 is a {@link BillingApiError}. */
  readCoupon(familyId: number, couponId: number): Promise<Coupon> {
    if (this.#reads) return this.#reads.coupons.read(familyId, couponId);
    return coupons.readCoupon(this.#transport, familyId, couponId);
  }

  /** A coupon by code; give `familyId` unless it is in the site's default family. A 404 is a {@link BillingApiError}. */
  findCoupon(code: string, options: coupons.FindCouponOptions = {}): Promise<Coupon> {
    return this.#once("findCoupon", [code, options], () => coupons.findCoupon(this.#transport, code, options));
  }

  /**
   * Sets a coupon's fields ({@link couponInput}, the whole coupon, as the service's update takes it);
   * restrictions it has that the input leaves out are lifted.
   */
  updateCoupon(familyId: number, couponId: number, input: CouponInput): Promise<Coupon> {
    return coupons.updateCoupon(this.#transport, familyId, couponId, input);
  }

  /** Archives a coupon; returns it with `archivedAt` set. */
  archiveCoupon(familyId: number, couponId: number): Promise<Coupon> {
    return coupons.archiveCoupon(this.#transport, familyId, couponId);
  }

  /**
   * A product price point's prices in the site's other currencies (one per currency and role). A price point
   * with `useSiteExchangeRate` true answers the exchange rate's prices, not prices of its own.
   */
  readPricePointCurrencyPrices(productId: number, pricePointId: number): Promise<PricePointCurrencyPrice[]> {
    return currencyPrices.readPricePointCurrencyPrices(this.#transport, productId, pricePointId);
  }

  /**
   * Creates a product price point's prices in currencies it has none in yet ({@link pricePointCurrencyPricesInput}:
   * `{ EUR: { baseline, trial?, initial? } }`, amounts in the currency's own units), once: after an ambiguous
   * failure they are read back by currency and role before anything is sent again. With `pricing` (the price
   * point's), each currency's roles are checked to mirror it before sending.
   */
  createPricePointCurrencyPrices(
    productId: number,
    pricePointId: number,
    prices: PricePointCurrencyPricesInput,
    options: {
      /** The token of an earlier create whose outcome was unknown ({@link CatalogOutcomeUnknownError}'s `uniquenessToken`). Default: a new UUID. */
      uniquenessToken?: string;
      /** The price point's primary pricing, to check the roles against before sending (a trial and an initial charge ask for theirs). */
      pricing?: PrimaryPricingRoles;
    } = {},
  ): Promise<PricePointCurrencyPrice[]> {
    return currencyPrices.createPricePointCurrencyPrices(this.#transport, productId, pricePointId, prices, {
      ...this.#createOptions(options?.uniquenessToken),
      pricing: options?.pricing,
    });
  }

  /**
   * Changes the amounts of a product price point's existing currency prices, in place (the records are read
   * first for their ids; a currency or role without a price yet is refused before sending: create it).
   */
  updatePricePointCurrencyPrices(
    productId: number,
    pricePointId: number,
    prices: PricePointCurrencyPricesInput,
  ): Promise<PricePointCurrencyPrice[]> {
    return currencyPrices.updatePricePointCurrencyPrices(this.#transport, productId, pricePointId, prices);
  }

  /**
   * Makes a product price point's currency prices those declared: creates the missing currencies, updates the
   * amounts that differ, sends nothing when all hold. Currencies it has that `prices` leaves out are kept (the
   * service publishes no way to remove them) and named in `undeclared`.
   */
  setPricePointCurrencyPrices(
    productId: number,
    pricePointId: number,
    prices: PricePointCurrencyPricesInput,
    options: {
      /** The price point's primary pricing, to check the roles against before sending. */
      pricing?: PrimaryPricingRoles;
    } = {},
  ): Promise<{
    /** The price point's currency prices after the change. */
    prices: PricePointCurrencyPrice[];
    /** Currencies it holds prices in that `prices` leaves out, kept. */
    undeclared: readonly string[];
  }> {
    const { uniquenessToken: _, ...opts } = this.#createOptions();
    return currencyPrices.setPricePointCurrencyPrices(this.#transport, productId, pricePointId, prices, {
      ...opts,
      pricing: options?.pricing,
    });
  }

  /**
   * A component price point's prices in the site's other currencies (one per currency and tier) and its
   * tiers' ids in order (`componentCurrencyPricesOf` turns them into `{ EUR: [unit price per tier] }`).
   */
  readComponentPricePointCurrencyPrices(
    componentId: number,
    pricePointId: number,
  ): Promise<{
    /** The currency prices, each naming its tier (`priceId`). */
    prices: ComponentPricePointCurrencyPrice[];
    /** The price point's tiers' ids, ascending by starting quantity. */
    tierIds: number[];
  }> {
    return currencyPrices.readComponentPricePointCurrencyPrices(this.#transport, componentId, pricePointId);
  }

  /**
   * Creates a component price point's prices in currencies it has none in yet ({@link componentCurrencyPricesInput}:
   * `{ EUR: [unit price per tier] }`), once; the price point is read first for its tiers (the mirror rule).
   */
  createComponentPricePointCurrencyPrices(
    componentId: number,
    pricePointId: number,
    prices: ComponentCurrencyPricesInput,
    options: {
      /** The token of an earlier create whose outcome was unknown. Default: a new UUID. */
      uniquenessToken?: string;
    } = {},
  ): Promise<ComponentPricePointCurrencyPrice[]> {
    return currencyPrices.createComponentPricePointCurrencyPrices(
      this.#transport,
      componentId,
      pricePointId,
      prices,
      this.#createOptions(options?.uniquenessToken),
    );
  }

  /** Changes the unit prices of a component price point's existing currency prices, in place. */
  updateComponentPricePointCurrencyPrices(
    componentId: number,
    pricePointId: number,
    prices: ComponentCurrencyPricesInput,
  ): Promise<ComponentPricePointCurrencyPrice[]> {
    return currencyPrices.updateComponentPricePointCurrencyPrices(this.#transport, componentId, pricePointId, prices);
  }

  /** Makes a component price point's currency prices those declared, as {@link BillingClient.setPricePointCurrencyPrices}. */
  setComponentPricePointCurrencyPrices(
    componentId: number,
    pricePointId: number,
    prices: ComponentCurrencyPricesInput,
  ): Promise<{
    /** The price point's currency prices after the change. */
    prices: ComponentPricePointCurrencyPrice[];
    /** Currencies it holds prices in that `prices` leaves out, kept. */
    undeclared: readonly string[];
  }> {
    const { uniquenessToken: _, ...opts } = this.#createOptions();
    return currencyPrices.setComponentPricePointCurrencyPrices(this.#transport, componentId, pricePointId, prices, opts);
  }

  /** A flat-amount coupon's amounts in the site's other currencies. */
  readCouponCurrencyPrices(couponId: number): Promise<CouponCurrencyPrice[]> {
    return currencyPrices.readCouponCurrencyPrices(this.#transport, couponId);
  }

  /**
   * Sets a flat-amount coupon's amounts in the currencies given ({@link couponCurrencyPricesInput}: `{ EUR: 9 }`);
   * a percentage coupon is refused before sending. Currencies it has that `prices` leaves out are kept and
   * named in `undeclared`.
   */
  setCouponCurrencyPrices(
    couponId: number,
    prices: CouponCurrencyPricesInput,
  ): Promise<{
    /** The coupon's currency prices after the change. */
    prices: CouponCurrencyPrice[];
    /** Currencies it holds prices in that `prices` leaves out, kept. */
    undeclared: readonly string[];
  }> {
    return currencyPrices.setCouponCurrencyPrices(this.#transport, couponId, prices);
  }

  /** Every custom field (metafield) of subscriptions or customers, across pages; with `name`, only the one with it. */
  listMetafields(resourceType: MetafieldResourceType, options: metafields.ListMetafieldsOptions = {}): Promise<Metafield[]> {
    // With `readBatchWindowMs`, the lookups of one resource type's fields by name asked for together are one list.
    if (this.#reads && options.name !== undefined)
      return this.#reads.metafields.read(resourceType, options.name).then((m) => (m === undefined ? [] : [m]));
    return this.#once("listMetafields", [resourceType, options], () => metafields.listMetafields(this.#transport, resourceType, options));
  }

  /**
   * Creates a custom field of subscriptions or customers ({@link metafieldInput}), once: after an ambiguous failure
   * it is read back by name before anything is sent again. On an outcome it cannot learn:
   * {@link CatalogOutcomeUnknownError}, to be resumed with the same token.
   */
  createMetafield(
    resourceType: MetafieldResourceType,
    input: MetafieldInput,
    options: {
      /** The token of an earlier create whose outcome was unknown; read back by name first, then resume with it. Default: a new UUID. */
      uniquenessToken?: string;
    } = {},
  ): Promise<Metafield> {
    return metafields.createMetafield(this.#transport, resourceType, input, this.#createOptions(options?.uniquenessToken));
  }

  /**
   * Changes a custom field named by its current name ({@link metafieldUpdateInput}): a new `name` renames it (its
   * data stays); a `scope` replaces the whole scope.
   */
  updateMetafield(resourceType: MetafieldResourceType, currentName: string, input: MetafieldUpdateInput): Promise<Metafield> {
    return metafields.updateMetafield(this.#transport, resourceType, currentName, input);
  }

  /** Deletes a custom field by name, and its data on every subscription or customer (`dataCount` says how many hold some). */
  deleteMetafield(resourceType: MetafieldResourceType, name: string): Promise<void> {
    return metafields.deleteMetafield(this.#transport, resourceType, name);
  }

  /** Every churn reason code of the site, across pages. */
  listReasonCodes(): Promise<ReasonCode[]> {
    return this.#once("listReasonCodes", [], () => reasonCodes.listReasonCodes(this.#transport));
  }

  /** A reason code by id (with `readBatchWindowMs`, batched with other reads of the site's). A 404 is a {@link BillingApiError}. */
  readReasonCode(reasonCodeId: number): Promise<ReasonCode> {
    if (this.#reads) return this.#reads.reasonCodes.read("site", reasonCodeId);
    return reasonCodes.readReasonCode(this.#transport, reasonCodeId);
  }

  /** Creates a churn reason code ({@link reasonCodeInput}), once: after an ambiguous failure it is read back by code. */
  createReasonCode(
    input: ReasonCodeInput,
    options: {
      /** The token of an earlier create whose outcome was unknown; read back by code first, then resume with it. Default: a new UUID. */
      uniquenessToken?: string;
    } = {},
  ): Promise<ReasonCode> {
    return reasonCodes.createReasonCode(this.#transport, input, this.#createOptions(options?.uniquenessToken));
  }

  /** Changes a reason code's fields given ({@link reasonCodeUpdateInput}), and only those. */
  updateReasonCode(reasonCodeId: number, input: ReasonCodeUpdateInput): Promise<ReasonCode> {
    return reasonCodes.updateReasonCode(this.#transport, reasonCodeId, input);
  }

  /** Deletes a reason code (the service cannot undo it). */
  deleteReasonCode(reasonCodeId: number): Promise<void> {
    return reasonCodes.deleteReasonCode(this.#transport, reasonCodeId);
  }

  /** Every offer of the site, across pages; archived ones only with `includeArchived`. */
  listOffers(options: offers.ListOffersOptions = {}): Promise<Offer[]> {
    return this.#once("listOffers", [options], () => offers.listOffers(this.#transport, options));
  }

  /** An offer by id (with `readBatchWindowMs`, batched with other reads of the site's). A 404 is a {@link BillingApiError}. */
  readOffer(offerId: number): Promise<Offer> {
    if (this.#reads) return this.#reads.offers.read("site", offerId);
    return offers.readOffer(this.#transport, offerId);
  }

  /**
   * Creates an offer ({@link offerInput}: a product at a price point, components with starting quantities, coupons),
   * once: after an ambiguous failure it is read back by handle. The service has no update of an offer.
   */
  createOffer(
    input: OfferInput,
    options: {
      /** The token of an earlier create whose outcome was unknown; read back by handle first, then resume with it. Default: a new UUID. */
      uniquenessToken?: string;
    } = {},
  ): Promise<Offer> {
    return offers.createOffer(this.#transport, input, this.#createOptions(options?.uniquenessToken));
  }

  /** Archives an offer; returns it with `archivedAt` set. */
  archiveOffer(offerId: number): Promise<Offer> {
    return offers.archiveOffer(this.#transport, offerId);
  }

  /** Unarchives an offer; returns it as it now is. */
  unarchiveOffer(offerId: number): Promise<Offer> {
    return offers.unarchiveOffer(this.#transport, offerId);
  }

  /**
   * Clears a test site's data: `customers` (customers and their subscriptions) or `all` (the catalog too). The
   * service clears asynchronously: check the site is empty before relying on it. A live site is refused:
   * {@link LiveSiteError}, nothing cleared.
   */
  clearSiteData(scope: CleanupScope): Promise<{
    /** The scope sent. */
    scope: CleanupScope;
  }> {
    return clearSiteData(this.#transport, scope);
  }

  /**
   * `subscription` with the price point a migration to `target` left it on,
   * when the answer did not say (e.g. a read-back after 3-D Secure): the one
   * named, or the product's default.
   */
  async resolvePricePoint(subscription: Subscription, target: MigrationInput): Promise<Subscription> {
    const { body } = migration.migrationBodyOf(subscription.id, target);
    return resolvePricePoint(this.#transport, subscription, body);
  }

  /** Every webhook matching the filter, across all pages. */
  listWebhooks(filter?: WebhookFilter): Promise<Webhook[]> {
    return listWebhooks(this.#transport, filter);
  }

  /** Every webhook endpoint of the site: its url, its events (sorted), its status. */
  listEndpoints(): Promise<Endpoint[]> {
    return endpoints.listEndpoints(this.#transport);
  }

  /**
   * Creates a webhook endpoint for a url (https; http only for localhost) and a
   * non-empty list of event keys ({@link WEBHOOK_EVENTS}). Never creates two: an
   * ambiguous failure is resolved by reading the list back and by the request's
   * `uniqueness_token`. On an outcome it cannot learn:
   * {@link EndpointOutcomeUnknownError}, to be resumed with the same token.
   */
  createEndpoint(
    input: EndpointInput,
    options: {
      /**
       * The token of an earlier create whose outcome was unknown ({@link EndpointOutcomeUnknownError}'s
       * `uniquenessToken`): the service then creates the endpoint at most once. Default: a new UUID.
       */
      uniquenessToken?: string;
    } = {},
  ): Promise<Endpoint> {
    const c = this.#connection;
    return endpoints.createEndpoint(this.#transport, input, {
      uniquenessToken: options?.uniquenessToken,
      maxRetries: c.retry.maxRetries,
      retryBaseDelayMs: c.retry.baseDelayMs,
      settleMs: c.migrationSettleMs,
    });
  }

  /**
   * Sets an endpoint's url and its complete list of events; an empty list
   * unsubscribes it from every event. A 404 is a {@link BillingApiError}.
   */
  updateEndpoint(endpointId: number, input: EndpointInput): Promise<Endpoint> {
    return endpoints.updateEndpoint(this.#transport, endpointId, input);
  }

  /** Closes the connection pool; calling it again resolves as the first call did. */
  close(): Promise<void> {
    return this.#transport.close();
  }

  /** Never shows credentials, even to a debugger's inspect. */
  toJSON(): object {
    return { client: "BillingClient" };
  }
}
