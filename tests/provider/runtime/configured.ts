import { afterEach, beforeEach, expect } from "vitest";
import { webhookSettingsProvider } from "../../../provider";
import { configure, SiteConfigError } from "../../../provider/runtime/config";
import { type Simulator, startSimulator } from "../../../simulator";
import { configureRequest, KEY } from "../support";

/**
 * What the runtime's tests share: a provider object configured with given stack config (the runtime's `configure`
 * called directly), the SiteConfigError a call throws, and, for the tests that go through a kind's provider, the
 * stack's environment per test and its simulators.
 */

/** A provider object configured with `config` as its stack config. */
export const configuredWith = (config: Record<string, string>) => {
  const provider = {};
  configure(provider, configureRequest(config));
  return provider;
};

/** The SiteConfigError a call throws (a failed expectation when it throws none). */
export function siteConfigError(f: () => unknown): SiteConfigError {
  let err: unknown;
  try {
    f();
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(SiteConfigError);
  return err as SiteConfigError;
}

const ENV = ["BILLING_API_KEY", "BILLING_ACCESS_TOKEN", "BILLING_SUBDOMAIN", "BILLING_ENVIRONMENT", "BILLING_BASE_URL"];

/**
 * For the tests that configure a kind's provider (call at a describe's top level): each test starts without the
 * credential variables and ends with them as they were, its simulators closed. `sim` starts a simulator that takes
 * `apiKey`; `fresh` is WebhookSettings' provider configured with `config`.
 */
export function stackConfig() {
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
  return { sim, fresh };
}
