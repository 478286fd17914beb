import { describe, expect, it } from "vitest";
import { BillingClient } from "../../sdk";
import { KEY, site } from "./helpers";

/**
 * BillingClient itself (sdk/client.ts): every create takes `options?.uniquenessToken`, so a JavaScript caller's
 * `null` options mean "no token given" (a new one is made) rather than a TypeError; and what toJSON shows of a client.
 */

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
