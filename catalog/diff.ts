import { catalogKind, catalogKinds } from "../provider/kinds/catalog-kinds";
import type { CatalogEntry, CatalogSnapshot } from "./snapshot";

/** What a diff entry is: one of the catalog's kinds, by its type. */
export type DiffKind = string;

/** An object on one side only. */
export interface DiffPresence {
  /** The object's kind. */
  readonly kind: DiffKind;
  /** Its handle (a coupon's code; `<product>/<price point>` for price points). */
  readonly key: string;
}

/** One field that differs: its path in the object (`prices[1].unitPrice`), and each side's value (undefined: not held). */
export interface FieldChange {
  /** The field's path in the object, e.g. `prices[1].unitPrice` or `defaultPricePoint.name`. */
  readonly field: string;
  /** A's value; undefined when A holds none. */
  readonly old: unknown;
  /** B's value; undefined when B holds none. */
  readonly new: unknown;
}

/** An object on both sides whose fields differ. */
export interface DiffChange extends DiffPresence {
  /** Each differing field, in path order. */
  readonly fields: readonly FieldChange[];
}

/** Two catalogs compared by handle: what only B has (added), only A has (removed), and what differs field by field. */
export interface CatalogDiff {
  /** What only B holds. */
  readonly added: readonly DiffPresence[];
  /** What only A holds. */
  readonly removed: readonly DiffPresence[];
  /** What both hold, with the fields that differ. */
  readonly changed: readonly DiffChange[];
}

/** Whether a diff found nothing. */
export const isEmptyDiff = (d: CatalogDiff): boolean => d.added.length === 0 && d.removed.length === 0 && d.changed.length === 0;

/** Fields holding decimal text, compared as numbers: "10.0" and "10" are the same price. */
const DECIMAL = /(^|\.)unitPrice$/;

function flatten(v: unknown, path: string, out: Map<string, unknown>): void {
  if (Array.isArray(v)) {
    if (v.every((x) => typeof x !== "object" || x === null)) {
      out.set(path, v);
      return;
    }
    for (const [i, x] of v.entries()) flatten(x, `${path}[${i}]`, out);
    if (v.length === 0) out.set(path, v);
    return;
  }
  if (v !== null && typeof v === "object") {
    for (const [k, x] of Object.entries(v)) if (x !== undefined) flatten(x, path ? `${path}.${k}` : k, out);
    return;
  }
  out.set(path, v);
}

function same(field: string, a: unknown, b: unknown): boolean {
  if (DECIMAL.test(field) && (typeof a === "string" || typeof a === "number") && (typeof b === "string" || typeof b === "number")) {
    const x = Number(a);
    const y = Number(b);
    if (Number.isFinite(x) && Number.isFinite(y)) return x === y;
  }
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The fields of two objects that differ, in path order; only `a`'s or `b`'s own fields when that side is declared only. */
function fieldChanges(a: object, b: object, declaredOnly: { a: boolean; b: boolean }): FieldChange[] {
  const fa = new Map<string, unknown>();
  const fb = new Map<string, unknown>();
  flatten(a, "", fa);
  flatten(b, "", fb);
  const all = [...new Set([...fa.keys(), ...fb.keys()])];
  // A field the declaring side leaves out is the service's choice; a list it declares is compared whole (a tier too many counts).
  const declared = (m: Map<string, unknown>, p: string) => m.has(p) || tierOf(m, p);
  const paths = all.filter((p) => (!declaredOnly.a || declared(fa, p)) && (!declaredOnly.b || declared(fb, p))).sort(byPath);
  return paths.filter((p) => !same(p, fa.get(p), fb.get(p))).map((p) => ({ field: p, old: fa.get(p), new: fb.get(p) }));
}

/** Whether a path is inside a list the side declares (`prices[3].unitPrice` when it declares `prices[0]…`). */
function tierOf(m: Map<string, unknown>, p: string): boolean {
  const list = /^(.*?)\[\d+\]/.exec(p)?.[1];
  if (list === undefined) return false;
  for (const k of m.keys()) if (k.startsWith(`${list}[`)) return true;
  return false;
}

/** Paths in reading order: `prices[2]` before `prices[10]`. */
function byPath(x: string, y: string): number {
  const split = (s: string) => s.split(/(\d+)/).map((part, i) => (i % 2 === 1 ? Number(part) : part));
  const a = split(x);
  const b = split(y);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const p = a[i];
    const q = b[i];
    if (p === q) continue;
    if (p === undefined) return -1;
    if (q === undefined) return 1;
    if (typeof p === "number" && typeof q === "number") return p - q;
    return String(p) < String(q) ? -1 : 1;
  }
  return 0;
}

/** Options of {@link diffCatalogs}. */
export interface DiffOptions {
  /**
   * Compare which price point is the default by its handle and name. Default false: the service names
   * a default price point itself when a product or component is created through the API (a `uuid:…`
   * handle, "Default" or "Original"), so a catalog built from a program differs there from one clicked
   * together in the web UI without any difference in price; the default's pricing is its product's or
   * component's, and is always compared.
   */
  readonly compareDefaultPricePoints?: boolean;
}

/**
 * An entry as compared: what the service holds by default filled in where a side left it out (a site's
 * snapshot leaves it out, a program may declare it), an owner's part held apart left out unless asked.
 */
function comparable(type: string, e: CatalogEntry, parts: boolean, declaredOnly: boolean): Record<string, unknown> {
  const kind = catalogKind(type);
  // What a program declares is compared as declared: a default it leaves out is the service's choice.
  const out: Record<string, unknown> = declaredOnly ? {} : { ...(kind?.facet.defaults ?? {}) };
  for (const [k, v] of Object.entries(e)) if (parts || kind === undefined || kind.inputs.includes(k) || k === "archived") out[k] = v;
  return out;
}

/**
 * Compares two snapshots by kind and key (coupons by code), field by field: `added` is what only `b`
 * holds, `removed` what only `a` holds, `changed` each object on both sides with its differing fields
 * (old is `a`'s value, new is `b`'s). Owned objects (price points) are objects of their own
 * (`<owner>/<handle>`), not fields of their owner. Ids are never compared: they differ per site. Archived
 * objects are compared only when both snapshots were read with them. Equal catalogs give an empty diff.
 */
export function diffCatalogs(a: CatalogSnapshot, b: CatalogSnapshot, options: DiffOptions = {}): CatalogDiff {
  const added: DiffPresence[] = [];
  const removed: DiffPresence[] = [];
  const changed: DiffChange[] = [];
  // Archived objects are compared only when both sides were read with them: else one side's would all show as added or removed.
  const archivedToo = a.includesArchived && b.includesArchived;
  const parts = options.compareDefaultPricePoints === true;
  const live = (e: CatalogEntry | undefined) => (e !== undefined && (archivedToo || e.archived !== true) ? e : undefined);
  const known = catalogKinds().map((k) => k.type);
  const types = [
    ...known,
    ...[...new Set([...Object.keys(a.objects), ...Object.keys(b.objects)])].filter((t) => !known.includes(t)).sort(),
  ];
  for (const type of types) {
    const x = a.objects[type] ?? {};
    const y = b.objects[type] ?? {};
    // What an owner holds is compared only when the owner is on both sides: an owner on one side only (or archived on
    // one, and left aside) is one line, what it holds goes with it.
    const ownerKind = catalogKind(type)?.facet.owner?.kind;
    const ownerType = ownerKind !== undefined ? catalogKind(ownerKind)?.type : undefined;
    const ownerOn = (s: CatalogSnapshot, key: string) =>
      ownerType === undefined || live(s.objects[ownerType]?.[key.slice(0, key.indexOf("/"))]) !== undefined;
    for (const key of [...new Set([...Object.keys(x), ...Object.keys(y)])].sort()) {
      const p = live(x[key]);
      const q = live(y[key]);
      if ((p === undefined && q === undefined) || !ownerOn(a, key) || !ownerOn(b, key)) continue;
      if (p === undefined) added.push({ kind: type, key });
      else if (q === undefined) removed.push({ kind: type, key });
      else {
        const fields = fieldChanges(
          comparable(type, p, parts, a.declaredOnly === true),
          comparable(type, q, parts, b.declaredOnly === true),
          {
            a: a.declaredOnly === true,
            b: b.declaredOnly === true,
          },
        );
        if (fields.length > 0) changed.push({ kind: type, key, fields });
      }
    }
  }
  return { added, removed, changed };
}

const show = (v: unknown): string => (v === undefined ? "(none)" : `\`${JSON.stringify(v)}\``);
const cell = (s: string) => s.replace(/\|/g, "\\|");

/** Markdown or JSON, as `billing-catalog diff --format` takes it. */
export type DiffFormat = "markdown" | "json";

/**
 * A diff as Markdown (a summary line, then what was added and removed, then a table of changed fields
 * with old → new) or as JSON (the {@link CatalogDiff} itself). An empty diff renders as the empty
 * string, in both formats, so that "no output" means "no difference".
 */
export function renderDiff(d: CatalogDiff, format: DiffFormat = "markdown", labels: { a?: string; b?: string } = {}): string {
  // Equal sides say so: an empty output reads as a failure that printed nothing, and `--format json` stays JSON.
  if (format === "json") return `${JSON.stringify(d, null, 2)}\n`;
  const a = labels.a ?? "A";
  const b = labels.b ?? "B";
  if (isEmptyDiff(d)) return `# Catalog diff: ${a} → ${b}\n\nThe catalogs are equal: nothing added, removed or changed.\n`;
  const fields = d.changed.reduce((n, c) => n + c.fields.length, 0);
  const lines = [
    `# Catalog diff: ${a} → ${b}`,
    "",
    `${d.added.length} added, ${d.removed.length} removed, ${d.changed.length} changed (${fields} field${fields === 1 ? "" : "s"}).`,
  ];
  if (d.added.length > 0) lines.push("", `## Only in ${b} (added)`, "", ...d.added.map((x) => `- ${x.kind} \`${x.key}\``));
  if (d.removed.length > 0) lines.push("", `## Only in ${a} (removed)`, "", ...d.removed.map((x) => `- ${x.kind} \`${x.key}\``));
  if (d.changed.length > 0) {
    lines.push("", "## Changed", "", `| Object | Field | ${cell(a)} | ${cell(b)} |`, "| --- | --- | --- | --- |");
    for (const c of d.changed)
      for (const f of c.fields)
        lines.push(`| ${c.kind} \`${cell(c.key)}\` | \`${f.field}\` | ${cell(show(f.old))} | ${cell(show(f.new))} |`);
  }
  return `${lines.join("\n")}\n`;
}
