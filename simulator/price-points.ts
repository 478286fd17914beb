import { randomUUID } from "node:crypto";
import { byRef } from "./refs";
import { SiteError } from "./site-error";
import { ALREADY_ARCHIVED, DEFAULT_NOT_ARCHIVABLE, refuse } from "./wire-catalog";

/** What the shared rules read and write of a price point, whoever owns it. */
export interface PricePoint {
  id: number;
  handle: string;
  name: string;
  default: boolean;
  archivedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A product or a component: its price points, exactly one of them the default. */
export interface Owner<P> {
  pricePoints: P[];
  updatedAt: string;
}

/** What a new price point is told beyond its owner's own terms. */
export interface NewPricePoint {
  /** A seeded one's (given by the web UI); the sequence's next otherwise. */
  id?: number;
  /** Without one the service makes a `uuid:` handle (the contract's handle pattern allows the prefix). */
  handle?: string | null;
  name: string;
  isDefault: boolean;
  /** Seeded archived (the web UI can). */
  archived?: boolean;
  /** The time to stamp it with (a seeding call stamps all it makes with one reading); the clock's otherwise. */
  at?: string;
}

/**
 * A product's and a component's price points: the service gives them the same
 * rules (`{price_point_id}` lookup, archive, unarchive and promotion to the
 * default, with the same published 422s), whoever owns them. Each owner kind
 * has its own store, so its own id sequence: `what` names that kind in the
 * bookkeeping's messages ("price point", "component price point"), `owner` the
 * kind that holds them ("product", "component").
 */
export class PricePoints<P extends PricePoint> {
  readonly #now: () => string;
  readonly #what: string;
  readonly #owner: string;
  readonly #ids = new Set<number>();
  #next: number;

  constructor(o: { what: string; owner: string; firstId: number; now: () => string }) {
    this.#what = o.what;
    this.#owner = o.owner;
    this.#next = o.firstId;
    this.#now = o.now;
  }

  /** The id the sequence hands out next (a data file keeps it). */
  get nextId(): number {
    return this.#next;
  }

  /** `{price_point_id}`: the id, or `handle:<handle>`, of one of the owner's price points. 404 when there is none. */
  find(owner: Owner<P>, ref: string): P {
    const pp = byRef(
      ref,
      (id) => owner.pricePoints.find((x) => x.id === id),
      (h) => owner.pricePoints.find((x) => x.handle === h),
    );
    if (!pp) throw new SiteError(404, "Price point not found");
    return pp;
  }

  /** Handles are unique within the owner, archived price points' included. */
  holds(owner: Owner<P>, handle: string): boolean {
    return owner.pricePoints.some((x) => x.handle === handle);
  }

  defaultOf(owner: Owner<P>): P {
    return defaultOf(owner, this.#owner);
  }

  /**
   * A new price point: its id claimed before `terms()` (the owner's own fields)
   * are made, so that a seeding call refused on its terms has used the same ids
   * for either owner. The keys in the record's order (a data file's order).
   */
  make(o: NewPricePoint, terms: () => Omit<P, keyof PricePoint>): P {
    const now = o.at ?? this.#now();
    const record = {
      id: this.#claim(o.id),
      handle: o.handle ?? `uuid:${randomUUID()}`,
      name: o.name,
      default: o.isDefault,
      ...terms(),
      archivedAt: o.archived ? now : null,
      createdAt: now,
      updatedAt: now,
    };
    return record as unknown as P;
  }

  /** DELETE …/price_points/{id}.json: never the default (the published 422), nor twice. */
  archive(pp: P): P {
    const now = this.#now();
    if (pp.default) refuse("base", DEFAULT_NOT_ARCHIVABLE);
    if (pp.archivedAt !== null) refuse("base", ALREADY_ARCHIVED);
    pp.archivedAt = now;
    pp.updatedAt = now;
    return pp;
  }

  /** …/unarchive.json. One that is not archived is answered as it is (the contract lists no refusal). */
  unarchive(pp: P): P {
    if (pp.archivedAt === null) return pp;
    pp.archivedAt = null;
    pp.updatedAt = this.#now();
    return pp;
  }

  /**
   * …/default.json: `pp` becomes its owner's default and the old default a catalog one (subscriptions
   * keep theirs). The default already is a no-op. An archived price point cannot be the default (it
   * could not be archived while it was one), so it is refused rather than quietly unarchived.
   */
  promote<O extends Owner<P>>(owner: O, pp: P): O {
    const old = this.defaultOf(owner);
    if (pp.default) return owner;
    if (pp.archivedAt !== null) refuse("base", `Price point '${pp.handle}' is archived: unarchive it before making it the default.`);
    const at = this.#now();
    old.default = false;
    old.updatedAt = at;
    pp.default = true;
    pp.updatedAt = at;
    owner.updatedAt = at;
    return owner;
  }

  /** After a data file's owners are restored: their ids are held, and the sequence never goes below one past the largest. */
  restore(owners: readonly Owner<P>[], next: number): void {
    for (const o of owners) for (const pp of o.pricePoints) this.#ids.add(pp.id);
    this.#next = Math.max(next, Math.max(0, ...this.#ids) + 1);
  }

  #claim(given: number | undefined): number {
    const id = given ?? this.#next;
    if (!Number.isSafeInteger(id) || id <= 0) throw new Error(`${this.#what} id must be a positive integer, got ${id}`);
    if (this.#ids.has(id)) throw new Error(`${this.#what} id ${id} exists`);
    this.#ids.add(id);
    this.#next = Math.max(this.#next, id + 1);
    return id;
  }
}

/** Every owner has exactly one default (seeding and the data file's schema make sure). */
export function defaultOf<P extends { default: boolean }>(owner: { pricePoints: P[] }, ownerKind: string): P {
  const pp = owner.pricePoints.find((x) => x.default);
  if (!pp) throw new Error(`simulator bookkeeping: a ${ownerKind}'s default price point is missing`);
  return pp;
}
