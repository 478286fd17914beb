import { beforeEach, describe, expect, it, vi } from "vitest";
import { BillingClient, type BillingClientOptions, BillingValidationError } from "../../../sdk";
import { resolveConnection } from "../../../sdk/options";
import { recordingProxy } from "../../contract/recorder";
import { BASIC, KEY, refusal, type Site, site, TOKEN } from "../helpers";
import { fresh, LEAD, refusedWithLead, thrown } from "./reloaded-options";

/**
 * BillingClient's connection options (sdk/options.ts): the host each subdomain, environment or baseUrl makes, the
 * credentials sent (against a live simulator too), and resolveConnection's own refusals and base-path trimming. The
 * resolveConnection tests load the module afresh (vi.resetModules, then import): its schema is built when it loads.
 */

describe("BillingClient options: hosts and credentials", () => {
  it.each([
    ["us by default", { subdomain: "acme", apiKey: KEY }, "https://acme.chargify.com", "", BASIC],
    ["us", { subdomain: "acme", environment: "us" as const, apiKey: KEY }, "https://acme.chargify.com", "", BASIC],
    ["eu", { subdomain: "acme", environment: "eu" as const, apiKey: KEY }, "https://acme.ebilling.maxio.com", "", BASIC],
    [
      "gateway",
      { environment: "gateway" as const, connector: "acme", accessToken: TOKEN },
      "https://acme.api.maxio.com",
      "/api/v1/billing",
      `Bearer ${TOKEN}`,
    ],
    ["baseUrl, trailing slash", { baseUrl: "http://127.0.0.1:8080/", apiKey: KEY }, "http://127.0.0.1:8080", "", BASIC],
    [
      "baseUrl with a base path",
      { baseUrl: "https://proxy.example/billing/v1/", apiKey: KEY },
      "https://proxy.example",
      "/billing/v1",
      BASIC,
    ],
    [
      "baseUrl overrides the subdomain",
      { subdomain: "acme", environment: "eu" as const, baseUrl: "http://127.0.0.1:9", apiKey: KEY },
      "http://127.0.0.1:9",
      "",
      BASIC,
    ],
    [
      "baseUrl with a bearer token",
      { baseUrl: "http://127.0.0.1:8080", accessToken: TOKEN },
      "http://127.0.0.1:8080",
      "",
      `Bearer ${TOKEN}`,
    ],
  ])("%s → %s%s", (_, options, origin, basePath, authorization) => {
    expect(resolveConnection(options)).toMatchObject({ origin, basePath, authorization });
  });

  it("Basic is the API key with the literal password x", () => {
    const { authorization } = resolveConnection({ subdomain: "acme", apiKey: KEY });
    expect(Buffer.from(authorization.replace(/^Basic /, ""), "base64").toString("utf8")).toBe(`${KEY}:x`);
  });

  it("defaults: 60 s timeout, 4 retries, 4 in flight, 5 minutes of 429s, 120 s to settle a migration", () => {
    expect(resolveConnection({ subdomain: "acme", apiKey: KEY })).toMatchObject({
      timeoutMs: 125_000,
      maxConcurrency: 4,
      retry: { maxRetries: 4, baseDelayMs: 250, budgetMs: 300_000 },
      migrationSettleMs: 120_000,
    });
  });

  it.each([
    ["no credential (us)", { subdomain: "acme" }, "apiKey", /needs an apiKey/],
    ["no credential (eu)", { subdomain: "acme", environment: "eu" }, "apiKey", /needs an apiKey/],
    ["no credential (gateway)", { environment: "gateway", connector: "acme" }, "accessToken", /needs an accessToken/],
    ["Basic on the gateway", { environment: "gateway", connector: "acme", apiKey: KEY }, "apiKey", /does not accept Basic/],
    [
      "Basic on the gateway, with baseUrl",
      { environment: "gateway", baseUrl: "http://127.0.0.1:9", apiKey: KEY },
      "apiKey",
      /does not accept Basic/,
    ],
    ["bearer on us", { subdomain: "acme", accessToken: TOKEN }, "accessToken", /uses Basic authentication/],
    ["bearer on eu", { subdomain: "acme", environment: "eu", accessToken: TOKEN }, "accessToken", /uses Basic authentication/],
    ["both credentials", { subdomain: "acme", apiKey: KEY, accessToken: TOKEN }, "apiKey", /not both/],
    ["empty apiKey", { subdomain: "acme", apiKey: "" }, "apiKey", /empty/],
    ["empty accessToken", { environment: "gateway", connector: "acme", accessToken: "" }, "accessToken", /empty/],
    ["no subdomain", { apiKey: KEY }, "subdomain", /subdomain/],
    ["bad subdomain", { subdomain: "acme.evil.com/x", apiKey: KEY }, "subdomain", /DNS label/],
    ["no connector", { environment: "gateway", accessToken: TOKEN }, "connector", /connector/],
    ["unknown environment", { subdomain: "acme", apiKey: KEY, environment: "mars" }, "environment", /"us", "eu" or "gateway"/],
    ["non-http baseUrl", { baseUrl: "ftp://127.0.0.1", apiKey: KEY }, "baseUrl", /http/],
    ["unknown option", { subdomain: "acme", apiKey: KEY, colour: "red" }, "colour", /colour/],
  ])("%s is refused naming %s", (_, options, property, message) => {
    const e = refusal(options);
    expect(e.problems.map((p) => p.property)).toContain(property);
    expect(e.message).toMatch(message);
  });

  it.each([
    ["timeoutMs", 0],
    ["timeoutMs", -1],
    ["timeoutMs", 1.5],
    ["timeoutMs", Number.NaN],
    ["timeoutMs", Number.POSITIVE_INFINITY],
    ["timeoutMs", "1000"],
    ["timeoutMs", 600_001],
    ["maxRetries", -1],
    ["maxRetries", 1.5],
    ["maxRetries", Number.NaN],
    ["maxRetries", "3"],
    ["maxRetries", 21],
    ["maxConcurrency", 0],
    ["maxConcurrency", -4],
    ["maxConcurrency", 2.5],
    ["maxConcurrency", Number.NaN],
    ["maxConcurrency", "4"],
    ["maxConcurrency", 65],
    ["retryBaseDelayMs", -1],
    ["retryBudgetSeconds", -1],
    ["retryBudgetSeconds", "300"],
    ["retryBudgetSeconds", 3601],
    ["migrationSettleSeconds", -5],
    ["migrationSettleSeconds", Number.NaN],
    ["onRetry", "log"],
  ])("%s = %o is refused with a message naming the property", (property, value) => {
    const e = refusal({ subdomain: "acme", apiKey: KEY, [property]: value });
    expect(e.problems.map((p) => p.property)).toEqual([property]);
    expect(e.message).toContain(property);
  });

  it.each([
    ["timeoutMs", 1, { timeoutMs: 1 }],
    ["timeoutMs", 600_000, { timeoutMs: 600_000 }],
    ["maxRetries", 0, { retry: { maxRetries: 0 } }],
    ["maxRetries", 20, { retry: { maxRetries: 20 } }],
    ["maxConcurrency", 1, { maxConcurrency: 1 }],
    ["maxConcurrency", 64, { maxConcurrency: 64 }],
    ["retryBudgetSeconds", 0, { retry: { budgetMs: 0 } }],
    ["retryBudgetSeconds", 3600, { retry: { budgetMs: 3_600_000 } }],
    ["migrationSettleSeconds", 0.5, { migrationSettleMs: 500 }],
  ])("%s = %o is accepted", (property, value, expected) => {
    expect(resolveConnection({ subdomain: "acme", apiKey: KEY, [property]: value })).toMatchObject(expected);
  });
});

describe("BillingClient options against a live simulator", () => {
  let s: Site;

  it.each([
    ["no credential", {}],
    ["Basic on the gateway", { environment: "gateway", apiKey: KEY }],
    ["both credentials", { apiKey: KEY, accessToken: TOKEN }],
    ["an empty key", { apiKey: "" }],
    ["a bad maxConcurrency", { apiKey: KEY, maxConcurrency: 0 }],
  ])("%s: throws before any request reaches the service", async (_, options) => {
    s = await site();
    expect(() => new BillingClient({ baseUrl: s.sim.url, ...options } as BillingClientOptions)).toThrow(BillingValidationError);
    // A request of the valid client, answered: anything the refused one had sent would have arrived first.
    await s.billing.setWebhooksEnabled(true);
    expect(s.sim.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["PUT /webhooks/settings.json"]);
  });

  it("sends Basic apiKey:x on the wire, and the simulator accepts it", async () => {
    s = await site();
    const proxy = await recordingProxy(s.sim.url);
    const billing = new BillingClient({ baseUrl: proxy.url, apiKey: KEY });
    try {
      await billing.setWebhooksEnabled(true);
      expect(proxy.exchanges.map((r) => [r.headers.authorization, r.status])).toEqual([[BASIC, 200]]);
    } finally {
      await billing.close();
      await proxy.close();
    }
  });

  it("sends Bearer <accessToken> on the wire, and the simulator accepts it", async () => {
    s = await site({}, { apiKey: undefined, accessToken: TOKEN });
    const proxy = await recordingProxy(s.sim.url);
    const billing = new BillingClient({ baseUrl: proxy.url, accessToken: TOKEN, environment: "gateway" });
    try {
      await billing.setWebhooksEnabled(true);
      expect(proxy.exchanges.map((r) => [r.headers.authorization, r.status])).toEqual([[`Bearer ${TOKEN}`, 200]]);
      expect(s.sim.webhooksEnabled).toBe(true);
    } finally {
      await billing.close();
      await proxy.close();
    }
  });

  it("a baseUrl's path is kept in front of every request path", async () => {
    s = await site();
    const proxy = await recordingProxy(s.sim.url);
    const billing = new BillingClient({ baseUrl: `${proxy.url}/api/v1/billing/`, accessToken: TOKEN, maxRetries: 0 });
    try {
      await billing.setWebhooksEnabled(true).catch(() => undefined); // the simulator has no base path: 404
      expect(proxy.exchanges.map((r) => `${r.method} ${r.url}`)).toEqual(["PUT /api/v1/billing/webhooks/settings.json"]);
    } finally {
      await billing.close();
      await proxy.close();
    }
  });

  it("a wrong key is the service's 401 as a BillingApiError", async () => {
    s = await site({}, { apiKey: "sk_live_WRONG_1111" });
    const err = await s.billing.readSubscription(1).catch((e) => e);
    expect(err).toMatchObject({ name: "BillingApiError", status: 401, method: "GET", path: "/subscriptions/1.json" });
    expect(String(err) + JSON.stringify(err) + err.stack).not.toContain("sk_live_WRONG_1111");
  });
});

describe("resolveConnection: its own refusals, word for word", () => {
  beforeEach(() => {
    vi.resetModules();
  });

  it.each<[string, BillingClientOptions, { property: string; message: string }[]]>([
    [
      "nothing (us by default)",
      {},
      [
        { property: "apiKey", message: "the us environment needs an apiKey (or an accessToken with baseUrl)" },
        { property: "subdomain", message: "needs the site's subdomain (or a baseUrl)" },
      ],
    ],
    ["an apiKey, no subdomain", { apiKey: KEY }, [{ property: "subdomain", message: "needs the site's subdomain (or a baseUrl)" }]],
    [
      "eu, no credential",
      { environment: "eu", subdomain: "acme" },
      [{ property: "apiKey", message: "the eu environment needs an apiKey (or an accessToken with baseUrl)" }],
    ],
    [
      "a bearer token on us",
      { subdomain: "acme", accessToken: TOKEN },
      [
        {
          property: "accessToken",
          message: "the us environment uses Basic authentication with an apiKey; bearer tokens apply to the gateway environment",
        },
      ],
    ],
    [
      "gateway, nothing else",
      { environment: "gateway" },
      [
        { property: "accessToken", message: "the gateway environment needs an accessToken" },
        { property: "connector", message: "the gateway environment needs a connector name" },
      ],
    ],
    [
      "gateway, a token, no connector",
      { environment: "gateway", accessToken: TOKEN },
      [{ property: "connector", message: "the gateway environment needs a connector name" }],
    ],
    [
      "gateway with an apiKey",
      { environment: "gateway", connector: "acme", apiKey: KEY },
      [{ property: "apiKey", message: "the gateway environment does not accept Basic authentication; use accessToken" }],
    ],
    [
      "both credentials, with a baseUrl",
      { baseUrl: "http://127.0.0.1:8080", apiKey: KEY, accessToken: TOKEN },
      [{ property: "apiKey", message: "give either apiKey or accessToken, not both" }],
    ],
  ])("%s is refused", async (_, options, problems) => {
    const { resolveConnection } = await fresh();
    expect(thrown(() => resolveConnection(options))).toEqual({
      name: "BillingValidationError",
      message: `${LEAD}: ${problems.map((p) => `${p.property}: ${p.message}`).join("; ")}`,
      problems,
    });
  });

  it("a schema refusal comes first, with the same lead", async () => {
    const { resolveConnection } = await fresh();
    expect(thrown(() => resolveConnection({ subdomain: "acme", apiKey: KEY, maxConcurrency: 65 }))).toEqual(
      refusedWithLead("maxConcurrency", "must be between 1 and 64"),
    );
  });
});

describe("resolveConnection: a baseUrl's origin and base path", () => {
  beforeEach(() => {
    vi.resetModules();
  });

  it.each([
    ["http://127.0.0.1:8080", "http://127.0.0.1:8080", ""],
    ["http://127.0.0.1:8080/", "http://127.0.0.1:8080", ""],
    ["http://127.0.0.1:8080//", "http://127.0.0.1:8080", ""],
    ["http://127.0.0.1:8080///", "http://127.0.0.1:8080", ""],
    ["https://proxy.example/billing/v1", "https://proxy.example", "/billing/v1"],
    ["https://proxy.example/billing/v1/", "https://proxy.example", "/billing/v1"],
    ["https://proxy.example/billing/v1///", "https://proxy.example", "/billing/v1"],
    ["https://proxy.example/billing//v1//", "https://proxy.example", "/billing//v1"],
  ])("%s → %s and base path %o", async (baseUrl, origin, basePath) => {
    const { resolveConnection } = await fresh();
    const c = resolveConnection({ baseUrl, apiKey: KEY });
    expect([c.origin, c.basePath]).toEqual([origin, basePath]);
  });
});
