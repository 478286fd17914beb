import { describe, expect, it } from "vitest";
import { clientFor, clientOptionsFor, configure, SiteConfigError, settingsFor, siteCheck } from "../../provider/runtime/config";
import { billingEnvPerTest } from "./billing-env";
import { configureRequest } from "./support";

// provider/runtime/config.ts, the cases `npm run mutate` (issue 24) found the other tests pass through
// without telling apart: empty config values, an empty or non-object billing:sites entry, which problems
// a top-level message offers a command for, and which client a provider gets. See mutation/survivors.md.

const clearEnv = billingEnvPerTest();

const configuredWith = (config: Record<string, string>) => {
  const provider = {};
  configure(provider, configureRequest(config));
  return provider;
};

/** The SiteConfigError a call throws (a failed expectation when it throws none). */
function siteConfigError(f: () => unknown): SiteConfigError {
  let err: unknown;
  try {
    f();
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(SiteConfigError);
  return err as SiteConfigError;
}

describe("config: the settings hold only the keys that have a value", () => {
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

describe("config: billing:sites", () => {
  it("set to an empty value is not set: the message says how to set it, not that it is malformed", () => {
    const p = configuredWith({ "billing:sites": "" });
    const err = siteConfigError(() => settingsFor(p, "eu"));
    expect(err.message).toBe(
      "site \"eu\" is not an entry of the stack config billing:sites (billing:sites is not set; set it with `pulumi config set --secret billing:sites '{…}'`)",
    );
  });

  it.each([
    ["a string", "acme"],
    ["a number", 3],
    ["null", null],
  ])("an entry that is %s is not an entry", (_, entry) => {
    const p = configuredWith({ "billing:sites": JSON.stringify({ eu: entry, us: { subdomain: "acme" } }) });
    const err = siteConfigError(() => settingsFor(p, "eu"));
    expect(err.message).toBe('site "eu" is not an entry of the stack config billing:sites (entries: eu, us)');
  });

  it("a SiteConfigError says so by its name", () => {
    const err = siteConfigError(() => settingsFor(configuredWith({}), "eu"));
    expect(err.name).toBe("SiteConfigError");
    expect(String(err)).toMatch(/^SiteConfigError: site "eu"/);
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

describe("clientFor: one client per configure and per settings", () => {
  it("resolved once per configure: a later change of the environment is not seen until configure runs again", () => {
    clearEnv();
    process.env.BILLING_SUBDOMAIN = "first-site";
    process.env.BILLING_API_KEY = "k";
    const p = configuredWith({});
    const first = clientFor(p, undefined);
    process.env.BILLING_SUBDOMAIN = "second-site";
    expect(clientFor(p, undefined)).toBe(first);
    configure(p, configureRequest({}));
    expect(clientFor(p, undefined)).not.toBe(first);
  });

  it("two providers with the same settings share one client (one connection pool, one per-site cap)", () => {
    clearEnv();
    const config = { "billing:subdomain": "shared-pool-site", "billing:apiKey": "k" };
    const a = clientFor(configuredWith(config), undefined);
    const b = clientFor(configuredWith(config), undefined);
    expect(b).toBe(a);
    const other = clientFor(configuredWith({ ...config, "billing:subdomain": "another-pool-site" }), undefined);
    expect(other).not.toBe(a);
  });

  it("a site's client is kept by its name, apart from the top level's", () => {
    clearEnv();
    const p = configuredWith({
      "billing:subdomain": "top-site",
      "billing:apiKey": "k",
      "billing:sites": JSON.stringify({ eu: { subdomain: "eu-site", apiKey: "k" } }),
    });
    const top = clientFor(p, undefined);
    const eu = clientFor(p, "eu");
    expect(eu).not.toBe(top);
    expect(clientFor(p, "eu")).toBe(eu);
    expect(clientFor(p, undefined)).toBe(top);
  });
});
