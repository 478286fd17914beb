import { beforeEach, describe, expect, it, vi } from "vitest";
import { couponInput, problemsOf } from "../../../../sdk";

/**
 * The coupon input (sdk/catalog/coupon-inputs.ts): the code, a percentage or an amount, the other fields, the
 * restrictions, the object and its cross-field rules; each refusal word for word. The schemas are built when the
 * module loads, so the tests that pin them load it afresh (vi.resetModules, then import).
 */

const problems = (schema: { safeParse: (v: unknown) => any }, v: unknown) => {
  const r = schema.safeParse(v);
  return r.success ? [] : problemsOf(r.error).map((p: { property: string; message: string }) => `${p.property}: ${p.message}`);
};

describe("coupon inputs", () => {
  const base = { code: "SPRING-15%", name: "Spring", percentage: 15 };
  it("a percentage or an amount, exactly one", () => {
    expect(problems(couponInput, base)).toStrictEqual([]);
    expect(problems(couponInput, { ...base, percentage: undefined, amountInCents: 500 })).toStrictEqual([]);
    expect(problems(couponInput, { ...base, amountInCents: 500 })).toStrictEqual([
      "amountInCents: must be left out with percentage: a coupon is a percentage or an amount, not both",
    ]);
    expect(problems(couponInput, { code: "X", name: "X" })).toStrictEqual([
      "percentage: or amountInCents is required: a percentage (15 for 15%) or an amount in integer cents",
    ]);
  });

  it.each([
    ["BOB@EXAMPLE.COM", true],
    ["A+B_C.D-E%", true],
    ["spring", false],
    ["SPRING SALE", false],
    ["", false],
  ])("code %j accepted: %s", (code, ok) => {
    expect(problems(couponInput, { ...base, code }).length === 0).toBe(ok);
  });

  it("a lowercase code is refused with its uppercase form", () => {
    expect(problems(couponInput, { ...base, code: "spring" })).toStrictEqual([
      'code: must be only uppercase letters, digits and "%", "@", "+", "-", "_", "." (uppercase: "SPRING"), got "spring"',
    ]);
  });

  it("a duration needs recurring; restrictions are distinct ids", () => {
    expect(problems(couponInput, { ...base, durationPeriodCount: 3 })).toStrictEqual([
      "recurring: must be true with durationPeriodCount: only a recurring coupon lasts several periods",
    ]);
    expect(problems(couponInput, { ...base, restrictedProducts: [1, 1] })).toStrictEqual([
      "restrictedProducts: must not name a product twice",
    ]);
  });
});

// Only the modules pinned here (and what they import) load afresh: the mutation run gives a test that reloads the whole
// SDK every module-level mutant of it, and runs each such mutant against every such test (mutation/README.md).
const fresh = async () => ({ ...(await import("../../../../sdk/catalog/coupon-inputs")), ...(await import("../../../../sdk/validation")) });

type Sdk = Awaited<ReturnType<typeof fresh>>;

/** What a freshly loaded schema makes of `v`: the parsed value, or its problems as the SDK reports them. */
async function parse(v: unknown, schema: "couponInput" | "couponCode" = "couponInput") {
  const sdk = await fresh();
  const r = sdk[schema].safeParse(v);
  return r.success ? { data: r.data } : { problems: sdk.problemsOf(r.error as Parameters<Sdk["problemsOf"]>[0]) };
}

const refused = (property: string, message: string) => ({ problems: [{ property, message }] });

const CODE_RULE = 'uppercase letters, digits and "%", "@", "+", "-", "_", "."';

const PERCENT = "a percentage above 0 and at most 100 (15 for 15%)";

const BASE = { code: "SPRING", name: "Spring", percentage: 15 } as const;

const NOT_AN_OBJECT = "must be an object { code, name, percentage | amountInCents, … }";

const NEITHER = "or amountInCents is required: a percentage (15 for 15%) or an amount in integer cents";

describe("code: 1 to 255 of uppercase letters, digits and % @ + - _ .", () => {
  beforeEach(() => {
    vi.resetModules();
  });

  it.each(["A", "AB", "A%@+-_.", "JOHN.DOE+10%@EXAMPLE.COM", "0", "Z".repeat(254), "Z".repeat(255)])("%j is taken", async (code) => {
    expect(await parse({ ...BASE, code })).toStrictEqual({ data: { ...BASE, code } });
    expect(await parse(code, "couponCode")).toStrictEqual({ data: code });
  });

  it.each<[unknown, string]>([
    [5, "5"],
    [null, "null"],
    [["A"], "an array"],
    [{}, "object"],
  ])("%j is not a string: refused saying what a code is", async (code, got) => {
    expect(await parse({ ...BASE, code })).toStrictEqual(refused("code", `must be a coupon code (a string of ${CODE_RULE}), got ${got}`));
  });

  it("an empty code: its own message, then the pattern's", async () => {
    expect(await parse({ ...BASE, code: "" })).toStrictEqual({
      problems: [
        { property: "code", message: `must not be empty: a code is ${CODE_RULE}` },
        { property: "code", message: `must be only ${CODE_RULE}, got ""` },
      ],
    });
  });

  it("256 characters are too many", async () => {
    expect(await parse({ ...BASE, code: "Z".repeat(256) })).toStrictEqual(refused("code", "must be at most 255 characters"));
  });

  it.each<[string, string]>([
    ["A B", '"A B"'],
    ["a b", '"a b"'],
    ["A!", '"A!"'],
    ["!A", '"!A"'],
    ["!a", '"!a"'],
    ["a!", '"a!"'],
    ["#", '"#"'],
    ["SPRING€", '"SPRING€"'],
    [`${"Z".repeat(45)}!`, `"${"Z".repeat(40)}…"`],
  ])("%j has a character outside the rule, and no uppercase would mend it: no hint", async (code, got) => {
    expect(await parse({ ...BASE, code })).toStrictEqual(refused("code", `must be only ${CODE_RULE}, got ${got}`));
  });

  it.each<[string, string]>([
    ["spring", "SPRING"],
    ["Spring10", "SPRING10"],
    ["a", "A"],
    ["john.doe+10%@example.com", "JOHN.DOE+10%@EXAMPLE.COM"],
    ["aB", "AB"],
  ])("%j is refused with its uppercase, which would be taken", async (code, upper) => {
    expect(await parse({ ...BASE, code })).toStrictEqual(
      refused("code", `must be only ${CODE_RULE} (uppercase: ${JSON.stringify(upper)}), got ${JSON.stringify(code)}`),
    );
  });
});

describe("the discount: a percentage or an amount", () => {
  beforeEach(() => {
    vi.resetModules();
  });

  it.each([100, 0.01, 15, 99.99, 50.5])("a percentage of %j is taken", async (percentage) => {
    expect(await parse({ ...BASE, percentage })).toStrictEqual({ data: { ...BASE, percentage } });
  });

  it.each<[unknown, string]>([
    [0, "0"],
    [-1, "-1"],
    [-0.01, "-0.01"],
    [100.01, "100.01"],
    [101, "101"],
    ["15", '"15"'],
    [null, "null"],
    [Number.NaN, "NaN"],
    [Number.POSITIVE_INFINITY, "Infinity"],
    [Number.NEGATIVE_INFINITY, "-Infinity"],
    [true, "true"],
  ])("a percentage of %j is refused", async (percentage, got) => {
    expect(await parse({ ...BASE, percentage })).toStrictEqual(refused("percentage", `must be ${PERCENT}, got ${got}`));
  });

  it.each([1, 500, Number.MAX_SAFE_INTEGER])("an amount of %j cents is taken", async (amountInCents) => {
    const input = { code: "FLAT", name: "Flat", amountInCents };
    expect(await parse(input)).toStrictEqual({ data: input });
  });

  it.each<[unknown, string]>([
    [0, ", got 0"],
    [-5, ", got -5"],
    [0.5, " (no fractions), got 0.5"],
    ["500", ', got "500"'],
  ])("an amount of %j is refused", async (amountInCents, tail) => {
    expect(await parse({ code: "FLAT", name: "Flat", amountInCents })).toStrictEqual(
      refused("amountInCents", `must be a whole number of cents, 1 or more (1000 for 10.00)${tail}`),
    );
  });
});

describe("the other fields", () => {
  beforeEach(() => {
    vi.resetModules();
  });

  it("a description must be a string", async () => {
    expect(await parse({ ...BASE, description: 5 })).toStrictEqual(refused("description", "must be a description (a string), got 5"));
  });

  it.each<[unknown, string]>([
    [0, ", got 0"],
    [1.5, " (no fractions), got 1.5"],
    ["3", ', got "3"'],
  ])("a durationPeriodCount of %j is refused", async (durationPeriodCount, tail) => {
    expect(await parse({ ...BASE, recurring: true, durationPeriodCount })).toStrictEqual(
      refused("durationPeriodCount", `must be a whole number of periods, 1 or more${tail}`),
    );
  });

  it.each([
    "2026-12-31",
    "2026-12-31T23:59Z",
    "2026-12-31T23:59:59Z",
    "2026-12-31T23:59:59.5Z",
    "2026-12-31T23:59:59.123Z",
    "2026-12-31T23:59:59+01:00",
    "2026-12-31T23:59:59-05:30",
    "2026-12-31T23:59+02:00",
    "2026-12-31T23:59:59.123456-00:00",
  ])("an endDate of %j is taken", async (endDate) => {
    expect(await parse({ ...BASE, endDate })).toStrictEqual({ data: { ...BASE, endDate } });
  });

  it.each([
    "",
    "x2026-12-31",
    "2026-12-31x",
    "2026-12-31T",
    "2026-12-31T23:59:59",
    "2026-12-31T23:59:59ZZ",
    "2026-12-31 23:59:59Z",
    "26-12-31",
    "202-12-31",
    "20261-12-31",
    "abcd-12-31",
    "2026-1-31",
    "2026-ab-31",
    "2026-12-1",
    "2026-12-ab",
    "2026-12-31T2:59Z",
    "2026-12-31Tab:59Z",
    "2026-12-31T23:5Z",
    "2026-12-31T23:abZ",
    "2026-12-31T23:59:5Z",
    "2026-12-31T23:59:abZ",
    "2026-12-31T23:59:59.Z",
    "2026-12-31T23:59:59.abZ",
    "2026-12-31T23:59:59*01:00",
    "2026-12-31T23:59:5901:00",
    "2026-12-31T23:59:59+1:00",
    "2026-12-31T23:59:59+ab:00",
    "2026-12-31T23:59:59+01:0",
    "2026-12-31T23:59:59+01:ab",
    "2026-12-31T23:59:59+0100",
    "31/12/2026",
  ])("an endDate of %j is refused", async (endDate) => {
    expect(await parse({ ...BASE, endDate })).toStrictEqual(
      refused("endDate", `must be an ISO-8601 date or date-time ("2026-12-31" or "2026-12-31T23:59:59Z"), got ${JSON.stringify(endDate)}`),
    );
  });

  it.each<[unknown, string]>([
    [20261231, "20261231"],
    [null, "null"],
    [{}, "object"],
  ])("an endDate of %j is not a string", async (endDate, got) => {
    expect(await parse({ ...BASE, endDate })).toStrictEqual(refused("endDate", `must be an ISO-8601 date-time (a string), got ${got}`));
  });

  it.each(["compound", "full-price"])("a compoundingStrategy of %j is taken", async (compoundingStrategy) => {
    expect(await parse({ ...BASE, stackable: true, compoundingStrategy })).toStrictEqual({
      data: { ...BASE, stackable: true, compoundingStrategy },
    });
  });

  it.each<[unknown, string]>([
    ["Compound", '"Compound"'],
    ["full_price", '"full_price"'],
    ["", '""'],
    [1, "1"],
  ])("a compoundingStrategy of %j is refused", async (compoundingStrategy, got) => {
    expect(await parse({ ...BASE, compoundingStrategy })).toStrictEqual(
      refused("compoundingStrategy", `must be "compound" or "full-price", got ${got}`),
    );
  });

  it.each([
    "recurring",
    "stackable",
    "allowNegativeBalance",
    "excludeMidPeriodAllocations",
    "applyOnCancelAtEndOfPeriod",
    "applyOnSubscriptionExpiration",
  ])("%s must be true or false", async (field) => {
    expect(await parse({ ...BASE, [field]: "yes" })).toStrictEqual(refused(field, 'must be true or false, got "yes"'));
  });
});

describe.each([
  ["restrictedProducts", "product"],
  ["restrictedComponents", "component"],
])("%s: distinct %s ids", (field, what) => {
  beforeEach(() => {
    vi.resetModules();
  });

  it.each([[[]], [[1]], [[1, 2, 3]], [[3, 1]]])("%j is taken", async (ids) => {
    expect(await parse({ ...BASE, [field]: ids })).toStrictEqual({ data: { ...BASE, [field]: ids } });
  });

  it.each([1, "1,2", { 0: 1 }, null])("%j is not an array", async (ids) => {
    expect(await parse({ ...BASE, [field]: ids })).toStrictEqual(refused(field, `must be an array of ${what} ids`));
  });

  it("ids that are not whole numbers from 1, each by its index", async () => {
    expect(await parse({ ...BASE, [field]: [0, 1.5, "3", 4] })).toStrictEqual({
      problems: [
        { property: `${field}.0`, message: `must be a ${what} id, a whole number, 1 or more, got 0` },
        { property: `${field}.1`, message: `must be a ${what} id, a whole number, 1 or more (no fractions), got 1.5` },
        { property: `${field}.2`, message: `must be a ${what} id, a whole number, 1 or more, got "3"` },
      ],
    });
  });

  it.each([[[2, 2]], [[1, 2, 1]]])("%j names one twice", async (ids) => {
    expect(await parse({ ...BASE, [field]: ids })).toStrictEqual(refused(field, `must not name a ${what} twice`));
  });
});

describe("the object and its cross-field rule", () => {
  beforeEach(() => {
    vi.resetModules();
  });

  it.each([null, undefined, "SPRING", 5, true])("%j is one problem, not a crash and no discount rule", async (v) => {
    expect(await parse(v)).toStrictEqual(refused("(input)", NOT_AN_OBJECT));
  });

  it("an array is not the object either, and as an object it has no discount", async () => {
    expect(await parse([])).toStrictEqual({
      problems: [
        { property: "(input)", message: NOT_AN_OBJECT },
        { property: "percentage", message: NEITHER },
      ],
    });
  });

  it("an unknown key is refused by name", async () => {
    expect(await parse({ ...BASE, percent: 15 })).toStrictEqual(refused("percent", "is not a known property"));
  });

  it("both a percentage and an amount: the amount is to be left out", async () => {
    expect(await parse({ ...BASE, amountInCents: 500 })).toStrictEqual(
      refused("amountInCents", "must be left out with percentage: a coupon is a percentage or an amount, not both"),
    );
  });

  it("neither: the percentage is asked for, as a presence rule the providers keep at preview", async () => {
    const input = { code: "SPRING", name: "Spring" };
    expect(await parse(input)).toStrictEqual(refused("percentage", NEITHER));
    const { couponInput } = await fresh();
    const r = couponInput.safeParse(input);
    expect(r.success ? [] : r.error.issues).toStrictEqual([
      { code: "custom", path: ["percentage"], params: { presence: true }, message: NEITHER },
    ]);
  });

  const ONLY_RECURRING = "must be true with durationPeriodCount: only a recurring coupon lasts several periods";
  it.each([false, undefined])("a durationPeriodCount with recurring %j: recurring must be true", async (recurring) => {
    expect(await parse({ ...BASE, durationPeriodCount: 3, recurring })).toStrictEqual(refused("recurring", ONLY_RECURRING));
  });

  it('recurring "true" (a string) is not true: its own refusal, then the rule\'s', async () => {
    expect(await parse({ ...BASE, durationPeriodCount: 3, recurring: "true" })).toStrictEqual({
      problems: [
        { property: "recurring", message: 'must be true or false, got "true"' },
        { property: "recurring", message: ONLY_RECURRING },
      ],
    });
  });

  it("a bad field and the cross-field rules are reported together", async () => {
    expect(await parse({ code: "", name: "Spring", durationPeriodCount: 2, endDate: "soon" })).toStrictEqual({
      problems: [
        { property: "code", message: `must not be empty: a code is ${CODE_RULE}` },
        { property: "code", message: `must be only ${CODE_RULE}, got ""` },
        {
          property: "endDate",
          message: 'must be an ISO-8601 date or date-time ("2026-12-31" or "2026-12-31T23:59:59Z"), got "soon"',
        },
        { property: "percentage", message: NEITHER },
        { property: "recurring", message: ONLY_RECURRING },
      ],
    });
  });

  it("every field at once comes back as given", async () => {
    const input = {
      code: "JOHN.DOE+10%@EXAMPLE.COM",
      name: "Spring",
      description: "Fifteen off",
      percentage: 15,
      recurring: true,
      durationPeriodCount: 3,
      endDate: "2026-12-31T23:59:59.999+01:00",
      stackable: true,
      compoundingStrategy: "full-price",
      allowNegativeBalance: false,
      excludeMidPeriodAllocations: true,
      applyOnCancelAtEndOfPeriod: false,
      applyOnSubscriptionExpiration: true,
      restrictedProducts: [1, 2],
      restrictedComponents: [7],
    };
    expect(await parse(input)).toStrictEqual({ data: input });
    const flat = { code: "FLAT", name: "Flat", amountInCents: 1000, recurring: true, durationPeriodCount: 1 };
    expect(await parse(flat)).toStrictEqual({ data: flat });
  });
});
