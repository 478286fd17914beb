import type { PolicyViolation, PreviewStep } from "../fleet/report";
import { ENGINE_UNKNOWN, money, UNKNOWN_TEXT, urnParts, valueText } from "./markdown";
import { compare, type Note, TYPES, typeOfStep } from "./steps";

/** A product or price point as named: by handle, by id, or not known until `up`. */
export type Ref = { readonly handle: string } | { readonly id: string } | { readonly unknown: true };

/** Where a subscription is, or is going: a product and, when known, a price point. */
export interface Placement {
  readonly product: Ref;
  /** "default": the product's default price point (none was named). */
  readonly pricePoint?: Ref | "default";
}

/** One SubscriptionMigration step, as a reviewer reads it. Amounts are text: "12.34", "not previewed", "unknown until up", "n/a". */
export interface MigrationReview {
  readonly urn: string;
  readonly name: string;
  readonly op: string;
  readonly subscription: string;
  /** The subscription's state as the service reported it at preview. */
  readonly state?: string;
  readonly site?: string;
  /** The subscription's product now: from the service at preview, else as recorded in state (`recorded`). */
  readonly from?: Placement & { readonly recorded?: boolean };
  readonly to?: Placement;
  readonly charge: string;
  readonly proratedAdjustment: string;
  readonly creditApplied: string;
  readonly paymentDue: string;
  /** The options a program set, e.g. "preservePeriod: true"; empty when all are the service's defaults. */
  readonly options: readonly string[];
  readonly warnings: readonly string[];
  readonly violations: readonly PolicyViolation[];
}

/** The options a migration sends, in the order the resource declares them, with the service's defaults. */
export const OPTION_DEFAULTS = [
  ["includeTrial", false],
  ["includeInitialCharge", false],
  ["includeCoupons", true],
  ["preservePeriod", false],
] as const;

const MONEY = ["chargeInCents", "proratedAdjustmentInCents", "creditAppliedInCents", "paymentDueInCents"] as const;

const record = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

function refOf(handle: unknown, id: unknown): Ref | undefined {
  if (handle === ENGINE_UNKNOWN || id === ENGINE_UNKNOWN) return { unknown: true };
  if (typeof handle === "string" && handle !== "") return { handle };
  if (typeof id === "number" || (typeof id === "string" && id !== "")) return { id: String(id) };
  return undefined;
}

function placementOf(from: Record<string, unknown> | undefined): Placement | undefined {
  if (!from) return undefined;
  const product = refOf(from.productHandle, from.productId);
  if (!product) return undefined;
  const pricePoint = refOf(undefined, from.pricePointId);
  return { product, ...(pricePoint ? { pricePoint } : {}) };
}

/**
 * The previewed amount, or why there is none: a migration that sends nothing (delete, update) charges nothing;
 * one whose target waits on another resource's output (`targetUnknown`) is previewed once that is known.
 */
function amount(preview: Record<string, unknown> | undefined, key: (typeof MONEY)[number], sends: boolean, targetUnknown: boolean): string {
  if (!sends) return "n/a";
  const v = preview?.[key];
  if (typeof v === "number" && Number.isFinite(v)) return money(v);
  return targetUnknown ? UNKNOWN_TEXT : "not previewed";
}

/** Whether an input the service's migration preview needs (all but maxChargeInCents and site) is not known until up. */
const unknownTarget = (inputs: Record<string, unknown>) =>
  Object.entries(inputs).some(
    ([k, v]) => k !== "maxChargeInCents" && k !== "preview" && JSON.stringify(v ?? null).includes(ENGINE_UNKNOWN),
  );

/** Warnings meant for this migration: by urn, or (a provider's, which carry none) naming its subscription. */
function warningsFor(step: PreviewStep, subscription: unknown, notes: readonly Note[], used: Set<Note | PolicyViolation>): string[] {
  const names = typeof subscription === "number" ? new RegExp(`\\bsubscription ${subscription}\\b`) : undefined;
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
 * The SubscriptionMigration steps of a preview, sorted by subscription id, with
 * the warnings and policy violations that concern each. Those are added to
 * `used`, so the summary's closing lists do not repeat them.
 */
export function migrationReviews(
  steps: readonly PreviewStep[],
  notes: readonly Note[],
  violations: readonly PolicyViolation[],
  used: Set<Note | PolicyViolation>,
): MigrationReview[] {
  const out: (MigrationReview & { sortId: number })[] = [];
  for (const step of steps) {
    if (typeOfStep(step) !== TYPES.migration) continue;
    const deleting = step.op === "delete";
    const inputs = (deleting ? step.oldState?.inputs : step.newState?.inputs) ?? {};
    const preview = deleting ? undefined : record(inputs.preview);
    // Only a create or a replace sends a migration; an update (maxChargeInCents alone) rewrites the record.
    const sends = step.op === "create" || step.op === "replace";
    const previewed = placementOf(preview);
    const recorded = placementOf(record(step.oldState?.outputs));
    const to = refOf(inputs.productHandle, inputs.productId);
    const pricePoint = refOf(inputs.pricePointHandle, inputs.pricePointId);
    const options = OPTION_DEFAULTS.filter(([k]) => inputs[k] !== undefined).map(([k]) => `${k}: ${valueText(inputs[k])}`);
    const max = inputs.maxChargeInCents;
    if (max !== undefined) options.push(`maxChargeInCents: ${typeof max === "number" ? money(max) : valueText(max)}`);
    const mine = violations.filter((v) => v.urn === step.urn);
    for (const v of mine) used.add(v);
    const state = preview?.subscriptionState;
    const targetUnknown = unknownTarget(inputs);
    out.push({
      urn: step.urn,
      name: urnParts(step.urn).name,
      op: step.op,
      subscription: valueText(inputs.subscriptionId),
      ...(typeof state === "string" ? { state } : {}),
      ...(typeof inputs.site === "string" ? { site: valueText(inputs.site) } : {}),
      ...(previewed ? { from: previewed } : recorded ? { from: { ...recorded, recorded: true } } : {}),
      ...(to ? { to: { product: to, pricePoint: pricePoint ?? "default" } } : {}),
      charge: amount(preview, "chargeInCents", sends, targetUnknown),
      proratedAdjustment: amount(preview, "proratedAdjustmentInCents", sends, targetUnknown),
      creditApplied: amount(preview, "creditAppliedInCents", sends, targetUnknown),
      paymentDue: amount(preview, "paymentDueInCents", sends, targetUnknown),
      options,
      warnings: warningsFor(step, inputs.subscriptionId, notes, used),
      violations: mine,
      sortId: typeof inputs.subscriptionId === "number" ? inputs.subscriptionId : Number.MAX_SAFE_INTEGER,
    });
  }
  return out.sort((a, b) => a.sortId - b.sortId || compare(a.urn, b.urn) || compare(a.op, b.op)).map(({ sortId: _, ...m }) => m);
}
