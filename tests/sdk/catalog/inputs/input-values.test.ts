import { beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";

/**
 * The input pieces every schema is made of (sdk/input-values.ts): valueText, flag and integer. `flag` is built when
 * the module loads, and `integer`'s schemas when catalog/inputs.ts loads: each test loads its own copy.
 */

describe("valueText, flag and integer, loaded afresh for each test", () => {
  // `flag` is built when the module loads, and `integer`'s schemas when catalog/inputs.ts loads, both before a
  // mutant is switched on: each test loads its own copy.
  beforeEach(() => {
    vi.resetModules();
  });
  const fresh = () => import("../../../../sdk/input-values");

  it.each<[string, unknown, string]>([
    ["a short string", "abc", '"abc"'],
    ["a string of 40 characters, whole", "x".repeat(40), `"${"x".repeat(40)}"`],
    ["a string of 41 characters, cut at 40", `${"x".repeat(40)}YZ`.slice(0, 41), `"${"x".repeat(40)}…"`],
    ["a long string, cut at 40", "y".repeat(39) + "z".repeat(30), `"${"y".repeat(39)}z…"`],
    ["a number", 5, "5"],
    ["a fraction", 1.5, "1.5"],
    ["a boolean", false, "false"],
    ["null", null, "null"],
    ["an array", [1, 2], "an array"],
    ["an object", { a: 1 }, "object"],
    ["undefined", undefined, "undefined"],
  ])("valueText renders %s", async (_, value, text) => {
    const { valueText } = await fresh();
    expect(valueText(value)).toBe(text);
  });

  it.each<[unknown, { success: true; data: boolean } | { success: false; messages: string[] }]>([
    [true, { success: true, data: true }],
    [false, { success: true, data: false }],
    ["yes", { success: false, messages: ['must be true or false, got "yes"'] }],
    [1, { success: false, messages: ["must be true or false, got 1"] }],
    [undefined, { success: false, messages: ["must be true or false, got undefined"] }],
  ])("flag takes %j as %j", async (value, expected) => {
    const { flag } = await fresh();
    const r = flag.safeParse(value);
    expect(r.success ? { success: true, data: r.data } : { success: false, messages: r.error.issues.map((i) => i.message) }).toStrictEqual(
      expected,
    );
  });

  const WHAT = "a whole number, 1 or more";
  it.each<[unknown, { success: true; data: number } | { success: false; messages: string[] }]>([
    [1, { success: true, data: 1 }],
    [2, { success: true, data: 2 }],
    [Number.MAX_SAFE_INTEGER, { success: true, data: Number.MAX_SAFE_INTEGER }],
    [0, { success: false, messages: [`must be ${WHAT}, got 0`] }],
    [1.5, { success: false, messages: [`must be ${WHAT} (no fractions), got 1.5`] }],
    [2 ** 53, { success: false, messages: [`must be ${WHAT}, at most 9007199254740991, got 9007199254740992`] }],
    ["5", { success: false, messages: [`must be ${WHAT}, got "5"`] }],
    [null, { success: false, messages: [`must be ${WHAT}, got null`] }],
  ])("integer(1, ...) takes %j as %j", async (value, expected) => {
    const { integer } = await fresh();
    const r = integer(1, WHAT).safeParse(value);
    expect(r.success ? { success: true, data: r.data } : { success: false, messages: r.error.issues.map((i) => i.message) }).toStrictEqual(
      expected,
    );
  });

  it("integer says in JSON Schema that it takes a safe integer from its minimum up", async () => {
    const { integer } = await fresh();
    expect(z.toJSONSchema(integer(0, "cents"))).toStrictEqual({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "integer",
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
    });
  });

  it("a product input's messages come from these pieces (catalog/inputs.ts builds its schemas as it loads)", async () => {
    const { productInput } = await import("../../../../sdk/catalog/inputs");
    const r = productInput.safeParse({
      handle: "pro",
      name: "Pro",
      priceInCents: -1,
      interval: 1.5,
      intervalUnit: "month",
      requireCreditCard: "no",
    });
    expect(r.success ? [] : r.error.issues.map((i) => [i.path.join("."), i.message])).toStrictEqual([
      ["requireCreditCard", 'must be true or false, got "no"'],
      ["priceInCents", "must be a whole number of cents, 0 or more (1000 for 10.00), got -1"],
      ["interval", "must be a whole number, 1 or more (no fractions), got 1.5"],
    ]);
  });
});
