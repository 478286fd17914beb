import type { z } from "zod";
import { propertiesOf } from "../../provider/kinds/docs";
import { documentedInterface, fieldDoc } from "../../provider/kinds/tsdoc";
import {
  componentPricePointInput,
  componentPricePointUpdateInput,
  componentUpdateInput,
  eventBasedComponentInput,
  meteredComponentInput,
  onOffComponentInput,
  prepaidUsageComponentInput,
  quantityBasedComponentInput,
} from "../../sdk/catalog/component-inputs";
import { couponInput } from "../../sdk/catalog/coupon-inputs";
import {
  migrationInput,
  pricePointInput,
  pricePointUpdateInput,
  pricingInput,
  productFamilyInput,
  productInput,
  productUpdateInput,
  webhookFilterInput,
} from "../../sdk/inputs";
import { metafieldInput, metafieldUpdateInput, offerInput, reasonCodeInput, reasonCodeUpdateInput } from "../../sdk/site-config/inputs";

/**
 * The SDK's input types as interfaces with a doc per field, generated like the kinds' Args (and by the same
 * `npm run docs`) from the schemas that check them: a field's doc is its `.describe()`, the type the schema's
 * own `z.input`. The prose about each type as a whole (its rules across fields) is written here.
 */
interface Spec {
  readonly name: string;
  readonly schema: z.ZodType;
  /** The schema as the generated file names it: `<module>.<export>`, the modules imported as namespaces. */
  readonly from: string;
  readonly doc: string;
}

const SPECS: readonly Spec[] = [
  {
    name: "MigrationInput",
    schema: migrationInput,
    from: "inputs.migrationInput",
    doc: "Where `migrateSubscription` and `previewMigration` move a subscription, checked by {@link migrationInput}: exactly one of `productId` or `productHandle`, at most one of `pricePointId` or `pricePointHandle` (neither picks the product's default). The SDK always sends the four options, defaults included, so the record says exactly what was asked.",
  },
  {
    name: "WebhookFilter",
    schema: webhookFilterInput,
    from: "inputs.webhookFilterInput",
    doc: "Which webhooks `listWebhooks` returns, checked by {@link webhookFilterInput}: every field optional, all given must match; both dates are included, and until may not be before since.",
  },
  {
    name: "ProductFamilyInput",
    schema: productFamilyInput,
    from: "catalog.productFamilyInput",
    doc: "A product family to create (`createProductFamily`), checked by {@link productFamilyInput}. The service never updates or deletes a family.",
  },
  {
    name: "ProductInput",
    schema: productInput,
    from: "catalog.productInput",
    doc: "A product to create (`createProduct`), checked by {@link productInput}: its fields and its default price point's pricing (see {@link PricingInput} for the rules across the pricing fields).",
  },
  {
    name: "ProductUpdateInput",
    schema: productUpdateInput,
    from: "catalog.productUpdateInput",
    doc: "The fields of `updateProduct`, checked by {@link productUpdateInput}: any of {@link ProductInput}'s, all optional; only those given are sent. A pricing change makes the service create a new price point and make it the default: existing subscriptions keep the one they are on.",
  },
  {
    name: "PricingInput",
    schema: pricingInput,
    from: "catalog.pricingInput",
    doc: 'A pricing, checked by {@link pricingInput}: `priceInCents` every `interval` `intervalUnit`s; a trial needs all of `trialPriceInCents`, `trialInterval` and `trialIntervalUnit`; `initialChargeInCents` is charged once, at signup or, with `initialChargeAfterTrial`, after the trial; `expirationInterval` with `expirationIntervalUnit` ends subscriptions after that long, and an `expirationIntervalUnit` of "never" takes no interval.',
  },
  {
    name: "PricePointInput",
    schema: pricePointInput,
    from: "catalog.pricePointInput",
    doc: "A price point to create (`createPricePoint`, `createPricePoints`), checked by {@link pricePointInput}: its handle, name and pricing (the rules of {@link PricingInput}).",
  },
  {
    name: "PricePointUpdateInput",
    schema: pricePointUpdateInput,
    from: "catalog.pricePointUpdateInput",
    doc: "What `updatePricePoint` changes, checked by {@link pricePointUpdateInput}: `handle` and/or `priceInCents`. The rest of a price point cannot be changed: create another instead.",
  },
  {
    name: "MeteredComponentInput",
    schema: meteredComponentInput,
    from: "components.meteredComponentInput",
    doc: 'A metered component to create (`createComponent` with `kind: "metered"`): usage reported over a period and billed at its end, priced by `pricingScheme` and its tiers (`prices`, checked by {@link tierRule}).',
  },
  {
    name: "QuantityBasedComponentInput",
    schema: quantityBasedComponentInput,
    from: "components.quantityBasedComponentInput",
    doc: 'A quantity-based component to create (`kind: "quantity_based"`): a quantity allocated to a subscription (seats), priced by `pricingScheme` and its tiers.',
  },
  {
    name: "OnOffComponentInput",
    schema: onOffComponentInput,
    from: "components.onOffComponentInput",
    doc: 'An on/off component to create (`kind: "on_off"`): one `unitPrice` charged while it is on; no unit name and no tiers.',
  },
  {
    name: "PrepaidUsageComponentInput",
    schema: prepaidUsageComponentInput,
    from: "components.prepaidUsageComponentInput",
    doc: 'A prepaid usage component to create (`kind: "prepaid_usage"`): units bought ahead, priced by `pricingScheme` and its tiers, with `overagePricing` beyond them and the rollover terms.',
  },
  {
    name: "EventBasedComponentInput",
    schema: eventBasedComponentInput,
    from: "components.eventBasedComponentInput",
    doc: 'An event-based component to create (`kind: "event_based"`): usage counted from events by the metric `eventBasedBillingMetricId`, priced by `pricingScheme` and its tiers.',
  },
  {
    name: "ComponentUpdateInput",
    schema: componentUpdateInput,
    from: "components.componentUpdateInput",
    doc: "What `updateComponent` changes, checked by {@link componentUpdateInput}: only the fields given are sent. Prices change through the default price point (`updateComponentPricePoint`); kind, family, unit name, recurring, fractional quantities and the event metric are create-only.",
  },
  {
    name: "ComponentPricePointInput",
    schema: componentPricePointInput,
    from: "components.componentPricePointInput",
    doc: "A component price point to create (`createComponentPricePoint`), checked by {@link componentPricePointInput}: handle, name, scheme and tiers (the rules of {@link tierRule}); the overage and rollover fields are for a prepaid usage component's price points only.",
  },
  {
    name: "ComponentPricePointUpdateInput",
    schema: componentPricePointUpdateInput,
    from: "components.componentPricePointUpdateInput",
    doc: "What `updateComponentPricePoint` changes, checked by {@link componentPricePointUpdateInput}: only the fields given. New `prices` replace the tiers, for every subscription on the price point.",
  },
  {
    name: "CouponInput",
    schema: couponInput,
    from: "coupons.couponInput",
    doc: "A coupon to create (`createCoupon`) or the whole of one to update (`updateCoupon`), checked by {@link couponInput}: its code (uppercase letters, digits and % @ + - _ .), name, and exactly one of `percentage` and `amountInCents`; restrictions are the site's own product and component ids.",
  },
  {
    name: "MetafieldInput",
    schema: metafieldInput,
    from: "site.metafieldInput",
    doc: 'A custom field (metafield) of subscriptions or customers to create (`createMetafield`), checked by {@link metafieldInput}: its name (its key), its input type, the values a "radio" or "dropdown" field offers (required with those, refused with "text"), and where it shows.',
  },
  {
    name: "MetafieldUpdateInput",
    schema: metafieldUpdateInput,
    from: "site.metafieldUpdateInput",
    doc: "What `updateMetafield` changes on a custom field named by its current name, checked by {@link metafieldUpdateInput}: a new name renames it (its data stays); a scope replaces the whole scope (flags left out are off).",
  },
  {
    name: "ReasonCodeInput",
    schema: reasonCodeInput,
    from: "site.reasonCodeInput",
    doc: "A churn reason code to create (`createReasonCode`), checked by {@link reasonCodeInput}: its code (unique on the site), its description, and its place in lists.",
  },
  {
    name: "ReasonCodeUpdateInput",
    schema: reasonCodeUpdateInput,
    from: "site.reasonCodeUpdateInput",
    doc: "The fields of `updateReasonCode`, checked by {@link reasonCodeUpdateInput}: any of {@link ReasonCodeInput}'s; only those given are sent.",
  },
  {
    name: "OfferInput",
    schema: offerInput,
    from: "site.offerInput",
    doc: "An offer to create (`createOffer`), checked by {@link offerInput}: a product (at a price point, or its default), components with their starting quantities, and coupons by code, signed up to as one. The service has no update of an offer: a changed one is created anew and the old one archived.",
  },
];

/** Where the generated file lives, relative to the repository. */
export const SDK_INPUT_TYPES_FILE = "sdk/generated/inputs.ts";

/** The generated file: each input type as a documented interface, with the proof that it is the schema's type. */
export function sdkInputTypesFile(): string {
  const typeOf = (s: Spec) => `${s.name}Types`;
  const lines = [
    "// Generated by `npm run docs` from the SDK's input schemas (sdk/inputs.ts, sdk/catalog/*inputs.ts, sdk/site-config/inputs.ts, scripts/lib/sdk-input-types.ts): edit those, not this file.",
    'import type { z } from "zod";',
    'import type * as components from "../catalog/component-inputs";',
    'import type * as coupons from "../catalog/coupon-inputs";',
    'import type * as catalog from "../catalog/inputs";',
    'import type * as inputs from "../inputs";',
    'import type * as site from "../site-config/inputs";',
    'import type { Assert, Same } from "../type-checks";',
    "",
    ...SPECS.map((s) => `type ${typeOf(s)} = z.input<typeof ${s.from}>;`),
  ];
  for (const s of SPECS) {
    lines.push(
      "",
      ...documentedInterface(s.name, [s.doc], propertiesOf(s.schema, "input"), typeOf(s), (p) => fieldDoc(s.name, p, "input")),
    );
  }
  lines.push(
    "",
    "/** Fails to compile when these interfaces and the schemas' types differ (run `npm run docs`). */",
    "export type Proof = [",
    ...SPECS.map((s) => `  Assert<Same<${s.name}, ${typeOf(s)}>>,`),
    "];",
    "",
  );
  return lines.join("\n");
}
