import { afterEach, describe, expect, it } from "vitest";
import { component } from "../../../provider/kinds/component";
import type { Simulator } from "../../../simulator";
import { mutations, UNKNOWN } from "../support";
import { KINDS, sms, startSite, support, TIERS } from "./fixtures";

/** The kind's input schema, as check() runs it: its issues, or none. */
const issuesOf = (raw: unknown) => {
  const r = component.kind.inputs.safeParse(raw);
  return r.success ? [] : r.error.issues.map((i) => ({ code: i.code, path: i.path, message: i.message }));
};

/**
 * Component's check: bad input named by its property before anything is sent (the tiers, another kind's field,
 * a field this kind requires, the family's reference), and the kind rule on the input schema itself (no object,
 * no kind, keys that are not the create's).
 */

describe("Component: check names the property before anything is sent", () => {
  let sim: Simulator;
  afterEach(async () => sim?.close());

  /** Family `rockets`, the provider object and a direct context (fixtures.ts). */
  async function setup() {
    const site = await startSite();
    sim = site.sim;
    return site;
  }

  it.each([
    [
      "a gap between tiers",
      { ...sms, prices: [TIERS[0], { startingQuantity: 150, unitPrice: "0.25" }] },
      "prices",
      /must be 101.*leaves quantities 101–149 unpriced/,
    ],
    ["a first tier not at 1", { ...sms, prices: [{ startingQuantity: 2, unitPrice: 1 }] }, "prices", /must be 1/],
    ["an open tier before the last", { ...sms, prices: [{ startingQuantity: 1, unitPrice: 1 }, TIERS[1]] }, "prices", /only the last tier/],
    ["a unitPrice on a metered component", { ...sms, unitPrice: 3 }, "unitPrice", /not taken by a "metered" component.*"on_off"/],
    ["recurring on a metered component", { ...sms, recurring: true }, "recurring", /only "quantity_based" components take it/],
    ["prices on an on/off component", { ...KINDS[2][1], prices: TIERS, pricingScheme: "tiered" }, "prices", /not taken by a "on_off"/],
    ["a metered component without its unit name", { ...sms, unitName: undefined }, "unitName", /required for a "metered"/],
    [
      "an event based component without its metric",
      { ...KINDS[4][1], eventBasedBillingMetricId: undefined },
      "eventBasedBillingMetricId",
      /required/,
    ],
    ["an unknown kind", { ...sms, kind: "usage" }, "kind", /one of "metered"/],
    ["a family that is neither an id nor handle:", { ...sms, productFamily: "rockets" }, "productFamily", /handle:<handle>/],
    [
      "a price with 9 decimals",
      { ...sms, prices: [{ startingQuantity: 1, unitPrice: "0.000000001" }], pricingScheme: "per_unit" },
      "prices",
      /8 decimal/,
    ],
    [
      "a bad overage tier",
      { ...KINDS[3][1], overagePricing: { pricingScheme: "volume", prices: [{ startingQuantity: 3, unitPrice: 1 }] } },
      "overagePricing",
      /must be 1/,
    ],
  ])("%s", async (_, inputs, property, reason) => {
    const { components } = await setup();
    const { failures } = await components.check!({}, inputs);
    // A tier's failure names the tier's field under its list (prices.1.startingQuantity).
    const named = (f: { property: string }) => f.property.split(".")[0] === property;
    expect(failures?.some(named)).toBe(true);
    expect(failures?.find(named)?.reason).toMatch(reason);
    expect(mutations(sim)).toEqual([]);
  });

  it("an unknown tier list still checks the other fields and the kind's rules", async () => {
    const { components } = await setup();
    const { failures } = await components.check!({}, { ...sms, prices: UNKNOWN, handle: "Bad", recurring: true });
    expect(failures?.map((f) => f.property).sort()).toEqual(["handle", "recurring"]);
  });
});

describe("the kind rule, on the input schema itself", () => {
  it.each([
    ["null", null, "null"],
    ["undefined", undefined, "undefined"],
    ["a string", "sms", "string"],
  ])("%s is refused as no object, the rule across fields not run on it", (_, raw, type) => {
    expect(issuesOf(raw)).toEqual([{ code: "invalid_type", path: [], message: `Invalid input: expected object, received ${type}` }]);
  });

  it("without a kind, the flat schema names the kind and the tier rules still hold, each once", () => {
    expect(issuesOf({ ...sms, kind: undefined, prices: [{ startingQuantity: 2, unitPrice: 1 }] })).toEqual([
      {
        code: "invalid_value",
        path: ["kind"],
        message: 'must be one of "metered", "quantity_based", "on_off", "prepaid_usage", "event_based", got undefined',
      },
      { code: "custom", path: ["prices", 0, "startingQuantity"], message: "must be 1: the first tier (prices[0]) starts at 1, got 2" },
    ]);
  });

  it("the family, adopt, site, accountingCode and itemCategory, keys left undefined and keys no kind declares are not the create's: no issue", () => {
    expect(
      issuesOf({
        ...sms,
        productFamily: 7,
        adopt: true,
        site: "eu",
        accountingCode: "SMS-1",
        itemCategory: "Other",
        recurring: undefined,
        unitPrice: undefined,
      }),
    ).toEqual([]);
    // Unknown keys are the runtime's to name (once): the kind rule leaves them out of the create's body.
    expect(issuesOf({ ...sms, bogus: 1 })).toEqual([]);
  });

  it("a key another kind takes is named with every kind that takes it", () => {
    expect(issuesOf({ ...support, allowFractionalQuantities: true })).toEqual([
      {
        code: "custom",
        path: ["allowFractionalQuantities"],
        message:
          'must be left out: it is not taken by a "on_off" component (only "metered", "quantity_based", "prepaid_usage" components take it)',
      },
    ]);
  });

  it("a rule across fields keeps its own message; a field the kind requires left out is asked for", () => {
    expect(issuesOf({ ...sms, interval: 1 })).toEqual([
      { code: "custom", path: ["intervalUnit"], message: 'is required with interval: "day" or "month"' },
    ]);
    expect(issuesOf({ ...sms, kind: "prepaid_usage" })).toEqual([
      { code: "custom", path: ["overagePricing"], message: 'is required for a "prepaid_usage" component' },
    ]);
  });
});
