import type OpenAPIBackend from "openapi-backend";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BillingClient } from "../../sdk";
import { DEMO_SITE, type Simulator, startSimulator } from "../../simulator";
import { type Exchange, recordingProxy } from "./recorder";
import { type ContractCheck, contractApi, contractCheck } from "./validator";

/**
 * Every request body the SDK sends and every answer the simulator gives it,
 * across all SDK methods and their error paths, recorded on the wire by a
 * proxy between them and validated against the published contract
 * (contract/advanced-billing.openapi.json) with openapi-backend (ajv): requests
 * as published, answers as patched where the service knowingly differs.
 */
describe("the SDK's requests and the simulator's answers validate against the contract", () => {
  let api: OpenAPIBackend;
  let sim: Simulator;
  let proxy: Awaited<ReturnType<typeof recordingProxy>>;
  let exchanges: Exchange[];
  let actionLink: string | undefined;

  beforeAll(async () => {
    api = await contractApi();
    sim = await startSimulator({ seed: "demo" });
    proxy = await recordingProxy(sim.url);
    const billing = new BillingClient({ baseUrl: proxy.url, apiKey: DEMO_SITE.apiKey, retryBaseDelayMs: 1 });
    const settle = (p: Promise<unknown>) =>
      p.catch((e: { actionLink?: string }) => {
        actionLink ??= e.actionLink;
      });
    for (let i = 0; i < 450; i++) sim.addWebhook({ status: "failed", subscriptionId: 1001 });

    // Webhook settings, both values, and a 429 then a 503 that the SDK retries.
    await billing.setWebhooksEnabled(true);
    await billing.setWebhooksEnabled(false);
    sim.injectFault({ kind: "status", status: 429, times: 1, match: { method: "PUT" } });
    sim.injectFault({ kind: "status", status: 503, times: 1, match: { method: "PUT" } });
    await billing.setWebhooksEnabled(true);

    // Webhook list: every filter, and pagination (more than 200 rows).
    await billing.listWebhooks({ status: "failed", sinceDate: "2026-01-01", untilDate: "2027-01-01", subscriptionId: 1001 });
    await billing.listWebhooks({ status: "paused" });
    await billing.listWebhooks();

    // Replay: several batches, a retried 429, and a batch whose answer was lost (its retry is a 409 duplicate).
    sim.injectFault({ kind: "status", status: 429, times: 1, match: { path: "/webhooks/replay.json" } });
    await billing.replayWebhooks(Array.from({ length: 1200 }, (_, i) => 5005 + i));
    sim.injectFault({ kind: "reset", times: 1, applyAfterHandling: true, match: { path: "/webhooks/replay.json" } });
    await billing.replayWebhooks([5005, 5006]);

    // Reads and previews.
    await billing.readSite();
    await billing.readSubscription(1002);
    await settle(billing.readSubscription(99_999)); // 404
    await billing.previewMigration(1001, { productHandle: "pro" });
    await billing.previewMigration(1002, { productId: 2, pricePointId: 202, preservePeriod: true });
    await settle(billing.previewMigration(1001, { productHandle: "basic" })); // 422 same product

    // Migrations: by handle / id, price point by handle / id / default, every option, and the error paths.
    await billing.migrateSubscription(1001, { productHandle: "pro", pricePointHandle: "pro-annual", includeTrial: true });
    await billing.migrateSubscription(1002, {
      productId: 3,
      pricePointId: 301,
      preservePeriod: true,
      includeCoupons: false,
      includeInitialCharge: true,
    });
    await billing.migrateSubscription(1003, { productId: 2 }); // trial_ended
    await settle(billing.migrateSubscription(1004, { productHandle: "pro" })); // 422 canceled
    await settle(billing.migrateSubscription(1005, { productHandle: "pro" })); // 422 3-D Secure
    await settle(billing.migrateSubscription(1001, { productHandle: "pro" })); // 422 same product
    await settle(billing.migrateSubscription(99_999, { productHandle: "pro" })); // 404
    await billing.migrateSubscription(1002, { productHandle: "pro" }, { uniquenessToken: "tok-contract" });
    await billing.migrateSubscription(1002, { productHandle: "pro" }, { uniquenessToken: "tok-contract" }); // 409 → read back
    sim.injectFault({ kind: "status", status: 429, times: 1, match: { method: "POST", path: "/subscriptions/1003/migrations.json" } });
    await billing.migrateSubscription(1003, { productHandle: "launch" }); // 429, then 200
    await billing.close();
    exchanges = proxy.exchanges;
  });
  afterAll(async () => {
    await proxy?.close();
    await sim?.close();
  });

  function operationOf(e: Exchange): string {
    const url = new URL(e.url, "http://x");
    const op = api.router.matchOperation({
      method: e.method,
      path: url.pathname,
      headers: {},
      query: Object.fromEntries(url.searchParams),
    });
    return op?.operationId ?? "(no operation)";
  }

  it("the battery covers every SDK operation and the error statuses", () => {
    const seen = new Set(exchanges.map((e) => `${operationOf(e)} ${e.status}`));
    for (const want of [
      "enableWebhooks 200",
      "enableWebhooks 429",
      "enableWebhooks 503",
      "listWebhooks 200",
      "replayWebhooks 200",
      "replayWebhooks 429",
      "replayWebhooks 409",
      "readSite 200",
      "readSubscription 200",
      "readSubscription 404",
      "previewSubscriptionProductMigration 200",
      "previewSubscriptionProductMigration 422",
      "migrateSubscriptionProduct 200",
      "migrateSubscriptionProduct 422",
      "migrateSubscriptionProduct 404",
      "migrateSubscriptionProduct 409",
      "migrateSubscriptionProduct 429",
      // The price point a migration lands on, when its answer does not say: by handle, and the product's default.
      "listProductPricePoints 200",
      "readProduct 200",
    ])
      expect(seen, want).toContain(want);
    // A 3-D Secure 422 was provoked, and its link is the simulator's own (the proxy passes the answer through).
    const [base, token] = (actionLink ?? "").split("/authentications/");
    expect(base).toBe(sim.url);
    expect(token).toMatch(/^[0-9a-f]{32}$/);
    expect(exchanges.filter((e) => operationOf(e) === "listWebhooks").length).toBeGreaterThan(3); // pagination happened
  });

  it("every request the SDK sent matches an operation and validates (path, query, headers, body)", () => {
    const problems: string[] = [];
    for (const e of exchanges) {
      const url = new URL(e.url, "http://x");
      const headers = Object.fromEntries(Object.entries(e.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : (v ?? "")]));
      const req = { method: e.method, path: url.pathname, query: Object.fromEntries(url.searchParams), headers, body: e.requestBody };
      const op = api.router.matchOperation(req);
      if (!op) {
        problems.push(`${e.method} ${e.url}: no such operation`);
        continue;
      }
      const v = api.validator.validateRequest(req, op);
      if (!v.valid) problems.push(`${op.operationId}: ${JSON.stringify(v.errors)}`);
      // The spec's request headers: Accept and Authorization always, Content-Type with a body.
      if (headers.accept !== "application/json") problems.push(`${op.operationId}: accept ${headers.accept}`);
      if (!/^(Basic|Bearer) /.test(headers.authorization ?? "")) problems.push(`${op.operationId}: no Authorization`);
      if (e.requestBody !== undefined && headers["content-type"] !== "application/json")
        problems.push(`${op.operationId}: content-type ${headers["content-type"]}`);
    }
    expect(problems).toEqual([]);
  });

  it("the contract still lists only 201 for GET /webhooks.json (the deviation handled below)", () => {
    expect(Object.keys(api.getOperation("listWebhooks")!.responses ?? {})).toEqual(["201"]);
  });

  it("every answer the simulator gave is one the contract allows (patched only where the service knowingly differs, see validator.ts)", async () => {
    const check: ContractCheck = await contractCheck();
    const problems = exchanges.flatMap((e) =>
      check.problems({ method: e.method, path: e.url, status: e.status, contentType: e.responseType, text: e.responseText }),
    );
    expect(problems).toEqual([]);
  });

  it("the 3-D Secure 422 carries the published fields besides the errors list", () => {
    const sca = exchanges.find((e) => e.status === 422 && e.url === "/subscriptions/1005/migrations.json");
    const token = actionLink?.split("/authentications/")[1];
    expect(sca?.responseBody).toStrictEqual({
      errors: ["This migration requires 3-D Secure authentication. Direct the customer to action_link to complete it."],
      action_link: actionLink,
      gateway_payment_id: `pi_sim_${token?.slice(0, 24)}`,
      description: "This card requires 3DSecure verification.",
    });
  });

  it("sanity: the validator does refuse a wrong body", () => {
    expect(api.validator.validateResponse({ subscription: { id: "x" } }, "migrateSubscriptionProduct", 200).errors?.length).toBeGreaterThan(
      0,
    );
    expect(api.validator.validateResponse({ errors: "no" }, "migrateSubscriptionProduct", 422).errors?.length).toBeGreaterThan(0);
    expect(api.validator.validateResponse({ webhooks_enabled: "yes" }, "enableWebhooks", 200).errors?.length).toBeGreaterThan(0);
    const req = {
      method: "POST",
      path: "/webhooks/replay.json",
      headers: { "content-type": "application/json" },
      query: {},
      body: { ids: ["a"] },
    };
    expect(api.validator.validateRequest(req, api.router.matchOperation(req)!).valid).toBe(false);
  });
});
