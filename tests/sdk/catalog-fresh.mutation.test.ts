import { beforeEach, describe, expect, it, vi } from "vitest";
import { KEY, site } from "./helpers";

// The product, family and price point schemas (sdk/catalog/inputs.ts), the tier schemas (tiers.ts), the text and name
// schemas (text.ts), the service's field labels (refusals.ts) and the families' path (families.ts), pinned with every module loaded afresh. They are built
// when their modules load, before the mutation run switches a mutant on; other SDK tests load the SDK afresh, and the
// run then gives each module-level mutant to those tests alone (mutation/README.md). The run of 27 Nov 08:41 left 126
// such survivors: messages, patterns, enums, object errors, descriptions and the label table. So each test here loads
// the SDK afresh and checks what a user sees: the problem's property and message, what is accepted, and the
// descriptions a schema publishes.

beforeEach(() => {
  vi.resetModules();
});

// Only the modules pinned here (and what they import) load afresh: the mutation run gives a test that reloads the whole
// SDK every module-level mutant of it, and runs each such mutant against every such test (mutation/README.md).
const fresh = async () => ({
  ...(await import("../../sdk/catalog/inputs")),
  ...(await import("../../sdk/catalog/tiers")),
  ...(await import("../../sdk/catalog/refusals")),
  ...(await import("../../sdk/validation")),
});
type Sdk = Awaited<ReturnType<typeof fresh>>;
type SchemaName =
  | "catalogHandle"
  | "productInput"
  | "productUpdateInput"
  | "productFamilyInput"
  | "pricingInput"
  | "pricePointInput"
  | "pricePointUpdateInput"
  | "pricingScheme"
  | "unitPrice"
  | "priceTier";

/** What a freshly loaded schema makes of `v`: the parsed value, or its problems as the SDK reports them. */
async function parse(schema: SchemaName, v: unknown) {
  const sdk = await fresh();
  const r = (sdk[schema] as { safeParse(v: unknown): { success: boolean; data?: unknown; error?: unknown } }).safeParse(v);
  return r.success ? { data: r.data } : { problems: sdk.problemsOf(r.error as Parameters<Sdk["problemsOf"]>[0]) };
}

const refused = (property: string, message: string) => ({ problems: [{ property, message }] });

const HANDLE_RULE = "a lowercase letter or number first, then only lowercase letters, numbers, '.', ':', '-' and '_'";
const PRICE = 'a price of at least 0 with at most 8 decimal places, as a number (2.5) or decimal text ("0.00000065")';
const PRODUCT = { handle: "pro", name: "Pro", priceInCents: 1000, interval: 1, intervalUnit: "month" } as const;
const PRICING = { priceInCents: 1000, interval: 1, intervalUnit: "month" } as const;

describe("a handle: 1 to 255 characters, a lowercase letter or number first", () => {
  it.each(["a", "0", "pro", "pro.annual:v2_eu-1", "z".repeat(255)])("%j is taken", async (handle) => {
    expect(await parse("catalogHandle", handle)).toStrictEqual({ data: handle });
  });

  it.each<[string, unknown, { property: string; message: string }[]]>([
    ["a number", 42, [{ property: "(input)", message: `must be a handle (a string: ${HANDLE_RULE}), got 42` }]],
    [
      "empty",
      "",
      [
        { property: "(input)", message: `must not be empty: a handle is ${HANDLE_RULE}` },
        { property: "(input)", message: `must be ${HANDLE_RULE}, got ""` },
      ],
    ],
    ["256 characters", "z".repeat(256), [{ property: "(input)", message: "must be at most 255 characters" }]],
    // One case per anchor of the pattern: a bad first character, a bad one further on, a bad last one.
    ["a dash first", "-a", [{ property: "(input)", message: `must be ${HANDLE_RULE}, got "-a"` }]],
    ["a space inside", "a b", [{ property: "(input)", message: `must be ${HANDLE_RULE}, got "a b"` }]],
    ["an uppercase letter last", "proX", [{ property: "(input)", message: `must be ${HANDLE_RULE}, got "proX"` }]],
  ])("%s is refused saying what a handle is", async (_, handle, problems) => {
    expect(await parse("catalogHandle", handle)).toStrictEqual({ problems });
  });
});

describe("the pricing's enums: each value taken, anything else refused with the list", () => {
  it.each<[string, unknown]>([
    ["intervalUnit", "day"],
    ["intervalUnit", "month"],
    ["trialType", "no_obligation"],
    ["trialType", "payment_expected"],
  ])("%s %j is taken", async (field, value) => {
    expect(await parse("pricingInput", { ...PRICING, [field]: value })).toStrictEqual({ data: { ...PRICING, [field]: value } });
  });

  it.each(["day", "month"])('an expiration of 2 "%s", and "never" with no interval, are taken', async (unit) => {
    const expiring = { ...PRICING, expirationInterval: 2, expirationIntervalUnit: unit };
    expect(await parse("pricingInput", expiring)).toStrictEqual({ data: expiring });
    const never = { ...PRICING, expirationIntervalUnit: "never" };
    expect(await parse("pricingInput", never)).toStrictEqual({ data: never });
  });

  it.each<[string, unknown, string]>([
    ["intervalUnit", "week", 'must be "day" or "month", got "week"'],
    ["trialIntervalUnit", 1, 'must be "day" or "month", got 1'],
    ["expirationIntervalUnit", "year", 'must be "day", "month" or "never", got "year"'],
    ["trialType", "free", 'must be "no_obligation" or "payment_expected", got "free"'],
  ])("%s %j is refused: %s", async (field, value, message) => {
    const input = { ...PRICING, [field]: value, ...(field === "trialIntervalUnit" ? { trialInterval: 1, trialPriceInCents: 0 } : {}) };
    expect(await parse("pricingInput", input)).toStrictEqual(refused(field, message));
  });
});

describe("names and texts", () => {
  it.each<[unknown, string]>([
    [5, "must be a name (a string), got 5"],
    ["", "must not be empty (a name of 1 to 255 characters)"],
    ["   ", "must not be only spaces (a name of 1 to 255 characters)"],
    ["n".repeat(256), "must be at most 255 characters"],
  ])("a product named %j is refused: %s", async (name, message) => {
    expect(await parse("productInput", { ...PRODUCT, name })).toStrictEqual(refused("name", message));
  });

  it.each<[string, unknown, string]>([
    ["description", 5, "must be a description (a string), got 5"],
    ["accountingCode", false, "must be an accounting code (a string), got false"],
    ["taxCode", null, "must be a tax code (a string), got null"],
    ["taxCode", "t".repeat(11), "must be at most 10 characters"],
  ])("a product's %s of %j is refused: %s", async (field, value, message) => {
    expect(await parse("productInput", { ...PRODUCT, [field]: value })).toStrictEqual(refused(field, message));
  });

  it("a name of 255 characters, a tax code of 10 and a description of any length are taken", async () => {
    const input = { ...PRODUCT, name: "n".repeat(255), taxCode: "t".repeat(10), description: "d".repeat(5000) };
    expect(await parse("productInput", input)).toStrictEqual({ data: input });
  });
});

describe("a value that is not an object: refused naming the object's fields, and the pricing rule does not run on it", () => {
  it.each<[SchemaName, unknown, string]>([
    ["productInput", null, "must be an object { handle, name, priceInCents, interval, intervalUnit, … }"],
    ["productInput", "pro", "must be an object { handle, name, priceInCents, interval, intervalUnit, … }"],
    ["productUpdateInput", null, "must be an object { handle, name, priceInCents, interval, intervalUnit, … }"],
    ["productFamilyInput", 5, "must be an object { handle, name, description? }"],
    ["pricingInput", null, "must be an object { priceInCents, interval, intervalUnit, … }"],
    ["pricePointInput", [], "must be an object { handle, name, priceInCents, interval, intervalUnit, … }"],
    ["pricePointUpdateInput", 5, "must be an object { handle?, priceInCents? }"],
    ["priceTier", 5, "must be an object { startingQuantity, endingQuantity?, unitPrice }"],
  ])("%s of %j", async (schema, value, message) => {
    expect(await parse(schema, value)).toStrictEqual(refused("(input)", message));
  });
});

describe("the pricing rule", () => {
  // A value of the wrong type ends zod's object checks unless the rule says otherwise (`when`): a negative number would not.
  it("runs beside a field that failed: a price given as text does not hide a trial's missing unit and price", async () => {
    expect(await parse("productInput", { ...PRODUCT, priceInCents: "10", trialInterval: 1 })).toStrictEqual({
      problems: [
        { property: "priceInCents", message: 'must be a whole number of cents, 0 or more (1000 for 10.00), got "10"' },
        { property: "trialIntervalUnit", message: 'is required with trialInterval: "day" or "month"' },
        {
          property: "trialPriceInCents",
          message: "is required with a trial (trialInterval): a whole number of cents, 0 or more (1000 for 10.00)",
        },
      ],
    });
  });

  it("marks rules on which fields are present, and not the ones on an expiration unit's value", async () => {
    const { pricingInput } = await fresh();
    const marks = (v: unknown) => {
      const r = pricingInput.safeParse(v);
      return r.success ? [] : r.error.issues.map((i) => [i.path.join("."), (i as { params?: unknown }).params]);
    };
    expect(marks({ ...PRICING, trialInterval: 1 })).toStrictEqual([
      ["trialIntervalUnit", { presence: true }],
      ["trialPriceInCents", { presence: true }],
    ]);
    expect(marks({ ...PRICING, expirationIntervalUnit: "day" })).toStrictEqual([["expirationInterval", undefined]]);
    expect(marks({ ...PRICING, expirationIntervalUnit: "never", expirationInterval: 1 })).toStrictEqual([
      ["expirationInterval", undefined],
    ]);
  });
});

describe("unit prices and tiers", () => {
  it.each<[unknown]>([[0], [2.5], [6.5e-7], ["0.00000065"], ["12"], ["3.14"]])("unit price %j is taken as given", async (price) => {
    expect(await parse("unitPrice", price)).toStrictEqual({ data: price });
  });

  it.each<[unknown, string]>([
    [true, "true"],
    [null, "null"],
    [-1, "-1"],
    [1e-9, "1e-9"],
    ["1e-9", '"1e-9"'],
    ["-1", '"-1"'],
  ])("unit price %j is refused saying what a price is", async (price, got) => {
    expect(await parse("unitPrice", price)).toStrictEqual(refused("(input)", `must be ${PRICE}, got ${got}`));
  });

  it.each(["per_unit", "volume", "tiered", "stairstep"])("pricing scheme %j is taken", async (scheme) => {
    expect(await parse("pricingScheme", scheme)).toStrictEqual({ data: scheme });
  });

  it("another pricing scheme is refused with the four", async () => {
    expect(await parse("pricingScheme", "flat")).toStrictEqual(
      refused("(input)", 'must be "per_unit", "volume", "tiered" or "stairstep", got "flat"'),
    );
  });

  it("a tier followed by something that is not a tier: its end is required, and the rule reads no start from it", async () => {
    const { tierRule, problemsOf } = await fresh();
    const { z } = await import("zod");
    const prices = z.array(z.unknown()).superRefine((v, ctx) => tierRule(v, "tiered", ctx));
    const r = prices.safeParse([{ startingQuantity: 1, unitPrice: 1 }, null]);
    expect(r.success ? [] : problemsOf(r.error)).toStrictEqual([
      {
        property: "prices.0.endingQuantity",
        message: "is required: only the last tier is open-ended, and prices[0] is followed by prices[1]",
      },
    ]);
  });
});

describe("the service's field labels, each mapped to the caller's property", () => {
  // The labels the service's 422 messages begin with (its published examples, and the same wording for the other
  // fields), each as a caller names the field. A label naming the field the message is filed under is dropped.
  it.each<[string, string]>([
    ["Name", "name"],
    ["Handle", "handle"],
    ["API Handle", "handle"],
    ["Description", "description"],
    ["Accounting Code", "accountingCode"],
    ["Tax Code", "taxCode"],
    ["Price", "priceInCents"],
    ["Price in cents", "priceInCents"],
    ["Interval", "interval"],
    ["Recurring Interval", "interval"],
    ["Interval unit", "intervalUnit"],
    ["Trial Price", "trialPriceInCents"],
    ["Trial price in cents", "trialPriceInCents"],
    ["Trial Interval", "trialInterval"],
    ["Trial Interval Unit", "trialIntervalUnit"],
    ["Trial Type", "trialType"],
    ["Initial Charge", "initialChargeInCents"],
    ["Initial charge in cents", "initialChargeInCents"],
    ["Expiration Interval", "expirationInterval"],
    ["Expiration Interval Unit", "expirationIntervalUnit"],
    ["Unit Name", "unitName"],
    ["Pricing Scheme", "pricingScheme"],
    ["Starting Quantity", "startingQuantity"],
    ["Ending Quantity", "endingQuantity"],
    ["Unit Price", "unitPrice"],
    ["Code", "code"],
    ["Percentage", "percentage"],
    ["Amount in cents", "amountInCents"],
  ])('"%s: …" in a list names %s', async (label, property) => {
    const { catalogErrorMessages } = await fresh();
    expect(catalogErrorMessages({ errors: [`${label}: cannot be blank.`] })).toStrictEqual([`${property}: cannot be blank.`]);
  });

  it("the wire key price is the caller's priceInCents, and its own label is dropped", async () => {
    const { catalogErrorMessages } = await fresh();
    expect(catalogErrorMessages({ errors: { price: ["Price: must be greater than or equal to 0."] } })).toStrictEqual([
      "priceInCents: must be greater than or equal to 0.",
    ]);
    expect(catalogErrorMessages({ "price_points[2].price": ["Price: is not a number."] })).toStrictEqual([
      "[2].priceInCents: is not a number.",
    ]);
  });

  it("an indexed key below another key keeps its whole path (only a top-level list's index leads a property)", async () => {
    const { catalogErrorMessages } = await fresh();
    expect(catalogErrorMessages({ errors: { "component.prices[1].ending_quantity": ["must be greater than 5"] } })).toStrictEqual([
      "component.prices[1].endingQuantity: must be greater than 5",
    ]);
  });
});

describe("the descriptions the schemas publish", () => {
  /** Each field of an object schema with its description. */
  const docs = (schema: unknown) =>
    Object.fromEntries(
      Object.entries((schema as { shape: Record<string, { description?: string }> }).shape).map(([k, v]) => [k, v.description]),
    );
  const PRICING_DOCS = {
    priceInCents: "The price per interval, in integer cents.",
    interval: "How many interval units between charges.",
    intervalUnit: '"day" or "month".',
    trialPriceInCents: "The trial's price, in integer cents; needs trialInterval.",
    trialInterval: "The trial's length in trialIntervalUnit; needs trialPriceInCents and trialIntervalUnit.",
    trialIntervalUnit: '"day" or "month"; needs trialInterval.',
    trialType: '"no_obligation" or "payment_expected".',
    initialChargeInCents: "A one-time charge at signup, in integer cents.",
    initialChargeAfterTrial: "Whether the initial charge is made after the trial rather than at signup.",
    expirationInterval: "How long a subscription runs before it expires; needs expirationIntervalUnit.",
    expirationIntervalUnit: '"day" or "month" (with expirationInterval), or "never".',
  };

  it("a product's", async () => {
    const { productInput, productShape } = await fresh();
    const expected = {
      handle: "The product's API handle, unique among the site's products (archived ones too).",
      name: "The product's name.",
      description: "The product's description.",
      accountingCode: "An internal id or SKU number.",
      taxCode: "The tax code of the product type, at most 10 characters.",
      requireCreditCard: "Whether signup requires a credit card.",
      requestCreditCard:
        "Whether legacy hosted signup pages ask for a credit card (the contract calls it deprecated: public signup pages have their own).",
      requestBillingAddress: "Whether signup asks for a billing address.",
      requireBillingAddress: "Whether signup requires a billing address.",
      requireShippingAddress: "Whether signup requires a shipping address.",
      autoCreateSignupPage: "Whether the service creates a public signup page for the product.",
      ...PRICING_DOCS,
    };
    expect(docs({ shape: productShape })).toStrictEqual(expected);
    expect(docs(productInput)).toStrictEqual(expected);
  });

  it("a family's, a price point's and a price point update's", async () => {
    const { productFamilyInput, pricePointInput, pricePointUpdateInput, pricingShape } = await fresh();
    expect(docs(productFamilyInput)).toStrictEqual({
      handle: "The family's API handle, unique among the site's families.",
      name: "The family's name.",
      description: "The family's description.",
    });
    expect(docs({ shape: pricingShape })).toStrictEqual(PRICING_DOCS);
    expect(docs(pricePointInput)).toStrictEqual({
      handle: "The price point's API handle, unique among its product's price points.",
      name: "The price point's name.",
      useSiteExchangeRate: "Whether other currencies' prices follow the site's exchange rate (default true).",
      ...PRICING_DOCS,
    });
    expect(docs(pricePointUpdateInput)).toStrictEqual({
      handle: "The price point's new API handle, unique among its product's price points.",
      priceInCents:
        "The new price in integer cents (0 or more: 1000 is 10.00): it is the price of every subscription on the price point (the contract does not say from which renewal).",
    });
  });

  it("a tier's", async () => {
    const { priceTier } = await fresh();
    expect(docs(priceTier)).toStrictEqual({
      startingQuantity:
        "The first quantity this tier prices: 1 for the first tier, one past the previous tier's endingQuantity for the others.",
      endingQuantity:
        "The last quantity this tier prices (at least its startingQuantity); left out on the last tier only, which is open-ended.",
      unitPrice:
        'The price per unit in this tier, in the site\'s currency (not cents): a number or decimal text ("0.0012"), at most 8 decimal places.',
    });
  });
});

describe("the families' path", () => {
  it("a family is created and listed at /product_families.json", async () => {
    const { sim } = await site();
    const { BillingClient } = await import("../../sdk");
    const billing = new BillingClient({ baseUrl: sim.url, apiKey: KEY, retryBaseDelayMs: 1 });
    try {
      const made = await billing.createProductFamily({ handle: "plans", name: "Plans" });
      expect((await billing.listProductFamilies()).map((f) => [f.id, f.handle])).toStrictEqual([[made.id, "plans"]]);
    } finally {
      await billing.close();
    }
    expect(sim.requests.filter((r) => r.path.startsWith("/product_families")).map((r) => `${r.method} ${r.path}`)).toContain(
      "POST /product_families.json",
    );
  });
});
