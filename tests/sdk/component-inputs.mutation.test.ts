import { beforeEach, describe, expect, it, vi } from "vitest";
import { startSimulator } from "../../simulator";
import { KEY, TOKEN } from "./helpers";

// sdk/catalog/component-inputs.ts, pinned exactly: the mutation run left its schemas' messages, bounds, enums and
// descriptions unchecked. The schemas are built when the module loads, before a mutant is switched on, so every test
// here loads the SDK afresh (vi.resetModules, then import) and a fresh copy's error classes are compared by their
// fields, not by instanceof. The descriptions are what the provider's docs and schema publish, so they are pinned too.

beforeEach(() => {
  vi.resetModules();
});

// Only the modules pinned here (and what they import) load afresh: the mutation run gives a test that reloads the whole
// SDK every module-level mutant of it, and runs each such mutant against every such test (mutation/README.md).
const fresh = async () => ({ ...(await import("../../sdk/catalog/component-inputs")), ...(await import("../../sdk/validation")) });
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

describe("the descriptions the provider's docs and schema publish", () => {
  const PRICES =
    "The tiers, ascending and contiguous: the first starts at 1, each next one at the previous endingQuantity + 1, the last has no endingQuantity. per_unit takes exactly one tier.";
  const SCHEMES = '"per_unit", "volume", "tiered" or "stairstep".';
  const COMMON = {
    handle: "The component's API handle, unique among the site's components (archived ones too).",
    name: 'The component\'s name, shown to customers and on statements ("Text messages").',
    description: "Shown on the hosted signup page.",
    taxable: "Whether the component is taxable.",
    taxCode: "The tax code of the component type (e.g. for Avalara).",
    hideDateRangeOnInvoice: "Whether invoices leave out the service date range (Relationship Invoicing sites only).",
    displayOnHostedPage: "Whether the component is shown on hosted pages.",
    upgradeCharge: 'The charge made on an upgrade: "full", "prorated" or "none" (default: the site\'s setting).',
    downgradeCredit: 'The credit made on a downgrade: "full", "prorated" or "none" (default: the site\'s setting).',
  };
  const TIERED = {
    unitName: 'The unit the quantity counts, singular ("message"): the service pluralizes it. Create-only.',
    pricingScheme: SCHEMES,
    prices: PRICES,
    allowFractionalQuantities: "Whether quantities may have decimals. Create-only.",
  };
  const FREQUENCY = {
    interval: "How many intervalUnits between charges of the default price point (sites with multifrequency).",
    intervalUnit: '"day" or "month"; with interval.',
  };
  const PREPAID_TERMS = {
    overagePricing: "How usage beyond the prepaid quantity is priced.",
    rolloverPrepaidRemainder: "Whether unused prepaid units roll over to the next period.",
    renewPrepaidAllocation: "Whether the prepaid quantity is renewed at the start of each period.",
    expirationInterval: "After how many expirationIntervalUnits rolled-over units expire (with rolloverPrepaidRemainder).",
    expirationIntervalUnit: '"day" or "month"; with expirationInterval.',
  };
  /** Each field of an object schema with its description. */
  const docs = (schema: unknown) =>
    Object.fromEntries(
      Object.entries((schema as { shape: Record<string, { description?: string }> }).shape).map(([k, v]) => [k, v.description]),
    );

  it.each<[SchemaName, Record<string, string | undefined>]>([
    ["meteredComponentInput", { kind: '"metered".', ...COMMON, ...TIERED, ...FREQUENCY }],
    [
      "quantityBasedComponentInput",
      {
        kind: '"quantity_based".',
        ...COMMON,
        ...TIERED,
        ...FREQUENCY,
        recurring: "Whether the quantity is billed every period (true) or once. Create-only.",
      },
    ],
    [
      "onOffComponentInput",
      {
        kind: '"on_off".',
        ...COMMON,
        unitPrice: "The price charged while the component is on, in the site's currency: a number or decimal text.",
        ...FREQUENCY,
      },
    ],
    ["prepaidUsageComponentInput", { kind: '"prepaid_usage".', ...COMMON, ...TIERED, ...PREPAID_TERMS }],
    [
      "eventBasedComponentInput",
      {
        kind: '"event_based".',
        ...COMMON,
        ...TIERED,
        ...FREQUENCY,
        eventBasedBillingMetricId: "The id of the event-based billing metric that counts the usage. Create-only.",
      },
    ],
    [
      "componentUpdateInput",
      {
        handle: "The component's new API handle.",
        name: "The component's new name.",
        description: "Shown on the hosted signup page.",
        accountingCode: "An internal id or SKU number.",
        taxable: "Whether the component is taxable.",
        taxCode: "The tax code of the component type.",
        itemCategory: '"Business Software", "Consumer Software", "Digital Services", "Physical Goods" or "Other".',
        displayOnHostedPage: "Whether the component is shown on hosted pages.",
        upgradeCharge: '"full", "prorated" or "none".',
        downgradeCredit: '"full", "prorated" or "none".',
      },
    ],
    [
      "componentPricePointInput",
      {
        handle: "The price point's API handle, unique among its component's price points.",
        name: "The price point's name.",
        pricingScheme: SCHEMES,
        prices: PRICES,
        useSiteExchangeRate: "Whether other currencies' prices follow the site's exchange rate.",
        taxIncluded: "Whether the prices include tax.",
        ...FREQUENCY,
        ...PREPAID_TERMS,
      },
    ],
  ])("%s", async (schema, expected) => {
    const sdk = await fresh();
    const found = docs(sdk[schema]);
    // The price point's overage pricing is the prepaid terms' one made optional: its description is the inner one's.
    if (schema === "componentPricePointInput")
      found.overagePricing = sdk.componentPricePointInput.shape.overagePricing.unwrap().description;
    expect(found).toStrictEqual(expected);
  });

  it("the overage pricing's own fields", async () => {
    const { prepaidUsageComponentInput } = await fresh();
    expect(docs(prepaidUsageComponentInput.shape.overagePricing)).toStrictEqual({
      pricingScheme: 'The overage\'s scheme: "per_unit", "volume", "tiered" or "stairstep".',
      prices: PRICES,
    });
  });
});

describe("a client refuses a bad component before any request", () => {
  it("createComponent: the problems, and nothing sent", async () => {
    const sim = await startSimulator({ apiKey: KEY, accessToken: TOKEN });
    const { BillingClient } = await import("../../sdk");
    const billing = new BillingClient({ baseUrl: sim.url, apiKey: KEY, retryBaseDelayMs: 1 });
    try {
      const err = await billing.createComponent(1, { ...METERED, name: "", intervalUnit: "week" } as never).then(
        (r) => ({ resolved: r }),
        (e: Error & { problems?: unknown }) => ({ name: e.name, message: e.message, problems: e.problems }),
      );
      expect(err).toEqual({
        name: "BillingValidationError",
        message:
          'invalid component: name: must not be empty (a name of 1 to 255 characters); intervalUnit: must be "day" or "month", got "week"; interval: is required with intervalUnit: a whole number, 1 or more',
        problems: [
          { property: "name", message: "must not be empty (a name of 1 to 255 characters)" },
          { property: "intervalUnit", message: 'must be "day" or "month", got "week"' },
          { property: "interval", message: "is required with intervalUnit: a whole number, 1 or more" },
        ],
      });
      expect(sim.requests).toStrictEqual([]);
    } finally {
      await billing.close();
      await sim.close();
    }
  });
});
