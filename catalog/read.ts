import { type CatalogKind, catalogKinds, declaredEntry, ownedBy } from "../provider/kinds/catalog-kinds";
import type { SiteView } from "../provider/kinds/kind";
import { BillingClient } from "../sdk/client";
import type { BillingClientOptions } from "../sdk/options";
import { limiter } from "./limit";
import {
  type CatalogEntry,
  type CatalogIds,
  type CatalogSnapshot,
  type SkippedObject,
  SNAPSHOT_FORMAT,
  sortedDeep,
  sortedRecord,
} from "./snapshot";

/** The service's limit of requests in flight per site: the read never goes above it. */
export const MAX_IN_FLIGHT = 4;

/** How far a read has come, for a progress display. */
export interface ReadProgress {
  /** Objects read so far (each an object of its own in the snapshot). */
  readonly objects: number;
  /** Lists read so far (each a request, or one per page for paged lists). */
  readonly lists: number;
  /** Lists still to read, as far as known (the lists of what an owner holds are known once the owners' list is read). */
  readonly listsLeft: number;
}

/** Options of {@link readCatalog}. */
export interface ReadCatalogOptions {
  /** Read archived objects too (they are in the snapshot with `archived: true`). Default false. */
  readonly includeArchived?: boolean;
  /** Called after each list is read. */
  readonly onProgress?: (p: ReadProgress) => void;
  /** Lists read at once, 1 to 4 (the service's limit). Default 4. */
  readonly maxInFlight?: number;
}

/** What {@link readCatalog} returns: the snapshot, the site's ids aside, and what could not be keyed. */
export interface CatalogRead {
  /** The catalog by kind and key. */
  readonly snapshot: CatalogSnapshot;
  /** The site's ids of the snapshot's objects, by the same keys. */
  readonly ids: CatalogIds;
  /** Objects left out because no handle keys them across sites. */
  readonly skipped: readonly SkippedObject[];
}

/** One listed object, with the key it is filed under (its owner's key first, for an owned kind). */
interface Listed {
  readonly kind: CatalogKind;
  readonly o: unknown;
  readonly owner?: Listed;
}

/**
 * Reads a site's whole catalog (`site`: the options of a `BillingClient`, credentials included, used for
 * this read only and never kept): every object of every catalog kind the registry declares, every page,
 * into one {@link CatalogSnapshot} keyed by handle, with the site's ids aside. Each object is what its
 * kind's `fromService` declares, the rule `pulumi import` and the program use too. At most
 * {@link MAX_IN_FLIGHT} lists are read at once, whatever the options allow. Objects without a handle
 * cannot be keyed across sites: they are listed in `skipped`, not in the snapshot. Archived objects are
 * read only with `includeArchived` (the site's archived objects are still listed once, to name what a
 * reference points at).
 */
export async function readCatalog(site: BillingClientOptions, options: ReadCatalogOptions = {}): Promise<CatalogRead> {
  // One client (one pool of at most 4 connections) for the whole read.
  const client = new BillingClient({ ...site, maxConcurrency: MAX_IN_FLIGHT });
  try {
    return await readWith(client, options);
  } finally {
    await client.close();
  }
}

async function readWith(client: BillingClient, options: ReadCatalogOptions): Promise<CatalogRead> {
  const includeArchived = options.includeArchived === true;
  const cap = Math.min(MAX_IN_FLIGHT, Math.max(1, Math.floor(options.maxInFlight ?? MAX_IN_FLIGHT)));
  const run = limiter(cap);
  const kinds = catalogKinds();
  const top = kinds.filter((k) => k.facet.owner === undefined);
  let objects = 0;
  let lists = 0;
  let listsLeft = top.length;
  const wanted = (l: Listed) => includeArchived || !l.kind.reader.archived(l.o);
  /** Counted as objects of their own: wanted, and not their owner's own part (a product's default price point). */
  const counted = (k: CatalogKind, rows: readonly unknown[]) =>
    rows.filter((o) => includeArchived || !k.reader.archived(o)).length - (k.facet.partOfOwner ? 1 : 0);
  const read = async (k: CatalogKind, owner?: Listed): Promise<Listed[]> => {
    const rows = await run(() => k.reader.list(client, owner?.o));
    objects += Math.max(0, counted(k, rows));
    lists++;
    listsLeft--;
    options.onProgress?.({ objects, lists, listsLeft });
    return rows.map((o) => ({ kind: k, o, ...(owner ? { owner } : {}) }));
  };

  const skipped: SkippedObject[] = [];
  const skip = (l: Listed, reason: string) => skipped.push({ type: l.kind.type, id: l.kind.reader.id(l.o), reason });
  /** Whether an owner's objects are read: wanted, and keyed (nothing keys what an object without a handle holds). */
  const keyedOwner = (l: Listed) => wanted(l) && l.kind.reader.key(l.o) !== undefined;

  // The site's objects of every kind, archived ones too (to name references); then what each wanted owner holds.
  const listed = new Map<string, Listed[]>();
  const byOwner = new Map<unknown, Listed[]>();
  const readOwned = async (owner: Listed): Promise<void> => {
    await Promise.all(
      ownedBy(owner.kind).map(async (k) => {
        const rows = await read(k, owner);
        listed.get(k.key)?.push(...rows) ?? listed.set(k.key, [...rows]);
        byOwner.set(`${k.key} ${owner.kind.reader.id(owner.o)}`, rows);
        await Promise.all(rows.filter(keyedOwner).map(readOwned));
      }),
    );
  };
  await Promise.all(
    top.map(async (k) => {
      const rows = await read(k);
      listed.set(k.key, rows);
      const owners = ownedBy(k).length > 0 ? rows.filter(keyedOwner) : [];
      listsLeft += owners.length * ownedBy(k).length;
      await Promise.all(owners.map(readOwned));
    }),
  );

  const view: SiteView = {
    async keyOf(kind, id) {
      const l = listed.get(kind)?.find((x) => x.kind.reader.id(x.o) === id);
      return l?.kind.reader.key(l.o);
    },
    async children(kind, owner) {
      const ownerKind = kinds.find((k) => k.key === kinds.find((c) => c.key === kind)?.facet.owner?.kind);
      if (!ownerKind) return [];
      return (byOwner.get(`${kind} ${ownerKind.reader.id(owner)}`) ?? []).map((l) => l.o);
    },
  };

  const keyOf = (l: Listed): string | undefined => {
    const own = l.kind.reader.key(l.o);
    if (own === undefined || !l.owner) return own;
    const ownerKey = keyOf(l.owner);
    return ownerKey === undefined ? undefined : `${ownerKey}/${own}`;
  };
  const entries = new Map<string, [string, CatalogEntry][]>();
  const ids = new Map<string, [string, number][]>();
  const parts = new Map<Listed, Record<string, unknown>>();
  const rows: [Listed, string, Record<string, unknown>][] = [];
  for (const k of kinds) {
    for (const l of listed.get(k.key) ?? []) {
      if (!wanted(l)) continue;
      const key = keyOf(l);
      if (key === undefined) {
        skip(l, `${/^[aeiou]/.test(k.facet.noun) ? "an" : "a"} ${k.facet.noun} without a ${k.facet.key}`);
        continue;
      }
      const inputs = await k.reader.fromService(l.o, view);
      const part = k.facet.partOfOwner;
      if (part && inputs[part.input] === true && l.owner) {
        parts.set(l.owner, { ...(parts.get(l.owner) ?? {}), [part.as]: { handle: k.reader.key(l.o), name: inputs.name } });
        continue;
      }
      rows.push([l, key, declaredEntry(k, inputs)]);
    }
  }
  for (const [l, key, entry] of rows) {
    const archived = l.kind.reader.archived(l.o) ? { archived: true } : {};
    const part = parts.get(l) ?? {};
    const of = entries.get(l.kind.type) ?? [];
    of.push([key, sortedDeep({ ...entry, ...archived, ...part })]);
    entries.set(l.kind.type, of);
    const idsOf = ids.get(l.kind.type) ?? [];
    idsOf.push([key, l.kind.reader.id(l.o)]);
    ids.set(l.kind.type, idsOf);
  }
  // Sorted, the list is the same whatever the order of answers.
  skipped.sort((x, y) => (x.type < y.type ? -1 : x.type > y.type ? 1 : x.id - y.id));
  options.onProgress?.({ objects, lists, listsLeft: 0 });
  return {
    snapshot: {
      format: SNAPSHOT_FORMAT,
      includesArchived: includeArchived,
      objects: Object.fromEntries(kinds.map((k) => [k.type, sortedRecord(entries.get(k.type) ?? [])])),
    },
    ids: Object.fromEntries(kinds.map((k) => [k.type, sortedRecord(ids.get(k.type) ?? [])])),
    skipped,
  };
}
