import DataLoader from "dataloader";
import * as componentPricePoints from "./catalog/component-price-points";
import * as components from "./catalog/components";
import * as coupons from "./catalog/coupons";
import * as families from "./catalog/families";
import * as pricePoints from "./catalog/price-points";
import { listProducts } from "./catalog/products";
import { listPricePoints, readProduct } from "./products";
import type { Component, ComponentPricePoint, Coupon, PricePoint, Product, ProductFamily } from "./results";
import { METAFIELD_RESOURCE_TYPES, type MetafieldResourceType, metafieldName } from "./site-config/inputs";
import * as metafields from "./site-config/metafields";
import * as offers from "./site-config/offers";
import * as reasonCodes from "./site-config/reason-codes";
import type { Metafield, Offer, ReasonCode } from "./site-config/results";
import type { Transport } from "./transport";
import {
  MAX_COMPONENT_PRICE_POINTS_PER_PAGE,
  MAX_METAFIELDS_PER_PAGE,
  MAX_OFFERS_PER_PAGE,
  MAX_PRICE_POINTS_PER_PAGE,
  MAX_PRODUCTS_PER_PAGE,
  MAX_REASON_CODES_PER_PAGE,
} from "./wire";

/**
 * Reads of the objects of one collection, batched: the reads asked for within `windowMs` of the first go out as one
 * list of the collection (archived objects included, every page), each answered from it; while a batch of the
 * collection is in flight, the reads asked for meanwhile wait for it to end and go out as the next list, whatever
 * the window (so a service that answers slowly gets fewer, larger lists, and one that answers at once makes no read
 * wait longer than the window). A batch of one is the read itself, and an object the list does not hold is read alone
 * (its 404 stays that read's own error; an object the list missed because it moved between two pages is read alone too).
 * A batch no larger than the pages its collection's last list took is read alone too, each object (`perPage`): a
 * family of 1,666 products is 9 pages, and a refresh whose reads of it came a few at a time sent 9 requests for each
 * few (a 5,000-object refresh took 12 minutes). The size kept is a count, never an answer.
 *
 * As fresh as the reads it replaces: the list is sent after every read it answers was asked for, so none gets an
 * answer older than its own request would have been; nothing is kept between batches (no cache: a read after a
 * write is never answered from before it). A list that fails (after its retries, on any page) fails every read it
 * was to answer with its error: no read falls back to a request of its own that could hide a 5xx. A `pulumi
 * refresh` or `preview` of many objects asks for them together, so a collection's are read in a few requests instead
 * of one each (issue 43).
 *
 * `C` names the collection (an owner's id, a resource type, or `"site"`), `K` an object in it (its id, or a custom
 * field's name).
 */
class CollectionReads<C extends number | string, K extends number | string, T> {
  readonly #loaders = new Map<C, DataLoader<K, T>>();
  /** Per collection: its batches in flight, and the sends of the batches that wait for them to end. */
  readonly #busy = new Map<C, { inFlight: number; next: (() => void)[] }>();
  /** Per collection listed whole: how many objects its last list held (what the next list's pages are reckoned by). */
  readonly #sizes = new Map<C, number>();

  constructor(
    private readonly windowMs: number,
    private readonly of: {
      /** The read of one object, as the client sends it alone. */
      readonly one: (collection: C, key: K) => Promise<T>;
      /** The list of a collection's objects, archived included; with `keys` where the list can be filtered by them. */
      readonly all: (collection: C, keys: readonly K[]) => Promise<readonly T[]>;
      readonly keyOf: (o: T) => K;
      /** Only keys and collections it accepts are batched: the others go to `one`, which refuses them in its words. */
      readonly valid: (collection: C, key: K) => boolean;
      /** At most this many reads per list, for a list filtered by keys (a query string stays short). */
      readonly maxBatch?: number;
      /** Objects per page of a list of the whole collection: a batch of no more reads than its pages is read alone. */
      readonly perPage?: number;
    },
  ) {}

  read(collection: C, key: K): Promise<T> {
    if (!this.of.valid(collection, key)) return this.of.one(collection, key);
    let loader = this.#loaders.get(collection);
    if (!loader) {
      loader = new DataLoader((keys) => this.#batch(collection, keys), {
        cache: false,
        batchScheduleFn: (send) => this.#schedule(collection, send),
        ...(this.of.maxBatch !== undefined ? { maxBatchSize: this.of.maxBatch } : {}),
      });
      this.#loaders.set(collection, loader);
    }
    return loader.load(key);
  }

  #busyOf(collection: C) {
    const b = this.#busy.get(collection) ?? { inFlight: 0, next: [] };
    this.#busy.set(collection, b);
    return b;
  }

  #schedule(collection: C, send: () => void): void {
    const b = this.#busyOf(collection);
    if (b.inFlight > 0) b.next.push(send);
    else setTimeout(send, this.windowMs);
  }

  async #batch(collection: C, keys: readonly K[]): Promise<(T | Error)[]> {
    const b = this.#busyOf(collection);
    b.inFlight++;
    try {
      return await this.#answer(collection, keys);
    } finally {
      if (--b.inFlight === 0) for (const send of b.next.splice(0)) send();
    }
  }

  async #answer(collection: C, keys: readonly K[]): Promise<(T | Error)[]> {
    const one = (key: K) => this.of.one(collection, key).catch(asError);
    const distinct = [...new Set(keys)];
    const size = this.#sizes.get(collection);
    const pages = this.of.perPage && size !== undefined ? Math.ceil(size / this.of.perPage) : 1;
    if (distinct.length <= Math.max(1, pages)) {
      const alone = new Map(distinct.map((key) => [key, one(key)]));
      return Promise.all(keys.map((key) => alone.get(key) as Promise<T | Error>));
    }
    let listed: Map<K, T>;
    try {
      const all = await this.of.all(collection, distinct);
      if (this.of.perPage) this.#sizes.set(collection, all.length);
      listed = new Map(all.map((x) => [this.of.keyOf(x), x]));
    } catch (e) {
      const err = asError(e);
      return keys.map(() => err);
    }
    return Promise.all(keys.map((key) => listed.get(key) ?? one(key)));
  }
}

/** The one collection of a site-wide list. */
const SITE = "site";
type Site = typeof SITE;

/**
 * The batched reads of one client, per collection the API lists:
 * - a product's price points (`/products/{id}/price_points.json`) and a component's (`/components/{id}/price_points.json`);
 * - a family's products (`/product_families/{id}/products.json`), components and coupons (both filtered by `filter[ids]`);
 * - the site's product families, reason codes, offers, and custom fields of one resource type (by name).
 *
 * Reads that stay single, no list holding what they answer: a product, component or price point read by handle (the
 * list is by owner, and the owner is not known before the read), a coupon by code (`/coupons/find.json`), a
 * component by handle (`/components/lookup.json`), the site (`/site.json`), a subscription, and the currency prices
 * of a price point or coupon (their lists are per price point or per coupon).
 */
export class ReadBatches {
  readonly pricePoints: CollectionReads<number, number, PricePoint>;
  readonly products: CollectionReads<number, number, Product>;
  readonly families: CollectionReads<Site, number, ProductFamily>;
  readonly components: CollectionReads<number, number, Component>;
  readonly componentPricePoints: CollectionReads<number, number, ComponentPricePoint>;
  readonly coupons: CollectionReads<number, number, Coupon>;
  readonly reasonCodes: CollectionReads<Site, number, ReasonCode>;
  readonly offers: CollectionReads<Site, number, Offer>;
  readonly metafields: CollectionReads<MetafieldResourceType, string, Metafield | undefined>;

  constructor(t: Transport, windowMs: number) {
    const byId = { keyOf: (o: { readonly id: number }) => o.id, valid: (c: number, id: number) => isId(c) && isId(id) };
    const siteById = { keyOf: (o: { readonly id: number }) => o.id, valid: (_c: Site, id: number) => isId(id) };
    this.pricePoints = new CollectionReads(windowMs, {
      ...byId,
      perPage: MAX_PRICE_POINTS_PER_PAGE,
      one: (productId, id) => pricePoints.readPricePoint(t, productId, id),
      all: (productId) => listPricePoints(t, productId, { includeArchived: true }),
    });
    this.products = new CollectionReads(windowMs, {
      ...byId,
      // A product in another family than the one named is not in the list, so it is read by id.
      perPage: MAX_PRODUCTS_PER_PAGE,
      one: (_familyId, id) => readProduct(t, id),
      all: (familyId) => listProducts(t, { familyId, includeArchived: true }),
    });
    // The contract's family list has no paging: one request is the whole list.
    this.families = new CollectionReads(windowMs, {
      ...siteById,
      one: (_site, id) => families.readProductFamily(t, id),
      all: () => families.listProductFamilies(t),
    });
    this.components = new CollectionReads(windowMs, {
      ...byId,
      maxBatch: MAX_IDS_PER_FILTER,
      one: (familyId, id) => components.readComponent(t, familyId, id),
      all: (familyId, ids) => components.listComponents(t, { familyId, includeArchived: true, ids }),
    });
    this.componentPricePoints = new CollectionReads(windowMs, {
      ...byId,
      perPage: MAX_COMPONENT_PRICE_POINTS_PER_PAGE,
      one: (componentId, id) => componentPricePoints.readComponentPricePoint(t, componentId, id),
      all: (componentId) => componentPricePoints.listComponentPricePoints(t, componentId, { includeArchived: true }),
    });
    // Whether the service lists archived coupons is not published: one it leaves out is read by id.
    this.coupons = new CollectionReads(windowMs, {
      ...byId,
      maxBatch: MAX_IDS_PER_FILTER,
      one: (familyId, id) => coupons.readCoupon(t, familyId, id),
      all: (familyId, ids) => coupons.listCoupons(t, { familyId, includeArchived: true, ids }),
    });
    this.reasonCodes = new CollectionReads(windowMs, {
      ...siteById,
      perPage: MAX_REASON_CODES_PER_PAGE,
      one: (_site, id) => reasonCodes.readReasonCode(t, id),
      all: () => reasonCodes.listReasonCodes(t),
    });
    this.offers = new CollectionReads(windowMs, {
      ...siteById,
      perPage: MAX_OFFERS_PER_PAGE,
      one: (_site, id) => offers.readOffer(t, id),
      all: () => offers.listOffers(t, { includeArchived: true }),
    });
    // A custom field has no read of its own: alone, it is the list filtered by its name; a field no one has is undefined.
    this.metafields = new CollectionReads(windowMs, {
      keyOf: (m) => m?.name ?? "",
      perPage: MAX_METAFIELDS_PER_PAGE,
      valid: (resourceType, name) => METAFIELD_RESOURCE_TYPES.includes(resourceType) && metafieldName.safeParse(name).success,
      one: async (resourceType, name) => (await metafields.listMetafields(t, resourceType, { name }))[0],
      all: async (resourceType) => metafields.listMetafields(t, resourceType),
    });
  }
}

/**
 * The same read (a method and its arguments: a lookup by handle or code, a list) asked for by several callers within
 * `windowMs` of the first, or while the same read is in flight: sent once (after the window, or once the one in flight
 * has ended), each answered with its own copy. A read asked for once it is sent waits for the next one: nothing is
 * answered from before it was asked, and nothing is kept once answered. The providers' checks at preview look up the
 * same references (a price point's product by handle, a coupon's family, the site's reason codes), each check on its
 * own (issue 43).
 */
export class SameReads {
  /** Per read: the one not sent yet, which callers join. */
  readonly #waiting = new Map<string, Promise<unknown>>();
  /** Per read: the one in flight, which the next one waits for. */
  readonly #inFlight = new Map<string, Promise<unknown>>();

  constructor(private readonly windowMs: number) {}

  read<T>(key: string, send: () => Promise<T>): Promise<T> {
    let shared = this.#waiting.get(key) as Promise<T> | undefined;
    if (!shared) {
      const before = this.#inFlight.get(key);
      const start = before ? before.then(nothing, nothing) : new Promise((r) => setTimeout(r, this.windowMs));
      const sent = start.then(() => {
        this.#waiting.delete(key);
        const flight = send();
        this.#inFlight.set(key, flight);
        const landed = () => {
          if (this.#inFlight.get(key) === flight) this.#inFlight.delete(key);
        };
        flight.then(landed, landed);
        return flight;
      });
      this.#waiting.set(key, sent);
      shared = sent;
    }
    // Each caller its own copy: one that changes what it was answered changes nobody else's.
    return shared.then((answer) => structuredClone(answer));
  }
}

/** Ids per `filter[ids]` list: a batch larger than this is sent as several lists. */
const MAX_IDS_PER_FILTER = 100;

const isId = (n: number) => Number.isSafeInteger(n) && n >= 1;
const nothing = () => {};
const asError = (e: unknown): Error => (e instanceof Error ? e : new Error(String(e)));
