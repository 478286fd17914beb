import { catalogKind } from "../provider/kinds/catalog-kinds";
import { referencePath } from "../provider/kinds/kind";
import { type CatalogResource, catalogResources } from "./names";
import type { CatalogSnapshot } from "./snapshot";

/** Another resource's output in a declaration: what the program passes where the snapshot names an object by handle. */
export class Reference {
  constructor(
    /** The referenced resource's type. */
    readonly type: string,
    /** Its key in the snapshot. */
    readonly key: string,
    /** Its resource name in the program. */
    readonly name: string,
    /** The output passed (`familyId`). */
    readonly output: string,
  ) {}
}

/** One resource the program declares: its type, name, key, and inputs (references to the program's resources as {@link Reference}). */
export interface CatalogDeclaration {
  readonly type: string;
  readonly name: string;
  readonly key: string;
  readonly inputs: Readonly<Record<string, unknown>>;
}

/** Options of {@link catalogDeclarations}. */
export interface DeclarationOptions {
  /** An entry of the stack's `billing:sites`, set as every resource's `site`. Default: none (the top-level site). */
  readonly site?: string;
}

/**
 * The resources a program declares for a snapshot's live objects, in the program's order: each object's
 * entry as its inputs, a reference to an object the program declares as that resource's output (so the
 * engine creates it first), one it does not declare (archived) kept as `handle:<h>`. What an owner holds
 * apart (its default price point) is not an input. The exported program writes these; a test applies them.
 */
export function catalogDeclarations(snapshot: CatalogSnapshot, options: DeclarationOptions = {}): CatalogDeclaration[] {
  const resources = catalogResources(snapshot);
  const byKey = new Map<string, CatalogResource>(resources.map((r) => [`${r.type} ${r.key}`, r]));
  return resources.map((r) => {
    const kind = catalogKind(r.type);
    const entry = snapshot.objects[r.type]?.[r.key] ?? {};
    const refs = Object.entries(kind?.facet.references ?? {}).map(([path, ref]) => ({ path: referencePath(path), ref }));
    /** A `handle:x` in `container` as the output of the resource the program declares for it; else as it is. */
    const resolve = (
      ref: { kind: string; output: string },
      x: unknown,
      container: Readonly<Record<string, unknown>>,
      list?: string,
    ): unknown => {
      const referenced = catalogKind(ref.kind);
      if (!referenced || typeof x !== "string" || !x.startsWith("handle:")) return x;
      let key = x.slice("handle:".length);
      // An owned object (a price point) is keyed under its owner, which a reference beside it names.
      const owner = referenced.facet.owner?.kind;
      if (owner !== undefined) {
        const beside = refs.find(
          ({ path: [input, field], ref: o }) => o.kind === owner && (list === undefined ? field === undefined : input === list),
        );
        const ownerRef = beside && container[beside.path[1] ?? beside.path[0]];
        if (typeof ownerRef !== "string" || !ownerRef.startsWith("handle:")) return x;
        key = `${ownerRef.slice("handle:".length)}/${key}`;
      }
      const target = byKey.get(`${referenced.type} ${key}`);
      return target ? new Reference(target.type, target.key, target.name, ref.output) : x;
    };
    const inputs: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(entry)) {
      if (!kind?.inputs.includes(k)) continue;
      const top = refs.find(({ path: [input, field] }) => input === k && field === undefined)?.ref;
      const nested = refs.filter(({ path: [input, field] }) => input === k && field !== undefined);
      if (top) inputs[k] = Array.isArray(v) ? v.map((x) => resolve(top, x, entry)) : resolve(top, v, entry);
      else if (nested.length > 0 && Array.isArray(v))
        inputs[k] = v.map((item: Record<string, unknown>) => {
          const out = { ...item };
          for (const { path, ref } of nested)
            if (path[1] !== undefined && path[1] in item) out[path[1]] = resolve(ref, item[path[1]], item, k);
          return out;
        });
      else inputs[k] = v;
    }
    if (options.site !== undefined) inputs.site = options.site;
    return { type: r.type, name: r.name, key: r.key, inputs };
  });
}
