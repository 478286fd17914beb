import { describe, expect, it } from "vitest";
import { kinds } from "../../provider/runtime";
import {
  isUnknown,
  notice,
  partialFailure,
  setNoticeSink,
  siteFailure,
  UNKNOWN,
  unknownInputs,
  userInputs,
} from "../../provider/engine";
import {
  clientOptionsFor,
  configure,
  reportRetry,
  SiteConfigError,
  settingsFor,
  siteCheck,
  siteLabel,
} from "../../provider/runtime/config";
import { plainCredentialWarning } from "../../provider/runtime/plain-credentials";
import { billingEnvPerTest } from "./billing-env";
import { captureOutput, configureRequest } from "./support";

// The runtime's helpers, called directly (found by `npm run mutate`, issue 24): the cases the
// resource-level tests pass through without telling apart.

const clearEnv = billingEnvPerTest(() => setNoticeSink(undefined));

const configuredWith = (config: Record<string, string>) => {
  const provider = {};
  configure(provider, configureRequest(config));
  return provider;
};

describe("common", () => {
  it("isUnknown: the placeholder itself, inside arrays and objects, at any depth; nothing else", () => {
    expect(isUnknown(UNKNOWN)).toBe(true);
    expect(isUnknown([1, [2, UNKNOWN]])).toBe(true);
    expect(isUnknown({ a: { b: [UNKNOWN] } })).toBe(true);
    expect(isUnknown([1, "x", null, { a: 1 }])).toBe(false);
    expect(isUnknown({ a: null, b: "x" })).toBe(false);
    expect(isUnknown(null)).toBe(false);
    expect(isUnknown(`${UNKNOWN} `)).toBe(false);
  });

  it("userInputs drops only __provider", () => {
    expect(userInputs({ __provider: "p", a: 1, b: undefined })).toEqual({ a: 1, b: undefined });
  });

  it("partialFailure: id, the properties without undefined values, __provider only when there is one, and the reason", () => {
    const withShell = partialFailure("half done", "id-1", { a: 1, b: undefined, c: { d: undefined, e: 2 } }, "shell");
    expect(withShell.message).toBe("half done");
    expect({ ...withShell }).toEqual({ id: "id-1", properties: { a: 1, c: { e: 2 }, __provider: "shell" }, reasons: ["half done"] });
    const plugin = partialFailure("half done", "id-2", { a: 1 }, undefined);
    expect({ ...plugin }).toEqual({ id: "id-2", properties: { a: 1 }, reasons: ["half done"] });
    expect(Object.hasOwn((plugin as unknown as { properties: object }).properties, "__provider")).toBe(false);
  });

  it("unknownInputs: one failure per key not accepted, naming the accepted ones", () => {
    expect(unknownInputs("billing:T", ["a", "b"], { a: 1, x: 2, y: 3 })).toEqual([
      { property: "x", reason: "is not an input of billing:T (accepted: a, b)" },
      { property: "y", reason: "is not an input of billing:T (accepted: a, b)" },
    ]);
    expect(unknownInputs("billing:T", ["a"], { a: 1 })).toEqual([]);
  });

  it("siteFailure: undefined and unknown pass; a non-string or an empty string fails on site", () => {
    expect(siteFailure(undefined)).toBeUndefined();
    expect(siteFailure(UNKNOWN)).toBeUndefined();
    expect(siteFailure("eu")).toBeUndefined();
    for (const bad of ["", 3, null, {}]) {
      expect(siteFailure(bad)).toEqual({
        property: "site",
        reason: "must be the name of an entry of the stack config billing:sites (a non-empty string)",
      });
    }
  });

  it("notice: to the sink when one is set, else to stderr", async () => {
    const got: string[] = [];
    setNoticeSink((m) => got.push(m));
    const sunk = await captureOutput(async () => notice("one"));
    expect([got, sunk.text]).toEqual([["one"], ""]);
    setNoticeSink(undefined);
    const printed = await captureOutput(async () => notice("two"));
    expect([got, printed.text]).toEqual([["one"], "two\n"]);
  });

  it("plainCredentialWarning: the key, the stack's file (or a placeholder) and the command; billing:sites takes an object", () => {
    expect(plainCredentialWarning("billing:apiKey", "dev")).toBe(
      "billing:apiKey is stored in plain text in Pulumi.dev.yaml: run `pulumi config set --secret billing:apiKey <value>` to store it encrypted",
    );
    expect(plainCredentialWarning("billing:sites")).toBe(
      "billing:sites is stored in plain text in Pulumi.<stack>.yaml: run `pulumi config set --secret billing:sites '{…}'` to store it encrypted",
    );
  });
});

describe("config: settings from stack config, billing:sites and the environment", () => {
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

  it("a site not in billing:sites names the entries, or says how to set billing:sites; a bad billing:sites says what it must be", () => {
    const some = configuredWith({ "billing:sites": JSON.stringify({ a: {}, b: {} }) });
    expect(() => settingsFor(some, "c")).toThrow(
      new SiteConfigError('site "c" is not an entry of the stack config billing:sites (entries: a, b)'),
    );
    const none = configuredWith({});
    expect(() => settingsFor(none, "c")).toThrow(
      "site \"c\" is not an entry of the stack config billing:sites (billing:sites is not set; set it with `pulumi config set --secret billing:sites '{…}'`)",
    );
    for (const raw of ["[1]", "null", "3", "{"]) {
      const bad = configuredWith({ "billing:sites": raw });
      expect(() => settingsFor(bad, "c")).toThrow(/^billing:sites must be a JSON object keyed by site name/);
    }
  });

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

  it("clientOptionsFor: usable settings become the client's options", () => {
    clearEnv();
    const p = configuredWith({ "billing:baseUrl": "http://127.0.0.1:9/x", "billing:apiKey": "k", "billing:timeoutMs": "500" });
    expect(clientOptionsFor(p, undefined)).toMatchObject({ baseUrl: "http://127.0.0.1:9/x", apiKey: "k", timeoutMs: 500 });
  });

  it("siteLabel: the site, else the subdomain, the connector, the base URL's host, or 'default'", () => {
    clearEnv();
    expect(siteLabel(configuredWith({ "billing:subdomain": "acme" }), "eu")).toBe("eu");
    expect(siteLabel(configuredWith({ "billing:subdomain": "acme", "billing:baseUrl": "http://h:1" }), undefined)).toBe("acme");
    expect(siteLabel(configuredWith({ "billing:connector": "c1", "billing:baseUrl": "http://h:1" }), undefined)).toBe("c1");
    expect(siteLabel(configuredWith({ "billing:baseUrl": "http://h.example:81/api" }), undefined)).toBe("h.example:81");
    expect(siteLabel(configuredWith({}), undefined)).toBe("default");
  });

  it("reportRetry: the request, the reason, the wait in seconds and the next attempt's number", async () => {
    const got: string[] = [];
    setNoticeSink((m) => got.push(m));
    reportRetry({ method: "GET", path: "/x.json", attempt: 2, delayMs: 1250, reason: "answered 503" });
    expect(got).toEqual(["billing: GET /x.json: answered 503; waiting 1.3 s before attempt 3"]);
  });
});

describe("provide: a kind's runtime (provider/runtime/provide.ts)", () => {
  const hook = { url: "https://a.example.com/h", events: ["payment_failure"] };
  const configured = () => configuredWith({ "billing:apiKey": "sk_live_PROVIDE_1", "billing:baseUrl": "http://127.0.0.1:9" });

  it("a recorded state this version cannot read: diff says which fields and what to do, whole, before any request", async () => {
    await expect(kinds.webhookEndpoint.diff(configured(), "7", { endpointId: "seven", url: 3 }, hook)).rejects.toThrow(
      new Error(
        "WebhookEndpoint 7: the recorded state is not one this version of pulumi-subscription-billing reads " +
          "(endpointId: Invalid input: expected number, received string; url: Invalid input: expected string, received number; events: is required). " +
          "Nothing was sent. If the package was downgraded, upgrade it again.",
      ),
    );
  });

  it("a site of the wrong type is one failure: the schema's, not also the site check's", async () => {
    expect((await kinds.webhookEndpoint.check(configured(), {}, { ...hook, site: 5 })).failures).toEqual([
      { property: "site", reason: "must be the name of an entry of the stack config billing:sites (a non-empty string), got 5" },
    ]);
    expect((await kinds.webhookEndpoint.check(configured(), {}, { ...hook, site: "eu" })).failures).toEqual([
      {
        property: "site",
        reason:
          "site \"eu\" is not an entry of the stack config billing:sites (billing:sites is not set; set it with `pulumi config set --secret billing:sites '{…}'`)",
      },
    ]);
  });
});
