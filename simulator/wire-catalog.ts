import { z } from "zod";
import type { ExpirationIntervalUnit, IntervalUnit, PricingRecord } from "./records";
import { absent, blank, bool, handle, requiredText, SEP, text } from "./wire-fields";

/**
 * The simulator's own reading of the catalog's request bodies in the
 * published contract (`Create Product Family Request`, `Create or Update
 * Product Request`, `Create Product Price Point Request`, `Update Product Price
 * Point Request`, `Bulk Create Product Price Points Request`), and the vendor's
 * wording of what it refuses: "Label: what." per field, as the published 422
 * examples write it ("Name: cannot be blank.", "Recurring Interval: must be
 * greater than or equal to 1.", "Interval unit: must be 'month' or 'day'.",
 * "Price: must be greater than or equal to 0.").
 */

export const INTERVAL_UNITS = ["day", "month"] as const;
/** "never" is not in the request enum, but the product schema answers it for a product that never expires. */
export const EXPIRATION_UNITS = ["day", "month", "never"] as const;
/** The contract types `trial_type` as a plain string; these are the service's two kinds of trial. */
export const TRIAL_TYPES = ["no_obligation", "payment_expected"] as const;

/** The vendor's wording for a handle taken (createProductFamily's published 422). */
export const HANDLE_TAKEN = "API Handle: must be unique - that value has been taken.";
/** archiveProductPricePoint's published 422. */
export const DEFAULT_NOT_ARCHIVABLE = "Cannot archive the default price point.";
/** archiveProduct's published 422. */
export const PRODUCT_NOT_ARCHIVABLE = "Product cannot be archived.";
/** The published wording for a component price point (archiveComponentPricePoint's 422), used for product price points too. */
export const ALREADY_ARCHIVED = "Price point is already archived.";
/** listProductsForProductFamily's published 404: a bare JSON string, not an error list. */
export const FAMILY_REQUIRED = "A valid product_family_id is required";

/** Problems by the request's field name, each in the vendor's words; a field may have several. */
export type Problems = Record<string, string[]>;

/** A catalog rule the request breaks: answered 422 in the shape of its operation (see handlers-catalog.ts). */
export class Refusal extends Error {
  constructor(readonly problems: Problems) {
    super(Object.values(problems).flat().join("; "));
  }
}

export function refuse(field: string, message: string): never {
  throw new Refusal({ [field]: [message] });
}

const integer = (label: string) =>
  z.int({
    error: (i) =>
      absent(i.input) ? blank(label) : typeof i.input === "number" ? `${label}: must be an integer.` : `${label}: is not a number.`,
  });
const cents = (label: string) => integer(label).min(0, { error: `${label}: must be greater than or equal to 0.` });
const count = (label: string) => integer(label).min(1, { error: `${label}: must be greater than or equal to 1.` });
const oneOf = <T extends readonly [string, ...string[]]>(label: string, values: T) => {
  const allowed = `${label}: must be ${values.map((v) => `'${v}'`).join(" or ")}.`;
  return z.enum(values, { error: (i) => (absent(i.input) ? `${blank(label)}${SEP}${allowed}` : allowed) });
};
// The published message names month first: "Interval unit: must be 'month' or 'day'."
const UNIT_WORDING = ["month", "day"] as const;
const unit = (label: string) => oneOf(label, UNIT_WORDING).transform((u): IntervalUnit => u);

/** The terms of a price point (and of a product, whose terms are its default price point's). */
const pricing = {
  price_in_cents: cents("Price in cents"),
  interval: count("Recurring Interval"),
  interval_unit: unit("Interval unit"),
  trial_price_in_cents: cents("Trial price in cents").nullable().optional(),
  trial_interval: count("Trial interval").nullable().optional(),
  trial_interval_unit: unit("Trial interval unit").nullable().optional(),
  trial_type: oneOf("Trial type", TRIAL_TYPES).nullable().optional(),
  initial_charge_in_cents: cents("Initial charge in cents").nullable().optional(),
  initial_charge_after_trial: bool("Initial charge after trial").nullable().optional(),
  expiration_interval: count("Expiration interval").nullable().optional(),
  expiration_interval_unit: oneOf("Expiration interval unit", ["month", "day", "never"] as const)
    .transform((u): ExpirationIntervalUnit => u)
    .nullable()
    .optional(),
};

/**
 * `Create Product Family`. `accounting_code` is not in the request schema but
 * in the response's; the service's older docs take it, so it is kept when given.
 */
export const familyBody = z.object({
  name: requiredText("Name"),
  handle: handle().nullable().optional(),
  description: text("Description", 65_535).nullable().optional(),
  accounting_code: text("Accounting code").nullable().optional(),
});
export type FamilyBody = z.infer<typeof familyBody>;

/**
 * `Create or Update Product`. The contract marks `description` required, but
 * the vendor's own examples show products with `"description": null`: the
 * service does not insist, and neither does the simulator. `initial_charge_*`
 * are not in the request schema but in the response's (and in the service's
 * older docs), so they are taken. Unknown keys are dropped, as the service's
 * parameter filtering drops them.
 */
const productFields = {
  name: requiredText("Name"),
  handle: handle().nullable().optional(),
  description: text("Description", 65_535).nullable().optional(),
  accounting_code: text("Accounting code").nullable().optional(),
  tax_code: text("Tax code", 10).nullable().optional(),
  require_credit_card: bool("Require credit card").optional(),
  request_credit_card: bool("Request credit card").optional(),
  request_billing_address: bool("Request billing address").optional(),
  require_billing_address: bool("Require billing address").optional(),
  require_shipping_address: bool("Require shipping address").optional(),
  auto_create_signup_page: bool("Auto create signup page").optional(),
  ...pricing,
};
export const productCreateBody = z.object(productFields);
/** An update names only what changes; what it names is checked as a create checks it. */
export const productUpdateBody = z.object(productFields).partial();
export type ProductCreateBody = z.infer<typeof productCreateBody>;
export type ProductUpdateBody = z.infer<typeof productUpdateBody>;

/** `Create Product Price Point` (also each entry of a bulk create). */
export const pricePointBody = z.object({
  name: requiredText("Name"),
  handle: handle().nullable().optional(),
  use_site_exchange_rate: bool("Use site exchange rate").optional(),
  ...pricing,
});
export type PricePointBody = z.infer<typeof pricePointBody>;

/** `Update Product Price Point`: the contract's schema has these two fields only. */
export const PRICE_POINT_UPDATABLE = ["handle", "price_in_cents"] as const;
export const pricePointUpdateBody = z.object({
  handle: handle().optional(),
  price_in_cents: cents("Price in cents").optional(),
});
export type PricePointUpdateBody = z.infer<typeof pricePointUpdateBody>;

/** The body's object under `key`, or undefined when there is none. */
export function wrapped(body: unknown, key: string): unknown {
  return isObject(body) ? body[key] : undefined;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * zod's issues as the vendor's field problems, keyed by the field's request
 * name. The service's model holds a `price` beside `price_in_cents` and
 * reports some of its problems under that key: a missing price is both
 * `price_in_cents: cannot be blank` and `price: is not a number`, a negative
 * one `price: must be greater than or equal to 0` (createProductPricePoint's
 * published examples 2 and 4).
 */
export function problemsOf(error: z.ZodError): Problems {
  const out: Problems = {};
  const add = (key: string, message: string) => {
    out[key] ??= [];
    if (!out[key].includes(message)) out[key].push(message);
  };
  for (const issue of error.issues) {
    const key = issue.path.length > 0 ? issue.path.map(String).join(".") : "base";
    for (const message of issue.message.split(SEP)) {
      if (key === "price_in_cents" && message.startsWith("Price in cents: ") && !message.endsWith("cannot be blank.")) {
        add("price", message.replace("Price in cents: ", "Price: "));
        continue;
      }
      if (key === "price_in_cents" && message.endsWith("cannot be blank.")) add("price", "Price: is not a number.");
      add(key, message);
    }
  }
  return out;
}

/**
 * The rules between terms, on the terms as they would be held (a product
 * update's are the default's with the change applied), keyed by the request's
 * field names. The contract states none of them; these are the ones without
 * which the terms mean nothing: a trial needs its length, unit and price, an
 * expiration its length and unit.
 */
export function pricingProblems(p: PricingRecord): Problems {
  const out: Problems = {};
  const add = (key: string, message: string) => {
    out[key] ??= [];
    out[key].push(message);
  };
  if (p.trialInterval !== null) {
    if (p.trialIntervalUnit === null) add("trial_interval_unit", blank("Trial interval unit"));
    if (p.trialPriceInCents === null) add("trial_price_in_cents", blank("Trial price in cents"));
  } else if (p.trialPriceInCents !== null) add("trial_interval", blank("Trial interval"));
  if (p.expirationInterval !== null && (p.expirationIntervalUnit === null || p.expirationIntervalUnit === "never"))
    add("expiration_interval_unit", "Expiration interval unit: must be 'month' or 'day'.");
  if (p.expirationInterval === null && (p.expirationIntervalUnit === "day" || p.expirationIntervalUnit === "month"))
    add("expiration_interval", blank("Expiration interval"));
  return out;
}

/** Keys in alphabetical order, as every published example of the object shapes lists them. */
export function sorted(p: Problems): Problems {
  return Object.fromEntries(Object.entries(p).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export const hasProblems = (p: Problems): boolean => Object.keys(p).length > 0;

/** The wire's terms (given ones only) in the record's words; null where the wire says null. */
export function pricingOf(w: Partial<PricePointBody>): Partial<PricingRecord> {
  const out: Partial<PricingRecord> = {};
  if (w.price_in_cents !== undefined) out.priceInCents = w.price_in_cents;
  if (w.interval !== undefined) out.interval = w.interval;
  if (w.interval_unit !== undefined) out.intervalUnit = w.interval_unit;
  if (w.trial_price_in_cents !== undefined) out.trialPriceInCents = w.trial_price_in_cents;
  if (w.trial_interval !== undefined) out.trialInterval = w.trial_interval;
  if (w.trial_interval_unit !== undefined) out.trialIntervalUnit = w.trial_interval_unit;
  if (w.trial_type !== undefined) out.trialType = w.trial_type;
  if (w.initial_charge_in_cents !== undefined) out.initialChargeInCents = w.initial_charge_in_cents;
  // Unset, the service writes false (every published example of an unset one).
  if (w.initial_charge_after_trial !== undefined) out.initialChargeAfterTrial = w.initial_charge_after_trial ?? false;
  if (w.expiration_interval !== undefined) out.expirationInterval = w.expiration_interval;
  if (w.expiration_interval_unit !== undefined) out.expirationIntervalUnit = w.expiration_interval_unit;
  return out;
}

/** Terms nothing was said about: one month, no trial, no initial charge, no expiration. */
export const NO_TERMS: Omit<PricingRecord, "priceInCents"> = {
  interval: 1,
  intervalUnit: "month",
  trialPriceInCents: null,
  trialInterval: null,
  trialIntervalUnit: null,
  trialType: null,
  initialChargeInCents: null,
  initialChargeAfterTrial: false,
  expirationInterval: null,
  expirationIntervalUnit: null,
};

export const PRICING_KEYS = Object.keys(pricing) as (keyof typeof pricing)[];
