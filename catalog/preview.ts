import { referenceOrder } from "../provider/kinds/catalog";
import { catalogKind, catalogKinds, declaredEntry } from "../provider/kinds/catalog-kinds";
import { referencePath } from "../provider/kinds/kind";
import { type CatalogEntry, type CatalogSnapshot, SNAPSHOT_FORMAT, sortedDeep, sortedRecord } from "./snapshot";

/**
 * What a program would make, read from its `pulumi preview --json --show-sames` output, as a
 * snapshot: each catalog resource's inputs, its references (another resource's output, as its kind's facet names
 * them) turned back into `handle:<h>` through the preview's property dependencies (so unknown ids
 * of resources not created yet resolve too), or kept as written. Such a snapshot holds only what
 * the program declares: {@link diffCatalogs} then compares only declared fields, since what a program
 * leaves out is the service's choice.
 */

/** The preview's unknown value: an output not known until the resource exists. */
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

interface Declared {
  readonly type: string;
  readonly urn: string;
  readonly inputs: Record<string, unknown>;
  readonly deps: Record<string, readonly string[]>;
}

interface PreviewStep {
  readonly op?: string;
  readonly newState?: { urn?: string; type?: string; inputs?: Record<string, unknown>; propertyDependencies?: Record<string, string[]> };
}

/** The catalog kind's type of a resource type: the dynamic providers' `pulumi-nodejs:dynamic/billing:<Type>` or the plugin's `billing:index:<Type>`. */
function typeOf(type: string | undefined): string | undefined {
  const m = /^(?:pulumi-nodejs:dynamic\/billing:|billing:index:)([A-Za-z]+)$/.exec(type ?? "");
  return m?.[1] !== undefined && catalogKind(m[1]) !== undefined ? m[1] : undefined;
}

/** Whether parsed JSON is a `pulumi preview --json` output. */
export const isPreviewJson = (v: unknown): boolean =>
  v !== null && typeof v === "object" && Array.isArray((v as { steps?: unknown }).steps);

/** Options of {@link snapshotFromPreview}. */
export interface PreviewSnapshotOptions {
  /** Where the preview came from, for messages. */
  readonly source?: string;
}

/**
 * A snapshot of what a program declares, from its `pulumi preview --json` output (run it with
 * `--show-sames`: unchanged resources are otherwise left out of the steps). Resources the preview
 * deletes are left out. Marked `declaredOnly`, so a diff compares only what the program declares.
 */
export function snapshotFromPreview(preview: unknown, options: PreviewSnapshotOptions = {}): CatalogSnapshot {
  const where = options.source ?? "the preview";
  if (!isPreviewJson(preview)) throw new Error(`${where}: not the output of \`pulumi preview --json\` (it has no "steps")`);
  const steps = (preview as { steps: PreviewStep[] }).steps;
  const declared: Declared[] = [];
  for (const s of steps) {
    const st = s.newState;
    const type = typeOf(st?.type);
    if (!type || !st?.urn || s.op === "delete" || s.op === "delete-replaced" || s.op === "discard") continue;
    declared.push({ type, urn: st.urn, inputs: st.inputs ?? {}, deps: st.propertyDependencies ?? {} });
  }
  const kindOf = (d: Declared) => catalogKind(d.type) as NonNullable<ReturnType<typeof catalogKind>>;
  // Each resource's own key (handle or code), for the references that name it.
  const ownKey = new Map<string, string>();
  for (const d of declared) {
    const { key: field, within } = kindOf(d).facet;
    const key = d.inputs[field];
    if (typeof key !== "string") throw new Error(`${where}: ${d.urn} has no ${field} known at preview`);
    if (within !== undefined && typeof d.inputs[within] !== "string")
      throw new Error(`${where}: ${d.urn} has no ${within} known at preview`);
    ownKey.set(d.urn, within === undefined ? key : `${d.inputs[within]}:${key}`);
  }
  /** A reference input as the snapshot writes it: its dependencies' keys for outputs, `handle:x` as written, an id kept. */
  const references = (d: Declared, field: string): string[] | number[] => {
    const fromDeps = (d.deps[field] ?? []).map((u) => ownKey.get(u)).filter((k): k is string => k !== undefined);
    const raw = d.inputs[field];
    const values = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
    if (values.some((v) => v === UNKNOWN) && fromDeps.length === 0)
      throw new Error(`${where}: ${d.urn}'s ${field} is unknown at preview and names no resource of the program`);
    const direct = values.filter((v) => typeof v === "string" && v.startsWith("handle:")).map((v) => String(v).slice(7));
    const handles = [...new Set([...fromDeps, ...direct])].sort();
    if (handles.length > 0) return handles.map((h) => `handle:${h}`);
    return values.filter((v): v is number => typeof v === "number");
  };
  const typeOfUrn = new Map(declared.map((d) => [d.urn, d.type]));
  /**
   * A reference in each object of a list input (an offer's components): `handle:x` and ids as written; one unknown at
   * preview is the next of the input's dependencies of the referenced type, in the order the program names them.
   */
  const nested = (d: Declared, field: string, within: string, value: unknown, type: string | undefined): unknown => {
    if (!Array.isArray(value)) return value;
    const keys = (d.deps[field] ?? []).filter((u) => typeOfUrn.get(u) === type).map((u) => ownKey.get(u));
    let next = 0;
    return value.map((item: unknown) => {
      if (item === null || typeof item !== "object" || !(within in item)) return item;
      const v = (item as Record<string, unknown>)[within];
      if (v !== UNKNOWN) return item;
      const key = keys[next++];
      if (key === undefined)
        throw new Error(`${where}: ${d.urn}'s ${field}[].${within} is unknown at preview and names no resource of the program`);
      return { ...item, [within]: `handle:${key}` };
    });
  };
  const entries = new Map<string, Map<string, Record<string, unknown>>>();
  const file = (type: string, key: string, e: Record<string, unknown>) => {
    const of = entries.get(type) ?? new Map();
    of.set(key, e);
    entries.set(type, of);
  };
  const keyOf = new Map<string, string>();
  // Owners first: an owned object's key starts with its owner's.
  const ordered = catalogKinds().flatMap((k) => declared.filter((d) => d.type === k.type));
  for (const d of ordered) {
    const kind = kindOf(d);
    const inputs: Record<string, unknown> = { ...d.inputs };
    for (const [path, ref] of Object.entries(kind.facet.references)) {
      const [field, within] = referencePath(path);
      if (inputs[field] === undefined) continue;
      if (within !== undefined) {
        const resolved = nested(d, field, within, inputs[field], catalogKind(ref.kind)?.type);
        // The list is a set ordered by its objects' first reference, as check orders it and a site's export writes it.
        const first = Object.keys(kind.facet.references).find((k) => referencePath(k)[0] === field) === path;
        inputs[field] =
          first && Array.isArray(resolved) ? [...resolved].sort((x, y) => referenceOrder(x?.[within], y?.[within])) : resolved;
        continue;
      }
      const refs = references(d, field);
      inputs[field] = Array.isArray(d.inputs[field]) ? refs : refs[0];
    }
    const own = ownKey.get(d.urn) as string;
    const owner = kind.facet.owner;
    let key = own;
    if (owner) {
      const ownerRef = inputs[owner.input];
      const ownerKey = typeof ownerRef === "string" ? ownerRef.slice("handle:".length) : undefined;
      const ownerType = catalogKind(owner.kind)?.type;
      const ownerEntry = ownerKey !== undefined && ownerType ? entries.get(ownerType)?.get(ownerKey) : undefined;
      if (!ownerEntry) throw new Error(`${where}: ${d.urn} names a ${owner.input} the program does not declare`);
      key = `${ownerKey}/${own}`;
      // A part of its owner (a default price point) is the owner's own, as a site's snapshot holds it.
      const part = kind.facet.partOfOwner;
      if (part && d.inputs[part.input] === true) {
        ownerEntry[part.as] = { handle: own, name: d.inputs.name };
        continue;
      }
    }
    keyOf.set(d.urn, key);
    const entry = declaredEntry(kind, Object.fromEntries(Object.entries(inputs).filter(([k]) => kind.inputs.includes(k))));
    // What a program declares is compared as declared: a default it states is kept (declaredEntry dropped it).
    for (const [k, v] of Object.entries(inputs))
      if (k in kind.facet.defaults && v !== undefined && v !== null && !kind.facet.runtimeInputs.includes(k)) entry[k] = v;
    file(d.type, key, entry);
  }
  const objects: Record<string, Record<string, CatalogEntry>> = {};
  for (const k of catalogKinds())
    objects[k.type] = sortedRecord([...(entries.get(k.type) ?? new Map())].map(([key, e]) => [key, sortedDeep(e)] as const));
  return { format: SNAPSHOT_FORMAT, includesArchived: false, declaredOnly: true, objects };
}
