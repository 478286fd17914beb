import { beforeEach, describe, expect, it, vi } from "vitest";
import { componentInput, componentPricePointUpdateInput, problemsOf } from "../../../../sdk";

/**
 * The component and component price point inputs (sdk/catalog/component-inputs.ts): each kind's fields, text lengths,
 * enums, whole numbers, objects and arrays, the cross-field rules, and what comes back of an accepted input; each
 * refusal word for word. The schemas are built when the module loads, so the tests that pin them load it afresh
 * (vi.resetModules, then import) and compare a fresh copy's errors by their fields, not by instanceof.
 */

const problems = (schema: { safeParse: (v: unknown) => any }, v: unknown) => {
  const r = schema.safeParse(v);
  return r.success ? [] : problemsOf(r.error).map((p: { property: string; message: string }) => `${p.property}: ${p.message}`);
};

describe("component inputs", () => {
  const tiers = [{ startingQuantity: 1, unitPrice: 1 }];
  it.each([
    { kind: "metered", handle: "sms", name: "SMS", unitName: "message", pricingScheme: "per_unit", prices: tiers },
    { kind: "quantity_based", handle: "seats", name: "Seats", unitName: "seat", pricingScheme: "volume", prices: tiers, recurring: true },
    { kind: "on_off", handle: "support", name: "Support", unitPrice: "100.00" },
    {
      kind: "prepaid_usage",
      handle: "minutes",
      name: "Minutes",
      unitName: "minute",
      pricingScheme: "per_unit",
      prices: tiers,
      overagePricing: { pricingScheme: "per_unit", prices: tiers },
      rolloverPrepaidRemainder: true,
      expirationInterval: 15,
      expirationIntervalUnit: "day",
    },
    {
      kind: "event_based",
      handle: "api-calls",
      name: "API calls",
      unitName: "call",
      pricingScheme: "tiered",
      prices: tiers,
      eventBasedBillingMetricId: 7,
    },
  ])("$kind is accepted", (input) => {
    expect(problems(componentInput, input)).toStrictEqual([]);
  });

  it("an unknown kind is named with the accepted ones", () => {
    expect(problems(componentInput, { kind: "usage", handle: "x", name: "X" })).toStrictEqual([
      'kind: must be one of "metered", "quantity_based", "on_off", "prepaid_usage", "event_based", got "usage"',
    ]);
  });

  it("a field of another kind is refused by name; a missing handle and bad tiers are reported together", () => {
    const found = problems(componentInput, {
      kind: "metered",
      name: "SMS",
      unitName: "message",
      pricingScheme: "tiered",
      recurring: true,
      prices: [{ startingQuantity: 2, unitPrice: 1 }],
    });
    expect(found.some((p) => p.startsWith("handle:"))).toBe(true);
    expect(found.some((p) => p.includes("recurring"))).toBe(true);
    expect(found.some((p) => p.startsWith("prices.0.startingQuantity: must be 1"))).toBe(true);
  });

  it("the overage tiers are checked under their own path", () => {
    const found = problems(componentInput, {
      kind: "prepaid_usage",
      handle: "m",
      name: "M",
      unitName: "minute",
      pricingScheme: "per_unit",
      prices: tiers,
      overagePricing: { pricingScheme: "tiered", prices: [{ startingQuantity: 1, endingQuantity: 5, unitPrice: 1 }] },
    });
    expect(found).toStrictEqual([
      "overagePricing.prices.1.endingQuantity: must be left out: the last tier (overagePricing.prices[0]) is open-ended, pricing every quantity from its startingQuantity up".replace(
        "prices.1",
        "prices.0",
      ),
    ]);
  });

  it("a price point update checks tiers only when given, and an interval needs its unit", () => {
    expect(problems(componentPricePointUpdateInput, { name: "New" })).toStrictEqual([]);
    expect(problems(componentPricePointUpdateInput, { interval: 2 })).toStrictEqual([
      'intervalUnit: is required with interval: "day" or "month"',
    ]);
  });
});

// Only the modules pinned here (and what they import) load afresh: the mutation run gives a test that reloads the whole
// SDK every module-level mutant of it, and runs each such mutant against every such test (mutation/README.md).
const fresh = async () => ({
  ...(await import("../../../../sdk/catalog/component-inputs")),
  ...(await import("../../../../sdk/validation")),
});

type Sdk = Awaited<ReturnType<typeof fresh>>;

type SchemaName =
  | "componentInput"
  | "componentUpdateInput"
  | "componentPricePointInput"
  | "componentPricePointUpdateInput"
  | "meteredComponentInput"
  | "quantityBasedComponentInput"
  | "onOffComponentInput"
  | "prepaidUsageComponentInput"
  | "eventBasedComponentInput";

/** What a freshly loaded schema makes of `v`: the parsed value, or its problems as the SDK reports them. */
async function parse(schema: SchemaName, v: unknown) {
  const sdk = await fresh();
  const r = (sdk[schema] as { safeParse: (v: unknown) => { success: boolean; data?: unknown; error?: unknown } }).safeParse(v);
  return r.success ? { data: r.data } : { problems: sdk.problemsOf(r.error as Parameters<Sdk["problemsOf"]>[0]) };
}

const refused = (property: string, message: string) => ({ problems: [{ property, message }] });

const ONE = [{ startingQuantity: 1, unitPrice: 1 }];

const METERED = { kind: "metered", handle: "sms", name: "SMS", unitName: "message", pricingScheme: "per_unit", prices: ONE };

const POINT = { handle: "wholesale", name: "Wholesale", pricingScheme: "per_unit", prices: ONE };

const PREPAID = {
  kind: "prepaid_usage",
  handle: "minutes",
  name: "Minutes",
  unitName: "minute",
  pricingScheme: "per_unit",
  prices: ONE,
  overagePricing: { pricingScheme: "per_unit", prices: ONE },
};

const COMPONENT_KINDS_TEXT = '"metered", "quantity_based", "on_off", "prepaid_usage", "event_based"';

describe("text fields: a string, within its length", () => {
  beforeEach(() => {
    vi.resetModules();
  });

  it.each<[string, SchemaName, Record<string, unknown>, string, string]>([
    ["a component's name", "componentInput", METERED, "name", "a name"],
    ["a component's description", "componentInput", METERED, "description", "a description"],
    ["a component's tax code", "componentInput", METERED, "taxCode", "a tax code"],
    ["a component's unit name", "componentInput", METERED, "unitName", "a unit name"],
    ["an update's name", "componentUpdateInput", {}, "name", "a name"],
    ["an update's description", "componentUpdateInput", {}, "description", "a description"],
    ["an update's accounting code", "componentUpdateInput", {}, "accountingCode", "an accounting code"],
    ["an update's tax code", "componentUpdateInput", {}, "taxCode", "a tax code"],
    ["a price point's name", "componentPricePointInput", POINT, "name", "a name"],
  ])("%s: a number is refused, saying what was wanted", async (_, schema, base, field, what) => {
    expect(await parse(schema, { ...base, [field]: 5 })).toStrictEqual(refused(field, `must be ${what} (a string), got 5`));
  });

  it.each<[string, SchemaName, Record<string, unknown>, string, string]>([
    ["a component's name", "componentInput", METERED, "name", "must not be empty (a name of 1 to 255 characters)"],
    ["a component's unit name", "componentInput", METERED, "unitName", 'must not be empty: the unit, singular ("message")'],
    ["an update's name", "componentUpdateInput", {}, "name", "must not be empty (a name of 1 to 255 characters)"],
  ])("%s: 1 to 255 characters", async (_, schema, base, field, empty) => {
    for (const ok of ["x", "xy", "x".repeat(254), "x".repeat(255)])
      expect(await parse(schema, { ...base, [field]: ok })).toStrictEqual({ data: { ...base, [field]: ok } });
    expect(await parse(schema, { ...base, [field]: "" })).toStrictEqual(refused(field, empty));
    expect(await parse(schema, { ...base, [field]: "x".repeat(256) })).toStrictEqual(refused(field, "must be at most 255 characters"));
  });

  it("a description and an accounting code have no length bound; a tax code at most 10 characters (the contract's)", async () => {
    const long = "d".repeat(10_000);
    const input = { description: long, taxCode: "t".repeat(10), accountingCode: long };
    expect(await parse("componentUpdateInput", input)).toStrictEqual({ data: input });
    expect(await parse("componentUpdateInput", { taxCode: "t".repeat(11) })).toStrictEqual(
      refused("taxCode", "must be at most 10 characters"),
    );
  });
});

describe("enums: each member accepted, a near miss refused word for word", () => {
  beforeEach(() => {
    vi.resetModules();
  });

  it.each(["full", "prorated", "none"])("upgradeCharge and downgradeCredit take %j, on a create and an update", async (v) => {
    expect(await parse("componentInput", { ...METERED, upgradeCharge: v, downgradeCredit: v })).toStrictEqual({
      data: { ...METERED, upgradeCharge: v, downgradeCredit: v },
    });
    expect(await parse("componentUpdateInput", { upgradeCharge: v, downgradeCredit: v })).toStrictEqual({
      data: { upgradeCharge: v, downgradeCredit: v },
    });
  });

  it.each<[SchemaName, Record<string, unknown>, string]>([
    ["componentInput", METERED, "upgradeCharge"],
    ["componentInput", METERED, "downgradeCredit"],
    ["componentUpdateInput", {}, "upgradeCharge"],
    ["componentUpdateInput", {}, "downgradeCredit"],
  ])('%s refuses %s: "Full"', async (schema, base, field) => {
    expect(await parse(schema, { ...base, [field]: "Full" })).toStrictEqual(
      refused(field, 'must be "full", "prorated" or "none", got "Full"'),
    );
  });

  it.each(["day", "month"])("an interval unit of %j is taken with its interval, on each schema that has one", async (u) => {
    expect(await parse("componentInput", { ...METERED, interval: 1, intervalUnit: u })).toStrictEqual({
      data: { ...METERED, interval: 1, intervalUnit: u },
    });
    expect(await parse("componentPricePointUpdateInput", { interval: 2, intervalUnit: u })).toStrictEqual({
      data: { interval: 2, intervalUnit: u },
    });
    expect(await parse("componentInput", { ...PREPAID, expirationInterval: 1, expirationIntervalUnit: u })).toStrictEqual({
      data: { ...PREPAID, expirationInterval: 1, expirationIntervalUnit: u },
    });
  });

  it.each(["week", "Day", "days", ""])("an interval unit of %j is refused", async (u) => {
    const message = `must be "day" or "month", got ${JSON.stringify(u)}`;
    expect(await parse("componentInput", { ...METERED, interval: 1, intervalUnit: u })).toStrictEqual(refused("intervalUnit", message));
    expect(await parse("componentInput", { ...PREPAID, expirationInterval: 1, expirationIntervalUnit: u })).toStrictEqual(
      refused("expirationIntervalUnit", message),
    );
  });

  const CATEGORIES = ["Business Software", "Consumer Software", "Digital Services", "Physical Goods", "Other"];
  it.each(CATEGORIES)("an item category of %j is taken", async (c) => {
    expect(await parse("componentUpdateInput", { itemCategory: c })).toStrictEqual({ data: { itemCategory: c } });
  });

  it.each(["other", "Hardware", "Business  Software", 3])("an item category of %j is refused, naming the five", async (c) => {
    expect(await parse("componentUpdateInput", { itemCategory: c })).toStrictEqual(
      refused(
        "itemCategory",
        `must be one of "Business Software", "Consumer Software", "Digital Services", "Physical Goods", "Other", got ${JSON.stringify(c)}`,
      ),
    );
  });

  it("ITEM_CATEGORIES and COMPONENT_KINDS list them in order", async () => {
    const { ITEM_CATEGORIES, COMPONENT_KINDS } = await fresh();
    expect(ITEM_CATEGORIES).toStrictEqual(CATEGORIES);
    expect(COMPONENT_KINDS).toStrictEqual(["metered", "quantity_based", "on_off", "prepaid_usage", "event_based"]);
  });
});

describe("whole numbers from 1", () => {
  beforeEach(() => {
    vi.resetModules();
  });

  it.each<[string, Record<string, unknown>, string, string]>([
    ["interval", METERED, "interval", "a whole number, 1 or more"],
    ["expirationInterval", PREPAID, "expirationInterval", "a whole number, 1 or more"],
    [
      "eventBasedBillingMetricId",
      { ...METERED, kind: "event_based", eventBasedBillingMetricId: 7 },
      "eventBasedBillingMetricId",
      "a metric's id, a whole number, 1 or more",
    ],
  ])("%s: 1 taken, 0 refused", async (_, base, field, what) => {
    const unitField =
      field === "interval" ? { intervalUnit: "month" } : field === "expirationInterval" ? { expirationIntervalUnit: "day" } : {};
    expect(await parse("componentInput", { ...base, ...unitField, [field]: 1 })).toStrictEqual({
      data: { ...base, ...unitField, [field]: 1 },
    });
    expect(await parse("componentInput", { ...base, ...unitField, [field]: 0 })).toStrictEqual(refused(field, `must be ${what}, got 0`));
  });
});

describe("objects and arrays: each refusal names what it wanted", () => {
  beforeEach(() => {
    vi.resetModules();
  });

  it.each<[SchemaName, string]>([
    ["meteredComponentInput", "kind, handle, name, unitName, pricingScheme, prices, …"],
    ["quantityBasedComponentInput", "kind, handle, name, unitName, pricingScheme, prices, …"],
    ["onOffComponentInput", "kind, handle, name, unitPrice, …"],
    ["prepaidUsageComponentInput", "kind, handle, name, unitName, pricingScheme, prices, …, overagePricing"],
    ["eventBasedComponentInput", "kind, handle, name, unitName, pricingScheme, prices, …, eventBasedBillingMetricId"],
    ["componentUpdateInput", "handle?, name?, description?, accountingCode?, taxable?, taxCode?, itemCategory?, …"],
    ["componentPricePointInput", "handle, name, pricingScheme, prices, …"],
    ["componentPricePointUpdateInput", "handle?, name?, pricingScheme?, prices?, …"],
  ])("%s refuses a string: must be an object { %s }", async (schema, what) => {
    expect(await parse(schema, "sms")).toStrictEqual(refused("(input)", `must be an object { ${what} }`));
  });

  it.each<[string, unknown]>([
    ["a string", "sms"],
    ["null", null],
    ["an array", [METERED]],
  ])("a component that is %s is refused as a whole", async (_, v) => {
    expect(await parse("componentInput", v)).toStrictEqual(refused("(input)", "must be a component object { kind, handle, name, … }"));
  });

  it.each<[string, Record<string, unknown>, string]>([
    ["no kind", { handle: "sms", name: "SMS" }, "undefined"],
    ["a kind of another case", { ...METERED, kind: "Metered" }, '"Metered"'],
    ["a number", { ...METERED, kind: 1 }, "1"],
  ])("a component with %s is refused naming the five kinds", async (_, v, got) => {
    expect(await parse("componentInput", v)).toStrictEqual(refused("kind", `must be one of ${COMPONENT_KINDS_TEXT}, got ${got}`));
  });

  it("the kind schemas take only their own kind", async () => {
    expect(await parse("meteredComponentInput", { ...METERED, kind: "quantity_based" })).toStrictEqual(
      refused("kind", 'Invalid input: expected "metered"'),
    );
  });

  it.each<[string, SchemaName, Record<string, unknown>]>([
    ["a component", "componentInput", METERED],
    ["a price point", "componentPricePointInput", POINT],
    ["a price point update", "componentPricePointUpdateInput", {}],
  ])("%s's prices must be an array", async (_, schema, base) => {
    expect(await parse(schema, { ...base, prices: { startingQuantity: 1, unitPrice: 1 } })).toStrictEqual(
      refused("prices", "must be an array of tiers [{ startingQuantity, endingQuantity?, unitPrice }]"),
    );
  });

  it.each<[string, SchemaName, Record<string, unknown>]>([
    ["a prepaid component", "componentInput", PREPAID],
    ["a price point", "componentPricePointInput", POINT],
  ])("%s's overage pricing must be an object", async (_, schema, base) => {
    expect(await parse(schema, { ...base, overagePricing: "per_unit" })).toStrictEqual(
      refused("overagePricing", "must be an object { pricingScheme, prices }"),
    );
  });

  it("an overage pricing's unknown key is refused by name", async () => {
    expect(await parse("componentInput", { ...PREPAID, overagePricing: { ...PREPAID.overagePricing, unitName: "minute" } })).toStrictEqual(
      refused("overagePricing.unitName", "is not a known property"),
    );
  });
});

describe("the cross-field rules run on anything, even what failed its fields", () => {
  beforeEach(() => {
    vi.resetModules();
  });

  it.each<[SchemaName, unknown, string]>([
    ["componentPricePointInput", null, "must be an object { handle, name, pricingScheme, prices, … }"],
    ["componentPricePointUpdateInput", null, "must be an object { handle?, name?, pricingScheme?, prices?, … }"],
    ["componentInput", null, "must be a component object { kind, handle, name, … }"],
  ])("%s: %j is one problem, not a crash", async (schema, v, message) => {
    expect(await parse(schema, v)).toStrictEqual(refused("(input)", message));
  });

  it("a function carrying an interval is not an object: only the object's refusal, no interval rule", async () => {
    const f = Object.assign(() => 0, { interval: 2, prices: [{ startingQuantity: 2, unitPrice: 1 }], pricingScheme: "tiered" });
    expect(await parse("componentPricePointUpdateInput", f)).toStrictEqual(
      refused("(input)", "must be an object { handle?, name?, pricingScheme?, prices?, … }"),
    );
  });

  it("the componentRule itself ignores what is not an object", async () => {
    const { componentRule } = await fresh();
    const issues: unknown[] = [];
    const ctx = { addIssue: (i: unknown) => issues.push(i), value: undefined, issues: [] } as unknown as Parameters<
      typeof componentRule
    >[1];
    for (const v of [null, undefined, "interval", 2, Object.assign(() => 0, { interval: 2 })]) componentRule(v, ctx);
    expect(issues).toStrictEqual([]);
  });

  it.each<[SchemaName, Record<string, unknown>]>([
    ["componentInput", { ...METERED, pricingScheme: "tiered" }],
    ["componentPricePointInput", { ...POINT, pricingScheme: "tiered" }],
    ["componentPricePointUpdateInput", { pricingScheme: "tiered" }],
  ])("%s: a bad name and a bad first tier are reported together", async (schema, base) => {
    expect(await parse(schema, { ...base, name: "", interval: 3, prices: [{ startingQuantity: 2, unitPrice: 1 }] })).toStrictEqual({
      problems: [
        { property: "name", message: "must not be empty (a name of 1 to 255 characters)" },
        { property: "prices.0.startingQuantity", message: "must be 1: the first tier (prices[0]) starts at 1, got 2" },
        { property: "intervalUnit", message: 'is required with interval: "day" or "month"' },
      ],
    });
  });
});

describe("accepted inputs come back as given", () => {
  beforeEach(() => {
    vi.resetModules();
  });

  const TIERS = [
    { startingQuantity: 1, endingQuantity: 100, unitPrice: "5.00" },
    { startingQuantity: 101, unitPrice: 4.5 },
  ];
  const COMMON = {
    description: "Text messages sent",
    taxable: true,
    taxCode: "D0000000",
    hideDateRangeOnInvoice: false,
    displayOnHostedPage: true,
    upgradeCharge: "prorated",
    downgradeCredit: "none",
  };
  it.each<[string, Record<string, unknown>]>([
    [
      "metered",
      {
        ...METERED,
        ...COMMON,
        pricingScheme: "tiered",
        prices: TIERS,
        allowFractionalQuantities: true,
        interval: 2,
        intervalUnit: "month",
      },
    ],
    [
      "quantity_based",
      {
        ...METERED,
        ...COMMON,
        kind: "quantity_based",
        pricingScheme: "volume",
        prices: TIERS,
        recurring: false,
        interval: 7,
        intervalUnit: "day",
      },
    ],
    ["on_off", { kind: "on_off", handle: "support", name: "Support", ...COMMON, unitPrice: "100.00", interval: 1, intervalUnit: "month" }],
    [
      "prepaid_usage",
      {
        ...PREPAID,
        ...COMMON,
        overagePricing: { pricingScheme: "stairstep", prices: TIERS },
        rolloverPrepaidRemainder: true,
        renewPrepaidAllocation: false,
        expirationInterval: 15,
        expirationIntervalUnit: "day",
      },
    ],
    ["event_based", { ...METERED, ...COMMON, kind: "event_based", eventBasedBillingMetricId: 7, interval: 1, intervalUnit: "month" }],
  ])("%s, with every field it takes", async (_, input) => {
    expect(await parse("componentInput", input)).toStrictEqual({ data: input });
  });

  it("a price point with its prepaid terms, and an update of each field", async () => {
    const point = {
      ...POINT,
      pricingScheme: "tiered",
      prices: TIERS,
      useSiteExchangeRate: true,
      taxIncluded: false,
      overagePricing: { pricingScheme: "per_unit", prices: ONE },
      rolloverPrepaidRemainder: false,
      renewPrepaidAllocation: true,
      expirationInterval: 2,
      expirationIntervalUnit: "month",
    };
    expect(await parse("componentPricePointInput", point)).toStrictEqual({ data: point });
    const update = {
      handle: "sms-2",
      name: "SMS 2",
      description: "",
      accountingCode: "ACC-1",
      taxable: false,
      taxCode: "",
      itemCategory: "Digital Services",
      displayOnHostedPage: false,
      upgradeCharge: "full",
      downgradeCredit: "prorated",
    };
    expect(await parse("componentUpdateInput", update)).toStrictEqual({ data: update });
  });
});

describe("refusals of a value that is not an object", () => {
  beforeEach(() => {
    vi.resetModules();
  });

  it("a price point update", async () => {
    const { componentPricePointUpdateInput } = await import("../../../../sdk/catalog/component-inputs");
    const { problemsOf } = await import("../../../../sdk/validation");
    const r = componentPricePointUpdateInput.safeParse(null);
    expect(r.success).toBe(false);
    expect(problemsOf(r.error as never)).toStrictEqual([
      { property: "(input)", message: "must be an object { handle?, name?, pricingScheme?, prices?, … }" },
    ]);
  });

  it("a component", async () => {
    const { componentInput } = await import("../../../../sdk/catalog/component-inputs");
    const { problemsOf } = await import("../../../../sdk/validation");
    const r = componentInput.safeParse(null);
    expect(r.success).toBe(false);
    expect(problemsOf(r.error as never)).toStrictEqual([
      { property: "(input)", message: "must be a component object { kind, handle, name, … }" },
    ]);
  });
});
