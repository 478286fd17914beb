import type OpenAPIBackend from "openapi-backend";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contractApi } from "./openapi";
import { BillingClient } from "../../sdk";
import { DEMO_SITE, startSimulator, type Simulator } from "../../simulator";
import { recordingProxy, type Exchange } from "./recorder";


/**
 * Every request body the SDK sends and every answer the simulator gives it,
 * across all SDK methods and their error paths, recorded on the wire and
 * validated against the published contract with openapi-backend (ajv).
 */
describe("the SDK's requests and the simulator's answers validate against the contract", () => {
  let api: OpenAPIBackend;
  let sim: Simulator;
  let proxy: Awaited<ReturnType<typeof recordingProxy>>;
  let exchanges: Exchange[];

  beforeAll(async () => {
    api = await contractApi();
    sim = await startSimulator({ seed: "demo" });
    proxy = await recordingProxy(sim.url);
    const billing = new BillingClient({ baseUrl: proxy.url, apiKey: DEMO_SITE.apiKey, retryBaseDelayMs: 1 });
    const settle = (p: Promise<unknown>) => p.catch(() => undefined);
    for (let i = 0; i < 450; i++) sim.addWebhook({ status: "failed", subscriptionId: 1001 });
    await billing.setWebhooksEnabled(true);
    await billing.setWebhooksEnabled(false);
    await billing.listWebhooks({ status: "failed", sinceDate: "2026-01-01", untilDate: "2027-01-01", subscriptionId: 1001 });
    await billing.listWebhooks();
    await billing.replayWebhooks(Array.from({ length: 1200 }, (_, i) => 5005 + i));
    await billing.readSubscription(1002);
    await settle(billing.readSubscription(99_999)); // 404
    await billing.previewMigration(1001, { productHandle: "pro" });
    await settle(billing.previewMigration(1001, { productHandle: "basic" })); // 422 same product
    await billing.migrateSubscription(1001, { productHandle: "pro", pricePointHandle: "pro-annual", includeTrial: true });
    await billing.migrateSubscription(1002, { productId: 3, pricePointId: 301, preservePeriod: true });
    await billing.migrateSubscription(1003, { productId: 2 });
    await settle(billing.migrateSubscription(1004, { productHandle: "pro" })); // 422 canceled
    await settle(billing.migrateSubscription(1005, { productHandle: "pro" })); // 422 3-D Secure
    await settle(billing.migrateSubscription(1001, { productHandle: "pro" })); // 422 same product
    await billing.migrateSubscription(1002, { productHandle: "pro" }, { uniquenessToken: "tok-contract" });
    await billing.migrateSubscription(1002, { productHandle: "pro" }, { uniquenessToken: "tok-contract" }); // 409 → read back
    sim.injectFault({ kind: "status", status: 429, times: 1, match: { method: "PUT" } });
    await billing.setWebhooksEnabled(true);
    await billing.close();
    exchanges = proxy.exchanges;
  });
  afterAll(async () => {
    await proxy?.close();
    await sim?.close();
  });

  it("covers every SDK operation and the error statuses", () => {
    const seen = new Set(exchanges.map((e) => `${operationOf(e)} ${e.status}`));
    for (const want of [
      "enableWebhooks 200", "listWebhooks 200", "replayWebhooks 200", "readSubscription 200", "readSubscription 404",
      "previewSubscriptionProductMigration 200", "previewSubscriptionProductMigration 422",
      "migrateSubscriptionProduct 200", "migrateSubscriptionProduct 422", "migrateSubscriptionProduct 409", "enableWebhooks 429",
    ]) expect(seen, want).toContain(want);
  });

  function operationOf(e: Exchange): string {
    const url = new URL(e.url, "http://x");
    const op = api.router.matchOperation({ method: e.method, path: url.pathname, headers: {}, query: Object.fromEntries(url.searchParams) });
    return op?.operationId ?? "(no operation)";
  }

  it("every request the SDK sent matches an operation and validates (path, query, body)", () => {
    const problems: string[] = [];
    for (const e of exchanges) {
      const url = new URL(e.url, "http://x");
      const req = { method: e.method, path: url.pathname, query: Object.fromEntries(url.searchParams), headers: { "content-type": "application/json" }, body: e.requestBody };
      const op = api.router.matchOperation(req);
      if (!op) {
        problems.push(`${e.method} ${e.url}: no such operation`);
        continue;
      }
      const v = api.validator.validateRequest(req, op);
      if (!v.valid) problems.push(`${op.operationId}: ${JSON.stringify(v.errors)}`);
    }
    expect(problems).toEqual([]);
  });

  it("every answer the simulator gave validates against the operation's schema for its status", () => {
    const problems: string[] = [];
    let checked = 0;
    for (const e of exchanges) {
      const op = operationOf(e);
      const operation = api.getOperation(op)!;
      // The contract documents 201 for GET /webhooks.json; the service (and the simulator) answer 200.
      const status = op === "listWebhooks" && e.status === 200 ? 201 : e.status;
      if (!operation.responses?.[String(status)]) {
        // 404, 409 and 429 are not described by the contract: their shape is the common `errors` list, checked below.
        expect([404, 409, 429], `${op} ${status}`).toContain(status);
        expect(e.responseBody).toMatchObject({ errors: expect.any(Array) });
        continue;
      }
      checked++;
      const v = api.validator.validateResponse(e.responseBody, op, status);
      if (v.errors?.length) problems.push(`${op} ${status}: ${JSON.stringify(v.errors)}`);
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(15);
  });
});
