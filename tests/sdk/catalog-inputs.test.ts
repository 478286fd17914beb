import { readFileSync } from "node:fs";
import fc from "fast-check";
import { ValidationContext } from "openapi-backend";
import { beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  BillingValidationError,
  catalogErrorMessages,
  catalogHandle,
  componentInput,
  componentPricePointInput,
  componentUpdateInput,
  couponInput,
  type PricePointInput,
  pricePointInput,
  pricePointUpdateInput,
  pricingInput,
  productFamilyInput,
  productInput,
  productUpdateInput,
} from "../../sdk";
import { pricePointCreateBody, productCreateBody, productUpdateBody } from "../../sdk/catalog/bodies";
import { keysOf, problemsOf } from "../../sdk/validation";
import { CONTRACT, contractApi } from "../contract/validator";
import { clientOf, deadUrl } from "./helpers";

/**
 * The catalog's caller input schemas (the providers' check uses the same ones), by property: every
 * value the rules accept is accepted and makes a body the contract's request schema accepts; every
 * value they refuse is refused with a message that names the property and says what is accepted.
 */

const RUNS = { numRuns: 300 };
const unit = fc.constantFrom("day" as const, "month" as const);
const handle = fc.stringMatching(/^[a-z0-9][a-z0-9.:_-]{0,40}$/);
// Not only spaces: the service refuses such a name as blank.
const name = fc.string({ minLength: 1, maxLength: 60 }).filter((s) => /\S/.test(s));
const cents = fc.maxSafeNat();
const count = fc.integer({ min: 1, max: 2 ** 31 - 1 });

/** A pricing the rules accept: each optional part present or not, paired fields together. */
const pricing = fc
  .record({
    priceInCents: cents,
    interval: count,
    intervalUnit: unit,
    trial: fc.option(fc.record({ trialPriceInCents: cents, trialInterval: count, trialIntervalUnit: unit }), { nil: undefined }),
    trialType: fc.option(fc.constantFrom("no_obligation" as const, "payment_expected" as const), { nil: undefined }),
    initialChargeInCents: fc.option(cents, { nil: undefined }),
    initialChargeAfterTrial: fc.option(fc.boolean(), { nil: undefined }),
    expiration: fc.option(
      fc.oneof(
        fc.record({ expirationInterval: count, expirationIntervalUnit: unit }),
        fc.constant({ expirationIntervalUnit: "never" as const }),
      ),
      { nil: undefined },
    ),
  })
  .map(({ trial, expiration, ...rest }) => {
    const out: Record<string, unknown> = { ...rest, ...trial, ...expiration };
    for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
    return out as z.input<typeof pricingInput>;
  });

const pricePoint = fc
  .record({ handle, name, useSiteExchangeRate: fc.option(fc.boolean(), { nil: undefined }), pricing })
  .map(({ pricing: p, useSiteExchangeRate, ...rest }) => ({
    ...rest,
    ...p,
    ...(useSiteExchangeRate === undefined ? {} : { useSiteExchangeRate }),
  }));

const product = fc
  .record({
    handle,
    name,
    description: fc.option(fc.string({ maxLength: 80 }), { nil: undefined }),
    accountingCode: fc.option(fc.string({ maxLength: 20 }), { nil: undefined }),
    taxCode: fc.option(fc.string({ maxLength: 10 }), { nil: undefined }),
    requireCreditCard: fc.option(fc.boolean(), { nil: undefined }),
    autoCreateSignupPage: fc.option(fc.boolean(), { nil: undefined }),
    pricing,
  })
  .map(({ pricing: p, ...rest }) => {
    const out: Record<string, unknown> = { ...rest, ...p };
    for (const k of Object.keys(out)) if (out[k] === undefined) delete out[k];
    return out as z.input<typeof productInput>;
  });

const base = { handle: "h", name: "H", priceInCents: 100, interval: 1, intervalUnit: "month" } as const;

/** Numbers a price may not be: fractions, negatives, and the non-finite. */
const notCents = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => !Number.isInteger(x)),
  fc.integer({ max: -1 }),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0.5, 0.1, 1e-9),
);

const problems = (schema: z.ZodType, input: unknown) => {
  const r = schema.safeParse(input);
  return r.success ? [] : problemsOf(r.error, undefined, { "": keysOf(schema as unknown as { shape: Record<string, unknown> }) });
};
/** The problems of a schema that is not a plain object (the component rules wrap theirs). */
const refusals = (schema: z.ZodType, input: unknown) => {
  const r = schema.safeParse(input);
  return r.success ? [] : problemsOf(r.error);
};
const propertiesOf = (schema: z.ZodType, input: unknown) => problems(schema, input).map((p) => p.property);

describe("pricing: prices, intervals and units", () => {
  it("any integer price ≥ 0 and any interval ≥ 1 with its unit are accepted, on products and price points alike", () => {
    fc.assert(
      fc.property(pricePoint, product, (pp, p) => {
        expect(problems(pricePointInput, pp)).toStrictEqual([]);
        expect(problems(productInput, p)).toStrictEqual([]);
        expect(
          problems(pricingInput, { priceInCents: pp.priceInCents, interval: pp.interval, intervalUnit: pp.intervalUnit }),
        ).toStrictEqual([]);
      }),
      RUNS,
    );
  });

  it.each([["priceInCents"], ["trialPriceInCents"], ["initialChargeInCents"]])(
    "any fractional, negative or non-finite %s is refused, naming it, saying whole cents ≥ 0",
    (field) => {
      fc.assert(
        fc.property(pricePoint, notCents, (pp, bad) => {
          const input = { ...pp, [field]: bad };
          if (field === "trialPriceInCents") Object.assign(input, { trialInterval: 1, trialIntervalUnit: "day" });
          const found = problems(pricePointInput, input);
          expect(found.map((p) => p.property)).toStrictEqual([field]);
          expect(found[0].message).toMatch(/^must be a whole number of cents, 0 or more \(1000 for 10\.00\)( \(no fractions\))?, got /);
        }),
        RUNS,
      );
    },
  );

  it("a price given as text is refused, naming it", () => {
    fc.assert(
      fc.property(pricePoint, fc.oneof(fc.string(), fc.boolean(), fc.constant(null)), (pp, bad) => {
        const found = problems(pricePointInput, { ...pp, priceInCents: bad });
        expect(found.map((p) => p.property)).toStrictEqual(["priceInCents"]);
        expect(found[0].message).toContain("must be a whole number of cents");
      }),
      RUNS,
    );
  });

  it.each([["interval"], ["trialInterval"], ["expirationInterval"]])(
    "an interval below 1 or with a fraction is refused, naming %s",
    (field) => {
      fc.assert(
        fc.property(
          pricePoint,
          fc.oneof(
            fc.integer({ max: 0 }),
            fc.double({ min: 0.001, max: 1e6, noNaN: true }).filter((x) => !Number.isInteger(x)),
          ),
          (pp, bad) => {
            const input: Record<string, unknown> = { ...pp, [field]: bad };
            if (field === "trialInterval") Object.assign(input, { trialIntervalUnit: "day", trialPriceInCents: 0 });
            if (field === "expirationInterval") input.expirationIntervalUnit = "month";
            const found = problems(pricePointInput, input);
            expect(found.map((p) => p.property)).toStrictEqual([field]);
            expect(found[0].message).toMatch(/^must be a whole number, 1 or more/);
          },
        ),
        RUNS,
      );
    },
  );

  it("a unit other than day or month is refused, naming it and the accepted units", () => {
    fc.assert(
      fc.property(
        pricePoint,
        fc.string().filter((s) => s !== "day" && s !== "month"),
        (pp, bad) => {
          const found = problems(pricePointInput, { ...pp, intervalUnit: bad });
          expect(found.map((p) => p.property)).toStrictEqual(["intervalUnit"]);
          expect(found[0].message).toMatch(/^must be "day" or "month", got /);
        },
      ),
      RUNS,
    );
  });

  it.each<[string, string, Record<string, unknown>, RegExp]>([
    [
      "trialInterval without its unit",
      "trialIntervalUnit",
      { trialInterval: 7, trialPriceInCents: 0 },
      /^is required with trialInterval: "day" or "month"$/,
    ],
    ["trialIntervalUnit without trialInterval", "trialInterval", { trialIntervalUnit: "day" }, /^is required with trialIntervalUnit/],
    [
      "a trial without its price",
      "trialPriceInCents",
      { trialInterval: 7, trialIntervalUnit: "day" },
      /^is required with a trial \(trialInterval\): a whole number of cents/,
    ],
    ["a trial price without a trial", "trialInterval", { trialPriceInCents: 500 }, /^is required with trialPriceInCents/],
    [
      "expirationInterval without its unit",
      "expirationIntervalUnit",
      { expirationInterval: 12 },
      /^is required with expirationInterval: "day" or "month"$/,
    ],
    [
      "an expiration unit without its interval",
      "expirationInterval",
      { expirationIntervalUnit: "month" },
      /^is required with expirationIntervalUnit "month"/,
    ],
    [
      "an interval with the unit never",
      "expirationInterval",
      { expirationInterval: 3, expirationIntervalUnit: "never" },
      /^must be left out when expirationIntervalUnit is "never"/,
    ],
  ])("%s is refused, naming %s", (_what, property, extra, message) => {
    for (const schema of [pricePointInput, productInput, pricingInput]) {
      const input = schema === pricingInput ? { priceInCents: 100, interval: 1, intervalUnit: "month", ...extra } : { ...base, ...extra };
      const found = problems(schema, input);
      expect(found.map((p) => p.property)).toStrictEqual([property]);
      expect(found[0].message).toMatch(message);
    }
  });

  it("the rules on which fields are present are marked presence (a provider keeps them when a value is unknown)", () => {
    const r = pricePointInput.safeParse({ ...base, trialInterval: 7 });
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => [i.path.join("."), (i as { params?: { presence?: boolean } }).params?.presence])).toStrictEqual([
      ["trialIntervalUnit", true],
      ["trialPriceInCents", true],
    ]);
    // A value-dependent rule is not: an unknown unit at preview must not be taken for "never".
    const never = pricePointInput.safeParse({ ...base, expirationInterval: 3, expirationIntervalUnit: "never" });
    expect((never.error!.issues[0] as { params?: unknown }).params).toBeUndefined();
  });

  it("one bad value never hides a missing partner: both are named", () => {
    expect(propertiesOf(pricePointInput, { ...base, priceInCents: -1, trialInterval: 7 }).sort()).toStrictEqual([
      "priceInCents",
      "trialIntervalUnit",
      "trialPriceInCents",
    ]);
  });
});

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

describe("through the client: refused before anything is sent", () => {
  it("any fractional or negative price: a BillingValidationError naming priceInCents, no request", async () => {
    const billing = clientOf(await deadUrl(), { maxRetries: 0 });
    await fc.assert(
      fc.asyncProperty(pricePoint, notCents, async (pp, bad) => {
        const err = await billing.createPricePoint(1, { ...pp, priceInCents: bad } as PricePointInput).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(BillingValidationError);
        expect((err as BillingValidationError).problems.map((p) => p.property)).toStrictEqual(["priceInCents"]);
        expect((err as BillingValidationError).message).toMatch(/^invalid price point: priceInCents: must be a whole number of cents/);
      }),
      { numRuns: 100 },
    );
  });
});

describe("the bodies made of accepted inputs are what the contract's request schemas accept", () => {
  const contract = JSON.parse(readFileSync(CONTRACT, "utf8"));
  const requestSchema = (method: string, path: string) => contract.paths[path][method].requestBody.content["application/json"].schema;
  let validate: (schema: object, body: unknown) => string[];
  beforeAll(async () => {
    const ajv = (await contractApi()).validator.getAjv(ValidationContext.RequestBody, { allErrors: true });
    const compiled = new Map<object, ReturnType<typeof ajv.compile>>();
    validate = (schema, body) => {
      let v = compiled.get(schema);
      if (!v) {
        v = ajv.compile(schema);
        compiled.set(schema, v);
      }
      v(body);
      return (v.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
    };
  });

  it("price point create: any accepted input", () => {
    const schema = requestSchema("post", "/products/{product_id}/price_points.json");
    // Sanity: the check does refuse.
    expect(validate(schema, { price_point: { name: "x", price_in_cents: 1.5 } }).length).toBeGreaterThan(1);
    fc.assert(
      fc.property(pricePoint, fc.uuid(), (pp, token) => {
        const body = { price_point: pricePointCreateBody(pricePointInput.parse(pp)), uniqueness_token: token };
        expect(validate(schema, body)).toStrictEqual([]);
      }),
      RUNS,
    );
  });

  it("product create: any accepted input", () => {
    const schema = requestSchema("post", "/product_families/{product_family_id}/products.json");
    fc.assert(
      fc.property(product, (p) => {
        const body = { product: productCreateBody(productInput.parse(p)) };
        expect(validate(schema, body)).toStrictEqual([]);
      }),
      RUNS,
    );
  });

  it("product update: any accepted input with the fields the contract requires (the SDK sends only what is given)", () => {
    const schema = requestSchema("put", "/products/{product_id}.json");
    fc.assert(
      fc.property(product, (p) => {
        const full = { description: "", ...p };
        const body = { product: productUpdateBody(productUpdateInput.parse(full)) };
        const errors = validate(schema, body);
        // "never" is the one value an update sends outside the contract's enum (catalog-contract.ts).
        if (full.expirationIntervalUnit === "never")
          expect(errors).toStrictEqual(["/product/expiration_interval_unit must be equal to one of the allowed values"]);
        else expect(errors).toStrictEqual([]);
      }),
      RUNS,
    );
  });
});

describe("the service's refusals in the caller's words (catalogErrorMessages)", () => {
  const snake = fc.stringMatching(/^[a-z]{1,8}(_[a-z]{1,8}){0,3}$/).filter((k) => k !== "base");
  it("a field key becomes its camelCase property; an indexed key [i].property", () => {
    fc.assert(
      fc.property(
        snake,
        fc.nat(50),
        fc.string({ minLength: 1, maxLength: 30 }).filter((m) => !m.includes(":")),
        (key, i, message) => {
          const camel = key === "price" ? "priceInCents" : key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
          expect(catalogErrorMessages({ errors: { [key]: [message] } })).toStrictEqual([`${camel}: ${message}`]);
          expect(catalogErrorMessages({ [`price_points[${i}].${key}`]: [message] })).toStrictEqual([`[${i}].${camel}: ${message}`]);
        },
      ),
      RUNS,
    );
  });

  it("a label that names the same field is dropped; one that names another is kept; unknown labels are left as they are", () => {
    expect(catalogErrorMessages({ errors: { price_in_cents: ["Price in cents: must be greater than 0"] } })).toStrictEqual([
      "priceInCents: must be greater than 0",
    ]);
    expect(catalogErrorMessages({ errors: { price_in_cents: ["must be greater than 0"] } })).toStrictEqual([
      "priceInCents: must be greater than 0",
    ]);
    expect(catalogErrorMessages({ errors: { interval: ["Name: odd"] } })).toStrictEqual(["interval: Name: odd"]);
    expect(
      catalogErrorMessages({ errors: ["API Handle: must be unique - that value has been taken.", "Something: else", "No label"] }),
    ).toStrictEqual(["handle: must be unique - that value has been taken.", "Something: else", "No label"]);
    expect(catalogErrorMessages({ error: "one" })).toStrictEqual(["one"]);
    expect(catalogErrorMessages({ errors: { base: ["Product 'pro' is archived."] } })).toStrictEqual(["Product 'pro' is archived."]);
    expect(catalogErrorMessages("A valid product_family_id is required")).toStrictEqual(["A valid product_family_id is required"]);
    expect(catalogErrorMessages(undefined)).toStrictEqual([]);
  });
});
