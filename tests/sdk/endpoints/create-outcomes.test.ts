import { describe, expect, it } from "vitest";
import { BillingConnectionError, EndpointOutcomeUnknownError } from "../../../sdk";
import { fixtureBytes } from "../fixture-server";
import { clientOf, deadUrl, type Step, scripted, site } from "../helpers";

/**
 * createEndpoint after an outcome that may have been applied, on hand-scripted answers: which listed endpoint is the
 * one created (the same url and exactly the same events), when the POST is repeated with its token, and the exact
 * words of an outcome left unknown; listEndpoints repeated after a reset.
 */

const LIST = "/endpoints.json";

describe("createEndpoint after an outcome that may have been applied (scripted answers)", () => {
  const URL_ = "https://hooks.example.com/billing";
  const EVENTS = ["payment_success", "payment_failure"];
  const wire = (id: number, events = ["payment_failure", "payment_success"], url = URL_) => ({
    id,
    url,
    site_id: 1,
    status: "enabled",
    webhook_subscriptions: events,
  });
  const ok = (json: unknown): Step => ({ status: 200, json });
  const duplicate: Step = { status: 409, text: fixtureBytes("duplicate-409.json").toString("utf8"), contentType: "application/json" };
  const bodies = (requests: { method: string; text: string }[]) =>
    requests.filter((r) => r.method === "POST").map((r) => JSON.parse(r.text));
  const methods = (requests: { method: string }[]) => requests.map((r) => r.method);

  it("reset, and the endpoint is listed: that is the created one; no second POST", async () => {
    const s = await scripted(["reset", ok([wire(2, ["refund_success"]), wire(7)])]);
    expect(await clientOf(s.url).createEndpoint({ url: URL_, events: EVENTS })).toMatchObject({ id: 7, url: URL_ });
    expect(methods(s.requests)).toStrictEqual(["POST", "GET"]);
  });

  it("several identical endpoints listed: the newest (highest id)", async () => {
    const s = await scripted(["reset", ok([wire(3), wire(9), wire(5)])]);
    expect(await clientOf(s.url).createEndpoint({ url: URL_, events: EVENTS })).toMatchObject({ id: 9 });
  });

  it("reset, nothing listed (same url with other events does not count): POST again with the same token", async () => {
    const s = await scripted(["reset", ok([wire(2, ["payment_success"]), wire(3, undefined, `${URL_}/`)]), ok({ endpoint: wire(8) })]);
    expect(await clientOf(s.url).createEndpoint({ url: URL_, events: EVENTS })).toMatchObject({ id: 8 });
    expect(methods(s.requests)).toStrictEqual(["POST", "GET", "POST"]);
    const [first, second] = bodies(s.requests);
    expect(first.uniqueness_token).toEqual(expect.stringMatching(/^[0-9a-f-]{36}$/));
    expect(second).toStrictEqual(first);
  });

  it("503, nothing listed, then 409 (the first one was applied after all): read back again, and it is there", async () => {
    const s = await scripted([
      { status: 503, text: "<html><title>503 Service Unavailable</title></html>", contentType: "text/html" },
      ok([]),
      duplicate,
      ok([wire(4)]),
    ]);
    expect(await clientOf(s.url).createEndpoint({ url: URL_, events: EVENTS })).toMatchObject({ id: 4 });
    expect(methods(s.requests)).toStrictEqual(["POST", "GET", "POST", "GET"]);
    const [first, second] = bodies(s.requests);
    expect(second.uniqueness_token).toBe(first.uniqueness_token);
  });

  it("409 while the first is still processing: the list is read until the endpoint appears", async () => {
    const s = await scripted(["reset", ok([]), duplicate, ok([]), ok([]), ok([wire(6)])]);
    const b = clientOf(s.url, { migrationSettleSeconds: 10 });
    expect(await b.createEndpoint({ url: URL_, events: EVENTS })).toMatchObject({ id: 6 });
    expect(methods(s.requests)).toStrictEqual(["POST", "GET", "POST", "GET", "GET", "GET"]);
  });

  it("ambiguous every time and never listed: EndpointOutcomeUnknownError after maxRetries + 1 POSTs, all with one token", async () => {
    const s = await scripted(["reset", ok([]), "reset", ok([]), "reset", ok([])]);
    const err = await clientOf(s.url, { maxRetries: 2 })
      .createEndpoint({ url: URL_, events: EVENTS })
      .catch((e) => e);
    expect(err).toBeInstanceOf(EndpointOutcomeUnknownError);
    expect(methods(s.requests)).toStrictEqual(["POST", "GET", "POST", "GET", "POST", "GET"]);
    const tokens = bodies(s.requests).map((b) => b.uniqueness_token);
    expect(new Set(tokens).size).toBe(1);
    expect(err.uniquenessToken).toBe(tokens[0]);
    expect(err.cause).toBeInstanceOf(BillingConnectionError);
    expect(err.cause.mayHaveApplied).toBe(true);
    expect(err.message).toMatch(/3 attempt\(s\) failed ambiguously .* no endpoint with this url and these events is listed yet/);
  });

  it("reset, nothing listed, then 422: the outcome of the first stays unknown (EndpointOutcomeUnknownError, the 422 as cause)", async () => {
    const s = await scripted(["reset", ok([]), { status: 422, json: { errors: ["URL: invalid, only http and https supported"] } }]);
    const err = await clientOf(s.url)
      .createEndpoint({ url: URL_, events: EVENTS })
      .catch((e) => e);
    expect(err).toBeInstanceOf(EndpointOutcomeUnknownError);
    expect(err.cause).toMatchObject({ status: 422, errors: ["URL: invalid, only http and https supported"] });
    expect(methods(s.requests)).toStrictEqual(["POST", "GET", "POST"]);
  });

  it("reset, and the list cannot be read: EndpointOutcomeUnknownError, the read's failure as cause", async () => {
    const s = await scripted(["reset", { status: 500, json: { errors: ["boom"] } }]);
    const err = await clientOf(s.url, { maxRetries: 0 })
      .createEndpoint({ url: URL_, events: EVENTS })
      .catch((e) => e);
    expect(err).toBeInstanceOf(EndpointOutcomeUnknownError);
    expect(err.cause).toMatchObject({ status: 500, method: "GET", path: LIST });
    expect(methods(s.requests)).toStrictEqual(["POST", "GET"]);
  });

  it("a 200 whose body cannot be read: the created endpoint is found in the list", async () => {
    const s = await scripted([ok({ endpoint: { url: URL_ } }), ok([wire(12)])]);
    expect(await clientOf(s.url).createEndpoint({ url: URL_, events: EVENTS })).toMatchObject({ id: 12 });
    expect(methods(s.requests)).toStrictEqual(["POST", "GET"]);
  });

  it("a 200 whose body cannot be read and no such endpoint listed: EndpointOutcomeUnknownError", async () => {
    const s = await scripted([ok({}), ok([])]);
    const err = await clientOf(s.url)
      .createEndpoint({ url: URL_, events: EVENTS })
      .catch((e) => e);
    expect(err).toBeInstanceOf(EndpointOutcomeUnknownError);
    expect(err.message).toMatch(/answered 200 with a body this SDK does not understand/);
  });

  it("never sent (connection refused): BillingConnectionError that applied nothing, not an unknown outcome", async () => {
    const err = await clientOf(await deadUrl(), { maxRetries: 1 })
      .createEndpoint({ url: URL_, events: EVENTS })
      .catch((e) => e);
    expect(err).toBeInstanceOf(BillingConnectionError);
    expect(err).toMatchObject({ code: "ECONNREFUSED", mayHaveApplied: false });
  });

  it("updateEndpoint is repeated after a reset: the same PUT twice", async () => {
    const s = await scripted(["reset", ok({ endpoint: wire(5) })]);
    expect(await clientOf(s.url).updateEndpoint(5, { url: URL_, events: EVENTS })).toMatchObject({ id: 5 });
    expect(methods(s.requests)).toStrictEqual(["PUT", "PUT"]);
    expect(s.requests[1].text).toBe(s.requests[0].text);
    expect(s.requests[0].path).toBe("/endpoints/5.json");
  });
});

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
