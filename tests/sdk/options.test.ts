import { describe, expect, it } from "vitest";
import { BillingClient, BillingValidationError } from "../../sdk";
import { resolveConnection } from "../../sdk/options";
import { KEY, site, TOKEN } from "./support";

const basic = `Basic ${Buffer.from(`${KEY}:x`).toString("base64")}`;

describe("BillingClient options", () => {
  it.each([
    [{ subdomain: "acme", apiKey: KEY }, "https://acme.chargify.com", "", basic],
    [{ subdomain: "acme", environment: "us" as const, apiKey: KEY }, "https://acme.chargify.com", "", basic],
    [{ subdomain: "acme", environment: "eu" as const, apiKey: KEY }, "https://acme.ebilling.maxio.com", "", basic],
    [{ environment: "gateway" as const, connector: "acme", accessToken: TOKEN }, "https://acme.api.maxio.com", "/api/v1/billing", `Bearer ${TOKEN}`],
    [{ baseUrl: "http://127.0.0.1:8080/", apiKey: KEY }, "http://127.0.0.1:8080", "", basic],
    [{ baseUrl: "http://127.0.0.1:8080", accessToken: TOKEN }, "http://127.0.0.1:8080", "", `Bearer ${TOKEN}`],
  ])("%o → %s%s", (options, origin, basePath, authorization) => {
    const c = resolveConnection(options);
    expect(c).toMatchObject({ origin, basePath, authorization, maxConcurrency: 4, maxRetries: 4, timeoutMs: 60_000 });
  });

  it.each([
    [{ subdomain: "acme" }, "apiKey", /needs an apiKey/],
    [{ environment: "gateway" as const, connector: "acme" }, "accessToken", /needs an accessToken/],
    [{ environment: "gateway" as const, connector: "acme", apiKey: KEY }, "apiKey", /does not accept Basic/],
    [{ subdomain: "acme", accessToken: TOKEN }, "accessToken", /uses Basic authentication/],
    [{ subdomain: "acme", apiKey: KEY, accessToken: TOKEN }, "apiKey", /not both/],
    [{ apiKey: KEY }, "subdomain", /subdomain/],
    [{ environment: "gateway" as const, accessToken: TOKEN }, "connector", /connector/],
    [{ subdomain: "acme", apiKey: KEY, environment: "mars" }, "environment", /"us", "eu" or "gateway"/],
    [{ subdomain: "acme", apiKey: KEY, maxConcurrency: 0 }, "maxConcurrency", /./],
    [{ subdomain: "acme", apiKey: KEY, timeoutMs: -1 }, "timeoutMs", /./],
    [{ subdomain: "acme", apiKey: KEY, maxRetries: 1.5 }, "maxRetries", /./],
    [{ subdomain: "acme", apiKey: KEY, colour: "red" }, "", /colour/],
  ])("%o is refused naming %s", (options, property, message) => {
    let err: unknown;
    try {
      new BillingClient(options as never);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(BillingValidationError);
    const e = err as BillingValidationError;
    if (property) expect(e.problems.map((p) => p.property)).toContain(property);
    expect(e.message).toMatch(message);
    expect(e.message).not.toContain(KEY);
    expect(e.message).not.toContain(TOKEN);
  });

  it("a refused options object sends nothing", async () => {
    const s = await site();
    try {
      expect(() => new BillingClient({ baseUrl: s.sim.url, apiKey: KEY, accessToken: TOKEN })).toThrow(BillingValidationError);
      expect(s.sim.requests).toHaveLength(0);
    } finally {
      await s.close();
    }
  });

  it("a wrong key is the service's 401, with no credential in the error", async () => {
    const s = await site({}, { apiKey: "sk_wrong_SECRET_1111" });
    try {
      const err = await s.billing.readSubscription(1).catch((e) => e);
      expect(err.status).toBe(401);
      expect(JSON.stringify(err) + String(err) + err.stack).not.toContain("sk_wrong_SECRET_1111");
    } finally {
      await s.close();
    }
  });
});
