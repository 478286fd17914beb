import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import {
  AuthenticationRequiredError,
  BillingApiError,
  BillingClient,
  BillingConnectionError,
  BillingValidationError,
  CatalogOutcomeUnknownError,
  LiveSiteError,
  MigrationOutcomeUnknownError,
  ReplayPartialFailureError,
} from "../../sdk";
import { catalogue, clientOf, everything, expectNoSecret, KEY, refusal, site, TOKEN } from "./helpers";
import { configService } from "./site-config/config-service";

/** Errors are provoked with each credential kind: the API key (Basic) and the access token (Bearer). */
const CREDENTIALS = [
  ["apiKey", { apiKey: KEY }],
  ["accessToken", { apiKey: undefined, accessToken: TOKEN }],
] as const;

describe.each(CREDENTIALS)("no credential in any error, in any form (%s)", (_, credential) => {
  it("BillingApiError: 404, 422 same product, 422 ineligible", async () => {
    const s = await site({}, credential);
    catalogue(s.sim);
    const a = s.sim.addSubscription({ productHandle: "basic", state: "active" }).id;
    const c = s.sim.addSubscription({ productHandle: "basic", state: "canceled" }).id;
    const errors = [
      await s.billing.readSubscription(424242).catch((e) => e),
      await s.billing.migrateSubscription(a, { productHandle: "basic" }).catch((e) => e),
      await s.billing.migrateSubscription(c, { productHandle: "pro" }).catch((e) => e),
      await s.billing.previewMigration(a, { productId: 1 }).catch((e) => e),
    ];
    expect(errors.map((e) => [e.constructor, e.status])).toEqual([
      [BillingApiError, 404],
      [BillingApiError, 422],
      [BillingApiError, 422],
      [BillingApiError, 422],
    ]);
    for (const e of errors) expectNoSecret(everything(e));
  });

  it("AuthenticationRequiredError (3-D Secure)", async () => {
    const s = await site({}, credential);
    catalogue(s.sim);
    const id = s.sim.addSubscription({ productHandle: "basic", state: "active", requiresAuthentication: true }).id;
    const err = await s.billing.migrateSubscription(id, { productHandle: "pro" }).catch((e) => e);
    expect(err).toBeInstanceOf(AuthenticationRequiredError);
    expectNoSecret(everything(err));
  });

  it("BillingApiError after retries (503) and ReplayPartialFailureError", async () => {
    const s = await site({}, { ...credential, maxConcurrency: 1, maxRetries: 1 });
    s.sim.injectFault({ kind: "status", status: 503, match: { method: "PUT" } });
    const put = await s.billing.setWebhooksEnabled(true).catch((e) => e);
    expect(put).toBeInstanceOf(BillingApiError);
    expectNoSecret(everything(put));

    s.sim.injectFault({ kind: "delay", ms: 0, times: 1, match: { path: "/webhooks/replay.json" } });
    s.sim.injectFault({ kind: "status", status: 502, match: { path: "/webhooks/replay.json" } });
    const partial = await s.billing.replayWebhooks(Array.from({ length: 1500 }, (_, i) => i + 1)).catch((e) => e);
    expect(partial).toBeInstanceOf(ReplayPartialFailureError);
    expectNoSecret(everything(partial));
  });

  it("BillingConnectionError (nothing listening), for a read and for a migration", async () => {
    const s = await site();
    const url = s.sim.url;
    await s.close();
    const billing = new BillingClient({ baseUrl: url, ...credential, maxRetries: 1, retryBaseDelayMs: 1 });
    try {
      const err = await billing.readSubscription(1).catch((e) => e);
      expect(err).toBeInstanceOf(BillingConnectionError);
      expect(err.code).toBe("ECONNREFUSED");
      expectNoSecret(everything(err));
      // Never sent: nothing is unknown, so the connection error itself.
      const migration = await billing.migrateSubscription(1, { productHandle: "pro" }).catch((e) => e);
      expect(migration).toBeInstanceOf(BillingConnectionError);
      expect(migration).toMatchObject({ code: "ECONNREFUSED", mayHaveApplied: false });
      expectNoSecret(everything(migration));
    } finally {
      await billing.close();
    }
  });

  it("MigrationOutcomeUnknownError (the answer lost and the read-back failing) and ReplayPartialFailureError with unknown batches", async () => {
    const s = await site({}, { ...credential, maxRetries: 1 });
    catalogue(s.sim);
    const id = s.sim.addSubscription({ productHandle: "basic", state: "active" }).id;
    s.sim.injectFault({ kind: "reset", applyAfterHandling: true });
    const unknown = await s.billing.migrateSubscription(id, { productHandle: "pro" }).catch((e) => e);
    expect(unknown).toBeInstanceOf(MigrationOutcomeUnknownError);
    expect(unknown.cause).toBeInstanceOf(BillingConnectionError);
    expectNoSecret(everything(unknown));
    const partial = await s.billing.replayWebhooks([1, 2]).catch((e) => e);
    expect(partial).toBeInstanceOf(ReplayPartialFailureError);
    expect(partial.unknownBatches).toHaveLength(1);
    expectNoSecret(everything(partial));
  });

  it("BillingConnectionError (timeout)", async () => {
    const s = await site({ latencyMs: 2500 }, { ...credential, timeoutMs: 50, maxRetries: 0 });
    const err = await s.billing.setWebhooksEnabled(true).catch((e) => e);
    expect(err).toBeInstanceOf(BillingConnectionError);
    expectNoSecret(everything(err));
  });

  it("BillingValidationError (bad input)", async () => {
    const s = await site({}, credential);
    const errors = [
      await s.billing.replayWebhooks([0, 1.5]).catch((e) => e),
      await s.billing.migrateSubscription(0, {}).catch((e) => e),
      await s.billing.listWebhooks({ status: "nope" as never }).catch((e) => e),
    ];
    for (const e of errors) {
      expect(e).toBeInstanceOf(BillingValidationError);
      expectNoSecret(everything(e));
    }
  });

  it("the client object itself", async () => {
    const billing = new BillingClient({ baseUrl: "http://127.0.0.1:9", ...credential });
    expectNoSecret(
      inspect(billing, { depth: 10, showHidden: true }) + JSON.stringify(billing) + String(billing) + Object.keys(billing).join(),
    );
    await billing.close();
  });
});

describe("no credential in a refused options object", () => {
  it.each([
    ["Basic on the gateway", { environment: "gateway", connector: "acme", apiKey: KEY }],
    ["a bearer token on us", { subdomain: "acme", accessToken: TOKEN }],
    ["both credentials", { subdomain: "acme", apiKey: KEY, accessToken: TOKEN }],
    ["a misspelt apiKey", { subdomain: "acme", apikey: KEY }],
    ["a misspelt accessToken", { environment: "gateway", connector: "acme", access_token: TOKEN }],
    ["a credential as a number option", { subdomain: "acme", apiKey: KEY, maxRetries: TOKEN }],
    ["a credential as the subdomain", { subdomain: KEY, apiKey: KEY }],
    ["a credential as the environment", { subdomain: "acme", apiKey: KEY, environment: TOKEN }],
  ])("%s", (_, options) => {
    expectNoSecret(everything(refusal(options)));
  });
});

describe.each(CREDENTIALS)("no credential in the errors of a site's configuration (%s)", (_, credential) => {
  it("an outcome left unknown, a refusal, a live site, an input refused", async () => {
    const svc = await configService();
    const billing = clientOf(svc.url, { ...credential, maxRetries: 0 });
    await billing.createMetafield("customers", { name: "Tier", inputType: "radio", enum: ["a"] });
    svc.fault({ method: "POST", path: /metafields/, kind: "503-after" });
    const unknown = await billing.createMetafield("customers", { name: "Tier", inputType: "radio", enum: ["b"] }).catch((e) => e);
    const refused = await billing
      .createReasonCode({ code: "X", description: "x" })
      .then(() => billing.createReasonCode({ code: "X", description: "y" }))
      .catch((e) => e);
    svc.site.test = false;
    const live = await billing.clearSiteData("all").catch((e) => e);
    const invalid = await billing.setCouponCurrencyPrices(31, { EUR: 5 }).catch((e) => e);
    expect([unknown, refused, live, invalid].map((e) => e.constructor)).toEqual([
      CatalogOutcomeUnknownError,
      BillingApiError,
      LiveSiteError,
      BillingValidationError,
    ]);
    for (const e of [unknown, refused, live, invalid]) expectNoSecret(everything(e));
  });
});
