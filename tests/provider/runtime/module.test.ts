import { unknownValue } from "@pulumi/pulumi/runtime/rpc";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

// The module-level tables of provider/runtime (the environment variables each setting falls back to, the
// placeholders and --secret of the commands an error tells the user to run, the engine's unknown marker).
// tests/provider/program-client.test.ts loads these modules afresh inside its tests, so Stryker runs only
// the tests that do so against their module-level mutants (27 Nov run: 21 survived in config.ts and
// common.ts). These tests load them afresh too, and pin what each table entry is for.

const config = async () => {
  vi.resetModules();
  return import("../../../provider/runtime/config");
};
const configured = async (values: Record<string, string>) => {
  const { configure, clientOptionsFor, settingsFor } = await config();
  const provider = {};
  configure(provider, { config: { get: (k) => values[k] } });
  return { provider, clientOptionsFor, settingsFor };
};
/** The message clientOptionsFor gives for the top-level settings, or the options when they are usable. */
const problemOf = async (values: Record<string, string>): Promise<string> => {
  const { provider, clientOptionsFor } = await configured(values);
  try {
    return JSON.stringify(clientOptionsFor(provider, undefined));
  } catch (err) {
    return (err as Error).message;
  }
};

const ENVIRONMENT = {
  BILLING_SUBDOMAIN: "acme-env",
  BILLING_ENVIRONMENT: "eu",
  BILLING_BASE_URL: "http://127.0.0.1:9/",
  BILLING_API_KEY: "env-key-value",
  BILLING_ACCESS_TOKEN: "env-token-value",
  BILLING_RETRY_BUDGET_SECONDS: "12",
  BILLING_MIGRATION_SETTLE_SECONDS: "3",
  BILLING_TIMEOUT_MS: "4500",
};

describe("provider/runtime's module-level tables, loaded afresh", () => {
  beforeEach(() => {
    for (const k of Object.keys(ENVIRONMENT)) vi.stubEnv(k, undefined);
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("without stack config, each setting is read from its own BILLING_* variable", async () => {
    for (const [k, v] of Object.entries(ENVIRONMENT)) vi.stubEnv(k, v);
    const { provider, settingsFor } = await configured({});
    expect(settingsFor(provider, undefined)).toStrictEqual({
      subdomain: "acme-env",
      environment: "eu",
      baseUrl: "http://127.0.0.1:9/",
      apiKey: "env-key-value",
      accessToken: "env-token-value",
      retryBudgetSeconds: 12,
      migrationSettleSeconds: 3,
      timeoutMs: 4500,
    });
  });

  it("a provider object not configured (a direct call before the engine's configure) falls back to the environment too", async () => {
    vi.stubEnv("BILLING_SUBDOMAIN", "acme-env");
    vi.stubEnv("BILLING_API_KEY", "env-key-value");
    const { settingsFor } = await config();
    expect(settingsFor({}, undefined)).toStrictEqual({ subdomain: "acme-env", apiKey: "env-key-value" });
  });

  it.each([
    [
      "nothing set: the two commands (the key with --secret) and both variables",
      {},
      "no billing site is configured for this stack: set one with `pulumi config set billing:subdomain <subdomain>` and `pulumi config set --secret billing:apiKey <api-key>` (or the BILLING_SUBDOMAIN and BILLING_API_KEY environment variables), or give the resource a `site` named in billing:sites",
    ],
    [
      "a bad environment",
      { "billing:environment": "mars", "billing:subdomain": "acme", "billing:apiKey": "k" },
      'the billing credentials are not usable: billing:environment: must be "us", "eu" or "gateway". Set `pulumi config set billing:environment us|eu|gateway` (or BILLING_ENVIRONMENT), or give the resource a `site` named in billing:sites',
    ],
    [
      "a bad base URL",
      { "billing:baseUrl": "nope", "billing:apiKey": "k" },
      "the billing credentials are not usable: billing:baseUrl: must be an http(s) URL. Set `pulumi config set billing:baseUrl <url>` (or BILLING_BASE_URL), or give the resource a `site` named in billing:sites",
    ],
    [
      "a bad subdomain",
      { "billing:subdomain": "Bad Sub!", "billing:apiKey": "k" },
      'the billing credentials are not usable: billing:subdomain: must be a DNS label such as "acme". Set `pulumi config set billing:subdomain <subdomain>` (or BILLING_SUBDOMAIN), or give the resource a `site` named in billing:sites',
    ],
    [
      "both credentials: each with --secret and its variable",
      { "billing:subdomain": "acme", "billing:apiKey": "k", "billing:accessToken": "t" },
      "the billing credentials are not usable: billing:apiKey: give either apiKey or accessToken, not both; billing:accessToken: the us environment uses Basic authentication with an apiKey; bearer tokens apply to the gateway environment. Set `pulumi config set --secret billing:apiKey <api-key>` (or BILLING_API_KEY) and `pulumi config set --secret billing:accessToken <token>` (or BILLING_ACCESS_TOKEN), or give the resource a `site` named in billing:sites",
    ],
    [
      "the gateway without a connector, which has no variable",
      { "billing:environment": "gateway", "billing:subdomain": "acme", "billing:accessToken": "t" },
      "the billing credentials are not usable: billing:connector: the gateway environment needs a connector name. Set `pulumi config set billing:connector <connector>`, or give the resource a `site` named in billing:sites",
    ],
  ])("a top-level problem names the command that fixes it: %s", async (_, values, message) => {
    expect(await problemOf(values)).toBe(message);
  });

  it("the unknown marker is the engine's, and only it is unknown; previews are recorded under the key billing-review reads", async () => {
    vi.resetModules();
    const { UNKNOWN, isUnknown, PREVIEW_KEY } = await import("../../../provider/engine");
    expect(UNKNOWN).toBe(unknownValue);
    expect([isUnknown(unknownValue), isUnknown(""), isUnknown({ a: [unknownValue] }), isUnknown({ a: [""] })]).toEqual([
      true,
      false,
      true,
      false,
    ]);
    // review/migrations.ts and review/catalog.ts read `inputs.preview` of a checked resource.
    expect(PREVIEW_KEY).toBe("preview");
  });
});
