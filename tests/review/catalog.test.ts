import { describe, expect, it } from "vitest";
import { catalogKindOf, dollars, reviewSummary } from "../../review";

// The catalog section, on previews built by hand in the shapes real ones have (see edge.test.ts): each
// case a preview and lines the summary must hold (each exactly) and text it must not.

const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const T = "pulumi-nodejs:dynamic/billing:";
const urn = (type: string, name: string) => `urn:pulumi:prod::billing::${type}::${name}`;
const STACK = { op: "same", urn: urn("pulumi:pulumi:Stack", "billing-prod"), detailedDiff: null };

type Inputs = Record<string, unknown>;
const step = (op: string, kind: string, name: string, news?: Inputs, olds?: Inputs, more: object = {}) => ({
  op,
  urn: urn(`${T}${kind}`, name),
  ...(news ? { newState: { type: `${T}${kind}`, inputs: { __provider: "exports.handler = __f0;", ...news } } } : {}),
  ...(olds ? { oldState: { type: `${T}${kind}`, inputs: { __provider: "exports.handler = __f0;", ...olds }, outputs: {} } } : {}),
  detailedDiff: null,
  ...more,
});
const preview = (steps: object[], more: object = {}) => ({ steps: [STACK, ...steps], ...more });

const PRO = { productFamily: "handle:saas", handle: "pro", name: "Pro", priceInCents: 4900, interval: 1, intervalUnit: "month" };
const ANNUAL = {
  product: "handle:pro",
  handle: "pro-annual",
  name: "Annual",
  priceInCents: 49000,
  interval: 12,
  intervalUnit: "month",
  default: true,
};
const BUNDLE = {
  handle: "bundle",
  name: "Bundle",
  product: "handle:pro",
  productPricePoint: "handle:pro-annual",
  components: [
    { component: "handle:seats", pricePoint: "handle:seats-bulk", startingQuantity: 5 },
    { component: "handle:sso", startingQuantity: 1 },
  ],
};
const SMS = {
  productFamily: "handle:saas",
  kind: "metered",
  handle: "sms",
  name: "Text messages",
  unitName: "message",
  pricingScheme: "tiered",
  prices: [
    { startingQuantity: 1, endingQuantity: 100, unitPrice: "0.10" },
    { startingQuantity: 101, unitPrice: "0.08" },
  ],
};
const change = (from: Inputs, to: Inputs) => ({ pricingChange: { fields: Object.keys(to), from, to } });
const PRICE_EFFECT = "  - As the service applies it: a new default price point; existing subscriptions keep theirs.";

interface Case {
  readonly name: string;
  readonly input: object;
  readonly has: readonly string[];
  /** `has` must also come in this order. */
  readonly ordered?: boolean;
  readonly hasNot?: readonly string[];
}

const OWN = { ...ANNUAL, default: undefined, useSiteExchangeRate: false };
const SMS_VOLUME = {
  component: "handle:sms",
  handle: "sms-volume",
  name: "Volume",
  pricingScheme: "volume",
  prices: [
    { startingQuantity: 1, endingQuantity: 1000, unitPrice: "0.05" },
    { startingQuantity: 1001, unitPrice: "0.03" },
  ],
};
const TENOFF = { productFamily: "handle:saas", code: "TENOFF", name: "Ten off", amountInCents: 1000 };

const OWN_PRO = { ...PRO, useSiteExchangeRate: false };
/** What Product's check() says a change of currency amounts alone does. */
const PRODUCT_IN_PLACE =
  "in place: its default price point's prices in those currencies change in place (the product and its default stay); a currency left out keeps its prices: the service has no delete of a currency price";

const CASES: readonly Case[] = [
  {
    name: "a product's currency amounts alone: a line per currency in its money, applied in place on its default price point as check() said",
    input: preview([
      step(
        "update",
        "Product",
        "pro",
        {
          ...OWN_PRO,
          currencyPrices: { EUR: { baseline: 45 }, GBP: { baseline: 39 } },
          preview: {
            pricingChange: {
              fields: ["currencyPrices"],
              from: { currencyPrices: { EUR: { baseline: 44 }, GBP: { baseline: 39 } } },
              to: { currencyPrices: { EUR: { baseline: 45 }, GBP: { baseline: 39 } } },
              effect: PRODUCT_IN_PLACE,
            },
          },
        },
        { ...OWN_PRO, currencyPrices: { EUR: { baseline: 44 }, GBP: { baseline: 39 } } },
      ),
    ]),
    has: [
      "- Product `pro`: **update** in place",
      "  - currencyPrices.EUR: baseline EUR 44.00 → baseline EUR 45.00",
      "  - In place: its default price point's prices in those currencies change in place (the product and its default stay); a currency left out keeps its prices: the service has no delete of a currency price.",
    ],
    hasNot: ["currencyPrices.GBP", "a new default price point"],
  },
  {
    name: "a product's price with its currency amounts: both, as the service applies a price change (a new default price point)",
    input: preview([
      step(
        "update",
        "Product",
        "pro",
        { ...OWN_PRO, priceInCents: 5900, currencyPrices: { EUR: { baseline: 54 } } },
        { ...OWN_PRO, currencyPrices: { EUR: { baseline: 44 } } },
      ),
    ]),
    has: ["  - priceInCents: \\$49.00 → \\$59.00", "  - currencyPrices.EUR: baseline EUR 44.00 → baseline EUR 54.00", PRICE_EFFECT],
  },
  {
    name: "a price point's currency amounts: a line per currency in its money, a currency left out kept, applied in place",
    input: preview([
      step(
        "update",
        "ProductPricePoint",
        "pro-annual",
        { ...OWN, currencyPrices: { EUR: { baseline: 9.5 }, CAD: { baseline: 12 } } },
        { ...OWN, currencyPrices: { EUR: { baseline: 9 }, GBP: { baseline: 8 } } },
      ),
    ]),
    has: [
      "- Price point `pro-annual` of product `pro`: **update** in place",
      "  - currencyPrices.CAD: none → baseline CAD 12.00",
      "  - currencyPrices.EUR: baseline EUR 9.00 → baseline EUR 9.50",
      "  - currencyPrices.GBP: baseline GBP 8.00 → kept: the service has no delete of a currency price",
      "  - Its prices in those currencies change in place (the price point stays); a currency left out keeps its prices: the service has no delete of a currency price.",
    ],
  },
  {
    name: "a coupon's currency amounts: a pricing change, in place",
    input: preview([
      step("update", "Coupon", "tenoff", { ...TENOFF, currencyPrices: { EUR: 10 } }, { ...TENOFF, currencyPrices: { EUR: 9 } }),
    ]),
    has: [
      "  - currencyPrices.EUR: EUR 9.00 → EUR 10.00",
      "  - Its discount changes in place (the coupon stays): it is what the coupon takes off from now on.",
    ],
  },
  {
    name: "creates: a family, a product, a price point of it; the declared values, amounts as money, intervals in words",
    input: preview([
      step("create", "ProductPricePoint", "pro-annual", { ...ANNUAL, trialPriceInCents: 0, trialInterval: 14, trialIntervalUnit: "day" }),
      step("create", "Product", "pro", PRO),
      step("create", "ProductFamily", "saas", { handle: "saas", name: "SaaS" }),
    ]),
    has: [
      "### Catalog (3)",
      "- Product family `saas`: **create**: name: SaaS",
      "- Product `pro`: **create**: name: Pro, productFamily: saas, priceInCents: \\$49.00, interval: per month",
      "- Price point `pro-annual` of product `pro`: **create**: name: Annual, default: true, priceInCents: \\$490.00, interval: every 12 months, trialPriceInCents: \\$0.00, trialInterval: 14 days",
    ],
    ordered: true,
    hasNot: ["### Other changes", "As the service applies it"],
  },
  {
    name: "adopted, as check() says in preview.adopt: the id, and the pricing converged as the service applies it",
    input: preview([
      step("create", "Product", "pro", {
        ...PRO,
        preview: { adopt: { id: 123, handle: "pro" }, ...change({ priceInCents: 3900 }, { priceInCents: 4900 }) },
      }),
    ]),
    has: [
      "- Product `pro`: **adopt** (id 123)",
      "  - priceInCents: \\$39.00 → \\$49.00",
      "  - Adopts the existing product (id 123) instead of creating one, then converges it to the declaration.",
      PRICE_EFFECT,
    ],
    ordered: true,
  },
  {
    name: "issue 42: an adopted component price point whose tier changes: the tier old → new, and what converging it does",
    input: preview([
      step("create", "ComponentPricePoint", "sms-volume", {
        ...SMS_VOLUME,
        preview: {
          adopt: { id: 40002, handle: "sms-volume" },
          ...change(
            { prices: SMS_VOLUME.prices.map((t, i) => (i === 0 ? { ...t, unitPrice: "0.06" } : t)) },
            { prices: SMS_VOLUME.prices },
          ),
        },
      }),
    ]),
    has: [
      "- Component price point `sms-volume` of component `sms`: **adopt** (id 40002)",
      "  - prices.1–1000: 0.06 → 0.05",
      "  - Adopts the existing component price point (id 40002) instead of creating one, then converges it to the declaration.",
      "  - The adopted price point's prices change in place: subscriptions on it pay the new prices from their next charge.",
    ],
    ordered: true,
  },
  {
    name: "adopted with the same pricing: no change listed, no pricing effect",
    input: preview([
      step("create", "ProductFamily", "saas", { handle: "saas", name: "SaaS", preview: { adopt: { id: 7, handle: "saas" } } }),
    ]),
    has: [
      "- Product family `saas`: **adopt** (id 7)",
      "  - Adopts the existing product family (id 7) instead of creating one, then converges it to the declaration.",
    ],
    hasNot: ["As the service applies it", "name: SaaS"],
  },
  {
    name: "adopted, as the provider's notice says (no urn, the handle and kind named)",
    input: preview([step("create", "ProductPricePoint", "pro-annual", ANNUAL)], {
      diagnostics: [
        { severity: "info#err", message: "adopted price point `pro-annual` (id 1231) of site eu\n" },
        { severity: "info#err", message: "adopted product `pro-annual` (id 9) of site eu\n" },
      ],
    }),
    has: ["- Price point `pro-annual` of product `pro`: **adopt** (id 1231)"],
    hasNot: ["(id 9)"],
  },
  {
    name: "a product's price change: old → new as money, and how the service applies it",
    input: preview([
      step(
        "update",
        "Product",
        "pro",
        { ...PRO, priceInCents: 5900, preview: change({ priceInCents: 4900 }, { priceInCents: 5900 }) },
        PRO,
      ),
    ]),
    has: ["- Product `pro`: **update** in place", "  - priceInCents: \\$49.00 → \\$59.00", PRICE_EFFECT],
    ordered: true,
  },
  {
    name: "a product's interval: the length and its unit as one change, in words",
    input: preview([
      step("update", "Product", "pro", { ...PRO, interval: 12 }, PRO),
      step("update", "Product", "daily", { ...PRO, handle: "daily", interval: 30, intervalUnit: "day" }, { ...PRO, handle: "daily" }),
    ]),
    has: ["  - interval: per month → every 12 months", "  - interval: per month → every 30 days", PRICE_EFFECT],
    hasNot: ["intervalUnit"],
  },
  {
    name: "trial, initial charge and expiration: none and never in words, amounts as money",
    input: preview([
      step(
        "update",
        "Product",
        "pro",
        {
          ...PRO,
          trialPriceInCents: 0,
          trialInterval: 14,
          trialIntervalUnit: "day",
          initialChargeInCents: 123456,
          expirationInterval: 12,
          expirationIntervalUnit: "month",
        },
        { ...PRO, expirationIntervalUnit: "never" },
      ),
    ]),
    has: [
      "  - trialPriceInCents: not set → \\$0.00",
      "  - trialInterval: none → 14 days",
      "  - initialChargeInCents: not set → \\$1,234.56",
      "  - expirationInterval: never → after 12 months",
    ],
    ordered: true,
  },
  {
    name: "only descriptive fields: changed in place, no pricing effect",
    input: preview([step("update", "Product", "pro", { ...PRO, name: "Pro 2", description: "For teams" }, PRO)]),
    has: ["- Product `pro`: **update** in place", "  - name: Pro → Pro 2", "  - description: not set → For teams"],
    hasNot: ["As the service applies it", "priceInCents"],
  },
  {
    name: "the pricing check() recorded as held (drift) is the old value, not the recorded input",
    input: preview([
      step(
        "update",
        "Product",
        "pro",
        { ...PRO, priceInCents: 5900, preview: change({ priceInCents: 4500 }, { priceInCents: 5900 }) },
        PRO,
      ),
    ]),
    has: ["  - priceInCents: \\$45.00 → \\$59.00"],
    hasNot: ["\\$49.00"],
  },
  {
    name: "a new value not known until up",
    input: preview([step("update", "Product", "pro", { ...PRO, priceInCents: UNKNOWN }, PRO)]),
    has: ["  - priceInCents: \\$49.00 → unknown until up", PRICE_EFFECT],
    hasNot: [UNKNOWN],
  },
  {
    name: "the acknowledgement of a pricing change is said; it is no change itself",
    input: preview([step("update", "Product", "pro", { ...PRO, priceInCents: 5900, pricingChangeAcknowledged: true }, PRO)]),
    has: ["  - Pricing change acknowledged (pricingChangeAcknowledged: true)."],
    hasNot: ["pricingChangeAcknowledged: not set"],
  },
  {
    name: "a default price point's replacement: the four steps in order, then its changes",
    input: preview([
      step("replace", "ProductPricePoint", "pro-annual", { ...ANNUAL, priceInCents: 52000 }, ANNUAL, { replaceReasons: ["priceInCents"] }),
    ]),
    has: [
      "- Price point `pro-annual` of product `pro`: **replace**, in this order:",
      "  1. rename the old price point's handle (which frees it)",
      "  2. create the new one",
      "  3. promote it to the product's default",
      "  4. archive the old one (subscriptions on it keep it)",
      "  - priceInCents: \\$490.00 → \\$520.00",
      "  - New signups get the new pricing (the new price point is the default); subscriptions on the old one keep theirs.",
    ],
    ordered: true,
  },
  {
    name: "a price point that is not the default: no promotion",
    input: preview([
      step("replace", "ProductPricePoint", "pro-annual", { ...ANNUAL, default: false, interval: 6 }, { ...ANNUAL, default: false }),
    ]),
    has: [
      "  2. create the new one",
      "  3. archive the old one (subscriptions on it keep it)",
      "  - interval: every 12 months → every 6 months",
    ],
    ordered: true,
    hasNot: ["promote"],
  },
  {
    name: "whether it is the default not known yet: the promotion said conditional",
    input: preview([step("replace", "ProductPricePoint", "pro-annual", { ...ANNUAL, default: UNKNOWN, priceInCents: 1 }, ANNUAL)]),
    has: [
      "  3. promote it to the product's default (if default: not known until up)",
      "  4. archive the old one (subscriptions on it keep it)",
    ],
  },
  {
    name: "an event stream's replacement halves are one replacement",
    input: preview([
      step("create-replacement", "ProductPricePoint", "pro-annual", { ...ANNUAL, priceInCents: 1 }, ANNUAL),
      step("replace", "ProductPricePoint", "pro-annual", { ...ANNUAL, priceInCents: 1 }, ANNUAL),
      step("delete-replaced", "ProductPricePoint", "pro-annual", undefined, ANNUAL),
    ]),
    has: ["### Catalog (1)", "  1. rename the old price point's handle (which frees it)"],
    hasNot: ["**archive**"],
  },
  {
    name: "deletes: products and price points archived, a family removed from the stack only, the default's rule said",
    input: preview([
      step("delete", "ProductFamily", "saas", undefined, { handle: "saas", name: "SaaS" }),
      step("delete", "Product", "pro", undefined, PRO),
      step("delete", "ProductPricePoint", "pro-annual", undefined, ANNUAL),
      step("delete", "ProductPricePoint", "pro-promo", undefined, { ...ANNUAL, handle: "pro-promo", default: false }),
    ]),
    has: [
      "- Product family `saas`: **remove**",
      "  - Leaves the stack; the service keeps the family (it has no delete).",
      "- Product `pro`: **archive**",
      "  - Archived: new signups can no longer choose it; its subscriptions keep it; its handle stays taken.",
      "- Price point `pro-annual` of product `pro`: **archive**",
      "  - It is declared the product's default, which the service cannot archive: promote another price point first, or archive its product in the same update.",
      "- Price point `pro-promo` of product `pro`: **archive**",
      "  - Archived: its subscriptions keep it; its handle stays taken.",
    ],
    ordered: true,
  },
  {
    name: "a policy violation and a warning on an object are listed under it, not again at the end",
    input: preview([step("update", "Product", "pro", { ...PRO, priceInCents: 5900 }, PRO)], {
      diagnostics: [{ urn: urn(`${T}Product`, "pro"), severity: "warning", message: "warning: the site's currency is EUR" }],
      policyViolations: [
        {
          urn: urn(`${T}Product`, "pro"),
          policyPackName: "pulumi-subscription-billing",
          policyName: "pricing-change-acknowledged-in-production",
          enforcementLevel: "mandatory",
          message: "Product 'pro' changes its pricing on a production stack",
        },
      ],
    }),
    has: [
      "  - Warning: the site's currency is EUR",
      "  - Policy **mandatory** `pulumi-subscription-billing/pricing-change-acknowledged-in-production`: Product 'pro' changes its pricing on a production stack",
    ],
    ordered: true,
    hasNot: ["### Policy violations", "### Warnings"],
  },
  {
    name: "objects on named sites: a heading per site, the top-level site first",
    input: preview([
      step("create", "Product", "pro-eu", { ...PRO, site: "eu" }),
      step("create", "Product", "pro", PRO),
      step("create", "Product", "pro-us", { ...PRO, site: "us" }),
    ]),
    has: [
      "#### Default site (top-level `billing:*` config)",
      "- Product `pro`: **create**: name: Pro, productFamily: saas, priceInCents: \\$49.00, interval: per month",
      "#### Site `eu`",
      "- Product `pro` (resource `pro-eu`): **create**: name: Pro, productFamily: saas, priceInCents: \\$49.00, interval: per month",
      "#### Site `us`",
    ],
    ordered: true,
  },
  {
    name: "the plugin's types (billing:index:…) are catalog objects too",
    input: preview([
      {
        op: "create",
        urn: urn("billing:index:Product", "pro"),
        newState: { type: "billing:index:Product", inputs: PRO },
        detailedDiff: null,
      },
    ]),
    has: ["- Product `pro`: **create**: name: Pro, productFamily: saas, priceInCents: \\$49.00, interval: per month"],
    hasNot: ["### Other changes"],
  },
  {
    name: "markup in handles and values stays inert",
    input: preview([step("update", "Product", "p", { ...PRO, handle: "a`b|c", name: "**bold** <b>" }, { ...PRO, handle: "a`b|c" })]),
    has: ["- Product ``a`b|c`` (resource `p`): **update** in place", "  - name: Pro → \\*\\*bold\\*\\* \\<b\\>"],
  },
  {
    name: "a price point's product by id, or not known until up",
    input: preview([
      step("create", "ProductPricePoint", "a", { ...ANNUAL, handle: "a", product: 123 }),
      step("create", "ProductPricePoint", "b", { ...ANNUAL, handle: "b", product: UNKNOWN }),
    ]),
    has: [
      "- Price point `a` of product 123: **create**: name: Annual, default: true, priceInCents: \\$490.00, interval: every 12 months",
      "- Price point `b` of a product unknown until up: **create**: name: Annual, default: true, priceInCents: \\$490.00, interval: every 12 months",
    ],
  },
  {
    name: "a component's tiers changed in place: the tiers before and after, and whom the change affects",
    input: preview([
      step(
        "update",
        "Component",
        "sms",
        {
          ...SMS,
          prices: [
            { startingQuantity: 1, endingQuantity: 100, unitPrice: "0.10" },
            { startingQuantity: 101, unitPrice: "0.07" },
          ],
          // What check() records for an in-place update (the kind's stable ids), never a change to show.
          componentId: 30001,
          defaultPricePointId: 40001,
          productFamilyId: 9001,
        },
        SMS,
      ),
    ]),
    has: [
      "- Component `sms`: **update** in place",
      "  - prices.101+: 0.08 → 0.07",
      "  - Its default price point's prices change in place: subscriptions on that price point pay the new prices from their next charge.",
    ],
    ordered: true,
    hasNot: ["componentId", "defaultPricePointId", "productFamilyId", "not set →"],
  },
  {
    name: "issue 42: a component price point's tier, a coupon's amount and another's percentage: each old → new, in money, a pricing change",
    input: preview([
      step(
        "update",
        "ComponentPricePoint",
        "sms-volume",
        {
          ...SMS_VOLUME,
          prices: [
            { startingQuantity: 1, endingQuantity: 1000, unitPrice: "0.04" },
            { startingQuantity: 1001, unitPrice: "0.03" },
          ],
        },
        SMS_VOLUME,
      ),
      step("update", "Coupon", "tenoff", { ...TENOFF, amountInCents: 1200 }, TENOFF),
      step(
        "update",
        "Coupon",
        "launch",
        { productFamily: "handle:saas", code: "LAUNCH15", name: "Launch", percentage: 20 },
        { productFamily: "handle:saas", code: "LAUNCH15", name: "Launch", percentage: 15 },
      ),
    ]),
    has: [
      "- Component price point `sms-volume` of component `sms`: **update** in place",
      "  - prices.1–1000: 0.05 → 0.04",
      "  - The price point's prices change in place: subscriptions on it pay the new prices from their next charge.",
      "- Coupon `LAUNCH15` (resource `launch`): **update** in place",
      "  - percentage: 15 → 20",
      "  - Its discount changes in place (the coupon stays): it is what the coupon takes off from now on.",
      "- Coupon `TENOFF` (resource `tenoff`): **update** in place",
      "  - amountInCents: \\$10.00 → \\$12.00",
      "  - Its discount changes in place (the coupon stays): it is what the coupon takes off from now on.",
    ],
    ordered: true,
    hasNot: ["1001+: 0.03"],
  },
  {
    name: "creates: a component, a price point of it, a coupon; coupons by code, tiers in words",
    input: preview([
      step("create", "Coupon", "launch", { productFamily: "handle:saas", code: "LAUNCH15", name: "Launch", percentage: 15 }),
      step("create", "ComponentPricePoint", "sms-annual", {
        component: "handle:sms",
        handle: "sms-annual",
        name: "Annual",
        pricingScheme: "per_unit",
        prices: [{ startingQuantity: 1, unitPrice: "0.09" }],
      }),
      step("create", "Component", "sms", SMS),
    ]),
    has: [
      "- Component `sms`: **create**: name: Text messages, productFamily: saas, kind: metered, pricingScheme: tiered, prices: 1–100 at 0.10; 101+ at 0.08, unitName: message",
      "- Component price point `sms-annual` of component `sms`: **create**: name: Annual, pricingScheme: per\\_unit, prices: 1+ at 0.09",
      "- Coupon `LAUNCH15` (resource `launch`): **create**: name: Launch, productFamily: saas, percentage: 15",
    ],
    ordered: true,
  },
  {
    name: "a component's kind changed: replaced, its handle freed first",
    input: preview([step("replace", "Component", "sms", { ...SMS, kind: "quantity_based" }, SMS)]),
    has: [
      "- Component `sms`: **replace**, in this order:",
      "  1. rename the old component's handle (which frees it)",
      "  2. create the new one",
      "  3. archive the old one (subscriptions on it keep it)",
      "  - kind: metered → quantity\\_based",
    ],
    ordered: true,
  },
  {
    name: "a coupon and a component removed: archived, in the service's terms",
    input: preview([
      step("delete", "Coupon", "launch", undefined, { productFamily: "handle:saas", code: "LAUNCH15", name: "Launch", percentage: 15 }),
      step("delete", "Component", "sms", undefined, SMS),
    ]),
    has: [
      "- Component `sms`: **archive**",
      "  - Archived: it can no longer be added to subscriptions; subscriptions that have it keep it; its handle stays taken.",
      "- Coupon `LAUNCH15` (resource `launch`): **archive**",
    ],
    ordered: true,
  },
  {
    name: "reason codes: created, changed in place, deleted at the service (which cannot undo it), in the facet's words",
    input: preview([
      step("create", "ReasonCode", "pricey", { code: "pricey", description: "Too dear" }),
      step("update", "ReasonCode", "other", { code: "other", description: "Other", position: 2 }, { code: "other", description: "Other" }),
      step("delete", "ReasonCode", "gone", undefined, { code: "gone", description: "Gone" }),
    ]),
    has: [
      "- Reason code `gone`: **delete**",
      "  - Deleted at the service (it cannot be undone): customers who cancel can no longer pick it.",
      "- Reason code `other`: **update** in place",
      "- Reason code `pricey`: **create**: description: Too dear",
    ],
    hasNot: ["archive"],
  },
  {
    name: "a custom field deleted: its data with it, and the flag that allows it, in the facet's words",
    input: preview([
      step("delete", "CustomField", "region", undefined, { resourceType: "customers", name: "Region", deleteData: true }),
      step(
        "update",
        "CustomField",
        "plan",
        { resourceType: "subscriptions", name: "Plan tier" },
        { resourceType: "subscriptions", name: "Tier" },
      ),
    ]),
    has: [
      "- Custom field `Plan tier` (resource `plan`): **update** in place",
      "  - name: Tier → Plan tier",
      "- Custom field `Region` (resource `region`): **delete**",
      "  - Deleted at the service with its data on every customer (it cannot be undone); refused while it holds data unless deleteData: true was applied.",
    ],
  },
  {
    name: "an offer: created, replaced under a new handle (the new one first, then the old one archived), archived, in the facet's words",
    input: preview([
      step("create", "Offer", "bundle", BUNDLE),
      step(
        "replace",
        "Offer",
        "spring",
        { ...BUNDLE, handle: "spring-2", coupons: ["handle:SPRING25"] },
        { ...BUNDLE, handle: "spring" },
        {
          replaceReasons: ["handle"],
        },
      ),
      step("delete", "Offer", "old", undefined, { ...BUNDLE, handle: "old" }),
    ]),
    has: [
      "- Offer `bundle`: **create**: name: Bundle, product: pro, components: seats × 5 at seats-bulk; sso × 1, productPricePoint: pro-annual",
      "- Offer `old`: **archive**",
      "  - Archived: it can no longer be signed up to; subscriptions made from it keep what they have, and its handle stays taken.",
      "- Offer `spring-2` (resource `spring`): **replace**, in this order:",
      "  1. create the new offer (or adopt, or unarchive, the one holding its handle)",
      "  2. archive the old one",
      "  - handle: spring → spring-2",
      "  - coupons: not set → SPRING25",
    ],
    ordered: true,
  },
];

describe("billing-review: the catalog section", () => {
  it.each(CASES)("$name", ({ input, has, hasNot, ordered }) => {
    const out = reviewSummary(input).split("\n");
    let at = -1;
    for (const line of has) {
      const found = out.indexOf(line, ordered ? at + 1 : 0);
      expect(found, `${line}\n--- in ---\n${out.join("\n")}`).toBeGreaterThanOrEqual(0);
      at = found;
    }
    for (const text of ["__provider", "exports.handler", ...(hasNot ?? [])]) expect(out.join("\n")).not.toContain(text);
  });

  it("the same summary whatever the order of steps", () => {
    // One step per resource, as a real preview has: the first case's of each urn.
    const byUrn = new Map<string, object>();
    for (const c of CASES)
      for (const st of (c.input as { steps: { urn: string }[] }).steps.slice(1)) if (!byUrn.has(st.urn)) byUrn.set(st.urn, st);
    const steps = [...byUrn.values()];
    expect(steps.length).toBeGreaterThan(8);
    expect(reviewSummary(preview([...steps].reverse()))).toBe(reviewSummary(preview(steps)));
  });

  it.each([
    [0, "$0.00"],
    [5, "$0.05"],
    [4900, "$49.00"],
    [123456, "$1,234.56"],
    [100_000_000, "$1,000,000.00"],
    [-250, "-$2.50"],
  ])("dollars(%d) is %s", (cents, text) => {
    expect(dollars(cents)).toBe(text);
  });

  it.each([
    ["pulumi-nodejs:dynamic/billing:ProductFamily", "ProductFamily"],
    ["pulumi-nodejs:dynamic/billing:Product", "Product"],
    ["pulumi-nodejs:dynamic/billing:ProductPricePoint", "ProductPricePoint"],
    ["billing:index:ProductPricePoint", "ProductPricePoint"],
    ["billing:index:Component", "Component"],
    ["pulumi-nodejs:dynamic/billing:ComponentPricePoint", "ComponentPricePoint"],
    ["billing:index:Coupon", "Coupon"],
    ["pulumi-nodejs:dynamic/billing:SubscriptionMigration", undefined],
    ["pulumi-nodejs:dynamic/billing:ProductX", undefined],
    ["other:index:Product", undefined],
  ])("catalogKindOf(%s) is %s", (type, kind) => {
    expect(catalogKindOf(type)).toBe(kind);
  });
});
