import { describe, expect, it } from "vitest";
import { z } from "zod";
import { problemsOf } from "../../sdk/validation";
import { KEY, refusal } from "./helpers";

/**
 * problemsOf (sdk/validation.ts): how a refusal names a property (an empty key, the value as a whole, a nested
 * object's accepted keys) and its "is required" rewrite of zod's words.
 */

describe("problemsOf", () => {
  it("names an empty key (empty key), with the keys accepted", () => {
    const err = refusal({ subdomain: "acme", apiKey: KEY, "": 1 });
    expect(err.problems).toStrictEqual([
      {
        property: "(empty key)",
        message:
          "is not a known property (accepted: subdomain, environment, connector, baseUrl, apiKey, accessToken, timeoutMs, " +
          "maxRetries, maxConcurrency, retryBaseDelayMs, retryBudgetSeconds, migrationSettleSeconds, readBatchWindowMs, onRetry)",
      },
    ]);
  });

  it("names an empty key under a prefix and a path, and says nothing of accepted keys it was not given", () => {
    const schema = z.object({ tiers: z.array(z.strictObject({ unitPrice: z.string() })) });
    const r = schema.safeParse({ tiers: [{ unitPrice: "1", "": 2, extra: 3 }] });
    expect(problemsOf(r.error as z.ZodError, "component")).toStrictEqual([
      { property: "component.tiers.0.(empty key)", message: "is not a known property" },
      { property: "component.tiers.0.extra", message: "is not a known property" },
    ]);
  });

  it("looks up a nested object's accepted keys by its dotted path", () => {
    const schema = z.object({ pricing: z.object({ trial: z.strictObject({ interval: z.number(), unit: z.string() }) }) });
    const r = schema.safeParse({ pricing: { trial: { interval: 1, unit: "day", price: 0 } } });
    expect(problemsOf(r.error as z.ZodError, "product", { "": ["pricing"], "pricing.trial": ["interval", "unit"] })).toStrictEqual([
      { property: "product.pricing.trial.price", message: "is not a known property (accepted: interval, unit)" },
    ]);
  });

  it('reads "*" in an accepted path as any list index or record key, an exact path first', () => {
    const schema = z.object({
      prices: z.record(z.string(), z.strictObject({ baseline: z.number() })),
      tiers: z.array(z.strictObject({ s: z.number() })),
    });
    const r = schema.safeParse({ prices: { EUR: { baseline: 9, setup: 1 } }, tiers: [{ s: 1 }, { s: 2, e: 3 }] });
    const accepted = { "": ["prices", "tiers"], "prices.*": ["baseline"], "tiers.*": ["s"], "tiers.1": ["s", "e?"] };
    expect(problemsOf(r.error as z.ZodError, undefined, accepted)).toStrictEqual([
      { property: "prices.EUR.setup", message: "is not a known property (accepted: baseline)" },
      { property: "tiers.1.e", message: "is not a known property (accepted: s, e?)" },
    ]);
  });

  it("names the value as a whole (input) when there is no prefix, and the prefix alone when there is one", () => {
    const r = z.number({ error: "must be a number" }).safeParse("7");
    expect(problemsOf(r.error as z.ZodError)).toStrictEqual([{ property: "(input)", message: "must be a number" }]);
    expect(problemsOf(r.error as z.ZodError, "count")).toStrictEqual([{ property: "count", message: "must be a number" }]);
  });

  it("reads zod's 'received undefined' as 'is required', and only for a wrong type", () => {
    const schema = z.object({
      name: z.string(),
      handle: z.string(),
      note: z.string().refine(() => false, "was received undefined upstream"),
    });
    const r = schema.safeParse({ handle: 5, note: "x" });
    expect(problemsOf(r.error as z.ZodError, "family")).toStrictEqual([
      { property: "family.name", message: "is required" },
      { property: "family.handle", message: "Invalid input: expected string, received number" },
      { property: "family.note", message: "was received undefined upstream" },
    ]);
  });
});
