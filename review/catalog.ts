import type { PolicyViolation, PreviewDiagnostic, PreviewStep } from "../fleet/report";
import { PRICING_FIELDS } from "../provider/kinds/pricing-fields";
import { ENGINE_UNKNOWN, UNKNOWN_TEXT, urnParts, valueText } from "./markdown";
import { compare, type Note, typeOfStep } from "./steps";

/**
 * The catalog's objects in a preview: product families, products and price
 * points, components and their price points, coupons, each as a reviewer
 * reads it. What the service does with each step is said in the service's
 * terms (a product's pricing change is a new default price point; a price
 * point's is a replacement in a fixed order; a component's prices change in
 * place on its default price point; nothing is ever deleted, only archived).
 */

/** The catalog kinds, in the order a review lists them. */
export const CATALOG_KINDS = ["ProductFamily", "Product", "ProductPricePoint", "Component", "ComponentPricePoint", "Coupon"] as const;
export type CatalogKind = (typeof CATALOG_KINDS)[number];

/** How a review names each kind in a sentence. */
export const CATALOG_NOUN: Readonly<Record<CatalogKind, string>> = {
  ProductFamily: "Product family",
  Product: "Product",
  ProductPricePoint: "Price point",
  Component: "Component",
  ComponentPricePoint: "Component price point",
  Coupon: "Coupon",
};

// A dynamic resource's type (`pulumi-nodejs:dynamic/billing:Product`, also what its urn holds) or the plugin's
// (`billing:index:Product`).
const CATALOG_TYPE =
  /^(?:pulumi-nodejs:dynamic\/billing|billing:index):(ProductFamily|Product|ProductPricePoint|Component|ComponentPricePoint|Coupon)$/;

/** The catalog kind of a type, if it is one. */
export function catalogKindOf(type: string): CatalogKind | undefined {
  const m = CATALOG_TYPE.exec(type);
  return m ? (m[1] as CatalogKind) : undefined;
}

/** One input that changes: its value before (absent on create) and after (absent on delete), as text. */
export interface FieldChange {
  readonly key: string;
  readonly from?: string;
  readonly to?: string;
}

/** What a step does to a catalog object. */
export type CatalogAction = "create" | "adopt" | "update" | "replace" | "archive" | "remove" | "import" | "read" | (string & {});

/** One catalog object's step. */
export interface CatalogReview {
  readonly urn: string;
  /** The resource's name in the program. */
  readonly name: string;
  readonly kind: CatalogKind;
  /** The engine's op. */
  readonly op: string;
  /** What that op does at the service: create, adopt (an existing object is taken over), update, replace, archive, remove (from the stack only). */
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

/** A component's or its price point's pricing: changed in place, so what subscriptions on it pay. */
const TIER_FIELDS = ["pricingScheme", "prices", "unitPrice", "overagePricing"] as const;
const PRICING: ReadonlySet<string> = new Set([...PRICING_FIELDS, ...TIER_FIELDS]);
const MONEY: ReadonlySet<string> = new Set(["priceInCents", "trialPriceInCents", "initialChargeInCents"]);

/** A length and its unit shown as one change: `interval` "per month" → "every 12 months". */
const PERIODS = [
  { key: "interval", unit: "intervalUnit", text: (n: unknown, u: unknown) => period(n, u) },
  { key: "trialInterval", unit: "trialIntervalUnit", text: (n: unknown, u: unknown) => length(n, u) },
  { key: "expirationInterval", unit: "expirationIntervalUnit", text: (n: unknown, u: unknown) => expiration(n, u) },
] as const;

/** Inputs that are bookkeeping, not a change at the service. */
const NOT_SHOWN = new Set([
  "preview",
  "__provider",
  "adopt",
  // The ids an in-place update's check() records (the kinds' `stable`), so that the engine previews them as known:
  // the service's, never declared, and unchanged by the update.
  "productId",
  "productFamilyId",
  "pricePointId",
  "componentId",
  "defaultPricePointId",
  "couponId",
]);

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
function fieldText(key: string, v: unknown): string {
  if (MONEY.has(key) && typeof v === "number") return dollars(v);
  if (v === null) return "not set";
  if ((key === "productFamily" || key === "product" || key === "component") && typeof v === "string" && v.startsWith("handle:"))
    return v.slice("handle:".length);
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
export function fieldChanges(before: Record<string, unknown> | undefined, after: Record<string, unknown>): FieldChange[] {
  const keys = ordered([...Object.keys(before ?? {}), ...Object.keys(after)].filter((k) => !NOT_SHOWN.has(k)));
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
    if (before && same(before[key], after[key])) continue;
    if (!before && (after[key] === undefined || key === "site")) continue;
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

const ADOPT_NOUN: Readonly<Record<CatalogKind, string>> = {
  ProductFamily: "product family",
  Product: "product",
  ProductPricePoint: "price point",
  Component: "component",
  ComponentPricePoint: "component price point",
  Coupon: "coupon",
};

/** The provider's adoption notice (`adopted product \`pro\` (id 123) …`) for this kind and handle, if a diagnostic holds one. */
function adoptNotice(
  diagnostics: readonly PreviewDiagnostic[],
  kind: CatalogKind,
  handle: unknown,
  urn: string,
): { id: string; handle: string } | undefined {
  if (typeof handle !== "string") return undefined;
  const pattern = new RegExp(`\\badopted ${ADOPT_NOUN[kind]} \`([^\`]+)\` \\(id (\\d+)\\)`);
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

/** A replacement's steps at the service, in the order the provider takes them. */
function replacementSteps(kind: CatalogKind, inputs: Record<string, unknown>): string[] {
  if (kind === "ProductPricePoint") {
    const isDefault = inputs.default;
    const promote =
      isDefault === true
        ? ["promote it to the product's default"]
        : isDefault === ENGINE_UNKNOWN
          ? ["promote it to the product's default (if default: not known until up)"]
          : [];
    return [
      "rename the old price point's handle (which frees it)",
      "create the new one",
      ...promote,
      "archive the old one (subscriptions on it keep it)",
    ];
  }
  if (kind === "Product")
    return ["create the new product (or adopt one with its handle)", "archive the old one (subscriptions on it keep it)"];
  if (kind === "Component" || kind === "ComponentPricePoint") {
    const noun = kind === "Component" ? "component" : "price point";
    const promote = kind === "ComponentPricePoint" && inputs.default === true ? ["promote it to the component's default"] : [];
    return [
      `rename the old ${noun}'s handle (which frees it)`,
      "create the new one",
      ...promote,
      "archive the old one (subscriptions on it keep it)",
    ];
  }
  if (kind === "Coupon") return ["create the new coupon (or adopt one with its code)", "archive the old one"];
  return [
    "create the new family (or adopt one with its handle)",
    "the old one leaves the stack and stays at the service (a family has no delete)",
  ];
}

/** What deleting a catalog object does at the service. */
function deleteEffect(kind: CatalogKind, before: Record<string, unknown>): string[] {
  if (kind === "ProductFamily") return ["leaves the stack; the service keeps the family (it has no delete)"];
  if (kind === "Product") return ["archived: new signups can no longer choose it; its subscriptions keep it; its handle stays taken"];
  if (kind === "Component")
    return ["archived: it can no longer be added to subscriptions; subscriptions that have it keep it; its handle stays taken"];
  if (kind === "Coupon") return ["archived: it can no longer be applied; subscriptions that have it keep their discount"];
  const effects = ["archived: its subscriptions keep it; its handle stays taken"];
  const parent = kind === "ComponentPricePoint" ? "component" : "product";
  if (before.default === true) {
    effects.push(
      `it is declared the ${parent}'s default, which the service cannot archive: promote another price point first, or archive its ${parent} in the same update`,
    );
  }
  return effects;
}

/** Notes by urn, or (the provider's, which carry none) naming this object's handle as code. */
function warningsFor(step: PreviewStep, kind: CatalogKind, handle: unknown, notes: readonly Note[], used: Set<Note | PolicyViolation>) {
  const names =
    typeof handle === "string"
      ? new RegExp(`\\b${CATALOG_KIND_WORDS[kind]}\\b[^\\n]*\`${handle.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\``)
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
const CATALOG_KIND_WORDS: Readonly<Record<CatalogKind, string>> = {
  ProductFamily: "(?:ProductFamily|product family)",
  Product: "(?:Product|product)",
  ProductPricePoint: "(?:ProductPricePoint|price point)",
  Component: "(?:Component|component)",
  ComponentPricePoint: "(?:ComponentPricePoint|price point)",
  Coupon: "(?:Coupon|coupon)",
};

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
    const deleting = step.op === "delete";
    const before = step.op === "create" ? undefined : step.oldState?.inputs;
    const after = deleting ? undefined : (step.newState?.inputs ?? {});
    const inputs = after ?? before ?? {};
    const preview = after ? record(after.preview) : undefined;
    // A coupon's identity is its code; every other catalog object's, its handle.
    const handle = kind === "Coupon" ? inputs.code : inputs.handle;
    const adopted = step.op === "create" ? (adoptOf(preview) ?? adoptNotice(diagnostics, kind, handle, step.urn)) : undefined;

    let changes: FieldChange[] = [];
    if (after) {
      if (adopted) {
        // What converging the adopted object changes: the pricing check() found held differently, if any.
        const from = pricingFrom(preview);
        changes = from ? fieldChanges({ ...after, ...from }, after).filter((c) => PRICING.has(c.key)) : [];
      } else {
        // The pricing check() recorded, where it says what it was (the service's values), else the recorded inputs.
        const from = pricingFrom(preview);
        changes = fieldChanges(before && from ? { ...before, ...from } : before, after);
      }
    }
    // On create the declared pricing is no change; adopting, converging the held pricing is one.
    const pricingChanged = (step.op !== "create" || adopted !== undefined) && changes.some((c) => PRICING.has(c.key));
    const effects: string[] = [];
    let action: CatalogAction = step.op;
    if (step.op === "create") action = adopted ? "adopt" : "create";
    if (deleting) {
      action = kind === "ProductFamily" ? "remove" : "archive";
      effects.push(...deleteEffect(kind, before ?? {}));
    }
    if (adopted) {
      effects.push(
        `adopts the existing ${ADOPT_NOUN[kind]} (id ${adopted.id}) instead of creating one, then converges it to the declaration`,
      );
    }
    if (kind === "Product" && pricingChanged && (step.op === "update" || adopted)) {
      effects.push("a new default price point; existing subscriptions keep theirs");
    }
    if (step.op === "update" && pricingChanged && (kind === "Component" || kind === "ComponentPricePoint")) {
      effects.push(
        kind === "Component"
          ? "its default price point's prices change in place: subscriptions on that price point pay the new prices from their next charge"
          : "the price point's prices change in place: subscriptions on it pay the new prices from their next charge",
      );
    }
    if (step.op === "replace" && kind === "ProductPricePoint" && pricingChanged) {
      effects.push(
        inputs.default === true
          ? "new signups get the new pricing (the new price point is the default); subscriptions on the old one keep theirs"
          : "subscriptions on the old price point keep theirs",
      );
    }
    if (pricingChanged && after?.pricingChangeAcknowledged === true) {
      effects.push("pricing change acknowledged (pricingChangeAcknowledged: true)");
    }
    const mine = violations.filter((v) => v.urn === step.urn);
    for (const v of mine) used.add(v);
    const site = inputs.site;
    const product = kind === "ProductPricePoint" ? productRef(inputs.product) : undefined;
    const component = kind === "ComponentPricePoint" ? productRef(inputs.component) : undefined;
    out.push({
      urn: step.urn,
      name: urnParts(step.urn).name,
      kind,
      op: step.op,
      action,
      handle: valueText(handle),
      ...(site !== undefined ? { site: valueText(site) } : {}),
      ...(product !== undefined ? { product } : {}),
      ...(component !== undefined ? { component } : {}),
      ...(adopted ? { adopted } : {}),
      changes,
      pricingChanged,
      steps: step.op === "replace" ? replacementSteps(kind, inputs) : [],
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
