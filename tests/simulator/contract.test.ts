import type OpenAPIBackend from "openapi-backend";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contractApi } from "../contract/openapi";
import { DEMO_SITE, startSimulator, type Simulator } from "../../simulator";
import { basic, call, migration } from "./helpers";

// A quick self-check of the simulator's answers against the published contract
// (tests/contract checks the SDK's own traffic; this catches simulator drift early here).

describe("answers validate against the contract", () => {
  let sim: Simulator;
  let api: OpenAPIBackend;
  const auth = basic(DEMO_SITE.apiKey);
  beforeAll(async () => {
    api = await contractApi();
    sim = await startSimulator({ seed: "demo" });
  });
  afterAll(async () => {
    await sim.close();
  });

  const cases: { op: string; method: string; path: string; body?: unknown; status: number; contractStatus?: number }[] = [
    { op: "replayWebhooks", method: "POST", path: "/webhooks/replay.json", body: { ids: [5005, 5006] }, status: 200 },
    { op: "enableWebhooks", method: "PUT", path: "/webhooks/settings.json", body: { webhooks_enabled: true }, status: 200 },
    // The contract lists only 201 for this GET; the simulator answers 200 (as the service does), so check the shape against 201's schema.
    { op: "listWebhooks", method: "GET", path: "/webhooks.json?per_page=200", status: 200, contractStatus: 201 },
    { op: "readSubscription", method: "GET", path: "/subscriptions/1002.json", status: 200 },
    { op: "previewSubscriptionProductMigration", method: "POST", path: "/subscriptions/1001/migrations/preview.json", body: migration({ product_handle: "pro" }), status: 200 },
    { op: "previewSubscriptionProductMigration", method: "POST", path: "/subscriptions/1001/migrations/preview.json", body: migration({ product_handle: "basic" }), status: 422 },
    { op: "migrateSubscriptionProduct", method: "POST", path: "/subscriptions/1001/migrations.json", body: migration({ product_handle: "pro", product_price_point_handle: "pro-annual" }), status: 200 },
    { op: "migrateSubscriptionProduct", method: "POST", path: "/subscriptions/1003/migrations.json", body: migration({ product_id: 3 }), status: 200 },
    { op: "migrateSubscriptionProduct", method: "POST", path: "/subscriptions/1004/migrations.json", body: migration({ product_id: 2 }), status: 422 },
    { op: "migrateSubscriptionProduct", method: "POST", path: "/subscriptions/1005/migrations.json", body: migration({ product_id: 2 }), status: 422 },
    { op: "readSubscription", method: "GET", path: "/subscriptions/1001.json", status: 200 },
  ];
  it.each(cases)("$op $method $path → $status", async ({ op, method, path, body, status, contractStatus }) => {
    const res = await call(sim, method, path, { body, auth });
    expect(res.status).toBe(status);
    const v = api.validator.validateResponse(res.body, op, contractStatus ?? status);
    expect(v.errors ?? []).toEqual([]);
  });
});
