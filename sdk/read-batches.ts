import DataLoader from "dataloader";
import * as pricePoints from "./catalog/price-points";
import { listProducts } from "./catalog/products";
import { listPricePoints, readProduct } from "./products";
import type { PricePoint, Product } from "./results";
import type { Transport } from "./transport";

/**
 * Reads by id of the objects of one collection, batched: the reads asked for within `windowMs` of the first go out as
 * one list of the collection (archived objects included, every page), each answered from it. A batch of one is the
 * read by id itself, and an id the list does not hold is read by id (its 404 stays that read's own error).
 *
 * As fresh as the reads it replaces: the list is sent after every read it answers was asked for, so none gets an
 * answer older than its own request would have been; nothing is kept between batches (no cache: a read after a
 * write is never answered from before it). A `pulumi refresh` of many objects asks for them together, so a
 * collection's are read in one request instead of one each (issue 43).
 */
class CollectionReads<T extends { readonly id: number }> {
  readonly #loaders = new Map<number, DataLoader<number, T>>();

  constructor(
    private readonly windowMs: number,
    private readonly one: (collection: number, id: number) => Promise<T>,
    private readonly all: (collection: number) => Promise<readonly T[]>,
  ) {}

  read(collection: number, id: number): Promise<T> {
    // Ids the SDK refuses are refused by the read itself, with its own message.
    if (!isId(collection) || !isId(id)) return this.one(collection, id);
    let loader = this.#loaders.get(collection);
    if (!loader) {
      loader = new DataLoader((ids) => this.#batch(collection, ids), {
        cache: false,
        batchScheduleFn: (send) => setTimeout(send, this.windowMs),
      });
      this.#loaders.set(collection, loader);
    }
    return loader.load(id);
  }

  async #batch(collection: number, ids: readonly number[]): Promise<(T | Error)[]> {
    const one = (id: number) => this.one(collection, id).catch(asError);
    if (new Set(ids).size === 1) return Promise.all(ids.map(one));
    let listed: Map<number, T>;
    try {
      listed = new Map((await this.all(collection)).map((x) => [x.id, x]));
    } catch (e) {
      const err = asError(e);
      return ids.map(() => err);
    }
    return Promise.all(ids.map((id) => listed.get(id) ?? one(id)));
  }
}

/** The batched reads of one client: a product's price points, and a family's products. */
export class ReadBatches {
  readonly pricePoints: CollectionReads<PricePoint>;
  readonly products: CollectionReads<Product>;

  constructor(t: Transport, windowMs: number) {
    this.pricePoints = new CollectionReads(
      windowMs,
      (productId, id) => pricePoints.readPricePoint(t, productId, id),
      (productId) => listPricePoints(t, productId, { includeArchived: true }),
    );
    this.products = new CollectionReads(
      windowMs,
      // A product in another family than the one named is not in the list, so it is read by id.
      (_familyId, id) => readProduct(t, id),
      (familyId) => listProducts(t, { familyId, includeArchived: true }),
    );
  }
}

const isId = (n: number) => Number.isSafeInteger(n) && n >= 1;
const asError = (e: unknown): Error => (e instanceof Error ? e : new Error(String(e)));
