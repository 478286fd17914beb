import { KINDS } from "./index";
import { type CatalogFacet, type CatalogReader, declaredInputs } from "./kind";

/**
 * The catalog's kinds, as the registry declares them: every kind with a catalog facet and a reader, owners
 * before the kinds they hold. `billing-catalog`, the review and the policy pack name no kind: they read them here.
 */
export interface CatalogKind {
  /** The registry's key (`productPricePoint`). */
  readonly key: string;
  /** The resource type. */
  readonly type: string;
  readonly facet: CatalogFacet;
  readonly reader: CatalogReader;
  /** Every input the kind declares. */
  readonly inputs: readonly string[];
}

let cached: readonly CatalogKind[] | undefined;

/** The catalog kinds, owners first (in registry order otherwise). */
export function catalogKinds(): readonly CatalogKind[] {
  if (cached) return cached;
  const all: CatalogKind[] = [];
  for (const m of Object.values(KINDS) as {
    kind: { key: string; type: string; catalog?: CatalogFacet; inputs: { shape: object } };
    reader?: CatalogReader;
  }[])
    if (m.kind.catalog && m.reader)
      all.push({ key: m.kind.key, type: m.kind.type, facet: m.kind.catalog, reader: m.reader, inputs: Object.keys(m.kind.inputs.shape) });
  const ordered: CatalogKind[] = [];
  const add = (k: CatalogKind) => {
    if (ordered.includes(k)) return;
    const owner = all.find((o) => o.key === k.facet.owner?.kind);
    if (owner) add(owner);
    ordered.push(k);
  };
  for (const k of all) add(k);
  cached = ordered;
  return ordered;
}

/** A catalog kind by its type or its registry key. */
export function catalogKind(typeOrKey: string): CatalogKind | undefined {
  return catalogKinds().find((k) => k.type === typeOrKey || k.key === typeOrKey);
}

/** The kinds an owner kind holds (a product's price points). */
export const ownedBy = (owner: CatalogKind): readonly CatalogKind[] => catalogKinds().filter((k) => k.facet.owner?.kind === owner.key);

/** The plural of a noun, for counts ("product families", "price points"). */
export const plural = (noun: string, n = 2): string => (n === 1 ? noun : noun.endsWith("y") ? `${noun.slice(0, -1)}ies` : `${noun}s`);

/** What a snapshot holds of an object's inputs: {@link declaredInputs} as an entry. */
export const declaredEntry = (kind: CatalogKind, inputs: Readonly<Record<string, unknown>>): Record<string, unknown> =>
  declaredInputs(kind.facet, inputs, true);
