import { z } from "zod";
import type { CompoundingStrategy, CreditType, PricingScheme } from "./records";
import type { Problems } from "./wire-catalog";
import { absent, blank, bool, handle, requiredText, SEP, text } from "./wire-fields";

/**
 * The simulator's own reading of the component and coupon request bodies of
 * the published contract (`Create Metered Component` and its four siblings,
 * `Update Component`, `Create Component Price Point` / `… Prepaid Usage
 * Component Price Point`, `Update Component Price Point`, `Create or Update
 * Coupon`), and the vendor's wording of what it refuses, taken from the
 * published 422 examples where there is one:
 *
 * - createMeteredComponent: "Name: cannot be blank.", "Unit name: cannot be blank.",
 *   "At least 1 price bracket must be defined", "Pricing scheme: cannot be blank.",
 *   "Pricing scheme: is not one of the allowed values." (in that order);
 * - createPrepaidUsageComponent: "Handle must be unique within a Site.", "Name: must be unique - that value has been
 *   taken." (in that order);
 * - updateComponentPricePoint: "Successive brackets may not have gaps in quantity (…)",
 *   "There cannot be any overlapping bracket ranges", "Ending quantity: must be greater than
 *   the low end bracket quantity, if given" (under `prices.ending_quantity`),
 *   "all prices must belong to the price point" (under `base`), "Handle: This handle is
 *   already in use.";
 * - archiveComponent: "Component cannot be archived. Please make sure it hasn't already been archived.";
 * - archiveComponentPricePoint: "Price point is already archived.";
 * - createCoupon: "Expiration Date cannot be in the past".
 *
 * Where no example exists the text is the simulator's, in the same "Label: what." form.
 */

export const COMPONENT_KINDS = ["metered", "quantity_based", "on_off", "prepaid_usage", "event_based"] as const;
export const PRICING_SCHEMES = ["stairstep", "volume", "per_unit", "tiered"] as const;
export const CREDIT_TYPES = ["full", "prorated", "none"] as const;
export const ITEM_CATEGORIES = ["Business Software", "Consumer Software", "Digital Services", "Physical Goods", "Other"] as const;
export const COMPOUNDING_STRATEGIES = ["compound", "full-price"] as const;

export const NO_BRACKETS = "At least 1 price bracket must be defined";
export const BRACKET_GAP =
  "Successive brackets may not have gaps in quantity (i.e. if one bracket ends at quantity 10, the next must begin at quantity 11)";
export const BRACKET_OVERLAP = "There cannot be any overlapping bracket ranges";
export const ENDING_QUANTITY = "Ending quantity: must be greater than the low end bracket quantity, if given";
export const FOREIGN_PRICE = "all prices must belong to the price point";
export const PRICE_POINT_HANDLE_TAKEN = "Handle: This handle is already in use.";
/** A component's handle taken: the contract's 422 example of a component create (prepaid usage), word for word. */
export const COMPONENT_HANDLE_TAKEN = "Handle must be unique within a Site.";
/**
 * A component's name taken: the same 422 example, word for word, after the handle's. Where the service scopes the
 * name is not published; the simulator's reading: unique among the live components of the product family (components
 * are defined per family, and a name is what subscribers' statements show). An archived component does not count:
 * also our reading, since the service keeps archived ones (with their handles) for the subscriptions that have them,
 * and a name nobody can add any more is no confusion on a new statement. Names are compared as given (the service's
 * case rule is not published either).
 */
export const COMPONENT_NAME_TAKEN = "Name: must be unique - that value has been taken.";
export const COMPONENT_NOT_ARCHIVABLE = "Component cannot be archived. Please make sure it hasn't already been archived.";
/** Not published: a per-unit price point has one price, so a second bracket is refused rather than ignored. */
export const PER_UNIT_ONE_BRACKET = "Prices: a per_unit price point takes exactly one price bracket.";
export const COUPON_IN_PAST = "Expiration Date cannot be in the past";
/**
 * The contract's rule for codes ("may contain uppercase alphanumeric characters and these special
 * characters (which allow for email addresses to be used): “%”, “@”, “+”, “-”, “_”, and “.”"); the
 * refusal's wording is the simulator's, in the vendor's "Label: what." form.
 */
export const COUPON_CODE = /^[A-Z0-9%@+\-_.]+$/;
export const COUPON_CODE_INVALID =
  "Code: may only contain uppercase letters, numbers, and the characters '%', '@', '+', '-', '_', and '.'.";
export const COUPON_CODE_TAKEN = "Code: must be unique - that value has been taken.";
/** Not published: the create body is one of two shapes (percentage, flat amount); both or neither is refused. */
export const COUPON_BOTH = "Coupon: give a percentage or an amount_in_cents, not both.";
export const COUPON_NEITHER = "Coupon: a percentage or an amount_in_cents is required.";

const allowed = (label: string) => `${label}: is not one of the allowed values.`;
const oneOf = <T extends readonly [string, ...string[]]>(label: string, values: T) =>
  z.enum(values, { error: (i) => (absent(i.input) ? `${blank(label)}${SEP}${allowed(label)}` : allowed(label)) });
const count = (label: string) =>
  z.int({ error: (i) => (absent(i.input) ? blank(label) : `${label}: must be an integer.`) }).min(1, {
    error: `${label}: must be greater than or equal to 1.`,
  });
const intervalUnit = (label: string) => oneOf(label, ["day", "month"] as const);

/** A quantity as the contract types it: an integer or its decimal text. */
const quantity = (label: string) => {
  const error = `${label}: must be a whole number of 0 or more.`;
  return z.union([z.int({ error }).min(0, { error }), z.string({ error }).regex(/^\d{1,12}$/, { error })], { error }).transform(Number);
};
/** A price: a number or decimal text, at most 8 decimal places (the contract), never negative. */
const UNIT_PRICE = "Unit price: must be a number of 0 or more with at most 8 decimal places.";
export const unitPrice = z
  .union(
    [
      z.number({ error: UNIT_PRICE }).min(0, { error: UNIT_PRICE }),
      z
        .string({ error: UNIT_PRICE })
        .trim()
        .regex(/^\d{1,12}(\.\d{1,8})?$/, { error: UNIT_PRICE }),
    ],
    { error: UNIT_PRICE },
  )
  .transform((v, ctx) => {
    const s = decimalText(v);
    if (s === undefined) {
      ctx.addIssue({ code: "custom", message: UNIT_PRICE });
      return z.NEVER;
    }
    return s;
  });

/** Decimal text as Ruby's BigDecimal writes it: "10.0", "0.49", "0.00000065". Undefined past 8 decimal places. */
export function decimalText(v: number | string): string | undefined {
  let s = typeof v === "number" ? (Number.isFinite(v) && v >= 0 ? v.toFixed(8) : "") : v.trim();
  if (typeof v === "number" && Math.abs(Number(s) - v) > 1e-12) return undefined;
  const m = /^(\d+)(?:\.(\d+))?$/.exec(s);
  if (!m) return undefined;
  const frac = (m[2] ?? "").replace(/0+$/, "");
  if (frac.length > 8) return undefined;
  s = `${m[1].replace(/^0+(?=\d)/, "")}.${frac === "" ? "0" : frac}`;
  return s;
}

export const price = z.object({
  starting_quantity: quantity("Starting quantity"),
  ending_quantity: quantity("Ending quantity").nullable().optional(),
  unit_price: unitPrice,
});
export type PriceBody = z.infer<typeof price>;
const prices = z.array(price, { error: "Prices: must be a list of price brackets." });

const overagePricing = z.object({
  pricing_scheme: oneOf("Pricing scheme", PRICING_SCHEMES),
  prices: prices.optional(),
});

/**
 * An inline price point of a component create (`Component Price Point Item`;
 * a prepaid usage component's, `Prepaid Component Price Point`, also takes
 * `overage_pricing`, kept for that kind only).
 */
const inlinePricePoint = z.object({
  name: requiredText("Name"),
  handle: handle("Handle").optional(),
  pricing_scheme: oneOf("Pricing scheme", PRICING_SCHEMES),
  interval: count("Interval").optional(),
  interval_unit: intervalUnit("Interval unit").optional(),
  prices: prices.optional(),
  overage_pricing: overagePricing.optional(),
});
export type InlinePricePointBody = z.infer<typeof inlinePricePoint>;

/**
 * Every kind's create body (the five schemas share most fields). Per kind, the
 * contract requires `name`, `unit_name` and `pricing_scheme` (metered, quantity
 * based, event based; event based also its metric), or `name` alone (on/off,
 * prepaid usage): the handlers check that. Unknown keys are dropped, as the
 * service's parameter filtering drops them.
 */
export const componentCreateBody = z.object({
  name: requiredText("Name"),
  unit_name: requiredText("Unit name").optional(),
  description: text("Description", 65_535).nullable().optional(),
  handle: handle().nullable().optional(),
  taxable: bool("Taxable").optional(),
  pricing_scheme: oneOf("Pricing scheme", PRICING_SCHEMES).optional(),
  prices: prices.optional(),
  upgrade_charge: oneOf("Upgrade charge", CREDIT_TYPES).nullable().optional(),
  downgrade_credit: oneOf("Downgrade credit", CREDIT_TYPES).nullable().optional(),
  price_points: z.array(inlinePricePoint, { error: "Price points: must be a list." }).optional(),
  unit_price: unitPrice.optional(),
  /** Deprecated May 2011 (the contract): cents as text; taken as unit_price when that is absent. */
  price_in_cents: z.union([z.string().regex(/^\d{1,12}$/), z.int().min(0)], { error: "Price in cents: is not a number." }).optional(),
  tax_code: text("Tax code", 10).nullable().optional(),
  hide_date_range_on_invoice: bool("Hide date range on invoice").optional(),
  display_on_hosted_page: bool("Display on hosted page").optional(),
  allow_fractional_quantities: bool("Allow fractional quantities").optional(),
  public_signup_page_ids: z.array(z.int().positive(), { error: "Public signup page ids: must be a list of ids." }).optional(),
  interval: count("Interval").optional(),
  interval_unit: intervalUnit("Interval unit").optional(),
  recurring: bool("Recurring").optional(),
  event_based_billing_metric_id: z
    .int({ error: (i) => (absent(i.input) ? blank("Event based billing metric") : "Event based billing metric: must be an integer.") })
    .positive()
    .optional(),
  overage_pricing: overagePricing.optional(),
  rollover_prepaid_remainder: bool("Rollover prepaid remainder").optional(),
  renew_prepaid_allocation: bool("Renew prepaid allocation").optional(),
  expiration_interval: count("Expiration interval").optional(),
  expiration_interval_unit: intervalUnit("Expiration interval unit").optional(),
  // Not in the create schemas but in the response's and the update's: kept when given.
  accounting_code: text("Accounting code").nullable().optional(),
  item_category: oneOf("Item category", ITEM_CATEGORIES).nullable().optional(),
});
export type ComponentCreateBody = z.infer<typeof componentCreateBody>;

/**
 * `Update Component`: handle, name, description, accounting code, taxable, tax
 * code, item category, display on hosted page, upgrade charge. `downgrade_credit`
 * (its twin in the create bodies) is taken too. Unknown keys are dropped.
 */
export const componentUpdateBody = z.object({
  handle: handle().optional(),
  name: requiredText("Name").optional(),
  description: text("Description", 65_535).nullable().optional(),
  accounting_code: text("Accounting code").nullable().optional(),
  taxable: bool("Taxable").optional(),
  tax_code: text("Tax code", 10).nullable().optional(),
  item_category: oneOf("Item category", ITEM_CATEGORIES).nullable().optional(),
  display_on_hosted_page: bool("Display on hosted page").optional(),
  upgrade_charge: oneOf("Upgrade charge", CREDIT_TYPES).nullable().optional(),
  downgrade_credit: oneOf("Downgrade credit", CREDIT_TYPES).nullable().optional(),
});
export type ComponentUpdateBody = z.infer<typeof componentUpdateBody>;

/** `Create Component Price Point` and, with `overage_pricing`, `Create Prepaid Usage Component Price Point`. */
export const componentPricePointBody = z.object({
  name: requiredText("Name"),
  handle: handle("Handle").optional(),
  pricing_scheme: oneOf("Pricing scheme", PRICING_SCHEMES),
  prices: prices.optional(),
  use_site_exchange_rate: bool("Use site exchange rate").optional(),
  tax_included: bool("Tax included").optional(),
  interval: count("Interval").optional(),
  interval_unit: intervalUnit("Interval unit").optional(),
  overage_pricing: overagePricing.optional(),
  rollover_prepaid_remainder: bool("Rollover prepaid remainder").optional(),
  renew_prepaid_allocation: bool("Renew prepaid allocation").optional(),
  expiration_interval: count("Expiration interval").optional(),
  expiration_interval_unit: intervalUnit("Expiration interval unit").optional(),
});
export type ComponentPricePointBody = z.infer<typeof componentPricePointBody>;

/** `Update Price`: an id updates that bracket (`_destroy: true` removes it); without one, a new bracket. */
const updatePrice = z.object({
  id: z.int({ error: "Price id: must be an integer." }).positive().optional(),
  starting_quantity: quantity("Starting quantity").optional(),
  ending_quantity: quantity("Ending quantity").nullable().optional(),
  unit_price: unitPrice.optional(),
  _destroy: bool("Destroy").optional(),
});
export type UpdatePriceBody = z.infer<typeof updatePrice>;

/** `Update Component Price Point`. */
export const componentPricePointUpdateBody = z.object({
  name: requiredText("Name").optional(),
  handle: handle("Handle").optional(),
  pricing_scheme: oneOf("Pricing scheme", PRICING_SCHEMES).optional(),
  use_site_exchange_rate: bool("Use site exchange rate").optional(),
  tax_included: bool("Tax included").optional(),
  interval: count("Interval").optional(),
  interval_unit: intervalUnit("Interval unit").optional(),
  prices: z.array(updatePrice, { error: "Prices: must be a list of price brackets." }).optional(),
});
export type ComponentPricePointUpdateBody = z.infer<typeof componentPricePointUpdateBody>;

const percentage = z
  .union(
    [
      z.number(),
      z
        .string()
        .trim()
        .regex(/^\d{1,3}(\.\d{1,4})?$/),
    ],
    { error: "Percentage: must be a number." },
  )
  .transform((v) => Number(v))
  .refine((n) => n > 0 && n <= 100, { error: "Percentage: must be greater than 0 and at most 100." })
  .transform((n) => decimalText(String(Math.round(n * 10_000) / 10_000)) as string)
  // The service writes whole percentages without a fraction ("50", "15"), others as they are ("33.3333").
  .transform((s) => s.replace(/\.0$/, ""));

/**
 * `Create or Update Coupon`: one of the percentage and flat amount shapes
 * (which is checked by the handler, so that both and neither get their own
 * refusal). `duration_period_count` is not in the request schemas but in the
 * coupon's: taken, as the service's older docs take it, with `recurring`.
 * `product_family_id` in the body is ignored: the path names the family.
 */
export const couponFields = {
  name: requiredText("Name"),
  code: requiredText("Code").pipe(z.string().regex(COUPON_CODE, { error: COUPON_CODE_INVALID })),
  description: text("Description", 65_535).nullable().optional(),
  percentage: percentage.nullable().optional(),
  amount_in_cents: z
    .int({ error: "Amount in cents: must be an integer." })
    .min(1, { error: "Amount in cents: must be greater than 0." })
    .nullable()
    .optional(),
  allow_negative_balance: bool("Allow negative balance").optional(),
  recurring: bool("Recurring").optional(),
  duration_period_count: count("Duration period count").nullable().optional(),
  end_date: z
    .string({ error: "End date: must be a date and time." })
    .refine((s) => !Number.isNaN(Date.parse(s)), { error: "End date: must be a date and time." })
    .nullable()
    .optional(),
  stackable: bool("Stackable").optional(),
  compounding_strategy: oneOf("Compounding strategy", COMPOUNDING_STRATEGIES).nullable().optional(),
  exclude_mid_period_allocations: bool("Exclude mid period allocations").optional(),
  apply_on_cancel_at_end_of_period: bool("Apply on cancel at end of period").optional(),
  apply_on_subscription_expiration: bool("Apply on subscription expiration").optional(),
};
export const couponCreateBody = z.object(couponFields);
export const couponUpdateBody = z.object(couponFields).partial();
export type CouponCreateBody = z.infer<typeof couponCreateBody>;
export type CouponUpdateBody = z.infer<typeof couponUpdateBody>;

/** `restricted_products` / `restricted_components`: ids (as keys) to booleans. */
export const restrictionMap = z.record(
  z.string().regex(/^\d{1,15}$/, { error: "must be keyed by id" }),
  z.boolean({ error: "must map ids to true or false" }),
);

export type { CompoundingStrategy, CreditType, PricingScheme };

/**
 * The rules a scheme's brackets follow, keyed as updateComponentPricePoint's
 * published 422 keys them. In the order given: each bracket's end, if given,
 * above its start; each next one starting right after the one before (a start
 * at or below the previous end, or after an open bracket, overlaps; one further
 * on leaves a gap). A per_unit price point has exactly one bracket.
 *
 * The last bracket may be closed: the contract's own create examples close it
 * (stairstep 1–100, 101–200; volume 1–10, 11–20; a prepaid overage 1–100), and
 * the service answers them with 201, so the service does not insist on an open
 * last bracket. Nor on where the first one starts (the examples start at 0 and 1).
 */
export function bracketProblems(
  scheme: PricingScheme,
  list: readonly { startingQuantity: number; endingQuantity: number | null }[],
): Problems {
  const out: Problems = {};
  const add = (key: string, message: string) => {
    out[key] ??= [];
    if (!out[key].includes(message)) out[key].push(message);
  };
  if (list.length === 0) add("prices", NO_BRACKETS);
  if (scheme === "per_unit" && list.length > 1) add("prices", PER_UNIT_ONE_BRACKET);
  list.forEach((b, i) => {
    if (b.endingQuantity !== null && b.endingQuantity <= b.startingQuantity) add("prices.ending_quantity", ENDING_QUANTITY);
    if (i === 0) return;
    const prev = list[i - 1];
    if (prev.endingQuantity === null || b.startingQuantity <= prev.endingQuantity) add("prices", BRACKET_OVERLAP);
    else if (b.startingQuantity > prev.endingQuantity + 1) add("prices", BRACKET_GAP);
  });
  return out;
}
