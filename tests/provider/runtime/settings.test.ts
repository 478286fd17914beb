import { describe, expect, it } from "vitest";
import { clientOptionsFor, settingsFor, siteLabel } from "../../../provider/runtime/config";
import { billingEnvPerTest } from "../billing-env";
import { KEY } from "../support";
import { configuredWith, stackConfig } from "./configured";

/**
 * The settings a resource's site gets (provider/runtime/config.ts): the top-level keys of the stack config (empty ones
 * no value, numbers as numbers), the environment where config leaves a key out, a billing:sites entry's own keys
 * and the top level's numbers, and which site a message names; and, through a kind's provider, which site each
 * resource talks to.
 */

const clearEnv = billingEnvPerTest();

describe("settings from stack config, billing:sites and the environment", () => {
  it("top-level keys, empty ones skipped; numbers as numbers, non-numbers kept as text", () => {
    clearEnv();
    const p = configuredWith({
      "billing:subdomain": "acme",
      "billing:apiKey": "",
      "billing:retryBudgetSeconds": "12",
      "billing:timeoutMs": "soon",
      "billing:migrationSettleSeconds": " ",
    });
    expect(settingsFor(p, undefined)).toEqual({
      subdomain: "acme",
      retryBudgetSeconds: 12,
      timeoutMs: "soon",
      migrationSettleSeconds: " ",
    });
  });

  it("environment fallbacks fill only what config leaves unset, numbers included; an empty variable is no value", () => {
    clearEnv();
    process.env.BILLING_SUBDOMAIN = "from-env";
    process.env.BILLING_API_KEY = "env-key";
    process.env.BILLING_BASE_URL = "";
    process.env.BILLING_TIMEOUT_MS = "250";
    process.env.BILLING_RETRY_BUDGET_SECONDS = "9";
    const p = configuredWith({ "billing:subdomain": "acme", "billing:retryBudgetSeconds": "3" });
    expect(settingsFor(p, undefined)).toEqual({ subdomain: "acme", apiKey: "env-key", timeoutMs: 250, retryBudgetSeconds: 3 });
  });

  it("a site's entry: its own strings (not empty, not other types), its numbers, else the top level's numbers; no environment", () => {
    clearEnv();
    process.env.BILLING_API_KEY = "env-key";
    const sites = { eu: { subdomain: "eu-shop", apiKey: "", environment: 5, timeoutMs: 40 } };
    const p = configuredWith({ "billing:sites": JSON.stringify(sites), "billing:retryBudgetSeconds": "7", "billing:timeoutMs": "99" });
    expect(settingsFor(p, "eu")).toEqual({ subdomain: "eu-shop", timeoutMs: 40, retryBudgetSeconds: 7 });
  });

  it("siteLabel: the site, else the subdomain, the connector, the base URL's host, or 'default'", () => {
    clearEnv();
    expect(siteLabel(configuredWith({ "billing:subdomain": "acme" }), "eu")).toBe("eu");
    expect(siteLabel(configuredWith({ "billing:subdomain": "acme", "billing:baseUrl": "http://h:1" }), undefined)).toBe("acme");
    expect(siteLabel(configuredWith({ "billing:connector": "c1", "billing:baseUrl": "http://h:1" }), undefined)).toBe("c1");
    expect(siteLabel(configuredWith({ "billing:baseUrl": "http://h.example:81/api" }), undefined)).toBe("h.example:81");
    expect(siteLabel(configuredWith({}), undefined)).toBe("default");
  });
});

describe("the settings hold only the keys that have a value", () => {
  it("top level: a key config leaves unset or empty is absent, not undefined, numbers included", () => {
    clearEnv();
    const p = configuredWith({ "billing:subdomain": "acme", "billing:apiKey": "k", "billing:environment": "", "billing:timeoutMs": "" });
    const s = settingsFor(p, undefined);
    expect(s).toStrictEqual({ subdomain: "acme", apiKey: "k" });
    expect(Object.keys(s).sort()).toEqual(["apiKey", "subdomain"]);
    // An empty number is no value: the client's default, not a validation failure.
    expect(clientOptionsFor(p, undefined)).toStrictEqual({ subdomain: "acme", apiKey: "k" });
  });

  it("an empty number variable is no value either", () => {
    clearEnv();
    process.env.BILLING_TIMEOUT_MS = "";
    process.env.BILLING_RETRY_BUDGET_SECONDS = "4";
    const p = configuredWith({ "billing:subdomain": "acme", "billing:apiKey": "k" });
    expect(settingsFor(p, undefined)).toStrictEqual({ subdomain: "acme", apiKey: "k", retryBudgetSeconds: 4 });
  });

  it("a site: only its own keys and the numbers it or the top level sets; an empty number falls back to the top level's", () => {
    clearEnv();
    const p = configuredWith({
      "billing:sites": JSON.stringify({ eu: { subdomain: "eu-shop", apiKey: "k", timeoutMs: "" } }),
      "billing:timeoutMs": "300",
    });
    expect(settingsFor(p, "eu")).toStrictEqual({ subdomain: "eu-shop", apiKey: "k", timeoutMs: 300 });
    const bare = configuredWith({ "billing:sites": JSON.stringify({ eu: { subdomain: "eu-shop", apiKey: "k" } }) });
    expect(Object.keys(settingsFor(bare, "eu")).sort()).toEqual(["apiKey", "subdomain"]);
  });
});

describe("through a kind's provider: stack config, billing:sites, environment fallbacks", () => {
  const { sim, fresh } = stackConfig();

  it("top-level keys: billing:baseUrl and billing:apiKey", async () => {
    const s = await sim();
    const p = await fresh({ "billing:baseUrl": s.url, "billing:apiKey": KEY });
    await p.create({ webhooksEnabled: true });
    expect(s.webhooksEnabled).toBe(true);
  });

  it("environment fallbacks when stack config has none", async () => {
    const s = await sim();
    process.env.BILLING_BASE_URL = s.url;
    process.env.BILLING_API_KEY = KEY;
    const p = await fresh({});
    expect((await p.check!({}, { webhooksEnabled: true })).failures).toEqual([]);
    await p.create({ webhooksEnabled: true });
    expect(s.webhooksEnabled).toBe(true);
  });

  it("stack config wins over the environment", async () => {
    const s = await sim();
    process.env.BILLING_API_KEY = "sk_env_WRONG";
    const p = await fresh({ "billing:baseUrl": s.url, "billing:apiKey": KEY });
    await p.create({ webhooksEnabled: true });
    expect(s.webhooksEnabled).toBe(true);
  });

  it("billing:sites: each resource talks to its own site with its own credential", async () => {
    const us = await sim("sk_us_SECRET");
    const eu = await sim("sk_eu_SECRET");
    const sites = { us: { baseUrl: us.url, apiKey: "sk_us_SECRET" }, eu: { baseUrl: eu.url, apiKey: "sk_eu_SECRET" } };
    const p = await fresh({ "billing:sites": JSON.stringify(sites) });
    const a = await p.create({ webhooksEnabled: true, site: "us" });
    const b = await p.create({ webhooksEnabled: false, site: "eu" });
    expect([a.id, b.id]).toEqual(["us", "eu"]);
    expect([us.webhooksEnabled, eu.webhooksEnabled]).toEqual([true, false]);
    expect(eu.requests).toHaveLength(1);
  });
});
