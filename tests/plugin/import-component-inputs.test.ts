import { describe, expect, it } from "vitest";
import { KINDS } from "../../provider/kinds";
import { declaredInputs, type SiteView } from "../../provider/kinds/kind";
import type { Component, ComponentPricePoint, PriceTier } from "../../sdk/results";

/**
 * What `pulumi import` does with a kind's reader (provider/runtime/catalog-import.ts): its fromService over a view
 * of the site, the service's defaults and runtime inputs left out, the site added when the id names one.
 */
async function imported(
  key: "component" | "componentPricePoint",
  o: Component | ComponentPricePoint,
  children: readonly ComponentPricePoint[],
  keys: Readonly<Record<string, string | undefined>>,
  site: string | undefined,
): Promise<Record<string, unknown>> {
  const m = KINDS[key];
  const view: SiteView = { keyOf: async (kind, id) => keys[`${kind} ${id}`], children: async () => children };
  const inputs = declaredInputs(m.kind.catalog as NonNullable<typeof m.kind.catalog>, await (m.reader?.fromService(o, view) ?? {}));
  return site !== undefined ? { ...inputs, site } : inputs;
}

// The inputs `pulumi import` prints for a Component and a ComponentPricePoint, from what the SDK reads
// (every field of its results, nulls already read as undefined): each field printed the way a program
// declares it, and left out where the service holds its value for nothing set. Compared with
// toStrictEqual, so a key printed as undefined (which the JSON round trip would hide) fails too.

const OPEN: PriceTier = { startingQuantity: 101, endingQuantity: undefined, unitPrice: "0.25" };
const TIERS: PriceTier[] = [{ startingQuantity: 1, endingQuantity: 100, unitPrice: "0.5" }, OPEN];
const DECLARED_TIERS = [
  { startingQuantity: 1, endingQuantity: 100, unitPrice: "0.5" },
  { startingQuantity: 101, unitPrice: "0.25" },
];

/** A component as the SDK reads one that answers only its id and the given fields. */
const component = (over: Partial<Component>): Component => ({
  id: 7,
  kind: undefined,
  handle: undefined,
  name: undefined,
  description: undefined,
  productFamilyId: 3,
  unitName: undefined,
  pricingScheme: undefined,
  unitPrice: undefined,
  prices: [],
  overagePrices: [],
  defaultPricePointId: undefined,
  defaultPricePointName: undefined,
  taxable: undefined,
  taxCode: undefined,
  accountingCode: undefined,
  itemCategory: undefined,
  recurring: undefined,
  upgradeCharge: undefined,
  downgradeCredit: undefined,
  hideDateRangeOnInvoice: undefined,
  displayOnHostedPage: undefined,
  allowFractionalQuantities: undefined,
  eventBasedBillingMetricId: undefined,
  interval: undefined,
  intervalUnit: undefined,
  archivedAt: undefined,
  ...over,
});

/** A price point as the SDK reads one that answers only its id and the given fields. */
const pricePoint = (over: Partial<ComponentPricePoint>): ComponentPricePoint => ({
  id: 12,
  handle: undefined,
  name: undefined,
  type: undefined,
  componentId: 7,
  pricingScheme: undefined,
  prices: [],
  overagePrices: [],
  interval: undefined,
  intervalUnit: undefined,
  useSiteExchangeRate: undefined,
  taxIncluded: undefined,
  rolloverPrepaidRemainder: undefined,
  renewPrepaidAllocation: undefined,
  expirationInterval: undefined,
  expirationIntervalUnit: undefined,
  archivedAt: undefined,
  ...over,
});

/** Every prepaid term and the interval set, as a price point of any kind could answer them. */
const ALL_TERMS = {
  interval: 2,
  intervalUnit: "month",
  rolloverPrepaidRemainder: true,
  renewPrepaidAllocation: true,
  expirationInterval: 1,
  expirationIntervalUnit: "day",
} as const;

describe("componentInputs: the inputs printed for an imported Component", () => {
  it.each<[string, Component, ComponentPricePoint | undefined, string | undefined, string | undefined, Record<string, unknown>]>([
    [
      "a metered one with every field set: the prepaid terms are not its own, the event metric neither; the interval is",
      component({
        kind: "metered",
        handle: "sms",
        name: "Text messages",
        description: "Texts sent",
        unitName: "message",
        pricingScheme: "per_unit",
        taxable: true,
        taxCode: "D0000000",
        accountingCode: "SMS-1",
        itemCategory: "Business Software",
        recurring: true,
        upgradeCharge: "prorated",
        downgradeCredit: "none",
        hideDateRangeOnInvoice: true,
        displayOnHostedPage: true,
        allowFractionalQuantities: true,
        eventBasedBillingMetricId: 9,
        overagePrices: [{ startingQuantity: 1, endingQuantity: undefined, unitPrice: "0.2" }],
      }),
      pricePoint({ pricingScheme: "tiered", prices: TIERS, ...ALL_TERMS }),
      "plans",
      "eu",
      {
        productFamily: "handle:plans",
        kind: "metered",
        handle: "sms",
        name: "Text messages",
        unitName: "message",
        description: "Texts sent",
        pricingScheme: "tiered",
        prices: DECLARED_TIERS,
        allowFractionalQuantities: true,
        interval: 2,
        intervalUnit: "month",
        taxable: true,
        taxCode: "D0000000",
        accountingCode: "SMS-1",
        itemCategory: "Business Software",
        hideDateRangeOnInvoice: true,
        displayOnHostedPage: true,
        upgradeCharge: "prorated",
        downgradeCredit: "none",
        site: "eu",
      },
    ],
    [
      "a prepaid one with its terms: overage as tiered for two tiers (the one rule export uses too), rollover, renewal, expiration; no interval; false flags left out",
      component({
        kind: "prepaid_usage",
        handle: "prepaid-texts",
        name: "Prepaid texts",
        unitName: "text",
        taxable: false,
        recurring: false,
        hideDateRangeOnInvoice: false,
        displayOnHostedPage: false,
        allowFractionalQuantities: false,
      }),
      pricePoint({
        pricingScheme: "per_unit",
        prices: [{ startingQuantity: 1, endingQuantity: undefined, unitPrice: "0.1" }],
        overagePrices: TIERS,
        ...ALL_TERMS,
      }),
      "plans",
      undefined,
      {
        productFamily: "handle:plans",
        kind: "prepaid_usage",
        handle: "prepaid-texts",
        name: "Prepaid texts",
        unitName: "text",
        pricingScheme: "per_unit",
        prices: [{ startingQuantity: 1, unitPrice: "0.1" }],
        overagePricing: { pricingScheme: "tiered", prices: DECLARED_TIERS },
        rolloverPrepaidRemainder: true,
        renewPrepaidAllocation: true,
        expirationInterval: 1,
        expirationIntervalUnit: "day",
      },
    ],
    [
      "a prepaid one with its terms off and no overage tiers anywhere: none of them printed",
      component({ kind: "prepaid_usage", handle: "prepaid-calls", name: "Calls", unitName: "call" }),
      pricePoint({
        pricingScheme: "per_unit",
        prices: [{ startingQuantity: 1, endingQuantity: undefined, unitPrice: "1.0" }],
        rolloverPrepaidRemainder: false,
        renewPrepaidAllocation: false,
      }),
      "plans",
      undefined,
      {
        productFamily: "handle:plans",
        kind: "prepaid_usage",
        handle: "prepaid-calls",
        name: "Calls",
        unitName: "call",
        pricingScheme: "per_unit",
        prices: [{ startingQuantity: 1, unitPrice: "1.0" }],
      },
    ],
    [
      "a prepaid one whose price point answers no overage: the component's one tier, as per_unit",
      component({
        kind: "prepaid_usage",
        handle: "prepaid-mms",
        name: "MMS",
        overagePrices: [{ startingQuantity: 1, endingQuantity: undefined, unitPrice: "0.3" }],
      }),
      pricePoint({ pricingScheme: "per_unit", prices: [{ startingQuantity: 1, endingQuantity: undefined, unitPrice: "0.2" }] }),
      "plans",
      undefined,
      {
        productFamily: "handle:plans",
        kind: "prepaid_usage",
        handle: "prepaid-mms",
        name: "MMS",
        pricingScheme: "per_unit",
        prices: [{ startingQuantity: 1, unitPrice: "0.2" }],
        overagePricing: { pricingScheme: "per_unit", prices: [{ startingQuantity: 1, unitPrice: "0.3" }] },
      },
    ],
    [
      "a quantity-based one that recurs (the service's value for nothing set): recurring left out",
      component({ kind: "quantity_based", handle: "seats", name: "Seats", unitName: "seat", recurring: true }),
      undefined,
      "plans",
      undefined,
      {
        productFamily: "handle:plans",
        kind: "quantity_based",
        handle: "seats",
        name: "Seats",
        unitName: "seat",
        pricingScheme: "per_unit",
        prices: [],
      },
    ],
    [
      "an event-based one with its billing metric",
      component({
        kind: "event_based",
        handle: "api-calls",
        name: "API calls",
        unitName: "call",
        pricingScheme: "per_unit",
        eventBasedBillingMetricId: 44,
      }),
      undefined,
      "plans",
      undefined,
      {
        productFamily: "handle:plans",
        kind: "event_based",
        handle: "api-calls",
        name: "API calls",
        unitName: "call",
        pricingScheme: "per_unit",
        prices: [],
        eventBasedBillingMetricId: 44,
      },
    ],
    [
      "an on/off one: the unit price is its default price point's first tier's, not the component's",
      component({
        kind: "on_off",
        handle: "support",
        name: "Support",
        unitName: "on/off",
        unitPrice: "30",
        allowFractionalQuantities: true,
      }),
      pricePoint({ pricingScheme: "per_unit", prices: [{ startingQuantity: 0, endingQuantity: undefined, unitPrice: "25" }] }),
      "plans",
      undefined,
      { productFamily: "handle:plans", kind: "on_off", handle: "support", name: "Support", unitPrice: "25" },
    ],
    [
      "an on/off one with no tiers anywhere: the component's unit price",
      component({ kind: "on_off", handle: "setup", name: "Setup", unitPrice: "30" }),
      undefined,
      "plans",
      undefined,
      { productFamily: "handle:plans", kind: "on_off", handle: "setup", name: "Setup", unitPrice: "30" },
    ],
    [
      "an answer with its id and family only (an empty description): metered, named by its id, per_unit, the family by id",
      component({ description: "", unitName: "" }),
      undefined,
      undefined,
      undefined,
      { productFamily: 3, kind: "metered", handle: "7", name: "7", pricingScheme: "per_unit", prices: [] },
    ],
  ])("%s", async (_, c, pp, familyHandle, site, expected) => {
    // `pp` is the component's default price point, as the component's answer names it.
    const named = pp ? { ...c, defaultPricePointId: pp.id } : c;
    expect(
      await imported("component", named, pp ? [pp] : [], { [`productFamily ${c.productFamilyId}`]: familyHandle }, site),
    ).toStrictEqual(expected);
  });
});

describe("componentPricePointInputs: the inputs printed for an imported ComponentPricePoint", () => {
  const texts = component({ kind: "metered", handle: "texts" });
  it.each<[string, Component, ComponentPricePoint, string | undefined, Record<string, unknown>]>([
    [
      "every field set, the exchange rate not followed and tax included (neither the service's value for nothing set)",
      texts,
      pricePoint({
        handle: "texts-volume",
        name: "Volume",
        type: "catalog",
        pricingScheme: "volume",
        prices: TIERS,
        useSiteExchangeRate: false,
        taxIncluded: true,
        ...ALL_TERMS,
        rolloverPrepaidRemainder: false,
      }),
      "eu",
      {
        component: "handle:texts",
        handle: "texts-volume",
        name: "Volume",
        pricingScheme: "volume",
        prices: DECLARED_TIERS,
        interval: 2,
        intervalUnit: "month",
        useSiteExchangeRate: false,
        taxIncluded: true,
        // false is what the service holds when nothing is set: left out, as export and diff leave it.
        renewPrepaidAllocation: true,
        expirationInterval: 1,
        expirationIntervalUnit: "day",
        site: "eu",
      },
    ],
    [
      "the default one, the exchange rate followed and tax not included: left out",
      texts,
      pricePoint({
        handle: "original",
        name: "Original",
        type: "default",
        pricingScheme: "per_unit",
        useSiteExchangeRate: true,
        taxIncluded: false,
      }),
      undefined,
      { component: "handle:texts", handle: "original", name: "Original", pricingScheme: "per_unit", prices: [], default: true },
    ],
    [
      "an interval and an expiration each without its unit: neither printed",
      texts,
      pricePoint({ handle: "half", name: "Half", interval: 1, expirationInterval: 3 }),
      undefined,
      { component: "handle:texts", handle: "half", name: "Half", prices: [] },
    ],
    [
      "units without their interval and expiration: neither printed",
      texts,
      pricePoint({ handle: "units", name: "Units", intervalUnit: "month", expirationIntervalUnit: "day" }),
      undefined,
      { component: "handle:texts", handle: "units", name: "Units", prices: [] },
    ],
    [
      "an answer with its id only, of a component without a handle: the component by id, named by its id",
      component({ handle: undefined }),
      pricePoint({}),
      undefined,
      { component: 7, handle: "12", name: "12", prices: [] },
    ],
  ])("%s", async (_, c, pp, site, expected) => {
    expect(
      await imported("componentPricePoint", { ...pp, componentId: pp.componentId ?? c.id }, [], { [`component ${c.id}`]: c.handle }, site),
    ).toStrictEqual(expected);
  });
});
