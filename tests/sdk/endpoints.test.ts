import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  BillingApiError,
  BillingClient,
  BillingConnectionError,
  BillingValidationError,
  closestEventKey,
  type Endpoint,
  EndpointOutcomeUnknownError,
  endpointInput,
  WEBHOOK_EVENTS,
} from "../../sdk";
import { type FixtureServer, fixture, fixtureBytes, startFixtureServer } from "./fixture-server";
import { clientOf, deadUrl, type Step, scripted, site } from "./helpers";

/**
 * Webhook endpoints (POST/GET /endpoints.json, PUT /endpoints/{id}.json): input validation, the
 * vendor's published examples served byte for byte, hand-scripted answer sequences for the
 * ambiguous-create rules, and the simulator as ground truth (what the site holds afterwards).
 */

const LIST = "/endpoints.json";
const CONTRACT = path.resolve(__dirname, "../../contract/advanced-billing.openapi.json");
const published = (file: string) => JSON.parse(fixtureBytes(file).toString("utf8"));

let server: FixtureServer;
let billing: BillingClient;

beforeAll(async () => {
  server = await startFixtureServer();
  billing = new BillingClient({ baseUrl: server.url, apiKey: "k", retryBaseDelayMs: 1, maxRetries: 1, migrationSettleSeconds: 0 });
});
afterAll(async () => {
  await billing.close();
  await server.close();
});
beforeEach(() => {
  server.serve([]);
  server.requests.length = 0;
});

/** The validation error `call` rejects with, having sent nothing. */
async function refused(call: (b: BillingClient) => Promise<unknown>): Promise<BillingValidationError> {
  const err = await call(billing).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(BillingValidationError);
  expect(server.requests).toHaveLength(0);
  return err as BillingValidationError;
}

const sentBodies = (method: string) => server.requests.filter((r) => r.method === method).map((r) => JSON.parse(r.text));

describe("WEBHOOK_EVENTS", () => {
  it("is the contract's enum of POST /endpoints.json and of PUT /endpoints/{endpoint_id}.json: 35 distinct keys, same order", () => {
    const contract = JSON.parse(readFileSync(CONTRACT, "utf8"));
    const enumOf = (p: string, m: string) =>
      contract.paths[p][m].requestBody.content["application/json"].schema.properties.endpoint.properties.webhook_subscriptions.items.enum;
    expect([...WEBHOOK_EVENTS]).toStrictEqual(enumOf("/endpoints.json", "post"));
    expect([...WEBHOOK_EVENTS]).toStrictEqual(enumOf("/endpoints/{endpoint_id}.json", "put"));
    expect(WEBHOOK_EVENTS).toHaveLength(35);
    expect(new Set(WEBHOOK_EVENTS).size).toBe(35);
  });
});

describe("closestEventKey", () => {
  it.each([
    ["payment_failed", "payment_failure"],
    ["payment_sucess", "payment_success"],
    ["Payment-Success", "payment_success"],
    ["renewal success", "renewal_success"],
    ["subscription_state_changed", "subscription_state_change"],
    ["card_expiring", "expiring_card"],
    ["invoice", "invoice_issued"],
    ["payment_success", "payment_success"],
    ["signup", undefined], // two keys start with it
    ["payment", undefined],
    ["zzzz", undefined],
    ["", undefined],
    ["x".repeat(300), undefined],
  ])("%j → %j", (s, expected) => {
    expect(closestEventKey(s)).toBe(expected);
  });
});

describe("endpoint input validation: refused before any request, naming the property", () => {
  const events = ["payment_success"];
  const at2048 = `https://example.com/${"a".repeat(2048 - "https://example.com/".length)}`;

  it.each([
    ["https", "https://example.com/webhooks"],
    ["https with port, query and fragment", "https://hooks.example.com:8443/billing?site=acme#x"],
    ["upper-case scheme and host", "HTTPS://Hooks.Example.com/billing"],
    ["http to localhost", "http://localhost:3000/hooks"],
    ["http to 127.0.0.1", "http://127.0.0.1:8080/hooks"],
    ["http to [::1]", "http://[::1]:9000/hooks"],
    ["the vendor's update example (trailing '.')", "https://yout.site/webhooks/1/json."],
    ["exactly 2048 characters", at2048],
  ])("url accepted: %s, kept exactly as written", (_, url) => {
    expect(at2048).toHaveLength(2048);
    const parsed = endpointInput.safeParse({ url, events });
    expect(parsed.success).toBe(true);
    expect(parsed.data?.url).toBe(url);
  });

  it.each([
    [
      "http to a public host",
      "http://example.com/webhooks",
      /^must use https \(http only for localhost, 127\.0\.0\.1 or \[::1\]\), got http for "example\.com"$/,
    ],
    ["http to a host that starts with localhost", "http://localhost.example.com/x", /^must use https .*"localhost\.example\.com"$/],
    ["a relative path", "/webhooks", /^must be an absolute URL such as https:\/\/example\.com\/webhooks, got "\/webhooks"$/],
    ["no scheme", "example.com/webhooks", /^must be an absolute URL/],
    ["ftp", "ftp://example.com/webhooks", /^must be an https URL, got a ftp URL$/],
    ["one slash (as in the vendor's list example)", "https:/example.com/webhooks", /^must start with https:\/\/ and a host/],
    ["no host", "https://", /^must be an absolute URL/],
    ["javascript:", "javascript:alert(1)", /^must start with https:\/\/ and a host/],
    ["2049 characters", `${at2048}a`, /^must be at most 2048 characters, got 2049$/],
    ["a space", "https://example.com/web hooks", /^must not contain spaces or control characters/],
    ["a newline at the end", "https://example.com/hooks\n", /^must not contain spaces or control characters/],
    ["empty", "", /^must be an absolute URL/],
    ["a number", 42, /^must be an absolute https URL such as https:\/\/example\.com\/webhooks, got 42$/],
    ["missing", undefined, /^is required: an absolute https URL/],
  ])("url refused: %s", async (_, url, message) => {
    const err = await refused((b) => b.createEndpoint({ url, events } as never));
    expect(err.problems).toHaveLength(1);
    expect(err.problems[0].property).toBe("endpoint.url");
    expect(err.problems[0].message).toMatch(message);
    expect(err.message).toContain("endpoint.url: ");
  });

  it.each([
    [
      "empty (create)",
      [],
      "endpoint.events",
      /^must name at least one webhook event \(an endpoint subscribed to nothing receives nothing\); the accepted events are billing_date_change, /,
    ],
    [
      "an unknown key with a close one",
      ["payment_failed"],
      "endpoint.events.0",
      /^"payment_failed" is not a webhook event key; did you mean "payment_failure"\? \(the accepted events are billing_date_change, /,
    ],
    [
      "an unknown key among good ones",
      ["payment_success", "Refund-Success"],
      "endpoint.events.1",
      /^"Refund-Success" is not a webhook event key; did you mean "refund_success"\?/,
    ],
    [
      "an unknown key with nothing close",
      ["payment_success", "zzzz"],
      "endpoint.events.1",
      /^"zzzz" is not a webhook event key \(the accepted events are billing_date_change, /,
    ],
    [
      "a number",
      [3],
      "endpoint.events.0",
      /^must be a webhook event key \(a string\), got 3; the accepted events are billing_date_change, /,
    ],
    [
      "a string, not an array",
      "payment_success",
      "endpoint.events",
      /^must be an array of webhook event keys such as \["payment_success"\], got "payment_success"/,
    ],
    ["missing", undefined, "endpoint.events", /^must be an array of webhook event keys/],
  ])("events refused: %s", async (_, evs, property, message) => {
    const err = await refused((b) => b.createEndpoint({ url: "https://example.com/hooks", events: evs } as never));
    expect(err.problems).toHaveLength(1);
    expect(err.problems[0].property).toBe(property);
    expect(err.problems[0].message).toMatch(message);
  });

  it("an unknown key's message lists every accepted event, and no source path", async () => {
    const err = await refused((b) => b.createEndpoint({ url: "https://example.com/hooks", events: ["foobar"] }));
    expect(err.problems[0].message).toContain(`the accepted events are ${WEBHOOK_EVENTS.join(", ")}`);
    expect(err.problems[0].message).not.toMatch(/\.ts\b|sdk\/|dist\//);
  });

  it("every bad field at once: url, each unknown key by its index, an unknown property", async () => {
    const err = await refused((b) =>
      b.createEndpoint({ url: "ftp://x", events: ["payment_failed", "payment_success", "signup_sucess"], extra: 1 } as never),
    );
    expect(err.problems.map((p) => p.property)).toStrictEqual(["endpoint.url", "endpoint.events.0", "endpoint.events.2", "endpoint.extra"]);
    expect(err.problems[2].message).toMatch(/did you mean "signup_success"\?/);
    expect(err.problems[3].message).toBe("is not a known property (accepted: url, events)");
  });

  it("every unknown key is named at its index, however many", async () => {
    const bad = Array.from({ length: 12 }, (_, i) => `nope_${i}`);
    const err = await refused((b) => b.createEndpoint({ url: "https://example.com/hooks", events: ["payment_failure", ...bad] }));
    expect(err.problems.map((p) => p.property)).toStrictEqual(bad.map((_, i) => `endpoint.events.${i + 1}`));
  });

  it("a C1 control character (U+0085, U+009F) in the url is refused like the other control characters", async () => {
    for (const url of ["https://example.com/\u0085", "https://example.com/a\u009f"]) {
      const err = await refused((b) => b.createEndpoint({ url, events: ["payment_failure"] }));
      expect(err.problems.map((p) => [p.property, p.message])).toStrictEqual([
        ["endpoint.url", expect.stringMatching(/must not contain spaces or control characters/)],
      ]);
    }
  });

  it.each([
    ["not an object", "https://x"],
    ["null", null],
    ["an array", []],
  ])("the input %s", async (_, input) => {
    const err = await refused((b) => b.createEndpoint(input as never));
    expect(err.problems).toStrictEqual([{ property: "endpoint", message: "must be an object { url, events }" }]);
  });

  it.each([
    ["duplicates", ["signup_success", "payment_success", "signup_success"], ["payment_success", "signup_success"]],
    ["order", ["refund_failure", "payment_failure"], ["payment_failure", "refund_failure"]],
    ["all 35, reversed and twice", [...WEBHOOK_EVENTS].reverse().concat(WEBHOOK_EVENTS), [...WEBHOOK_EVENTS].sort()],
  ])("events: %s ignored, the output sorted and distinct", (_, evs, expected) => {
    const parsed = endpointInput.safeParse({ url: "https://example.com/hooks", events: evs });
    expect(parsed.success).toBe(true);
    expect(parsed.data?.events).toStrictEqual(expected);
  });

  it.each([
    ["0", 0],
    ["-1", -1],
    ["1.5", 1.5],
    ["a decimal string", "12"],
    ["undefined", undefined],
  ])("updateEndpoint: endpoint id %s refused", async (_, id) => {
    const err = await refused((b) => b.updateEndpoint(id as never, { url: "https://example.com/hooks", events: [] }));
    expect(err.problems).toHaveLength(1);
    expect(err.problems[0].property).toBe("endpointId");
    expect(err.problems[0].message).toMatch(/^must be a positive integer id/);
  });

  it("updateEndpoint: a bad id and a bad input are named together", async () => {
    const err = await refused((b) => b.updateEndpoint(0, { url: "http://example.com", events: ["nope"] }));
    expect(err.problems.map((p) => p.property)).toStrictEqual(["endpointId", "endpoint.url", "endpoint.events.0"]);
  });

  it("createEndpoint: an empty uniquenessToken is refused", async () => {
    const err = await refused((b) => b.createEndpoint({ url: "https://example.com/hooks", events }, { uniquenessToken: "" }));
    expect(err.problems).toStrictEqual([
      { property: "uniquenessToken", message: "must be a non-empty string (the token of the create being resumed)" },
    ]);
  });

  it("createEndpoint: a bad token and a bad input are named together", async () => {
    const err = await refused((b) => b.createEndpoint({ url: "https://example.com/hooks", events: [] }, { uniquenessToken: 7 as never }));
    expect(err.problems.map((p) => p.property)).toStrictEqual(["endpoint.events", "uniquenessToken"]);
  });
});

describe("the vendor's published examples, served byte for byte", () => {
  const route = (method: string, p: string, reply: ReturnType<typeof fixture>) => ({ method, path: p, reply });

  it("listEndpoints on endpoints-list.200.json: both endpoints, field by field (the one-slash url kept as published)", async () => {
    server.serve([route("GET", LIST, fixture("endpoints-list.200.json"))]);
    const list = await billing.listEndpoints();
    expect(list).toStrictEqual<Endpoint[]>([
      { id: 11, url: "https://foobar.com/webhooks", events: ["payment_failure", "payment_success"], status: "enabled", siteId: 1 },
      {
        id: 12,
        url: "https:/example.com/webhooks",
        events: ["payment_failure", "payment_success", "refund_failure"],
        status: "enabled",
        siteId: 1,
      },
    ]);
    expect(server.requests.map((r) => [r.method, r.url, r.text])).toStrictEqual([["GET", LIST, ""]]);
  });

  it("createEndpoint with the published request's values: sends its body (events sorted) with a uniqueness_token; reads endpoint-create.200.json", async () => {
    server.serve([route("POST", LIST, fixture("endpoint-create.200.json"))]);
    const request = published("endpoint-create.request.json");
    const created = await billing.createEndpoint({ url: request.endpoint.url, events: request.endpoint.webhook_subscriptions });
    expect(created).toStrictEqual<Endpoint>({
      id: 1,
      url: "https://your.site/webhooks",
      events: ["payment_failure", "payment_success"],
      status: "enabled",
      siteId: 1,
    });
    const [body] = sentBodies("POST");
    expect(server.requests).toHaveLength(1);
    expect(body).toStrictEqual({
      endpoint: { url: "https://your.site/webhooks", webhook_subscriptions: [...request.endpoint.webhook_subscriptions].sort() },
      uniqueness_token: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
    });
    expect(Object.keys(body.endpoint)).toStrictEqual(Object.keys(request.endpoint));
  });

  it("each create has its own token; a given one is sent as is", async () => {
    server.serve([route("POST", LIST, fixture("endpoint-create.200.json"))]);
    const input = { url: "https://your.site/webhooks", events: ["payment_success"] };
    await billing.createEndpoint(input);
    await billing.createEndpoint(input);
    await billing.createEndpoint(input, { uniquenessToken: "resume-me-1" });
    const tokens = sentBodies("POST").map((b) => b.uniqueness_token);
    expect(new Set(tokens).size).toBe(3);
    expect(tokens[2]).toBe("resume-me-1");
  });

  it("createEndpoint answered endpoint-create-422.json: BillingApiError 422 with the service's message, nothing applied, not repeated, nothing read back", async () => {
    server.serve([route("POST", LIST, fixture("endpoint-create-422.json")), route("GET", LIST, fixture("endpoints-list.200.json"))]);
    const err = await billing
      .createEndpoint({ url: "https://foobar.com/webhooks", events: ["payment_success", "payment_failure"] })
      .catch((e) => e);
    expect(err).toBeInstanceOf(BillingApiError);
    expect(err).not.toBeInstanceOf(EndpointOutcomeUnknownError);
    expect(err).toMatchObject({
      status: 422,
      errors: ["URL: invalid, only http and https supported"],
      method: "POST",
      path: LIST,
      mayHaveApplied: false,
    });
    expect(err.message).toContain("URL: invalid, only http and https supported");
    expect(server.requests.map((r) => r.method)).toStrictEqual(["POST"]);
  });

  it("updateEndpoint with the published update request's values sends exactly that body (already sorted, no token); the Endpoint Response read field by field", async () => {
    // No 200 example is published for the update; its schema is the create's Endpoint Response.
    server.serve([route("PUT", "/endpoints/1.json", fixture("endpoint-create.200.json"))]);
    const request = published("endpoint-update.request.json");
    const updated = await billing.updateEndpoint(1, {
      url: request.endpoint.url,
      events: [...request.endpoint.webhook_subscriptions].reverse(),
    });
    expect(updated).toStrictEqual<Endpoint>({
      id: 1,
      url: "https://your.site/webhooks",
      events: ["payment_failure", "payment_success"],
      status: "enabled",
      siteId: 1,
    });
    expect(server.requests.map((r) => [r.method, r.url])).toStrictEqual([["PUT", "/endpoints/1.json"]]);
    expect(server.requests[0].text).toBe(JSON.stringify(request));
  });

  it("updateEndpoint with no events sends an empty list (unsubscribe from all)", async () => {
    server.serve([route("PUT", "/endpoints/12.json", fixture("endpoint-create.200.json"))]);
    await billing.updateEndpoint(12, { url: "https://example.com/hooks", events: [] });
    expect(sentBodies("PUT")).toStrictEqual([{ endpoint: { url: "https://example.com/hooks", webhook_subscriptions: [] } }]);
  });

  it("updateEndpoint answered endpoint-update-422.json: BillingApiError 422 with the service's message, not repeated", async () => {
    server.serve([route("PUT", "/endpoints/1.json", fixture("endpoint-update-422.json"))]);
    const err = await billing.updateEndpoint(1, { url: "https://example.com/hooks", events: ["payment_success"] }).catch((e) => e);
    expect(err).toBeInstanceOf(BillingApiError);
    expect(err).toMatchObject({
      status: 422,
      errors: ["Event key is not valid - foobar"],
      method: "PUT",
      path: "/endpoints/1.json",
      mayHaveApplied: false,
    });
    expect(server.requests).toHaveLength(1);
  });

  it("updateEndpoint answered 404 (the contract's, no body): BillingApiError 404", async () => {
    server.serve([route("PUT", "/endpoints/99.json", { status: 404, text: "", contentType: "text/plain" })]);
    const err = await billing.updateEndpoint(99, { url: "https://example.com/hooks", events: ["payment_success"] }).catch((e) => e);
    expect(err).toBeInstanceOf(BillingApiError);
    expect(err).toMatchObject({ status: 404, errors: [], method: "PUT", path: "/endpoints/99.json", mayHaveApplied: false });
    expect(server.requests).toHaveLength(1);
  });

  it("duplicate-409.json on a create: the list is read back and the endpoint with that url and those events is the one created", async () => {
    server.serve([route("POST", LIST, fixture("duplicate-409.json")), route("GET", LIST, fixture("endpoints-list.200.json"))]);
    const created = await billing.createEndpoint({ url: "https://foobar.com/webhooks", events: ["payment_success", "payment_failure"] });
    expect(created).toStrictEqual<Endpoint>({
      id: 11,
      url: "https://foobar.com/webhooks",
      events: ["payment_failure", "payment_success"],
      status: "enabled",
      siteId: 1,
    });
    expect(server.requests.map((r) => r.method)).toStrictEqual(["POST", "GET"]);
  });

  it("duplicate-409.json, and no such endpoint listed when the settle time is over: EndpointOutcomeUnknownError with the token, the 409 as cause", async () => {
    server.serve([route("POST", LIST, fixture("duplicate-409.json")), route("GET", LIST, fixture("endpoints-list.200.json"))]);
    // Same url as endpoint 11, other events: not a match.
    const err = await billing.createEndpoint({ url: "https://foobar.com/webhooks", events: ["payment_success"] }).catch((e) => e);
    expect(err).toBeInstanceOf(EndpointOutcomeUnknownError);
    const [body] = sentBodies("POST");
    expect(err).toMatchObject({
      uniquenessToken: body.uniqueness_token,
      url: "https://foobar.com/webhooks",
      events: ["payment_success"],
      mayHaveApplied: true,
    });
    expect(err.cause).toBeInstanceOf(BillingApiError);
    expect(err.cause).toMatchObject({ status: 409, errors: ["DuplicatePrevention::DuplicateSubmissionError"] });
    expect(err.message).toContain(`resume it with the same uniqueness_token (${body.uniqueness_token})`);
    expect(err.message).toContain("not listed");
    expect(server.requests.map((r) => r.method)).toStrictEqual(["POST", "GET"]);
  });
});

describe("reading endpoints: lenient where the vendor may vary, strict where a result would be wrong", () => {
  const list = (text: string): Step[] => [{ status: 200, text, contentType: "application/json" }];

  it("an event key the SDK does not know, nulls and absent fields do not fail a read", async () => {
    const s = await scripted(
      list(`[
      {"id": 3, "url": "https://a.example/h", "site_id": null, "status": null, "webhook_subscriptions": ["some_future_event", "payment_success", "payment_success"]},
      {"id": 4, "webhook_subscriptions": []}
    ]`),
    );
    expect(await clientOf(s.url).listEndpoints()).toStrictEqual<Endpoint[]>([
      { id: 3, url: "https://a.example/h", events: ["payment_success", "some_future_event"], status: undefined, siteId: undefined },
      { id: 4, url: "", events: [], status: undefined, siteId: undefined },
    ]);
  });

  it.each([
    [
      "an endpoint without an id",
      `[{"url": "https://a.example/h", "webhook_subscriptions": []}]`,
      /^GET \/endpoints\.json answered 200 with a body this SDK does not understand: 0\.id: /,
    ],
    ["an endpoint without its subscriptions", `[{"id": 3, "url": "https://a.example/h"}]`, /0\.webhook_subscriptions: /],
    ["an object, not the bare array", `{"endpoint": {"id": 3, "webhook_subscriptions": []}}`, /\(body\): /],
  ])("refused: %s (BillingApiError naming the field)", async (_, text, message) => {
    const s = await scripted(list(text));
    const err = await clientOf(s.url)
      .listEndpoints()
      .catch((e) => e);
    expect(err).toBeInstanceOf(BillingApiError);
    expect(err.message).toMatch(message);
  });
});

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

describe("against the simulator (what the site holds afterwards)", () => {
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
