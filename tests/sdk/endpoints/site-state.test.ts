import { beforeEach, describe, expect, it, vi } from "vitest";
import { BillingApiError, BillingValidationError, type Endpoint, EndpointOutcomeUnknownError } from "../../../sdk";
import { startSimulator } from "../../../simulator";
import { KEY, site } from "../helpers";

/**
 * Webhook endpoints against the simulator, the ground truth of what the site holds after each create and update,
 * under faults too (one endpoint, never two); and the endpoints' path (a module-level constant: its test loads a
 * fresh copy).
 */

const LIST = "/endpoints.json";

describe("what the site holds afterwards (the simulator as ground truth)", () => {
  const HOOK = "https://hooks.example.com/billing";
  const POST = { path: LIST, method: "POST" } as const;
  const count = (s: { requests: { method: string; path: string }[] }, method: string) =>
    s.requests.filter((r) => r.method === method && r.path === LIST).length;

  it("create, list, update, update to no events: the site holds what the SDK returned", async () => {
    const s = await site();
    const created = await s.billing.createEndpoint({
      url: HOOK,
      events: ["subscription_state_change", "payment_failure", "payment_failure"],
    });
    expect(created).toStrictEqual<Endpoint>({
      id: created.id,
      url: HOOK,
      events: ["payment_failure", "subscription_state_change"],
      status: "enabled",
      siteId: 1,
    });
    expect(s.sim.endpoints()).toStrictEqual([
      { id: created.id, url: HOOK, events: ["payment_failure", "subscription_state_change"], status: "enabled" },
    ]);
    expect(await s.billing.listEndpoints()).toStrictEqual([created]);

    const updated = await s.billing.updateEndpoint(created.id, { url: "https://hooks.example.com/v2", events: ["renewal_success"] });
    expect(updated).toStrictEqual<Endpoint>({ ...created, url: "https://hooks.example.com/v2", events: ["renewal_success"] });
    expect(s.sim.endpoints()).toStrictEqual([
      { id: created.id, url: "https://hooks.example.com/v2", events: ["renewal_success"], status: "enabled" },
    ]);

    const emptied = await s.billing.updateEndpoint(created.id, { url: "https://hooks.example.com/v2", events: [] });
    expect(emptied.events).toStrictEqual([]);
    expect(s.sim.endpoints()[0].events).toStrictEqual([]);
  });

  it("listEndpoints reads endpoints made elsewhere, an event key the SDK does not know included", async () => {
    const s = await site();
    s.sim.addEndpoint({ id: 40, url: "https:/example.com/webhooks", events: ["refund_failure", "payment_success"] });
    s.sim.addEndpoint({ id: 41, url: "http://localhost:9/x", events: ["brand_new_event"], status: "disabled" });
    expect(await s.billing.listEndpoints()).toStrictEqual<Endpoint[]>([
      { id: 40, url: "https:/example.com/webhooks", events: ["payment_success", "refund_failure"], status: "enabled", siteId: 1 },
      { id: 41, url: "http://localhost:9/x", events: ["brand_new_event"], status: "disabled", siteId: 1 },
    ]);
  });

  it("a reset after the site applied the create: read back, exactly one endpoint, one POST", async () => {
    const s = await site();
    s.sim.injectFault({ kind: "reset", applyAfterHandling: true, times: 1, match: POST });
    const created = await s.billing.createEndpoint({ url: HOOK, events: ["payment_success"] });
    expect(s.sim.endpoints()).toHaveLength(1);
    expect(s.sim.endpoints()[0]).toMatchObject({ id: created.id, url: HOOK, events: ["payment_success"] });
    expect([count(s.sim, "POST"), count(s.sim, "GET")]).toStrictEqual([1, 1]);
  });

  it("a 503 after the site applied the create, with an identical endpoint made before: the new one is returned, two in all", async () => {
    const s = await site();
    const before = s.sim.addEndpoint({ url: HOOK, events: ["payment_success"] });
    s.sim.injectFault({ kind: "status", status: 503, applyAfterHandling: true, times: 1, match: POST });
    const created = await s.billing.createEndpoint({ url: HOOK, events: ["payment_success"] });
    expect(created.id).not.toBe(before.id);
    expect(s.sim.endpoints().map((e) => e.id)).toStrictEqual([before.id, created.id]);
    expect(count(s.sim, "POST")).toBe(1);
  });

  it("a reset before the site saw the create: POSTed again with the same token, exactly one endpoint", async () => {
    const s = await site();
    s.sim.injectFault({ kind: "reset", times: 1, match: POST });
    const created = await s.billing.createEndpoint({ url: HOOK, events: ["payment_success"] });
    expect(s.sim.endpoints().map((e) => e.id)).toStrictEqual([created.id]);
    const posts = s.sim.requests.filter((r) => r.method === "POST" && r.path === LIST);
    expect(posts).toHaveLength(2);
    expect(posts[1].status).toBe(200);
    expect(posts[0].uniquenessToken).toEqual(expect.stringMatching(/^[0-9a-f-]{36}$/));
    expect(posts[1].uniquenessToken).toBe(posts[0].uniquenessToken);
  });

  it("a timeout while the site is still processing the create: read back (not yet), POST again (409), read until it lands: one endpoint", async () => {
    const s = await site({}, { timeoutMs: 100, migrationSettleSeconds: 10 });
    s.sim.injectFault({ kind: "processing", ms: 800, times: 1, match: POST });
    const created = await s.billing.createEndpoint({ url: HOOK, events: ["payment_success"] });
    expect(s.sim.endpoints().map((e) => e.id)).toStrictEqual([created.id]);
    const posts = s.sim.requests.filter((r) => r.method === "POST" && r.path === LIST);
    expect(posts).toHaveLength(2);
    expect(posts[1].status).toBe(409);
    expect(posts[1].uniquenessToken).toBe(posts[0].uniquenessToken);
  });

  it("ambiguous and never applied: EndpointOutcomeUnknownError and nothing created; resumed with its token: exactly one", async () => {
    const s = await site({}, { maxRetries: 1 });
    s.sim.injectFault({ kind: "reset", match: POST });
    const err = await s.billing.createEndpoint({ url: HOOK, events: ["payment_success"] }).catch((e) => e);
    expect(err).toBeInstanceOf(EndpointOutcomeUnknownError);
    expect(s.sim.endpoints()).toStrictEqual([]);
    expect(count(s.sim, "POST")).toBe(2);
    s.sim.clearFaults();
    const created = await s.billing.createEndpoint({ url: HOOK, events: ["payment_success"] }, { uniquenessToken: err.uniquenessToken });
    expect(s.sim.endpoints().map((e) => e.id)).toStrictEqual([created.id]);
  });

  it("applied, answer lost and the list unreadable: unknown; resumed with its token (409, read back): still exactly one", async () => {
    const s = await site({}, { maxRetries: 0 });
    s.sim.injectFault({ kind: "reset", applyAfterHandling: true, times: 1, match: POST });
    s.sim.injectFault({ kind: "status", status: 503, times: 1, match: { path: LIST, method: "GET" } });
    const err = await s.billing.createEndpoint({ url: HOOK, events: ["payment_success"] }).catch((e) => e);
    expect(err).toBeInstanceOf(EndpointOutcomeUnknownError);
    expect(s.sim.endpoints()).toHaveLength(1);
    expect(s.sim.tokenStatus(err.uniquenessToken)).toBe("applied");
    const resumed = await s.billing.createEndpoint({ url: HOOK, events: ["payment_success"] }, { uniquenessToken: err.uniquenessToken });
    expect(s.sim.endpoints().map((e) => e.id)).toStrictEqual([resumed.id]);
    expect(s.sim.requests.filter((r) => r.method === "POST").map((r) => r.status)).toStrictEqual([0, 409]); // the reset one was never answered
  });

  it("a create whose every attempt is refused creates none: a 429 for good (refused before processing)", async () => {
    const s = await site({}, { retryBudgetSeconds: 0.1, retryBaseDelayMs: 10 });
    s.sim.injectFault({ kind: "status", status: 429, match: POST });
    const err = await s.billing.createEndpoint({ url: HOOK, events: ["payment_success"] }).catch((e) => e);
    expect(err).toBeInstanceOf(BillingApiError);
    expect(err).not.toBeInstanceOf(EndpointOutcomeUnknownError);
    expect(err).toMatchObject({ status: 429, mayHaveApplied: false });
    expect(count(s.sim, "POST")).toBeGreaterThan(1);
    expect(count(s.sim, "GET")).toBe(0);
    expect(s.sim.endpoints()).toStrictEqual([]);
  });

  it("invalid input reaches no site: nothing requested, nothing created", async () => {
    const s = await site();
    await expect(s.billing.createEndpoint({ url: "http://hooks.example.com", events: ["payment_success"] })).rejects.toBeInstanceOf(
      BillingValidationError,
    );
    await expect(s.billing.createEndpoint({ url: HOOK, events: [] })).rejects.toBeInstanceOf(BillingValidationError);
    expect(s.sim.requests).toStrictEqual([]);
    expect(s.sim.endpoints()).toStrictEqual([]);
  });

  it("update of an unknown endpoint: BillingApiError 404 with the service's words, nothing changed", async () => {
    const s = await site();
    const kept = s.sim.addEndpoint({ url: HOOK, events: ["payment_success"] });
    const err = await s.billing.updateEndpoint(kept.id + 1, { url: HOOK, events: [] }).catch((e) => e);
    expect(err).toBeInstanceOf(BillingApiError);
    expect(err).toMatchObject({ status: 404, method: "PUT", path: `/endpoints/${kept.id + 1}.json`, mayHaveApplied: false });
    expect(err.errors).toStrictEqual(["Endpoint not found"]);
    expect(s.sim.endpoints()).toStrictEqual([kept]);
  });

  it("update after a reset that followed the site applying it: repeated, the value set once and for all", async () => {
    const s = await site();
    const e = s.sim.addEndpoint({ url: HOOK, events: ["payment_success"] });
    s.sim.injectFault({ kind: "reset", applyAfterHandling: true, times: 1, match: { method: "PUT" } });
    const updated = await s.billing.updateEndpoint(e.id, { url: HOOK, events: ["payment_failure", "payment_success"] });
    expect(updated.events).toStrictEqual(["payment_failure", "payment_success"]);
    expect(s.sim.endpoints()).toStrictEqual([{ ...e, events: ["payment_failure", "payment_success"] }]);
    expect(s.sim.requests.filter((r) => r.method === "PUT")).toHaveLength(2);
  });
});

const URL_ = "https://hooks.example.com/billing";

const EVENTS = ["payment_success", "payment_failure"];

const TOKEN = "resume-token-1";

describe("the endpoints path (a module-level constant: each test loads a fresh copy)", () => {
  beforeEach(() => {
    vi.resetModules();
  });

  it("listEndpoints is GET /endpoints.json, createEndpoint POST /endpoints.json, updateEndpoint PUT /endpoints/{id}.json", async () => {
    const sim = await startSimulator({ apiKey: KEY });
    const { BillingClient } = await import("../../../sdk");
    // Short: a request to a wrong path must fail within the test, not hang it.
    const billing = new BillingClient({ baseUrl: sim.url, apiKey: KEY, retryBaseDelayMs: 1, maxRetries: 0, timeoutMs: 2000 });
    try {
      const created = await billing.createEndpoint({ url: URL_, events: EVENTS }, { uniquenessToken: TOKEN });
      expect(await billing.listEndpoints()).toStrictEqual([created]);
      await billing.updateEndpoint(created.id, { url: URL_, events: [] });
      expect(sim.requests.map((r) => [r.method, r.path, r.query, r.body])).toStrictEqual([
        [
          "POST",
          LIST,
          {},
          { endpoint: { url: URL_, webhook_subscriptions: ["payment_failure", "payment_success"] }, uniqueness_token: TOKEN },
        ],
        ["GET", LIST, {}, undefined],
        ["PUT", `/endpoints/${created.id}.json`, {}, { endpoint: { url: URL_, webhook_subscriptions: [] } }],
      ]);
    } finally {
      await billing.close();
      await sim.close();
    }
  });
});
