import { describe, expect, it } from "vitest";
import { subscriptionMigrationProvider, webhookReplayProvider, webhookSettingsProvider } from "../../../provider";
import { UNKNOWN } from "../../../provider/engine";
import { siteCheck } from "../../../provider/runtime/config";
import { billingEnvPerTest } from "../billing-env";
import { configureRequest, KEY } from "../support";
import { configuredWith, stackConfig } from "./configured";

/**
 * What a configuration problem says (provider/runtime/config.ts's siteCheck, and a kind's check at preview): nothing
 * configured, or a key at fault, is the stack's problem (on no property), with the command that fixes each key; a
 * named site's problems are on `site`, each on its own key; a rejected or badly pasted credential fails before
 * anything else is sent; no message holds the key.
 */

const clearEnv = billingEnvPerTest();

describe("config: what a problem says", () => {
  it("nothing configured: the commands that configure a site, on no property", () => {
    clearEnv();
    const p = configuredWith({});
    expect(siteCheck(p, undefined)).toEqual([
      {
        property: "",
        reason:
          "no billing site is configured for this stack: set one with `pulumi config set billing:subdomain <subdomain>` and " +
          "`pulumi config set --secret billing:apiKey <api-key>` (or the BILLING_SUBDOMAIN and BILLING_API_KEY environment variables), " +
          "or give the resource a `site` named in billing:sites",
      },
    ]);
  });

  it("a key at fault: the key, the problem and the command that sets it, on no property; a site's problem is on site", () => {
    clearEnv();
    const p = configuredWith({ "billing:subdomain": "acme", "billing:sites": JSON.stringify({ eu: { subdomain: "x" } }) });
    const [top] = siteCheck(p, undefined);
    expect(top.property).toBe("");
    expect(top.reason).toMatch(
      /^the billing credentials are not usable: billing:apiKey: .+\. Set `pulumi config set --secret billing:apiKey <api-key>` \(or BILLING_API_KEY\), or give the resource a `site` named in billing:sites$/,
    );
    const [eu] = siteCheck(p, "eu");
    expect(eu.property).toBe("site");
    expect(eu.reason).toMatch(/^the billing credentials are not usable: billing:sites\["eu"\]\.apiKey: /);
    expect(siteCheck(p, UNKNOWN)).toEqual([]);
    expect(siteCheck(p, "")).toEqual([{ property: "site", reason: expect.stringContaining("non-empty string") }]);
  });

  it("a site's problems, each on its own key, separated by '; '", () => {
    clearEnv();
    const p = configuredWith({ "billing:sites": JSON.stringify({ eu: { subdomain: "not a label", environment: "mars", apiKey: "k" } }) });
    const [failure] = siteCheck(p, "eu");
    expect(failure.property).toBe("site");
    expect(failure.reason).toBe(
      'the billing credentials are not usable: billing:sites["eu"].subdomain: must be a DNS label such as "acme"; ' +
        'billing:sites["eu"].environment: must be "us", "eu" or "gateway"',
    );
  });
});

describe("config: what a top-level problem says", () => {
  const TAIL = "or give the resource a `site` named in billing:sites";

  it("no top-level key but billing:sites set: the problem with the top level, not 'nothing is configured'", () => {
    clearEnv();
    const p = configuredWith({ "billing:sites": JSON.stringify({ eu: { subdomain: "eu-shop", apiKey: "k" } }) });
    const [failure] = siteCheck(p, undefined);
    expect(failure.property).toBe("");
    expect(failure.reason).toMatch(/^the billing credentials are not usable: billing:apiKey: /);
    expect(failure.reason).not.toMatch(/no billing site is configured/);
  });

  it("two keys at fault: both problems, and a command for each joined by 'and'", () => {
    clearEnv();
    const p = configuredWith({ "billing:subdomain": "not a label", "billing:environment": "mars", "billing:apiKey": "k" });
    const [failure] = siteCheck(p, undefined);
    expect(failure.reason).toBe(
      'the billing credentials are not usable: billing:subdomain: must be a DNS label such as "acme"; ' +
        'billing:environment: must be "us", "eu" or "gateway". ' +
        "Set `pulumi config set billing:subdomain <subdomain>` (or BILLING_SUBDOMAIN) and " +
        `\`pulumi config set billing:environment us|eu|gateway\` (or BILLING_ENVIRONMENT), ${TAIL}`,
    );
  });

  it("a number at fault: the problem, and no command with a placeholder it does not have", () => {
    clearEnv();
    const p = configuredWith({ "billing:subdomain": "acme", "billing:apiKey": "k", "billing:timeoutMs": "soon" });
    const [failure] = siteCheck(p, undefined);
    expect(failure.reason).toBe(
      `the billing credentials are not usable: billing:timeoutMs: Invalid input: expected number, received string, ${TAIL}`,
    );
  });

  it("the connector at fault: its command, with no environment variable (it has none)", () => {
    clearEnv();
    const p = configuredWith({ "billing:environment": "gateway", "billing:accessToken": "t" });
    const [failure] = siteCheck(p, undefined);
    expect(failure.reason).toBe(
      "the billing credentials are not usable: billing:connector: the gateway environment needs a connector name. " +
        `Set \`pulumi config set billing:connector <connector>\`, ${TAIL}`,
    );
  });
});

describe("a problem is a CheckFailure at preview, through a kind's provider", () => {
  const { sim, fresh } = stackConfig();

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
