/**
 * A site's catalog as plain data, keyed by handle (by code for coupons): ids differ from site to
 * site, handles carry a catalog across them, so nothing here is an id. Each object is the inputs that
 * declare it, as its kind's `fromService` reads them (references as `handle:<h>`), without what the
 * service holds by default; an object held by another (a price point) is keyed after its owner's key
 * (`pro/pro-annual`). The service's own values are kept as it holds them (decimal text for unit
 * prices), so that two snapshots compare what the sites hold.
 */

/** The snapshot's format tag, written into every snapshot file so that `diff` can tell one from a site. */
export const SNAPSHOT_FORMAT = "billing-catalog-snapshot/2";

/**
 * One object: the inputs that declare it; `archived: true` for one the service archived; and, on an owner,
 * its part held apart (a product's `defaultPricePoint`: its handle and name, which the service makes itself
 * when a product is created through the API, so they are shown but compared only when asked).
 */
export type CatalogEntry = Readonly<Record<string, unknown>>;

/** A site's whole catalog, by kind and key; every record's keys sorted, so its JSON is the same bytes for the same site. */
export interface CatalogSnapshot {
  /** {@link SNAPSHOT_FORMAT}. */
  readonly format: typeof SNAPSHOT_FORMAT;
  /** Whether archived objects were read (then they are here with `archived: true`). */
  readonly includesArchived: boolean;
  /**
   * True for what a program declares (from its preview) rather than what a site holds: it leaves out
   * what the service holds by default, so a diff compares only the fields it declares.
   */
  readonly declaredOnly?: boolean;
  /** By kind type (a resource type, `billing:index:<Type>`'s `<Type>`), each object by its key. */
  readonly objects: Readonly<Record<string, Readonly<Record<string, CatalogEntry>>>>;
}

/** The site's ids of what a snapshot holds, by kind type and key: kept aside, as they differ per site. */
export type CatalogIds = Readonly<Record<string, Readonly<Record<string, number>>>>;

/** An object the read left out because nothing can key it across sites (no handle), with its id. */
export interface SkippedObject {
  /** Its kind's type. */
  readonly type: string;
  /** Its id at the site read. */
  readonly id: number;
  /** Why it was left out, e.g. "a product without a handle". */
  readonly reason: string;
}

/** A record with its keys in code-unit order (the order JSON and the generated program follow). */
export function sortedRecord<T>(entries: Iterable<readonly [string, T]>): Record<string, T> {
  const byKey = new Map<string, T>(entries);
  // The default sort compares UTF-16 code units: the order JSON.stringify then keeps, and the cheapest one.
  const out: Record<string, T> = {};
  for (const k of [...byKey.keys()].sort()) out[k] = byKey.get(k) as T;
  return out;
}

/** An entry's keys sorted, at every level of plain objects (arrays keep their order). */
export function sortedDeep<T>(v: T): T {
  if (Array.isArray(v)) return v.map(sortedDeep) as T;
  if (v !== null && typeof v === "object") return sortedRecord(Object.entries(v).map(([k, x]) => [k, sortedDeep(x)] as const)) as T;
  return v;
}

/** The snapshot as the JSON `export --snapshot` writes: two-space indented, ending with a newline. */
export const snapshotJson = (s: CatalogSnapshot): string => `${JSON.stringify(s, null, 2)}\n`;

/** How many objects of each kind type a snapshot holds. */
export const countsOf = (s: CatalogSnapshot): Record<string, number> =>
  Object.fromEntries(Object.entries(s.objects).map(([type, o]) => [type, Object.keys(o).length]));
