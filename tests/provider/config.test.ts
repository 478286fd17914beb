import { inspect } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { subscriptionMigrationProvider, webhookReplayProvider, webhookSettingsProvider } from "../../provider";
import { type Simulator, startSimulator } from "../../simulator";
import { captureOutput, configureRequest, KEY } from "./support";

const ENV = ["BILLING_API_KEY", "BILLING_ACCESS_TOKEN", "BILLING_SUBDOMAIN", "BILLING_ENVIRONMENT", "BILLING_BASE_URL"];

describe("provider configuration: stack config, billing:sites, environment fallbacks", () => {
  let sims: Simulator[] = [];
  let saved: Record<string, string | undefined>;
  beforeEach(() => {
    saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));
    for (const k of ENV) delete process.env[k];
  });
  afterEach(async () => {
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    await Promise.all(sims.map((s) => s.close()));
    sims = [];
  });
  const sim = async (apiKey = KEY) => {
    const s = await startSimulator({ apiKey });
    sims.push(s);
    return s;
  };
  const fresh = async (config: Record<string, string>) => {
    const p = { ...webhookSettingsProvider };
    await p.configure!(configureRequest(config));
    return p;
  };

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

  it.each([
    [
      {},
      undefined,
      /no billing site is configured.*`pulumi config set billing:subdomain <subdomain>`.*`pulumi config set --secret billing:apiKey <api-key>`.*BILLING_SUBDOMAIN and BILLING_API_KEY/,
    ],
    [
      { "billing:subdomain": "acme", "billing:accessToken": "tok_X" },
      undefined,
      /billing:accessToken: the us environment uses Basic authentication/,
    ],
    [
      { "billing:environment": "gateway", "billing:connector": "acme", "billing:apiKey": KEY },
      undefined,
      /billing:apiKey: the gateway environment does not accept Basic/,
    ],
    [{ "billing:environment": "moon", "billing:subdomain": "acme", "billing:apiKey": KEY }, undefined, /billing:environment/],
    [{ "billing:sites": "{not json" }, "us", /billing:sites must be a JSON object/],
    [{ "billing:sites": JSON.stringify({ us: { subdomain: "acme" } }) }, "us", /billing:sites\["us"\]\.apiKey/],
    [{ "billing:sites": JSON.stringify({ us: { subdomain: "acme", apiKey: KEY } }) }, "eu", /site "eu" is not an entry.*entries: us/],
  ])(
    "config %o with site %s is a CheckFailure at preview (on site when one is named), naming what to set",
    async (config, site, reason) => {
      for (const provider of [webhookSettingsProvider, subscriptionMigrationProvider, webhookReplayProvider]) {
        const p = { ...provider };
        await p.configure!(configureRequest(config));
        const news =
          provider === webhookSettingsProvider
            ? { webhooksEnabled: true }
            : provider === webhookReplayProvider
              ? { ids: [1] }
              : { subscriptionId: 1, productHandle: "pro" };
        const { failures } = await p.check!({}, { ...news, ...(site ? { site } : {}) });
        // Without a site, the stack's configuration is at fault, not an input: the CLI then prints the resource and the message alone.
        expect(failures?.find((f) => f.property === (site ? "site" : ""))?.reason, JSON.stringify(failures)).toMatch(reason);
        expect(JSON.stringify(failures)).not.toContain(KEY);
      }
    },
  );

  it("a rejected credential is a CheckFailure at preview (401), without the key", async () => {
    const s = await sim();
    const p = { ...subscriptionMigrationProvider };
    await p.configure!(configureRequest({ "billing:baseUrl": s.url, "billing:apiKey": "sk_wrong_SECRET_0000" }));
    const { failures } = await p.check!({}, { subscriptionId: 1, productHandle: "pro" });
    expect(failures?.[0]).toMatchObject({ property: "" });
    expect(failures?.[0].reason).toMatch(/refused the configured credentials \(401\); check billing:apiKey/);
    expect(JSON.stringify(failures)).not.toContain("sk_wrong_SECRET_0000");
  });

  it.each([
    ["stack config", { "billing:apiKey": `${KEY}\n` }, {}],
    ["the environment", {}, { BILLING_API_KEY: ` ${KEY}` }],
  ])(
    "a key with whitespace at an end (from %s) is a CheckFailure at preview, before any request, without the key",
    async (_, config, env) => {
      const s = await sim();
      Object.assign(process.env, env);
      const p = await fresh({ "billing:baseUrl": s.url, ...config });
      const { failures } = await p.check!({}, { webhooksEnabled: true });
      expect(failures).toHaveLength(1);
      expect(failures?.[0]).toMatchObject({ property: "" });
      expect(failures?.[0].reason).toMatch(
        /billing:apiKey: must not begin or end with whitespace \(a space, or a newline copied with it\)/,
      );
      expect(JSON.stringify(failures)).not.toContain(KEY);
      expect(s.requests).toEqual([]);
    },
  );
});

describe("no credential in outputs, failures, errors or anything printed", () => {
  it("across every provider operation, success and failure", async () => {
    const s = await startSimulator({ apiKey: KEY });
    try {
      s.addProduct({ id: 1, handle: "basic" });
      s.addProduct({ id: 2, handle: "pro" });
      const a = s.addSubscription({ productHandle: "basic", state: "active" }).id;
      const b = s.addSubscription({ productHandle: "basic", state: "active", requiresAuthentication: true }).id;
      const config = configureRequest({ "billing:baseUrl": s.url, "billing:apiKey": KEY });
      const w = { ...webhookSettingsProvider };
      const m = { ...subscriptionMigrationProvider };
      const r = { ...webhookReplayProvider };
      for (const p of [w, m, r]) await p.configure!(config);
      const results: unknown[] = [];
      const { text } = await captureOutput(async () => {
        const run = async (f: () => Promise<unknown>) =>
          results.push(await f().catch((e) => [e, e.message, e.properties, inspect(e, { depth: 10 })]));
        await run(() => w.check!({}, { webhooksEnabled: true }));
        await run(() => w.create({ webhooksEnabled: true, disableOnDelete: true }));
        await run(() => w.delete!("x", { webhooksEnabled: true, disableOnDelete: true, appliedAt: new Date().toISOString() }));
        await run(() => m.check!({}, { subscriptionId: a, productHandle: "basic" }));
        await run(() => m.create({ subscriptionId: a, productHandle: "pro" }));
        await run(() => m.create({ subscriptionId: b, productHandle: "pro" }));
        await run(() => m.create({ subscriptionId: 9999, productHandle: "pro" }));
        await run(() => m.delete!("x", { args: { subscriptionId: a, productHandle: "pro" } }));
        s.injectFault({ kind: "status", status: 500, match: { path: "/webhooks/replay.json" } });
        await run(() => r.create({ ids: Array.from({ length: 1500 }, (_, i) => i + 1) }));
      });
      const all = text + inspect(results, { depth: 20, maxStringLength: Infinity });
      expect(all).toContain("stays on its current product"); // the capture did see the output
      expect(all).not.toContain(KEY);
      expect(all).not.toContain(Buffer.from(`${KEY}:x`).toString("base64"));
    } finally {
      await s.close();
    }
  });
});
