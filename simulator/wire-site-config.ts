import { z } from "zod";
import { type Problems, problemsOf } from "./wire-catalog";
import { decimalText } from "./wire-components";
import { absent, blank, SEP } from "./wire-fields";

/**
 * The simulator's own reading of the request bodies of a site's configuration
 * (the contract's `Create Product Currency Prices Request`, `Update Currency
 * Prices Request`, `Create Currency Prices Request`, `Coupon Currency Request`,
 * `Create Reason Code Request`, `Create Offer Request`), in the vendor's
 * wording where it publishes one:
 *
 * - createCurrencyPrices' 422: `currency_prices[0].currency`: "Currency: cannot
 *   be blank.", "Currency: is not one of the allowed values.";
 * - updateCurrencyPrices' 422: "Pricing already exists for this currency.";
 * - createProductCurrencyPrices' 422: `base`: "This product price point requires
 *   that prices are defined for: [baseline].";
 * - createReasonCode's 422: "Code: cannot be blank.", "Code: This code is already
 *   in use.", "Description: cannot be blank.";
 * - createOffer's 422 (and the vendor's end-to-end suite against a real site,
 *   maxio-com/ab-typescript-sdk e2e/src/offersController.spec.ts): "Name cannot
 *   be blank.", "Handle cannot be blank.", "Handle is invalid. Handles can only
 *   contain lowercase letters, numbers, dashes and underscores.",
 *   "starting_quantity for an On/Off component can only be '1' or '0': 24".
 *
 * Elsewhere the text is the simulator's, in the same forms.
 */

export const CURRENCY_PRICE_ROLES = ["baseline", "trial", "initial"] as const;
export const NOT_ALLOWED_CURRENCY = "Currency: is not one of the allowed values.";
export const PRICING_EXISTS = "Pricing already exists for this currency.";

const currency = z.string({ error: (i) => (absent(i.input) ? `${blank("Currency")}${SEP}${NOT_ALLOWED_CURRENCY}` : NOT_ALLOWED_CURRENCY) });
const PRICE = "Price: must be a number of 0 or more.";
/**
 * A price in a currency's units: a number or its decimal text, never negative, at most 8 decimal places. The
 * contract types a product currency price's request `price` as an integer but answers it as a number (and a
 * component's as a number); a price such as 9.99 EUR is an ordinary one, so decimals are taken (not published).
 */
const price = z.union([z.number(), z.string().trim()], { error: (i) => (absent(i.input) ? blank("Price") : PRICE) }).transform((v, ctx) => {
  const text = decimalText(v);
  if (text === undefined) {
    ctx.addIssue({ code: "custom", message: PRICE });
    return z.NEVER;
  }
  return text;
});
const id = (label: string) =>
  z
    .int({ error: (i) => (absent(i.input) ? blank(label) : `${label}: must be an integer.`) })
    .positive({ error: `${label}: must be an integer.` });

/** `Create Product Currency Price`: currency, price and role, all required. */
export const productCurrencyPrice = z.object({
  currency,
  price,
  role: z.enum(CURRENCY_PRICE_ROLES, {
    error: (i) =>
      absent(i.input) ? `${blank("Role")}${SEP}Role: is not one of the allowed values.` : "Role: is not one of the allowed values.",
  }),
});
/** `Create Currency Price` (a component price point's): currency, price, and the bracket it prices. */
export const componentCurrencyPrice = z.object({ currency, price, price_id: id("Price id") });
/** `Update Currency Price` (both kinds of price point): the currency price's id and its new price. */
export const currencyPriceUpdate = z.object({ id: id("Id"), price });
/** `Update Coupon Currency`: the coupon's schema answers `price` as an integer, so only whole amounts are taken. */
export const couponCurrencyPrice = z.object({
  currency,
  price: z
    .int({ error: (i) => (absent(i.input) ? blank("Price") : "Price: must be an integer.") })
    .min(0, { error: "Price: must be greater than or equal to 0." }),
});

/**
 * `currency_prices`: a non-empty list, each entry read by `entry`; problems
 * keyed `currency_prices[i].field` as the published 422 keys them.
 */
export function currencyPriceList<T>(body: unknown, entry: z.ZodType<T>): { entries: T[]; problems: Problems } {
  const list = typeof body === "object" && body !== null ? (body as Record<string, unknown>).currency_prices : undefined;
  if (!Array.isArray(list) || list.length === 0)
    return { entries: [], problems: { currency_prices: ["Currency prices: must be a list of at least one price."] } };
  const problems: Problems = {};
  const entries: T[] = [];
  list.forEach((e, i) => {
    const parsed = entry.safeParse(e);
    if (parsed.success) entries.push(parsed.data);
    else for (const [k, v] of Object.entries(problemsOf(parsed.error))) problems[`currency_prices[${i}].${k}`] = v;
  });
  return { entries, problems };
}

// ---- reason codes -------------------------------------------------------------

export const REASON_CODE_TAKEN = "Code: This code is already in use.";
const position = z.int({ error: "Position: must be an integer." });
export const reasonCodeBody = z.object({
  code: z.string({ error: blank("Code") }).refine((s) => s.trim() !== "", { error: blank("Code") }),
  description: z.string({ error: blank("Description") }).refine((s) => s.trim() !== "", { error: blank("Description") }),
  position: position.optional(),
});
export const reasonCodeUpdateBody = reasonCodeBody.partial();
export type ReasonCodeBody = z.infer<typeof reasonCodeBody>;
export type ReasonCodeUpdateBody = z.infer<typeof reasonCodeUpdateBody>;

// ---- offers -------------------------------------------------------------------

/** The vendor's rule for offer handles, in its words (a space is refused; underscores are taken: "han_shot_first"). */
export const OFFER_HANDLE = /^[a-z0-9_-]+$/;
export const OFFER_HANDLE_INVALID = "Handle is invalid. Handles can only contain lowercase letters, numbers, dashes and underscores.";
/** Not published: the wording of a handle another offer has (Rails' own for a uniqueness rule). */
export const OFFER_HANDLE_TAKEN = "Handle has already been taken.";

const offerText = (label: string) =>
  z.string({ error: `${label} cannot be blank.` }).refine((s) => s.trim() !== "", { error: `${label} cannot be blank.` });
export const offerBody = z.object({
  name: offerText("Name"),
  handle: offerText("Handle").pipe(z.string().regex(OFFER_HANDLE, { error: OFFER_HANDLE_INVALID })),
  description: z.string({ error: "Description must be a string." }).nullable().optional(),
  product_id: z.int({ error: (i) => (absent(i.input) ? "Product cannot be blank." : "Product must be an id.") }).positive(),
  product_price_point_id: z.int({ error: "Product price point must be an id." }).positive().optional(),
  components: z
    .array(
      z.object({
        component_id: z.int({ error: (i) => (absent(i.input) ? "Component cannot be blank." : "Component must be an id.") }).positive(),
        price_point_id: z.int({ error: "Price point must be an id." }).positive().optional(),
        starting_quantity: z.int({ error: "starting_quantity must be a whole number." }).optional(),
      }),
      { error: "Components must be a list." },
    )
    .optional(),
  coupons: z.array(z.string({ error: "Coupons must be a list of codes." }), { error: "Coupons must be a list of codes." }).optional(),
});
export type OfferBody = z.infer<typeof offerBody>;

/** An offer's 422 keys problems by the request's top-level field (`components`, not `components[0].…`), as published. */
export function offerProblems(error: z.ZodError): Problems {
  const out: Problems = {};
  for (const [k, v] of Object.entries(problemsOf(error))) {
    const key = k.split(".")[0];
    out[key] = [...(out[key] ?? []), ...v.filter((m) => !(out[key] ?? []).includes(m))];
  }
  return out;
}
