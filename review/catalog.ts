import type { PolicyViolation, PreviewDiagnostic, PreviewStep } from "../fleet/report";
import { catalogKind, catalogKinds, type CatalogKind as Declared } from "../provider/kinds/catalog-kinds";
import { CURRENCY_PRICES, currencyOnlyEffect, currencyPriceDiff, KEPT } from "../provider/kinds/currency-text";
import { PRICING_FIELDS } from "../provider/kinds/pricing-fields";
import { CENTS_FIELDS, tierDiff } from "../provider/kinds/pricing-text";
import { ENGINE_UNKNOWN, UNKNOWN_TEXT, urnParts, valueText } from "./markdown";
import { compare, type Note, typeOfStep } from "./steps";

/**
 * The catalog's objects in a preview, each as a reviewer reads it. What the service does with each step
 * is said in the service's terms, as each kind's declaration says it (its catalog facet: a product's
 * pricing change is a new default price point; a price point's is a replacement in a fixed order; a
 * component's prices change in place on its default price point; nothing is ever deleted, only archived).
 */

/** The catalog kinds' types, in the order a review lists them (the registry's). */
export const CATALOG_KINDS: readonly string[] = catalogKinds().map((k) => k.type);
/** A catalog kind's type (its resource type's name). */
export type CatalogKind = string;

/** How a review names each kind in a heading or at the start of a line (`Price point`), by type. */
export const CATALOG_NOUN: Readonly<Record<CatalogKind, string>> = Object.fromEntries(catalogKinds().map((k) => [k.type, k.facet.title]));

// A dynamic resource's type (`pulumi-nodejs:dynamic/billing:<Type>`, also what its urn holds) or the plugin's
// (`billing:index:<Type>`).
const BILLING_TYPE = /^(?:pulumi-nodejs:dynamic\/billing|billing:index):([A-Za-z]+)$/;

/** The catalog kind of a type, if it is one. */
export function catalogKindOf(type: string): CatalogKind | undefined {
  const m = BILLING_TYPE.exec(type);
  return m?.[1] !== undefined && catalogKind(m[1]) !== undefined ? m[1] : undefined;
}

/** A catalog kind's declaration, by its type. */
const declared = (kind: CatalogKind): Declared => catalogKind(kind) as Declared;

/** One input that changes: its value before (absent on create) and after (absent on delete), as text. */
export interface FieldChange {
  readonly key: string;
  readonly from?: string;
  readonly to?: string;
}

/** What a step does to a catalog object. */
export type CatalogAction = "create" | "adopt" | "update" | "replace" | "archive" | "remove" | "delete" | "import" | "read" | (string & {});

/** One catalog object's step. */
export interface CatalogReview {
  readonly urn: string;
  /** The resource's name in the program. */
  readonly name: string;
  readonly kind: CatalogKind;
  /** The engine's op. */
  readonly op: string;
  /** What that op does at the service: create, adopt (an existing object is taken over), update, replace, archive, remove (from the stack only), delete (at the service, for a kind it deletes). */
  readonly action: CatalogAction;
  /** The object's handle as declared ("unknown until up" when it is). */
  readonly handle: string;
  readonly site?: string;
  /** A price point's product. */
  readonly product?: ProductRef;
  /** A component price point's component (the same shape: a handle, an id, or unknown). */
  readonly component?: ProductRef;
  /** An existing object this step adopts: from check()'s `preview.adopt`, or the provider's notice. */
  readonly adopted?: { readonly id: string; readonly handle: string };
  /** Inputs that change, field by field, formatted (amounts as money, intervals in words). */
  readonly changes: readonly FieldChange[];
  /** Whether the step changes pricing (what new subscriptions pay): a pricing field among `changes`, but on a plain create. */
  readonly pricingChanged: boolean;
  /** A replacement's steps at the service, in order. */
  readonly steps: readonly string[];
  /** What the step means at the service, in the service's terms. */
  readonly effects: readonly string[];
  readonly warnings: readonly string[];
  readonly violations: readonly PolicyViolation[];
}

export { PRICING_FIELDS };

/** A component's or its price point's pricing fields: listed, in this order, before the product pricing fields. */
const TIER_FIELDS = ["pricingScheme", "prices", "unitPrice", "overagePricing"] as const;
/** The fields whose change changes what subscriptions pay, as the kind declares them. */
const pricingOf = (kind: CatalogKind): ReadonlySet<string> => new Set(declared(kind).facet.pricing?.fields ?? []);
/** Cents fields, shown as money: a product's and a price point's amounts, a coupon's flat discount. */
const MONEY: ReadonlySet<string> = CENTS_FIELDS;

/** A length and its unit shown as one change: `interval` "per month" → "every 12 months". */
const PERIODS = [
  { key: "interval", unit: "intervalUnit", text: (n: unknown, u: unknown) => period(n, u) },
  { key: "trialInterval", unit: "trialIntervalUnit", text: (n: unknown, u: unknown) => length(n, u) },
  { key: "expirationInterval", unit: "expirationIntervalUnit", text: (n: unknown, u: unknown) => expiration(n, u) },
] as const;

/** Inputs that are bookkeeping, not a change at the service. */
const NOT_SHOWN = new Set(["preview", "__provider", "adopt"]);

/** The order inputs are listed in: identity and names first, then pricing as the service lists it, the rest by name. */
const FIRST = ["handle", "code", "name", "description", "productFamily", "product", "component", "kind", "default", ...TIER_FIELDS];

/** Cents as money: 4900 → "$49.00", 123456 → "$1,234.56" (the site's currency; the symbol is a reading aid). */
export function dollars(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(Math.trunc(cents));
  const whole = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${sign}$${whole}.${String(abs % 100).padStart(2, "0")}`;
}

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;
const isKnown = (v: unknown) => v !== ENGINE_UNKNOWN;

/** A billing period: "per month", "every 12 months", "every 30 days". */
function period(n: unknown, unit: unknown): string {
  if (!isKnown(n) || !isKnown(unit)) return UNKNOWN_TEXT;
  if (n === undefined && unit === undefined) return "not set";
  if (typeof n !== "number" || typeof unit !== "string") return `${valueText(n)} ${valueText(unit)}`;
  return n === 1 ? `per ${unit}` : `every ${plural(n, unit)}`;
}

/** A trial's length: "14 days", or "none". */
function length(n: unknown, unit: unknown): string {
  if (!isKnown(n) || !isKnown(unit)) return UNKNOWN_TEXT;
  if ((n === undefined || n === null) && (unit === undefined || unit === null)) return "none";
  if (typeof n !== "number" || typeof unit !== "string") return `${valueText(n)} ${valueText(unit)}`;
  return plural(n, unit);
}

/** When subscriptions expire: "after 12 months", or "never". */
function expiration(n: unknown, unit: unknown): string {
  if (!isKnown(n) || !isKnown(unit)) return UNKNOWN_TEXT;
  if (unit === "never" || ((n === undefined || n === null) && (unit === undefined || unit === null))) return "never";
  if (typeof n !== "number" || typeof unit !== "string") return `${valueText(n)} ${valueText(unit)}`;
  return `after ${plural(n, unit)}`;
}

/** One input's value as a review shows it: amounts as money, absent as "not set", unknowns named. */
/** Inputs that name another object: `handle:<h>` reads as its handle. */
const REFERENCES = new Set(["productFamily", "product", "component", "productPricePoint"]);
const referenceText = (v: unknown) => (typeof v === "string" && v.startsWith("handle:") ? v.slice("handle:".length) : valueText(v));

/** An offer's component as a reviewer reads it: "seats × 5 at seats-bulk" (no price point: the component's default). */
function offerItemText(item: unknown): string {
  const o = record(item);
  if (!o) return valueText(item);
  const at = o.pricePoint === undefined || o.pricePoint === null ? "" : ` at ${referenceText(o.pricePoint)}`;
  return `${referenceText(o.component)} × ${valueText(o.startingQuantity)}${at}`;
}

function fieldText(key: string, v: unknown): string {
  if (MONEY.has(key) && typeof v === "number") return dollars(v);
  if (v === null) return "not set";
  if (REFERENCES.has(key) && typeof v === "string" && v.startsWith("handle:")) return v.slice("handle:".length);
  if (key === "coupons" && Array.isArray(v)) return v.length === 0 ? "none" : v.map(referenceText).join(", ");
  if (key === "components" && Array.isArray(v)) return v.length === 0 ? "none" : v.map(offerItemText).join("; ");
  if (key === "prices" && Array.isArray(v)) return tiersText(v);
  if (key === "overagePricing" && record(v)) {
    const o = record(v) as Record<string, unknown>;
    return `${valueText(o.pricingScheme)}: ${Array.isArray(o.prices) ? tiersText(o.prices) : valueText(o.prices)}`;
  }
  return valueText(v);
}

/** Tiers as a reviewer reads them: "1–100 at 0.10; 101+ at 0.08" (unit prices in the site's currency, as declared). */
export function tiersText(tiers: readonly unknown[]): string {
  if (tiers.length === 0) return "none";
  return tiers
    .map((t) => {
      const o = record(t);
      if (!o) return valueText(t);
      const start = valueText(o.startingQuantity ?? 1);
      const range = o.endingQuantity === undefined || o.endingQuantity === null ? `${start}+` : `${start}–${valueText(o.endingQuantity)}`;
      return `${range} at ${valueText(o.unitPrice)}`;
    })
    .join("; ");
}

const record = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The keys in review order. */
function ordered(keys: Iterable<string>): string[] {
  const rank = (k: string) => {
    const first = FIRST.indexOf(k);
    if (first >= 0) return first;
    const pricing = PRICING_FIELDS.indexOf(k as (typeof PRICING_FIELDS)[number]);
    return pricing >= 0 ? FIRST.length + pricing : FIRST.length + PRICING_FIELDS.length;
  };
  return [...new Set(keys)].sort((a, b) => rank(a) - rank(b) || compare(a, b));
}

/**
 * The inputs that change between `before` (absent on create) and `after` (absent on delete), field
 * by field; a length and its unit as one change. On create, the declared values (`from` absent).
 */
export function fieldChanges(
  before: Record<string, unknown> | undefined,
  after: Record<string, unknown>,
  kind?: CatalogKind,
): FieldChange[] {
  // What a kind does not declare (the ids an in-place update's check() records, so that the engine previews them
  // as known: the service's, never declared, unchanged by the update) is no change at the service.
  const inputs = kind !== undefined ? new Set(declared(kind).inputs) : undefined;
  const keys = ordered(
    [...Object.keys(before ?? {}), ...Object.keys(after)].filter((k) => !NOT_SHOWN.has(k) && (inputs === undefined || inputs.has(k))),
  );
  const changes: FieldChange[] = [];
  const folded = new Set<string>(PERIODS.flatMap((p) => [p.key, p.unit]));
  for (const key of keys) {
    if (key === "pricingChangeAcknowledged") continue;
    const period = PERIODS.find((p) => p.key === key || p.unit === key);
    if (period) {
      // Listed once, at the first of the pair.
      if (key !== (keys.find((k) => k === period.key || k === period.unit) ?? key)) continue;
      const changed = !before || !same(before[period.key], after[period.key]) || !same(before[period.unit], after[period.unit]);
      if (!changed) continue;
      if (!before && after[period.key] === undefined && after[period.unit] === undefined) continue;
      const to = period.text(after[period.key], after[period.unit]);
      changes.push({ key: period.key, ...(before ? { from: period.text(before[period.key], before[period.unit]) } : {}), to });
      continue;
    }
    if (folded.has(key)) continue;
    if (key === CURRENCY_PRICES) {
      // A line per currency, in its money; one left out is kept by the service.
      if (after[key] === undefined) continue;
      for (const c of currencyPriceDiff(before?.[key], after[key]))
        changes.push({ key: `${key}.${c.currency}`, ...(before && { from: c.from ?? "none" }), to: c.to ?? KEPT });
      continue;
    }
    if (before && same(before[key], after[key])) continue;
    if (!before && (after[key] === undefined || key === "site")) continue;
    // Tiers whose ranges stay: a line per tier whose price changes (`prices.1–1000`), as currencies get theirs.
    const tiers = key === "prices" && before ? tierDiff(before[key], after[key]) : undefined;
    if (tiers !== undefined) {
      for (const t of tiers) changes.push({ key: `${key}.${t.range}`, from: valueText(t.from), to: valueText(t.to) });
      continue;
    }
    changes.push({ key, ...(before ? { from: fieldText(key, before[key]) } : {}), to: fieldText(key, after[key]) });
  }
  return changes;
}

/** The pricing a check() recorded as changing (`preview.pricingChange`): the values before, by field. */
function pricingFrom(preview: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  return record(record(preview?.pricingChange)?.from);
}

/** An adoption check() found (`preview.adopt: { id, handle }`). */
function adoptOf(preview: Record<string, unknown> | undefined): { id: string; handle: string } | undefined {
  const adopt = record(preview?.adopt);
  if (!adopt || (typeof adopt.id !== "number" && typeof adopt.id !== "string")) return undefined;
  return { id: String(adopt.id), handle: typeof adopt.handle === "string" ? adopt.handle : "" };
}

/** The provider's adoption notice (`adopted product \`pro\` (id 123) …`) for this kind and handle, if a diagnostic holds one. */
function adoptNotice(
  diagnostics: readonly PreviewDiagnostic[],
  kind: CatalogKind,
  handle: unknown,
  urn: string,
): { id: string; handle: string } | undefined {
  if (typeof handle !== "string") return undefined;
  const pattern = new RegExp(`\\badopted ${declared(kind).facet.noun} \`([^\`]+)\` \\(id (\\d+)\\)`);
  for (const d of diagnostics) {
    if (d.urn !== undefined && d.urn !== urn) continue;
    const m = pattern.exec(d.message);
    if (m && m[1] === handle) return { id: m[2], handle: m[1] };
  }
  return undefined;
}

/** A price point's product: its handle, its id (a number, or another resource's output), or not known until up. */
export type ProductRef = { readonly handle: string } | { readonly id: string } | { readonly unknown: true };

function productRef(v: unknown): ProductRef | undefined {
  if (v === undefined) return undefined;
  if (v === ENGINE_UNKNOWN) return { unknown: true };
  if (typeof v === "string" && v.startsWith("handle:")) return { handle: v.slice("handle:".length) };
  return { id: valueText(v) };
}

const refKey = (r: ProductRef | undefined) => (r === undefined ? "" : "handle" in r ? r.handle : "id" in r ? `#${r.id}` : "~");

/** Notes by urn, or (the provider's, which carry none) naming this object's handle as code. */
function warningsFor(step: PreviewStep, kind: CatalogKind, handle: unknown, notes: readonly Note[], used: Set<Note | PolicyViolation>) {
  const names =
    typeof handle === "string"
      ? new RegExp(`\\b(?:${kind}|${declared(kind).facet.noun})\\b[^\\n]*\`${handle.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\``)
      : undefined;
  const out: string[] = [];
  for (const n of notes) {
    if (n.severity !== "warning") continue;
    if (n.urn === step.urn || (n.urn === undefined && names?.test(n.message))) {
      out.push(n.message);
      used.add(n);
    }
  }
  return out;
}

/**
 * The catalog objects of a preview, one per step: by site (the top-level site
 * first), then families, products, price points, each by handle. Warnings and
 * policy violations that concern an object are added to `used`, so that the
 * summary's closing lists do not repeat them.
 */
export function catalogReviews(
  steps: readonly PreviewStep[],
  notes: readonly Note[],
  violations: readonly PolicyViolation[],
  diagnostics: readonly PreviewDiagnostic[],
  used: Set<Note | PolicyViolation>,
): CatalogReview[] {
  const out: CatalogReview[] = [];
  for (const step of steps) {
    const kind = catalogKindOf(typeOfStep(step));
    if (!kind) continue;
    const { facet } = declared(kind);
    const PRICING = pricingOf(kind);
    const deleting = step.op === "delete";
    const before = step.op === "create" ? undefined : step.oldState?.inputs;
    const after = deleting ? undefined : (step.newState?.inputs ?? {});
    const inputs = after ?? before ?? {};
    const preview = after ? record(after.preview) : undefined;
    // Its identity: a handle, or a coupon's code.
    const handle = inputs[facet.key];
    const adopted = step.op === "create" ? (adoptOf(preview) ?? adoptNotice(diagnostics, kind, handle, step.urn)) : undefined;

    let changes: FieldChange[] = [];
    if (after) {
      if (adopted) {
        // What converging the adopted object changes: the pricing check() found held differently, if any.
        const from = pricingFrom(preview);
        // A tier's or a currency's line is its field's (`prices.1–1000`, `currencyPrices.EUR`).
        changes = from ? fieldChanges({ ...after, ...from }, after, kind).filter((c) => PRICING.has(c.key.split(".")[0] ?? "")) : [];
      } else {
        // The pricing check() recorded, where it says what it was (the service's values), else the recorded inputs.
        const from = pricingFrom(preview);
        changes = fieldChanges(before && from ? { ...before, ...from } : before, after, kind);
      }
    }
    // On create the declared pricing is no change; adopting, converging the held pricing is one.
    // A currency's line is its field's (`currencyPrices.EUR`).
    const pricingChanged = (step.op !== "create" || adopted !== undefined) && changes.some((c) => PRICING.has(c.key.split(".")[0] ?? ""));
    const effects: string[] = [];
    let action: CatalogAction = step.op;
    if (step.op === "create") action = adopted ? "adopt" : "create";
    if (deleting) {
      action = facet.deletes ? "delete" : facet.removes ? "remove" : "archive";
      effects.push(...facet.deleted(before ?? {}));
    }
    if (adopted) {
      effects.push(`adopts the existing ${facet.noun} (id ${adopted.id}) instead of creating one, then converges it to the declaration`);
    }
    const pricing = facet.pricing;
    if (pricingChanged && pricing) {
      // What the service does with the change, as the kind says: in place, as a new default, or by a replacement.
      // Currency amounts alone: as the provider said at preview (a product's change them in place, not as a new default).
      const said = currencyOnlyEffect(
        changes.map((c) => c.key.split(".")[0] ?? "").filter((k) => PRICING.has(k)),
        preview?.pricingChange,
      );
      if (step.op === "update" && said !== undefined) effects.push(said);
      else if (step.op === "update" && pricing.onUpdate) effects.push(pricing.onUpdate);
      else if (adopted && pricing.onAdopt) effects.push(pricing.onAdopt);
      else if (step.op === "replace" && pricing.onReplace) effects.push(pricing.onReplace(inputs));
    }
    if (pricingChanged && after?.pricingChangeAcknowledged === true) {
      effects.push("pricing change acknowledged (pricingChangeAcknowledged: true)");
    }
    const mine = violations.filter((v) => v.urn === step.urn);
    for (const v of mine) used.add(v);
    const site = inputs.site;
    // An owned object's owner (a price point's product, a component price point's component), under its input's name.
    const owner = facet.owner ? { [facet.owner.input]: productRef(inputs[facet.owner.input]) } : {};
    out.push({
      urn: step.urn,
      name: urnParts(step.urn).name,
      kind,
      op: step.op,
      action,
      handle: valueText(handle),
      ...(site !== undefined ? { site: valueText(site) } : {}),
      ...owner,
      ...(adopted ? { adopted } : {}),
      changes,
      pricingChanged,
      steps: step.op === "replace" ? [...facet.replaced(inputs)] : [],
      effects,
      warnings: warningsFor(step, kind, handle, notes, used),
      violations: mine,
    });
  }
  const kindRank = (k: CatalogKind) => CATALOG_KINDS.indexOf(k);
  return out.sort(
    (a, b) =>
      compare(a.site ?? "", b.site ?? "") ||
      kindRank(a.kind) - kindRank(b.kind) ||
      compare(refKey(a.product ?? a.component), refKey(b.product ?? b.component)) ||
      compare(a.handle, b.handle) ||
      compare(a.urn, b.urn) ||
      compare(a.op, b.op),
  );
}
