import { beforeEach, describe, expect, it, vi } from "vitest";
import { BillingValidationError, EndpointOutcomeUnknownError } from "../../sdk";
import { startSimulator } from "../../simulator";
import { fixtureBytes } from "./fixture-server";
import { clientOf, KEY, type Step, scripted, site } from "./helpers";

// sdk/endpoints.ts and sdk/pages.ts, pinned exactly: the mutation run left mutants of both alive. For endpoints:
// the path (a module-level constant: its test loads a fresh copy), a list read repeated after a reset, which listed
// endpoint counts as the one a create made (same url and exactly the same events), and the exact words of each
// "outcome unknown" error. For allPages: where the reading stops (a short page, an empty one, a page with nothing new)
// and that a row read twice is kept once.

const LIST = "/endpoints.json";

const URL_ = "https://hooks.example.com/billing";

const EVENTS = ["payment_success", "payment_failure"];

const TOKEN = "resume-token-1";

const wire = (id: number, events = ["payment_failure", "payment_success"], url = URL_) => ({
  id,
  url,
  site_id: 1,
  status: "enabled",
  webhook_subscriptions: events,
});

const ok = (json: unknown): Step => ({ status: 200, json });

const methods = (requests: readonly { method: string }[]) => requests.map((r) => r.method);

/** The message of an EndpointOutcomeUnknownError of URL_ and TOKEN: what was seen, between the fixed lead and tail. */
const unknownMessage = (why: string) =>
  `creating the webhook endpoint ${URL_} may or may not have been applied: ${why}; ` +
  `resume it with the same uniqueness_token (${TOKEN}), never with a new one`;

describe("the endpoints path (a module-level constant: each test loads a fresh copy)", () => {
  beforeEach(() => {
    vi.resetModules();
  });

  it("listEndpoints is GET /endpoints.json, createEndpoint POST /endpoints.json, updateEndpoint PUT /endpoints/{id}.json", async () => {
    const sim = await startSimulator({ apiKey: KEY });
    const { BillingClient } = await import("../../sdk");
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

describe("listEndpoints", () => {
  it("a read: repeated after a connection reset, the second answer returned", async () => {
    const s = await site();
    s.sim.addEndpoint({ id: 40, url: URL_, events: ["refund_failure"] });
    s.sim.injectFault({ kind: "reset", times: 1, match: { method: "GET", path: LIST } });
    expect(await s.billing.listEndpoints()).toStrictEqual([
      { id: 40, url: URL_, events: ["refund_failure"], status: "enabled", siteId: 1 },
    ]);
    expect(s.sim.requests.map((r) => [r.method, r.path])).toStrictEqual([
      ["GET", LIST],
      ["GET", LIST],
    ]);
  });
});

describe("createEndpoint: a listed endpoint is the created one only with the same url and exactly the same events", () => {
  it.each([
    ["as many events, none the same", ["refund_failure", "refund_success"]],
    ["as many events, the first the same", ["payment_failure", "refund_success"]],
    ["the first of the events only", ["payment_failure"]],
    ["the events and one more", ["payment_failure", "payment_success", "refund_success"]],
  ])("%s: not it; POSTed again with the same token", async (_, listed) => {
    const s = await scripted(["reset", ok([wire(2, listed)]), ok({ endpoint: wire(8) })]);
    const created = await clientOf(s.url).createEndpoint({ url: URL_, events: EVENTS }, { uniquenessToken: TOKEN });
    expect(created).toStrictEqual({ id: 8, url: URL_, events: ["payment_failure", "payment_success"], status: "enabled", siteId: 1 });
    expect(s.requests.map((r) => [r.method, r.path])).toStrictEqual([
      ["POST", LIST],
      ["GET", LIST],
      ["POST", LIST],
    ]);
    const body = { endpoint: { url: URL_, webhook_subscriptions: ["payment_failure", "payment_success"] }, uniqueness_token: TOKEN };
    expect(s.requests.filter((r) => r.method === "POST").map((r) => JSON.parse(r.text))).toStrictEqual([body, body]);
  });

  it("the same events listed in the same order: that one, no second POST", async () => {
    const s = await scripted(["reset", ok([wire(2, ["refund_success"]), wire(7)])]);
    expect(await clientOf(s.url).createEndpoint({ url: URL_, events: EVENTS }, { uniquenessToken: TOKEN })).toStrictEqual({
      id: 7,
      url: URL_,
      events: ["payment_failure", "payment_success"],
      status: "enabled",
      siteId: 1,
    });
    expect(methods(s.requests)).toStrictEqual(["POST", "GET"]);
  });
});

describe("createEndpoint: the exact words of an outcome left unknown", () => {
  const duplicate: Step = { status: 409, text: fixtureBytes("duplicate-409.json").toString("utf8"), contentType: "application/json" };

  it("a 409 and never listed while settling: the settle time in whole seconds, the 409 as cause", async () => {
    // 0.6 s of settling reads as 1 s; the list is read until then (each read answered with an empty list).
    const s = await scripted([duplicate, ...Array.from({ length: 40 }, () => ok([]))]);
    const err = await clientOf(s.url, { migrationSettleSeconds: 0.6 })
      .createEndpoint({ url: URL_, events: EVENTS }, { uniquenessToken: TOKEN })
      .catch((e) => e);
    expect(err).toBeInstanceOf(EndpointOutcomeUnknownError);
    expect(err.message).toBe(
      unknownMessage(
        "the service answered that a request with this uniqueness_token was already submitted (it may still be processing), " +
          "and after 1 s of reading back the endpoint is not listed",
      ),
    );
    expect(err.cause).toMatchObject({ status: 409, errors: ["DuplicatePrevention::DuplicateSubmissionError"] });
    expect(methods(s.requests.slice(0, 2))).toStrictEqual(["POST", "GET"]);
  });

  // A 503 rather than a reset: its words are the service's, where a reset's are the operating system's.
  const busy: Step = { status: 503, json: { errors: ["Service busy"] } };

  it("a 503, nothing listed, then a 422: both failures named, the 422 as cause", async () => {
    const s = await scripted([busy, ok([]), { status: 422, json: { errors: ["URL: invalid, only http and https supported"] } }]);
    const err = await clientOf(s.url)
      .createEndpoint({ url: URL_, events: EVENTS }, { uniquenessToken: TOKEN })
      .catch((e) => e);
    expect(err).toBeInstanceOf(EndpointOutcomeUnknownError);
    expect(err.message).toBe(
      unknownMessage(
        "an attempt failed ambiguously (POST /endpoints.json failed with 503: Service busy), " +
          "then the next one POST /endpoints.json failed with 422: URL: invalid, only http and https supported",
      ),
    );
    expect(err.cause).toMatchObject({ status: 422, method: "POST", path: LIST, mayHaveApplied: false });
    expect(methods(s.requests)).toStrictEqual(["POST", "GET", "POST"]);
  });

  it("a 503, then the list unreadable: the 503 named, the read's failure as cause", async () => {
    const s = await scripted([busy, { status: 500, json: { errors: ["boom"] } }]);
    const err = await clientOf(s.url, { maxRetries: 0 })
      .createEndpoint({ url: URL_, events: EVENTS }, { uniquenessToken: TOKEN })
      .catch((e) => e);
    expect(err).toBeInstanceOf(EndpointOutcomeUnknownError);
    expect(err.message).toBe(
      unknownMessage("the request failed (POST /endpoints.json failed with 503: Service busy) and the endpoints could not be read back"),
    );
    expect(err.cause).toMatchObject({ status: 500, method: "GET", path: LIST });
    expect(methods(s.requests)).toStrictEqual(["POST", "GET"]);
  });
});

describe("createEndpoint and updateEndpoint: the refusal's exact words", () => {
  it("createEndpoint: invalid webhook endpoint, every problem named; nothing sent", async () => {
    const s = await site();
    const err = await s.billing.createEndpoint({ url: "ftp://x", events: ["payment_failed"] }).catch((e) => e);
    expect(err).toBeInstanceOf(BillingValidationError);
    expect(err.problems.map((p: { property: string }) => p.property)).toStrictEqual(["endpoint.url", "endpoint.events.0"]);
    expect(err.problems[0].message).toBe("must be an https URL, got a ftp URL");
    expect(err.problems[1].message).toMatch(
      /^"payment_failed" is not a webhook event key; did you mean "payment_failure"\? \(the accepted/,
    );
    expect(err.message).toBe(
      `invalid webhook endpoint: endpoint.url: must be an https URL, got a ftp URL; endpoint.events.0: ${err.problems[1].message}`,
    );
    expect(s.sim.requests).toStrictEqual([]);
  });

  it("updateEndpoint: a bad id alone", async () => {
    const s = await site();
    const err = await s.billing.updateEndpoint(0, { url: URL_, events: [] }).catch((e) => e);
    expect(err).toBeInstanceOf(BillingValidationError);
    expect(err.message).toBe("invalid webhook endpoint: endpointId: must be a positive integer id, got 0");
    expect(err.problems).toStrictEqual([{ property: "endpointId", message: "must be a positive integer id, got 0" }]);
    expect(s.sim.requests).toStrictEqual([]);
  });
});
