/**
 * A pricing change in money, field by field: the preview's notices, the review's pricing section and the policy
 * pack's production pricing rule say the same thing of it (a tier's unit price old → new, a coupon's amount or
 * percentage). A module of its own, importing nothing, so that the review and the policy pack read it without
 * loading the provider's modules (as pricing-fields.ts and currency-text.ts).
 */

import { CURRENCY_PRICES, currencyPriceChanges } from "./currency-text";

/** Fields holding cents: a product's and a price point's amounts, a coupon's flat discount. */
export const CENTS_FIELDS: ReadonlySet<string> = new Set(["priceInCents", "trialPriceInCents", "initialChargeInCents", "amountInCents"]);

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Cents as money: 4900 → "$49.00", -100 → "-$1.00" (the currency is the site's; the symbol is only a reading
 * aid). Anything else, NaN and Infinity included, as its text: "$NaN" would read as an amount.
 */
export function centsText(cents: unknown): string {
  if (typeof cents !== "number" || !Number.isFinite(cents)) return String(cents);
  const amount = (Math.abs(cents) / 100).toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  // A fraction of a cent below zero rounds to "0.00": no sign in front of nothing.
  return `${cents < 0 && amount !== "0.00" ? "-" : ""}$${amount}`;
}

/** A tier's unit price as money: "0.05" → "$0.05", "0.0125" keeps its decimals; a value not a number as its text. */
export function unitPriceText(v: unknown): string {
  const n = typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : Number.NaN;
  if (!Number.isFinite(n)) return String(v);
  const digits = Number(n.toFixed(2)) === n ? n.toFixed(2) : String(n);
  return `${n < 0 ? "-" : ""}$${digits.replace(/^-/, "")}`;
}

/** A tier's quantities: "1–1000", "1001+". */
function rangeText(t: Record<string, unknown>): string {
  const start = String(t.startingQuantity ?? 1);
  return t.endingQuantity === undefined || t.endingQuantity === null ? `${start}+` : `${start}–${String(t.endingQuantity)}`;
}

/** Tiers as a reviewer reads them: "1–1000 at $0.05; 1001+ at $0.03". */
export function tiersText(tiers: unknown): string {
  if (!Array.isArray(tiers)) return tiers === undefined || tiers === null ? "none" : String(tiers);
  if (tiers.length === 0) return "none";
  return tiers.map((t) => (isMap(t) ? `${rangeText(t)} at ${unitPriceText(t.unitPrice)}` : String(t))).join("; ");
}

/** One tier whose price changes: its range ("1–1000") and its unit price before and after. */
export interface TierChange {
  readonly range: string;
  readonly from: unknown;
  readonly to: unknown;
}

/**
 * The tiers whose unit price changes, when the ranges stay (same count, same quantities); undefined when a tier is
 * added, removed or moved (then only the whole lists say the change). Prices compare as numbers: "5" is 5.00.
 */
export function tierDiff(from: unknown, to: unknown): TierChange[] | undefined {
  const before = Array.isArray(from) ? from : [];
  const after = Array.isArray(to) ? to : [];
  const ranges = (tiers: readonly unknown[]) => tiers.map((t) => (isMap(t) ? rangeText(t) : undefined));
  const [was, now] = [ranges(before), ranges(after)];
  if (was.length !== now.length || was.some((r, i) => r === undefined || r !== now[i])) return undefined;
  const out: TierChange[] = [];
  for (const [i, range] of was.entries()) {
    const [a, b] = [(before[i] as Record<string, unknown>).unitPrice, (after[i] as Record<string, unknown>).unitPrice];
    const same = Number.isNaN(Number(a)) || Number.isNaN(Number(b)) ? a === b : Number(a) === Number(b);
    if (!same) out.push({ range: range as string, from: a, to: b });
  }
  return out;
}

/**
 * What changes between two tier lists, tier by tier: "1–1000 $0.05 → $0.04" for each tier whose range stays and
 * whose price changes. Tiers whose ranges change (one added, removed or moved) are said as the whole lists.
 */
export function tierChanges(from: unknown, to: unknown): string[] {
  const tiers = tierDiff(from, to);
  if (tiers === undefined) return [`${tiersText(from)} → ${tiersText(to)}`];
  return tiers.map((t) => `${t.range} ${unitPriceText(t.from)} → ${unitPriceText(t.to)}`);
}

/** A pricing field's value in a message: money for cents and unit prices, a percentage with its sign, absent as "none". */
export function pricingValueText(field: string, v: unknown): string {
  if (v === undefined || v === null) return "none";
  if (CENTS_FIELDS.has(field)) return centsText(v);
  if (field === "unitPrice") return unitPriceText(v);
  if (field === "percentage") return `${String(v)}%`;
  if (field === "prices") return tiersText(v);
  if (field === "overagePricing" && isMap(v)) return `${String(v.pricingScheme)}: ${tiersText(v.prices)}`;
  return typeof v === "string" ? v : JSON.stringify(v);
}

/**
 * One field's change as a message says it: "priceInCents $49.00 → $59.00", "percentage 10% → 15%", and for tiers
 * each changed tier: "prices 1–1000 $0.05 → $0.04". Currency prices are currency-text.ts's.
 */
export function pricingFieldChange(field: string, from: unknown, to: unknown): string {
  if (field === "prices") return `prices ${tierChanges(from, to).join(", ")}`;
  if (field === "overagePricing" && isMap(from) && isMap(to) && from.pricingScheme === to.pricingScheme)
    return `overagePricing ${tierChanges(from.prices, to.prices).join(", ")}`;
  return `${field} ${pricingValueText(field, from)} → ${pricingValueText(field, to)}`;
}

/**
 * A preview's `pricingChange` (`{ fields, from, to }`) in money, each changed field old → new, currency prices
 * currency by currency: "prices 1–1000 $0.05 → $0.04, currencyPrices EUR tier 1 EUR 0.80 → tier 1 EUR 0.70".
 */
export function pricingChangeText(change: unknown): string {
  if (!isMap(change)) return "";
  const from = isMap(change.from) ? change.from : {};
  const to = isMap(change.to) ? change.to : {};
  const fields = Array.isArray(change.fields) ? change.fields.filter((f): f is string => typeof f === "string") : Object.keys(to);
  return fields
    .map((f) =>
      f === CURRENCY_PRICES
        ? `${CURRENCY_PRICES} ${currencyPriceChanges(from[f], to[f]).join("; ")}`
        : pricingFieldChange(f, from[f], to[f]),
    )
    .join(", ");
}

/** The preview's notice of a pricing change: "Component price point `sms-volume`: pricing change (prices 1–1000 $0.05 → $0.04): changed in place: …". */
export const pricingNotice = (title: string, key: unknown, change: { readonly effect?: string }) =>
  `${title} \`${String(key)}\`: pricing change (${pricingChangeText(change)})${change.effect ? `: ${change.effect.replace(/\.$/, "")}` : ""}.`;

/**
 * The changes a check announced for an object already declared (an update, or the old side of a replacement), in
 * this process. A replacement's new object is checked again as a first deploy, which finds the object it replaces
 * by its key as an adoption would: the same change in the same money is said once, not a second time as an
 * adoption's.
 */
const announced = new Set<string>();
const announcedKey = (title: string, key: unknown, change: unknown) => `${title}\u0000${String(key)}\u0000${pricingChangeText(change)}`;

/** The notice of a declared object's pricing change (an update's), remembered so that its replacement's check does not repeat it. */
export function updatePricingNotice(title: string, key: unknown, change: { readonly effect?: string }): string {
  announced.add(announcedKey(title, key, change));
  return pricingNotice(title, key, change);
}

/** Remembers a change an update announced in its own words (a Product's), as {@link updatePricingNotice} does. */
export function rememberPricingNotice(title: string, key: unknown, change: unknown): void {
  announced.add(announcedKey(title, key, change));
}

/** The notice of an adoption's pricing change; undefined when it is a replacement's check of a change just announced. */
export function adoptionPricingNotice(title: string, key: unknown, change: { readonly effect?: string }): string | undefined {
  return announced.delete(announcedKey(title, key, change)) ? undefined : pricingNotice(title, key, change);
}
