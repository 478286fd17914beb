import { z } from "zod";
import { catalogHandle, pricingShape, pricingRule as sdkPricingRule } from "../../sdk/catalog/inputs";
import { flag, valueText } from "../../sdk/inputs";
import type { Pricing } from "../../sdk/results";
import { isUnknown } from "../engine";
import { accepting } from "./inputs";
import { unless404 } from "./lifecycle";
import { PRICING_FIELDS, type PricingField } from "./pricing-fields";
import { centsText } from "./pricing-text";

/**
 * What the catalog kinds share: handles, the reference input (a family's and a
 * product's lookups are their modules'), the pricing fields (one list, read by the product kinds, the
 * review and the policy pack), adoption, and money in messages.
 */

export { PRICING_FIELDS, type PricingField } from "./pricing-fields";

const p = pricingShape;
const described = {
  priceInCents: "The price per interval, in cents (an integer ≥ 0).",
  interval: "The billing interval's length (an integer ≥ 1), in `intervalUnit`s.",
  intervalUnit: '"month" or "day".',
  trialPriceInCents: "The trial's price in cents; required with a trial (`trialInterval`).",
  trialInterval: "The trial's length, in `trialIntervalUnit`s; omit for no trial.",
  trialIntervalUnit: '"month" or "day"; required with `trialInterval`.',
  trialType: '"no_obligation" or "payment_expected".',
  initialChargeInCents: "A one-time charge at signup, in cents.",
  initialChargeAfterTrial: "Charge the initial charge when the trial ends rather than at signup.",
  expirationInterval: "Subscriptions expire after this many `expirationIntervalUnit`s; omit for never.",
  expirationIntervalUnit: '"month", "day" or "never"; required with `expirationInterval`.',
} satisfies Record<PricingField, string>;

/** The pricing inputs, each with its docs; the SDK's schemas check them (and its rules across fields, `pricingRule`). */
export const pricingFields = Object.fromEntries(PRICING_FIELDS.map((k) => [k, p[k].describe(described[k])])) as {
  [K in PricingField]: (typeof p)[K];
};

/** The SDK's rules across pricing fields (an interval needs its unit, a trial its price), for a kind's `superRefine`. */
export const pricingRule = [sdkPricingRule, { when: () => true }] as const;

export const handleField = (what: string) =>
  accepting<string>({ type: "string", pattern: "^[a-z0-9][a-z0-9.:_-]*$", maxLength: 255 })(catalogHandle).describe(
    `The ${what}'s handle: its identity across sites (ids differ per site). Lowercase letters, numbers, '.', ':', '-', '_', starting with a letter or number. Handles are unique within a site and stay taken after an archive.`,
  );

/**
 * A catalog object's name: 1 to 255 characters, not only spaces (the service refuses such a name as blank; refused at
 * preview here, as the SDK would before sending). The published schema stays the length bounds.
 */
export const nameField = (description: string) =>
  z
    .string()
    .min(1)
    .max(255)
    .regex(/^$|\S/, "must not be only spaces (a name of 1 to 255 characters)")
    // The published schema (as `accepting` sets it, keeping the field a ZodString in the exported types).
    .meta({ type: "string", minLength: 1, maxLength: 255 })
    .describe(description);

export const adoptField = flag
  .optional()
  .describe(
    "Default true: a create first looks for an existing object with this handle and adopts it (then converges it to the declaration). false: an existing handle is a preview error.",
  );

/** A reference to a family or a product: its id (e.g. another resource's output), or `handle:<handle>`. */
export const referenceField = (what: string) =>
  accepting<number | string>({
    anyOf: [
      { type: "integer", minimum: 1 },
      { type: "string", pattern: "^handle:" },
    ],
  })(
    z.unknown().transform((v, ctx): number | string => {
      if (typeof v === "number" && Number.isSafeInteger(v) && v > 0) return v;
      if (typeof v === "string" && /^[1-9][0-9]{0,15}$/.test(v)) return Number(v);
      if (typeof v === "string" && v.startsWith("handle:") && catalogHandle.safeParse(v.slice(7)).success) return v;
      ctx.addIssue({
        code: "custom",
        message: `must be the ${what}'s id (a positive integer, e.g. another resource's output) or "handle:<handle>", got ${valueText(v)}`,
      });
      return z.NEVER;
    }),
  );

/**
 * A handle none of `taken` is, for an object being replaced: its own handle with `-replaced-<id>` (and a
 * count, if even that is taken), cut to the service's 255 characters. Renaming the old object to it frees
 * the handle for its replacement, since handles stay taken while the object exists, archived or not.
 */
export function freedHandle(handle: string, id: number, taken: ReadonlySet<string>): string {
  for (let n = 0; ; n++) {
    const suffix = `-replaced-${id}${n === 0 ? "" : `-${n}`}`;
    const candidate = `${handle.slice(0, 255 - suffix.length)}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** The order of references in a set: ids ascending, then handles ascending (what is not one sorts last). */
export const referenceOrder = (a: unknown, b: unknown): number => {
  const rank = (v: unknown) => (typeof v === "number" ? 0 : typeof v === "string" ? 1 : 2);
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  return (a as number | string) < (b as number | string) ? -1 : (a as number | string) > (b as number | string) ? 1 : 0;
};

/** The handle a `handle:x` reference names, or undefined for an id. */
export const referencedHandle = (ref: number | string): string | undefined =>
  typeof ref === "string" ? ref.slice("handle:".length) : undefined;

/** Whether a reference names this object (by id or by handle). */
export const refersTo = (ref: unknown, id: number | undefined, handle: string | undefined): boolean =>
  (typeof ref === "number" && ref === id) || (typeof ref === "string" && handle !== undefined && ref === `handle:${handle}`);

/** The service's pricing as a kind's outputs (null where it holds none). */
export const pricingOutputs = (pr: Pricing | undefined): Record<PricingField, number | string | boolean | null> =>
  Object.fromEntries(PRICING_FIELDS.map((k) => [k, pr?.[k] ?? null])) as Record<PricingField, number | string | boolean | null>;

/** The pricing the service holds, as the inputs that declare it: what it holds none of left out. */
export const pricingInputs = (pr: Pricing | undefined): Partial<Record<PricingField, unknown>> =>
  Object.fromEntries(PRICING_FIELDS.filter((k) => pr?.[k] !== undefined && pr?.[k] !== null).map((k) => [k, pr?.[k]]));

/** The pricing outputs' zod shape. */
export const pricingOutputShape = {
  priceInCents: z.number().int().nullable().describe("The price in cents, as the service holds it."),
  interval: z.number().int().nullable().describe("The interval's length, as the service holds it."),
  intervalUnit: z.string().nullable().describe("The interval's unit, as the service holds it."),
  trialPriceInCents: z.number().int().nullable().describe("The trial's price in cents (null: no trial)."),
  trialInterval: z.number().int().nullable().describe("The trial's length (null: no trial)."),
  trialIntervalUnit: z.string().nullable().describe("The trial's unit."),
  trialType: z.string().nullable().describe("The trial's type."),
  initialChargeInCents: z.number().int().nullable().describe("The initial charge in cents (null: none)."),
  initialChargeAfterTrial: z.boolean().nullable().describe("Whether the initial charge waits for the trial's end."),
  expirationInterval: z.number().int().nullable().describe("The expiration's length (null: never)."),
  expirationIntervalUnit: z.string().nullable().describe("The expiration's unit."),
};

/**
 * The declared pricing fields whose value differs from `held` (the service's view or
 * earlier inputs). Only declared fields are compared: what a declaration leaves out is
 * the service's choice, never drift.
 */
export function pricingChanges(
  declared: Partial<Record<PricingField, unknown>>,
  held: Partial<Record<PricingField, unknown>>,
): PricingField[] {
  return PRICING_FIELDS.filter((k) => {
    const want = declared[k];
    if (want === undefined || isUnknown(want)) return false;
    return want !== (held[k] ?? undefined);
  });
}

/**
 * The `preview.pricingChange` annotation (the review and the policy pack read it): the declared pricing fields
 * that differ from `from` (earlier inputs, or the service's pricing when adopting), both sides, and what the
 * service will do; undefined when nothing differs.
 */
export function pricingChangeOf(
  to: Partial<Record<PricingField, unknown>>,
  from: Partial<Record<PricingField, unknown>>,
  effect: string,
): { fields: PricingField[]; from: Record<string, unknown>; to: Record<string, unknown>; effect: string } | undefined {
  const fields = pricingChanges(to, from);
  if (fields.length === 0) return undefined;
  const pick = (v: Partial<Record<PricingField, unknown>>) => Object.fromEntries(fields.map((k) => [k, v[k] ?? null]));
  return { fields, from: pick(from), to: pick(to), effect };
}

/** The subset of `v` that is pricing, for the SDK's calls. */
export function pricingOf(v: Partial<Record<PricingField, unknown>>): Record<string, unknown> {
  return Object.fromEntries(PRICING_FIELDS.filter((k) => v[k] !== undefined).map((k) => [k, v[k]]));
}

/** Cents as money: 4900 → "$49.00" (pricing-text.ts's, which the review and the policy pack share). */
export const money = centsText;

/** A pricing field's value for a message: money for cents, else the value. */
export const pricingText = (k: PricingField, v: unknown): string =>
  v === undefined || v === null ? "(none)" : k.endsWith("InCents") ? money(v) : String(v);

/** The changed pricing fields as `field: old → new`, for notices and the preview annotation. */
export const describeChanges = (
  fields: readonly PricingField[],
  from: Partial<Record<PricingField, unknown>>,
  to: Partial<Record<PricingField, unknown>>,
) => fields.map((k) => `${k} ${pricingText(k, from[k])} → ${pricingText(k, to[k])}`).join(", ");

/** A 404, the service's "not there"; the object, or undefined on a 404 (the lifecycle's, one definition). */
export { isNotFound } from "./lifecycle";
export const findByHandle = unless404;
