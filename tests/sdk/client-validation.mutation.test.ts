import { describe, expect, it } from "vitest";
import { z } from "zod";
import { BillingClient } from "../../sdk";
import { problemsOf } from "../../sdk/validation";
import { KEY, refusal, site } from "./helpers";

// sdk/client.ts and sdk/validation.ts, pinned exactly: the mutation run (tests/sdk/ only) left these alive. Every
// create takes `options?.uniquenessToken`, so a JavaScript caller's `null` options mean "no token given" (a new one
// is made) rather than a TypeError; toJSON's shape was never compared; and problemsOf's naming of a property
// (an empty key, the value as a whole, a nested object's accepted keys) and its "is required" rewrite were unchecked.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MONTHLY = { priceInCents: 1000, interval: 1, intervalUnit: "month" } as const;

describe("the creates take null options as none: a new token each", () => {
  it("every create, each POST carrying a fresh uniqueness token", async () => {
    const s = await site();
    const b = s.billing;
    const none = null as never;
    const f = await b.createProductFamily({ handle: "saas", name: "SaaS" }, none);
    const p = await b.createProduct(f.id, { handle: "pro", name: "Pro", ...MONTHLY }, none);
    const pp = await b.createPricePoint(p.id, { handle: "annual", name: "Annual", ...MONTHLY, interval: 12 }, none);
    const c = await b.createComponent(f.id, { kind: "on_off", handle: "support", name: "Support", unitPrice: "100.00" }, none);
    const cpp = await b.createComponentPricePoint(
      c.id,
      { handle: "support-eu", name: "Support EU", pricingScheme: "per_unit", prices: [{ startingQuantity: 1, unitPrice: "90.00" }] },
      none,
    );
    const coupon = await b.createCoupon(f.id, { code: "WELCOME", name: "Welcome", amountInCents: 500 }, none);
    const e = await b.createEndpoint({ url: "https://example.com/hooks", events: ["payment_success"] }, none);
    expect([f.handle, p.handle, pp.handle, c.handle, cpp.handle, coupon.code, e.url]).toStrictEqual([
      "saas",
      "pro",
      "annual",
      "support",
      "support-eu",
      "WELCOME",
      "https://example.com/hooks",
    ]);
    const posts = s.sim.requests.filter((r) => r.method === "POST");
    expect(posts.map((r) => `${r.status} ${r.path}`)).toStrictEqual([
      "201 /product_families.json",
      `201 /product_families/${f.id}/products.json`,
      `201 /products/${p.id}/price_points.json`,
      `201 /product_families/${f.id}/on_off_components.json`,
      `200 /components/${c.id}/price_points.json`,
      `201 /product_families/${f.id}/coupons.json`,
      "200 /endpoints.json",
    ]);
    const tokens = posts.map((r) => r.uniquenessToken ?? "");
    expect(tokens.filter((t) => UUID.test(t))).toHaveLength(7);
    expect(new Set(tokens).size).toBe(7);
  });

  it("a given token is sent as given", async () => {
    const s = await site();
    const token = "3f1c2b9a-0d4e-4f6a-8b7c-1a2b3c4d5e6f";
    await s.billing.createProductFamily({ handle: "saas", name: "SaaS" }, { uniquenessToken: token });
    expect(s.sim.requests.map((r) => [r.method, r.path, r.uniquenessToken])).toStrictEqual([["POST", "/product_families.json", token]]);
  });
});

describe("BillingClient.toJSON", () => {
  it("is its name and nothing else", () => {
    const b = new BillingClient({ subdomain: "acme", apiKey: KEY });
    expect(b.toJSON()).toStrictEqual({ client: "BillingClient" });
    expect(JSON.stringify(b)).toBe('{"client":"BillingClient"}');
    expect(JSON.stringify({ billing: b })).toBe('{"billing":{"client":"BillingClient"}}');
  });
});

describe("problemsOf", () => {
  it("names an empty key (empty key), with the keys accepted", () => {
    const err = refusal({ subdomain: "acme", apiKey: KEY, "": 1 });
    expect(err.problems).toStrictEqual([
      {
        property: "(empty key)",
        message:
          "is not a known property (accepted: subdomain, environment, connector, baseUrl, apiKey, accessToken, timeoutMs, " +
          "maxRetries, maxConcurrency, retryBaseDelayMs, retryBudgetSeconds, migrationSettleSeconds, onRetry)",
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
