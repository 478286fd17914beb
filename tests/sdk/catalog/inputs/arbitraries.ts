import fc from "fast-check";
import type { z } from "zod";
import type { pricingInput, productInput } from "../../../../sdk";
import { keysOf, problemsOf } from "../../../../sdk/validation";

/**
 * The catalog's accepted inputs as fast-check arbitraries (handles, names, prices, whole pricings, price points and
 * products, each optional part present or not), the numbers a price may not be, and readers of a schema's problems.
 */

export const RUNS = { numRuns: 300 };

export const unit = fc.constantFrom("day" as const, "month" as const);

export const handle = fc.stringMatching(/^[a-z0-9][a-z0-9.:_-]{0,40}$/);

// Not only spaces: the service refuses such a name as blank.
export const name = fc.string({ minLength: 1, maxLength: 60 }).filter((s) => /\S/.test(s));

export const cents = fc.maxSafeNat();

export const count = fc.integer({ min: 1, max: 2 ** 31 - 1 });

/** A pricing the rules accept: each optional part present or not, paired fields together. */
export const pricing = fc
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

export const pricePoint = fc
  .record({ handle, name, useSiteExchangeRate: fc.option(fc.boolean(), { nil: undefined }), pricing })
  .map(({ pricing: p, useSiteExchangeRate, ...rest }) => ({
    ...rest,
    ...p,
    ...(useSiteExchangeRate === undefined ? {} : { useSiteExchangeRate }),
  }));

export const product = fc
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

export const base = { handle: "h", name: "H", priceInCents: 100, interval: 1, intervalUnit: "month" } as const;

/** Numbers a price may not be: fractions, negatives, and the non-finite. */
export const notCents = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => !Number.isInteger(x)),
  fc.integer({ max: -1 }),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0.5, 0.1, 1e-9),
);

export const problems = (schema: z.ZodType, input: unknown) => {
  const r = schema.safeParse(input);
  return r.success ? [] : problemsOf(r.error, undefined, { "": keysOf(schema as unknown as { shape: Record<string, unknown> }) });
};

/** The problems of a schema that is not a plain object (the component rules wrap theirs). */
export const refusals = (schema: z.ZodType, input: unknown) => {
  const r = schema.safeParse(input);
  return r.success ? [] : problemsOf(r.error);
};

export const propertiesOf = (schema: z.ZodType, input: unknown) => problems(schema, input).map((p) => p.property);
