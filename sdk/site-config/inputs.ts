import { z } from "zod";
import { name as catalogName, text } from "../catalog/text";
import { flag, integer, valueText } from "../input-values";

/**
 * What callers give to the site's configuration beyond the catalog: custom fields (metafields), churn reason
 * codes, offers, and the scope of clearing a test site. The providers check with these same schemas, so each
 * message names the property and says what would be accepted.
 */

/** The resources custom fields belong to (the contract's `resource_type`). */
export const METAFIELD_RESOURCE_TYPES = ["subscriptions", "customers"] as const;
/** Which resource's custom fields: `subscriptions` or `customers`. */
export type MetafieldResourceType = (typeof METAFIELD_RESOURCE_TYPES)[number];

/** A metafield's resource type. */
export const metafieldResourceType = z.enum(METAFIELD_RESOURCE_TYPES, {
  error: (i) => `must be "subscriptions" or "customers", got ${valueText(i.input)}`,
});

/** The input types a caller may create (the contract's enum also has `balance_tracker`, which the service makes itself). */
export const METAFIELD_INPUT_TYPES = ["text", "radio", "dropdown"] as const;

const inputType = z.enum(METAFIELD_INPUT_TYPES, { error: (i) => `must be "text", "radio" or "dropdown", got ${valueText(i.input)}` });

/** A metafield's name: its key on every subscription or customer (1 to 255 characters, not only spaces). */
export const metafieldName = catalogName();

const choices = z
  .array(text("a choice", 255).min(1, "must not be empty"), { error: "must be an array of the values a customer may choose" })
  .min(1, "must hold at least one value")
  .refine((a) => new Set(a).size === a.length, { error: "must not hold a value twice" });

const scopeShape = z
  .object(
    {
      csv: flag.optional().describe("Whether the field is in the CSV export."),
      invoices: flag.optional().describe("Whether the field is shown on invoices."),
      statements: flag.optional().describe("Whether the field is shown on statements."),
      portal: flag.optional().describe("Whether the field is shown in the customer portal."),
      publicShow: flag.optional().describe("Whether the field is viewable by your ecosystem (public signup pages)."),
      publicEdit: flag.optional().describe("Whether the field is editable by your ecosystem."),
      hosted: z
        .array(text("a public signup page's id"), { error: "must be an array of public signup page ids" })
        .optional()
        .describe("The public signup pages that show the field."),
    },
    { error: "must be an object { csv?, invoices?, statements?, portal?, publicShow?, publicEdit?, hosted? }" },
  )
  .strict();

/**
 * Where a metafield shows. The service replaces the whole scope on an update ("Partially complete scope
 * attributes will override the existing settings"): a flag left out is sent as off.
 */
export const metafieldScope = scopeShape;

/** `enum` only with "radio" or "dropdown", which need one (a kind's `superRefine` too: the providers check with it). */
export function metafieldChoicesRule(raw: unknown, ctx: z.RefinementCtx): void {
  if (typeof raw !== "object" || raw === null) return;
  const o = raw as Record<string, unknown>;
  const type = o.inputType ?? "text";
  if ((type === "radio" || type === "dropdown") && o.enum === undefined)
    ctx.addIssue({
      code: "custom",
      path: ["enum"],
      params: { presence: true },
      message: `is required with inputType "${type}": the values a customer chooses from`,
    });
  if (type === "text" && o.enum !== undefined)
    ctx.addIssue({
      code: "custom",
      path: ["enum"],
      message: 'must be left out with inputType "text" (or none): only "radio" and "dropdown" take values',
    });
}

const metafieldShape = {
  name: metafieldName.describe("The field's name: its key on every subscription or customer, unique among the resource type's fields."),
  inputType: inputType.optional().describe('"text" (the service\'s default), "radio" or "dropdown".'),
  enum: choices.optional().describe('With "radio" or "dropdown": the values a customer chooses from.'),
  scope: scopeShape.optional().describe("Where the field shows (flags left out are off)."),
};

/** A custom field to create (`createMetafield`). */
export const metafieldInput = z
  .object(metafieldShape, { error: "must be an object { name, inputType?, enum?, scope? }" })
  .strict()
  .superRefine(metafieldChoicesRule, { when: () => true });

/** What `updateMetafield` may change: a new name (a rename), the input type and its values, the scope (replaced whole). */
export const metafieldUpdateInput = z
  .object(
    {
      name: metafieldShape.name.optional().describe("A new name (the field is renamed; its data stays on every subscription or customer)."),
      inputType: metafieldShape.inputType,
      enum: metafieldShape.enum,
      scope: metafieldShape.scope,
    },
    { error: "must be an object { name?, inputType?, enum?, scope? }" },
  )
  .strict()
  .superRefine((raw, ctx) => {
    // Without an input type the service's is kept: values are checked only against one given.
    if (typeof raw === "object" && raw !== null && (raw as { inputType?: unknown }).inputType !== undefined) metafieldChoicesRule(raw, ctx);
  });

const CODE = "a reason code: 1 to 255 characters, not only spaces";

/** A churn reason code's code: its unique identifier (the contract: "The unique identifier for the ReasonCode"). */
export const reasonCodeCode = z
  .string({ error: (i) => `must be ${CODE}, got ${valueText(i.input)}` })
  .min(1, `must not be empty: ${CODE}`)
  .max(255, "must be at most 255 characters")
  // An empty code has its own message above.
  .regex(/^$|\S/, `must not be only spaces: ${CODE}`);

const reasonCodeShape = {
  code: reasonCodeCode.describe("The code's unique identifier among the site's reason codes."),
  description: text("a description", 255)
    .min(1, "must not be empty (the service refuses a blank description)")
    // Only spaces is blank to the service too ("Description: cannot be blank."); an empty one has its own message above.
    .regex(/^$|\S/, "must not be only spaces (the service refuses a blank description): a description of 1 to 255 characters")
    .describe("The friendly summary of what the code signifies, shown to customers who cancel."),
  position: integer(1, "a whole number, 1 or more").optional().describe("The code's place in lists (1 first)."),
};

/** A churn reason code to create (`createReasonCode`). */
export const reasonCodeInput = z.object(reasonCodeShape, { error: "must be an object { code, description, position? }" }).strict();

/** What `updateReasonCode` may change: any of its fields; only those given are sent. */
export const reasonCodeUpdateInput = z
  .object(
    { code: reasonCodeShape.code.optional(), description: reasonCodeShape.description.optional(), position: reasonCodeShape.position },
    { error: "must be an object { code?, description?, position? }" },
  )
  .strict();

const id = (what: string) => integer(1, `a ${what} id, a whole number, 1 or more`);

const OFFER_HANDLE_RULE = "a lowercase letter or number first, then only lowercase letters, numbers, '-' and '_'";

/**
 * An offer's handle: narrower than a catalog object's, as the service's offer create says ("Handles can only contain
 * lowercase letters, numbers, dashes and underscores": no '.' or ':'), so that such a handle fails before it is sent.
 */
const offerHandle = z
  .string({ error: (i) => `must be an offer's handle (a string: ${OFFER_HANDLE_RULE}), got ${valueText(i.input)}` })
  .min(1, `must not be empty: an offer's handle is ${OFFER_HANDLE_RULE}`)
  .max(255, "must be at most 255 characters")
  .regex(/^[a-z0-9][a-z0-9_-]*$/, {
    error: (i) => `must be ${OFFER_HANDLE_RULE} (the service refuses '.' and ':' in an offer's handle), got ${valueText(i.input)}`,
  });

const offerComponent = z
  .object(
    {
      componentId: id("component").describe("The component's id on this site."),
      pricePointId: id("component price point").optional().describe("The component's price point (default: its default price point)."),
      startingQuantity: integer(0, "a whole number of units, 0 or more (an on/off component: 0 or 1)").describe(
        "The quantity the subscription starts with.",
      ),
    },
    { error: "must be an object { componentId, pricePointId?, startingQuantity }" },
  )
  .strict();

/**
 * An offer to create (`createOffer`): a product at a price point, components with starting quantities and
 * coupons, signed up to as one. The service has no update: a changed offer is a new one (archive the old).
 * Its public signup pages are the service's to make (no request sets them); they are read on the offer.
 */
export const offerInput = z
  .object(
    {
      handle: offerHandle.describe("The offer's API handle, unique among the site's offers."),
      name: catalogName().describe("The offer's name."),
      description: text("a description").optional().describe("The offer's description."),
      productId: id("product").describe("The product's id on this site."),
      productPricePointId: id("product price point").optional().describe("The product's price point (default: its default price point)."),
      components: z
        .array(offerComponent, { error: "must be an array of { componentId, pricePointId?, startingQuantity }" })
        .refine((a) => new Set(a.map((c) => (c as { componentId?: unknown }).componentId)).size === a.length, {
          error: "must not name a component twice",
        })
        .optional()
        .describe("The components the offer includes, each with its starting quantity."),
      coupons: z
        .array(z.string({ error: (i) => `must be a coupon code (a string), got ${valueText(i.input)}` }).min(1, "must not be empty"), {
          error: "must be an array of coupon codes",
        })
        .refine((a) => new Set(a).size === a.length, { error: "must not name a coupon twice" })
        .optional()
        .describe("The codes of the coupons the offer applies."),
    },
    { error: "must be an object { handle, name, productId, productPricePointId?, components?, coupons?, description? }" },
  )
  .strict();

/** What clearing a test site removes: `customers` (customers and their subscriptions) or `all` (the catalog too). */
export const cleanupScope = z.enum(["customers", "all"], {
  error: (i) => `must be "customers" (customers and their subscriptions) or "all" (the catalog too), got ${valueText(i.input)}`,
});
/** What clearing a test site removes, checked by {@link cleanupScope}: "customers" or "all". */
export type CleanupScope = "customers" | "all";
