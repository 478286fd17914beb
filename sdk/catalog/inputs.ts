import { z } from "zod";
import { flag, integer, valueText } from "../input-values";
import { name as catalogName, text } from "./text";

/**
 * What callers give to the catalog operations, in camelCase. The providers' `check` uses these same
 * schemas, so each message names the property (by its path) and says what would be accepted.
 */

const HANDLE_RULE = "a lowercase letter or number first, then only lowercase letters, numbers, '.', ':', '-' and '_'";

/**
 * A family's, product's or price point's handle: 1 to 255 characters, {@link HANDLE_RULE} (the
 * contract's wording for component handles, which the service applies to these too).
 */
export const catalogHandle = z
  .string({ error: (i) => `must be a handle (a string: ${HANDLE_RULE}), got ${valueText(i.input)}` })
  .min(1, `must not be empty: a handle is ${HANDLE_RULE}`)
  .max(255, "must be at most 255 characters")
  .regex(/^[a-z0-9][a-z0-9.:_-]*$/, { error: (i) => `must be ${HANDLE_RULE}, got ${valueText(i.input)}` });

const name = catalogName();

const CENTS = "a whole number of cents, 0 or more (1000 for 10.00)";
const cents = () => integer(0, CENTS);
const count = () => integer(1, "a whole number, 1 or more");

const UNITS = ["day", "month"] as const;
const unit = () => z.enum(UNITS, { error: (i) => `must be "day" or "month", got ${valueText(i.input)}` });
const expirationUnit = z.enum([...UNITS, "never"], {
  error: (i) => `must be "day", "month" or "never", got ${valueText(i.input)}`,
});
const trialType = z.enum(["no_obligation", "payment_expected"], {
  error: (i) => `must be "no_obligation" or "payment_expected", got ${valueText(i.input)}`,
});

/** The pricing fields of a product or a price point (before their cross-field rules, {@link pricingRule}). */
export const pricingShape = {
  priceInCents: cents().describe("The price per interval, in integer cents."),
  interval: count().describe("How many interval units between charges."),
  intervalUnit: unit().describe('"day" or "month".'),
  trialPriceInCents: cents().optional().describe("The trial's price, in integer cents; needs trialInterval."),
  trialInterval: count().optional().describe("The trial's length in trialIntervalUnit; needs trialPriceInCents and trialIntervalUnit."),
  trialIntervalUnit: unit().optional().describe('"day" or "month"; needs trialInterval.'),
  trialType: trialType.optional().describe('"no_obligation" or "payment_expected".'),
  initialChargeInCents: cents().optional().describe("A one-time charge at signup, in integer cents."),
  initialChargeAfterTrial: flag.optional().describe("Whether the initial charge is made after the trial rather than at signup."),
  expirationInterval: count().optional().describe("How long a subscription runs before it expires; needs expirationIntervalUnit."),
  expirationIntervalUnit: expirationUnit.optional().describe('"day" or "month" (with expirationInterval), or "never".'),
};

const present = (o: Record<string, unknown>, k: string) => o[k] !== undefined;

/**
 * The pricing's cross-field rules: an interval needs its unit and a unit its interval (an
 * expiration unit of "never" takes no interval), a trial needs its price and a trial price its
 * trial. Rules on which fields are present are marked `presence` (the providers keep them when a
 * value is still unknown at preview); the one on the value "never" fires only on a known value.
 */
export function pricingRule(raw: unknown, ctx: z.RefinementCtx): void {
  if (typeof raw !== "object" || raw === null) return;
  const o = raw as Record<string, unknown>;
  const issue = (path: string, message: string, presence = true) =>
    ctx.addIssue({ code: "custom", path: [path], ...(presence ? { params: { presence: true } } : {}), message });
  if (present(o, "trialInterval") && !present(o, "trialIntervalUnit"))
    issue("trialIntervalUnit", 'is required with trialInterval: "day" or "month"');
  if (present(o, "trialIntervalUnit") && !present(o, "trialInterval"))
    issue("trialInterval", "is required with trialIntervalUnit: the trial's length, a whole number, 1 or more");
  if (present(o, "trialInterval") && !present(o, "trialPriceInCents"))
    issue("trialPriceInCents", `is required with a trial (trialInterval): ${CENTS}`);
  if (present(o, "trialPriceInCents") && !present(o, "trialInterval"))
    issue("trialInterval", "is required with trialPriceInCents: the trial's length, a whole number, 1 or more (with trialIntervalUnit)");
  const expUnit = o.expirationIntervalUnit;
  if (present(o, "expirationInterval") && !present(o, "expirationIntervalUnit"))
    issue("expirationIntervalUnit", 'is required with expirationInterval: "day" or "month"');
  if ((expUnit === "day" || expUnit === "month") && !present(o, "expirationInterval"))
    issue("expirationInterval", `is required with expirationIntervalUnit "${expUnit}": a whole number, 1 or more`, false);
  if (expUnit === "never" && present(o, "expirationInterval"))
    issue("expirationInterval", 'must be left out when expirationIntervalUnit is "never" (no expiration)', false);
}

/** Applies {@link pricingRule} even when a field failed, so one bad value never hides a missing one. */
const withPricingRule = <S extends z.ZodType>(s: S) => s.superRefine(pricingRule, { when: () => true });

const familyShape = z
  .object(
    {
      handle: catalogHandle.describe("The family's API handle, unique among the site's families."),
      name: name.describe("The family's name."),
      description: text("a description").optional().describe("The family's description."),
    },
    { error: "must be an object { handle, name, description? }" },
  )
  .strict();

/** A product family to create (`createProductFamily`). */
export const productFamilyInput = familyShape;

/** The product fields besides the pricing. */
export const productShape = {
  handle: catalogHandle.describe("The product's API handle, unique among the site's products (archived ones too)."),
  name: name.describe("The product's name."),
  description: text("a description").optional().describe("The product's description."),
  accountingCode: text("an accounting code").optional().describe("An internal id or SKU number."),
  taxCode: text("a tax code", 10).optional().describe("The tax code of the product type, at most 10 characters."),
  requireCreditCard: flag.optional().describe("Whether signup requires a credit card."),
  requestCreditCard: flag
    .optional()
    .describe(
      "Whether legacy hosted signup pages ask for a credit card (the contract calls it deprecated: public signup pages have their own).",
    ),
  requestBillingAddress: flag.optional().describe("Whether signup asks for a billing address."),
  requireBillingAddress: flag.optional().describe("Whether signup requires a billing address."),
  requireShippingAddress: flag.optional().describe("Whether signup requires a shipping address."),
  autoCreateSignupPage: flag.optional().describe("Whether the service creates a public signup page for the product."),
  ...pricingShape,
};

const productObject = z
  .object(productShape, { error: "must be an object { handle, name, priceInCents, interval, intervalUnit, … }" })
  .strict();

/** A product to create (`createProduct`): its fields and its default price point's pricing. */
export const productInput = withPricingRule(productObject);

/**
 * The fields of `updateProduct`: any of {@link productInput}'s; only those given are sent. A
 * pricing change makes the service create a new default price point (subscriptions keep theirs).
 */
export const productUpdateInput = withPricingRule(productObject.partial());

/** The pricing alone, with its rules. */
export const pricingInput = withPricingRule(
  z.object(pricingShape, { error: "must be an object { priceInCents, interval, intervalUnit, … }" }).strict(),
);

const pricePointObject = z
  .object(
    {
      handle: catalogHandle.describe("The price point's API handle, unique among its product's price points."),
      name: name.describe("The price point's name."),
      useSiteExchangeRate: flag.optional().describe("Whether other currencies' prices follow the site's exchange rate (default true)."),
      ...pricingShape,
    },
    { error: "must be an object { handle, name, priceInCents, interval, intervalUnit, … }" },
  )
  .strict();

/** A price point to create (`createPricePoint`, `createPricePoints`). */
export const pricePointInput = withPricingRule(pricePointObject);

/** What `updatePricePoint` may change: the service's update takes only these two. */
export const pricePointUpdateInput = z
  .object(
    {
      handle: catalogHandle.optional().describe("The price point's new API handle, unique among its product's price points."),
      priceInCents: cents()
        .optional()
        .describe(
          "The new price in integer cents (0 or more: 1000 is 10.00): it is the price of every subscription on the price point (the contract does not say from which renewal).",
        ),
    },
    { error: "must be an object { handle?, priceInCents? }" },
  )
  .strict();
