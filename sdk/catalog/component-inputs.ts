import { z } from "zod";
import { flag, integer, valueText } from "../input-values";
import { catalogHandle } from "./inputs";
import { name as catalogName, text } from "./text";
import { priceTier, pricingScheme, tierRule, unitPrice } from "./tiers";

/**
 * What callers give to create and change components and their price points. The fields of each
 * kind are the contract's create schema for it (`Metered Component`, `Quantity Based Component`,
 * `On/Off Component`, `Prepaid Usage Component`, `EBB Component`), in camelCase; a field another
 * kind has is refused by name. `public_signup_page_ids` and the create's inline `price_points` are
 * left out: ids differ per site, and price points have their own create.
 */

/** The five kinds, as `createComponent`'s `kind` takes them. */
export const COMPONENT_KINDS = ["metered", "quantity_based", "on_off", "prepaid_usage", "event_based"] as const;

/** A component's kind, as the create path names it (`…/{kind}_components.json`). */
export type ComponentKind = (typeof COMPONENT_KINDS)[number];

const name = catalogName();
const CHARGE = ["full", "prorated", "none"] as const;
const charge = () => z.enum(CHARGE, { error: (i) => `must be "full", "prorated" or "none", got ${valueText(i.input)}` });
const unit = () => z.enum(["day", "month"], { error: (i) => `must be "day" or "month", got ${valueText(i.input)}` });
const count = () => integer(1, "a whole number, 1 or more");
/** The item categories the contract lists for a component (`item_category`). */
export const ITEM_CATEGORIES = ["Business Software", "Consumer Software", "Digital Services", "Physical Goods", "Other"] as const;
const itemCategory = z.enum(ITEM_CATEGORIES, {
  error: (i) => `must be one of "${ITEM_CATEGORIES.join('", "')}", got ${valueText(i.input)}`,
});

const prices = () =>
  z
    .array(priceTier, { error: "must be an array of tiers [{ startingQuantity, endingQuantity?, unitPrice }]" })
    .describe(
      "The tiers, ascending and contiguous: the first starts at 1, each next one at the previous endingQuantity + 1, the last has no endingQuantity. per_unit takes exactly one tier.",
    );

/** Fields every kind takes. */
const common = {
  handle: catalogHandle.describe("The component's API handle, unique among the site's components (archived ones too)."),
  name: name.describe('The component\'s name, shown to customers and on statements ("Text messages").'),
  description: text("a description").optional().describe("Shown on the hosted signup page."),
  taxable: flag.optional().describe("Whether the component is taxable."),
  taxCode: text("a tax code", 10).optional().describe("The tax code of the component type (e.g. for Avalara)."),
  hideDateRangeOnInvoice: flag
    .optional()
    .describe("Whether invoices leave out the service date range (Relationship Invoicing sites only)."),
  displayOnHostedPage: flag.optional().describe("Whether the component is shown on hosted pages."),
  upgradeCharge: charge()
    .optional()
    .describe('The charge made on an upgrade: "full", "prorated" or "none" (default: the site\'s setting).'),
  downgradeCredit: charge()
    .optional()
    .describe('The credit made on a downgrade: "full", "prorated" or "none" (default: the site\'s setting).'),
};

/** The pricing of every kind but on/off: a unit name, a scheme and its tiers. */
const tiered = {
  unitName: text("a unit name", 255)
    .min(1, 'must not be empty: the unit, singular ("message")')
    .describe('The unit the quantity counts, singular ("message"): the service pluralizes it. Create-only.'),
  pricingScheme: pricingScheme.describe('"per_unit", "volume", "tiered" or "stairstep".'),
  prices: prices(),
  allowFractionalQuantities: flag.optional().describe("Whether quantities may have decimals. Create-only."),
};

/** The default price point's billing frequency (sites with multifrequency). */
const frequency = {
  interval: count().optional().describe("How many intervalUnits between charges of the default price point (sites with multifrequency)."),
  intervalUnit: unit().optional().describe('"day" or "month"; with interval.'),
};

const object = <T extends z.ZodRawShape>(kind: ComponentKind, shape: T, what: string) =>
  z.object({ kind: z.literal(kind).describe(`"${kind}".`), ...shape }, { error: `must be an object { ${what} }` }).strict();

const KEYS = "kind, handle, name, unitName, pricingScheme, prices, …";

/** A metered component: usage reported over the period, billed at its end. */
export const meteredComponentInput = object("metered", { ...common, ...tiered, ...frequency }, KEYS);

/** A quantity-based component: a quantity allocated to the subscription (seats). */
export const quantityBasedComponentInput = object(
  "quantity_based",
  {
    ...common,
    ...tiered,
    ...frequency,
    recurring: flag.optional().describe("Whether the quantity is billed every period (true) or once. Create-only."),
  },
  KEYS,
);

/** An on/off component: a single price when turned on. */
export const onOffComponentInput = object(
  "on_off",
  {
    ...common,
    // On/off has no unit name or scheme in the contract: its price is `unit_price` (the vendor's example also sends one
    // tier starting at 0, which the tier rules would refuse; unit_price is the contract's documented field for it).
    unitPrice: unitPrice.describe("The price charged while the component is on, in the site's currency: a number or decimal text."),
    ...frequency,
  },
  "kind, handle, name, unitPrice, …",
);

const overagePricing = z
  .object(
    {
      pricingScheme: pricingScheme.describe('The overage\'s scheme: "per_unit", "volume", "tiered" or "stairstep".'),
      prices: prices(),
    },
    { error: "must be an object { pricingScheme, prices }" },
  )
  .strict();

/** The prepaid terms of a prepaid usage component or its price points. */
const prepaidTerms = {
  overagePricing: overagePricing.describe("How usage beyond the prepaid quantity is priced."),
  rolloverPrepaidRemainder: flag.optional().describe("Whether unused prepaid units roll over to the next period."),
  renewPrepaidAllocation: flag.optional().describe("Whether the prepaid quantity is renewed at the start of each period."),
  expirationInterval: count()
    .optional()
    .describe("After how many expirationIntervalUnits rolled-over units expire (with rolloverPrepaidRemainder)."),
  expirationIntervalUnit: unit().optional().describe('"day" or "month"; with expirationInterval.'),
};

/** A prepaid usage component: units bought ahead, with overage pricing beyond them. */
export const prepaidUsageComponentInput = object("prepaid_usage", { ...common, ...tiered, ...prepaidTerms }, `${KEYS}, overagePricing`);

// The contract's `EBB Component` create takes no `allow_fractional_quantities` (the other tiered kinds' creates do):
// a create-only field the service would drop, so it is refused by name rather than sent and lost.
const { allowFractionalQuantities: _, ...eventTiered } = tiered;

/** An event-based component: usage counted from events by a metric. */
export const eventBasedComponentInput = object(
  "event_based",
  {
    ...common,
    ...eventTiered,
    ...frequency,
    eventBasedBillingMetricId: integer(1, "a metric's id, a whole number, 1 or more").describe(
      "The id of the event-based billing metric that counts the usage. Create-only.",
    ),
  },
  `${KEYS}, eventBasedBillingMetricId`,
);

const present = (o: Record<string, unknown>, k: string) => o[k] !== undefined;

/** The cross-field rules of a component or price point: the tier rules, and each interval with its unit. */
export function componentRule(raw: unknown, ctx: z.RefinementCtx): void {
  if (typeof raw !== "object" || raw === null) return;
  const o = raw as Record<string, unknown>;
  tierRule(o.prices, o.pricingScheme, ctx);
  if (typeof o.overagePricing === "object" && o.overagePricing !== null) {
    const ov = o.overagePricing as Record<string, unknown>;
    tierRule(ov.prices, ov.pricingScheme, ctx, ["overagePricing", "prices"]);
  }
  for (const [n, u] of [
    ["interval", "intervalUnit"],
    ["expirationInterval", "expirationIntervalUnit"],
  ] as const) {
    if (present(o, n) && !present(o, u)) ctx.addIssue({ code: "custom", path: [u], message: `is required with ${n}: "day" or "month"` });
    if (present(o, u) && !present(o, n))
      ctx.addIssue({ code: "custom", path: [n], message: `is required with ${u}: a whole number, 1 or more` });
  }
}

/** Applies {@link componentRule} even when a field failed. */
const withComponentRule = <S extends z.ZodType>(s: S) => s.superRefine(componentRule, { when: () => true });

/**
 * A component to create (`createComponent`), by `kind`: "metered", "quantity_based", "on_off",
 * "prepaid_usage" or "event_based", each with the fields the contract's create of that kind takes.
 */
export const componentInput = withComponentRule(
  z.discriminatedUnion(
    "kind",
    [meteredComponentInput, quantityBasedComponentInput, onOffComponentInput, prepaidUsageComponentInput, eventBasedComponentInput],
    {
      error: (i) =>
        i.code === "invalid_union" && i.note === "No matching discriminator"
          ? `must be one of "${COMPONENT_KINDS.join('", "')}", got ${valueText((i.input as Record<string, unknown> | undefined)?.kind)}`
          : "must be a component object { kind, handle, name, … }",
    },
  ),
);

/**
 * What `updateComponent` may change: the contract's `Update Component` (handle, name, description,
 * accounting and tax fields, item category, display and upgrade options). The pricing changes
 * through the default price point (`updateComponentPricePoint`); the rest is create-only.
 */
export const componentUpdateInput = z
  .object(
    {
      handle: catalogHandle.optional().describe("The component's new API handle."),
      name: name.optional().describe("The component's new name."),
      description: text("a description").optional().describe("Shown on the hosted signup page."),
      accountingCode: text("an accounting code").optional().describe("An internal id or SKU number."),
      taxable: flag.optional().describe("Whether the component is taxable."),
      taxCode: text("a tax code", 10).optional().describe("The tax code of the component type."),
      itemCategory: itemCategory
        .optional()
        .describe('"Business Software", "Consumer Software", "Digital Services", "Physical Goods" or "Other".'),
      displayOnHostedPage: flag.optional().describe("Whether the component is shown on hosted pages."),
      upgradeCharge: charge().optional().describe('"full", "prorated" or "none".'),
      downgradeCredit: charge().optional().describe('"full", "prorated" or "none".'),
    },
    { error: "must be an object { handle?, name?, description?, accountingCode?, taxable?, taxCode?, itemCategory?, … }" },
  )
  .strict();

const pricePointFields = {
  handle: catalogHandle.describe("The price point's API handle, unique among its component's price points."),
  name: name.describe("The price point's name."),
  pricingScheme: pricingScheme.describe('"per_unit", "volume", "tiered" or "stairstep".'),
  prices: prices(),
  useSiteExchangeRate: flag.optional().describe("Whether other currencies' prices follow the site's exchange rate."),
  taxIncluded: flag.optional().describe("Whether the prices include tax."),
  ...frequency,
};

/**
 * A component price point to create (`createComponentPricePoint`). A prepaid usage component's
 * price point also takes its overage pricing and rollover terms (the contract's `Create Prepaid
 * Usage Component Price Point`); for other kinds the service refuses them.
 */
export const componentPricePointInput = withComponentRule(
  z
    .object(
      { ...pricePointFields, ...prepaidTerms, overagePricing: prepaidTerms.overagePricing.optional() },
      { error: "must be an object { handle, name, pricingScheme, prices, … }" },
    )
    .strict(),
);

/**
 * What `updateComponentPricePoint` may change (the contract's `Update Component Price Point`): its
 * name, handle, scheme, prices, interval and currency and tax options. New prices apply to every
 * subscription on the price point.
 */
export const componentPricePointUpdateInput = withComponentRule(
  z
    .object(
      {
        handle: pricePointFields.handle.optional(),
        name: pricePointFields.name.optional(),
        pricingScheme: pricingScheme.optional().describe('"per_unit", "volume", "tiered" or "stairstep"; with prices.'),
        prices: prices().optional(),
        useSiteExchangeRate: pricePointFields.useSiteExchangeRate,
        taxIncluded: pricePointFields.taxIncluded,
        ...frequency,
      },
      { error: "must be an object { handle?, name?, pricingScheme?, prices?, … }" },
    )
    .strict(),
);

/** The shared pieces, for the provider's Component and ComponentPricePoint kinds (one schema and one description each). */
export {
  frequency as componentFrequency,
  overagePricing as componentOveragePricing,
  prepaidTerms as componentPrepaidTerms,
  prices as componentPrices,
};
