import fc from "fast-check";
import { beforeEach, describe, expect, it, vi } from "vitest";
import {
  catalogHandle,
  componentInput,
  componentPricePointInput,
  componentUpdateInput,
  couponInput,
  pricePointInput,
  pricePointUpdateInput,
  productFamilyInput,
  productInput,
  productUpdateInput,
} from "../../../../sdk";
import { base, pricePoint, problems, propertiesOf, RUNS, refusals } from "./arbitraries";
import { HANDLE_RULE, PRODUCT, parse, refused } from "./reloaded-product-inputs";

/**
 * The handles, names and texts of a family, product or price point input (sdk/catalog/inputs.ts, text.ts): what is
 * accepted (by property, with fast-check), each refusal's property and words, unknown properties, updates. The tests
 * that pin the words load the schemas afresh (vi.resetModules, then import), as they are built when their modules load.
 */

describe("handles and names", () => {
  it("any handle of lowercase letters, digits and . : - _ starting with a letter or digit is accepted", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9][a-z0-9.:_-]{0,254}$/), (h) => {
        expect(catalogHandle.safeParse(h).success).toBe(true);
      }),
      RUNS,
    );
  });

  it("any other handle is refused, saying what a handle is", () => {
    const bad = fc.oneof(
      fc.string({ minLength: 1, maxLength: 40 }).filter((s) => !/^[a-z0-9][a-z0-9.:_-]*$/.test(s)),
      fc.stringMatching(/^[.:_-][a-z0-9.:_-]{0,10}$/),
      fc.stringMatching(/^[a-z0-9]{1,5}[A-Z ][a-z0-9]{0,5}$/),
    );
    fc.assert(
      fc.property(pricePoint, bad, (pp, h) => {
        const found = problems(pricePointInput, { ...pp, handle: h });
        expect(found.map((p) => p.property)).toStrictEqual(["handle"]);
        expect(found[0].message).toContain(
          "a lowercase letter or number first, then only lowercase letters, numbers, '.', ':', '-' and '_'",
        );
      }),
      RUNS,
    );
    expect(problems(productFamilyInput, { handle: "", name: "x" })[0]).toStrictEqual({
      property: "handle",
      message:
        "must not be empty: a handle is a lowercase letter or number first, then only lowercase letters, numbers, '.', ':', '-' and '_'",
    });
    expect(problems(productFamilyInput, { handle: "a".repeat(256), name: "x" })[0]).toStrictEqual({
      property: "handle",
      message: "must be at most 255 characters",
    });
    expect(problems(productFamilyInput, { handle: 7, name: "x" })[0].message).toMatch(/^must be a handle \(a string: .*\), got 7$/);
  });

  it("names: 1 to 255 characters; taxCode: at most 10", () => {
    expect(problems(productFamilyInput, { handle: "a", name: "" })).toStrictEqual([
      { property: "name", message: "must not be empty (a name of 1 to 255 characters)" },
    ]);
    expect(propertiesOf(productFamilyInput, { handle: "a" })).toStrictEqual(["name"]);
    expect(problems(productInput, { ...base, taxCode: "12345678901" })).toStrictEqual([
      { property: "taxCode", message: "must be at most 10 characters" },
    ]);
  });

  // The service refuses a name of only spaces as blank ("Name: cannot be blank."): refused before sending, like "".
  it.each([
    ["a family", productFamilyInput, { handle: "a" }],
    ["a product", productInput, base],
    ["a price point", pricePointInput, base],
    ["a component", componentInput, { kind: "on_off", handle: "a", unitPrice: "1" }],
    ["a component update", componentUpdateInput, {}],
    [
      "a component price point",
      componentPricePointInput,
      { handle: "a", pricingScheme: "per_unit", prices: [{ startingQuantity: 1, unitPrice: "1" }] },
    ],
    ["a coupon", couponInput, { code: "A", percentage: 10 }],
  ] as const)("%s: a name of only spaces or tabs is refused, one with a letter among spaces is not", (_, schema, rest) => {
    for (const blank of [" ", "   ", "\t", " \n "])
      expect(refusals(schema, { ...rest, name: blank })).toStrictEqual([
        { property: "name", message: "must not be only spaces (a name of 1 to 255 characters)" },
      ]);
    expect(refusals(schema, { ...rest, name: " a " })).toStrictEqual([]);
  });

  it("a component's taxCode, on create and on update: at most 10 characters (the contract's bound)", () => {
    const onOff = { kind: "on_off", handle: "a", name: "A", unitPrice: "1" } as const;
    for (const [schema, input] of [
      [componentInput, onOff],
      [componentUpdateInput, {}],
    ] as const) {
      expect(refusals(schema, { ...input, taxCode: "1234567890" })).toStrictEqual([]);
      expect(refusals(schema, { ...input, taxCode: "12345678901" })).toStrictEqual([
        { property: "taxCode", message: "must be at most 10 characters" },
      ]);
    }
  });

  it("an unknown property is named, with the properties accepted", () => {
    expect(problems(productFamilyInput, { handle: "a", name: "A", accountingCode: "x" })).toStrictEqual([
      { property: "accountingCode", message: "is not a known property (accepted: handle, name, description)" },
    ]);
    expect(problems(pricePointInput, { ...base, price: 1 })[0]).toMatchObject({
      property: "price",
      message: expect.stringMatching(/^is not a known property \(accepted: handle, name, useSiteExchangeRate, priceInCents, /),
    });
    expect(problems(pricePointUpdateInput, { name: "x" })).toStrictEqual([
      { property: "name", message: "is not a known property (accepted: handle, priceInCents)" },
    ]);
  });

  it("updates: every field optional, the same rules on what is given", () => {
    expect(problems(productUpdateInput, {})).toStrictEqual([]);
    expect(problems(productUpdateInput, { priceInCents: 5 })).toStrictEqual([]);
    expect(propertiesOf(productUpdateInput, { trialInterval: 3 })).toStrictEqual(["trialIntervalUnit", "trialPriceInCents"]);
    expect(problems(pricePointUpdateInput, { priceInCents: 1.5 })[0].property).toBe("priceInCents");
  });
});

describe("a handle: 1 to 255 characters, a lowercase letter or number first", () => {
  beforeEach(() => {
    vi.resetModules();
  });

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

describe("names and texts", () => {
  beforeEach(() => {
    vi.resetModules();
  });

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
