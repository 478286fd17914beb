import { describe, expect, it } from "vitest";
import { setNoticeSink } from "../../../provider/engine";
import { clientFor, clientOptionsFor, configure, reportRetry } from "../../../provider/runtime/config";
import { billingEnvPerTest } from "../billing-env";
import { configureRequest } from "../support";
import { configuredWith } from "./configured";

/**
 * The client a resource gets (provider/runtime/config.ts): its options from usable settings, one per configure and
 * per settings (a site's kept by its name), and the notice of each wait before a retry.
 */

const clearEnv = billingEnvPerTest(() => setNoticeSink(undefined));

describe("the client of a site", () => {
  it("clientOptionsFor: usable settings become the client's options", () => {
    clearEnv();
    const p = configuredWith({ "billing:baseUrl": "http://127.0.0.1:9/x", "billing:apiKey": "k", "billing:timeoutMs": "500" });
    expect(clientOptionsFor(p, undefined)).toMatchObject({ baseUrl: "http://127.0.0.1:9/x", apiKey: "k", timeoutMs: 500 });
  });

  it("reportRetry: the request, the reason, the wait in seconds and the next attempt's number", async () => {
    const got: string[] = [];
    setNoticeSink((m) => got.push(m));
    reportRetry({ method: "GET", path: "/x.json", attempt: 2, delayMs: 1250, reason: "answered 503" });
    expect(got).toEqual(["billing: GET /x.json: answered 503; waiting 1.3 s before attempt 3"]);
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
