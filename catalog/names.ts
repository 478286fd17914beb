import { catalogKind, catalogKinds, ownedBy } from "../provider/kinds/catalog-kinds";
import type { CatalogSnapshot } from "./snapshot";

/**
 * The Pulumi names of a snapshot's resources, derived from handles (`product-pro`,
 * `price-point-pro--pro-annual`) and the same for the same catalog whatever the site: the import file
 * and the program use the same names, so that a program written after an import adopts the imported
 * resources. Characters a name should not carry become `_`; two handles that then meet get `-2`, `-3`
 * in the snapshot's (sorted) order.
 */

/** A catalog kind's type, as the plugin names it `billing:index:<Type>`. */
export type CatalogType = string;

/** One resource of the catalog: its type, its name, and its key in the snapshot (`product/price point` for price points). */
export interface CatalogResource {
  /** The resource's kind. */
  readonly type: CatalogType;
  /** Its Pulumi name, unique in the catalog. */
  readonly name: string;
  /** Its key in the snapshot: a handle, a code, or `<owner>/<handle>` for an owned object. */
  readonly key: string;
  /** The owner's key, for an owned object. */
  readonly parent?: string;
  /** Its own handle, for an owned object. */
  readonly handle?: string;
}

const safe = (s: string) => s.replace(/[^A-Za-z0-9._-]/g, "_");
/** A kind's name prefix: its noun, in words joined by "-" ("price point" → "price-point"). */
const prefixOf = (noun: string) => noun.toLowerCase().replace(/[^a-z0-9]+/g, "-");

/**
 * Every resource a snapshot declares, in the program's order (each kind in the registry's order, each object
 * by key, what an owner holds right after it), with unique names. Archived objects, and what an archived owner
 * holds, are left out unless `includeArchived`.
 */
export function catalogResources(s: CatalogSnapshot, options: { includeArchived?: boolean } = {}): CatalogResource[] {
  const live = (o: { archived?: unknown } | undefined) => options.includeArchived === true || o?.archived !== true;
  const taken = new Set<string>();
  const out: CatalogResource[] = [];
  const add = (type: string, noun: string, stem: string, key: string, extra: { parent?: string; handle?: string } = {}) => {
    const base = `${prefixOf(noun)}-${safe(stem)}`;
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}-${n}`;
    taken.add(name);
    out.push({ type, name, key, ...extra });
  };
  const addWithOwned = (type: string, key: string) => {
    const k = catalogKind(type);
    if (!k) return;
    add(type, k.facet.noun, key, key);
    for (const owned of ownedBy(k))
      for (const [ownedKey, e] of Object.entries(s.objects[owned.type] ?? {})) {
        const [parent, handle] = [ownedKey.slice(0, ownedKey.indexOf("/")), ownedKey.slice(ownedKey.indexOf("/") + 1)];
        if (parent === key && live(e)) add(owned.type, owned.facet.noun, `${parent}--${handle}`, ownedKey, { parent, handle });
      }
  };
  for (const k of catalogKinds())
    if (k.facet.owner === undefined) for (const [key, e] of Object.entries(s.objects[k.type] ?? {})) if (live(e)) addWithOwned(k.type, key);
  return out;
}
