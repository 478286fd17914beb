import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BillingApiError, BillingClient, type Endpoint, EndpointOutcomeUnknownError } from "../../../sdk";
import { type FixtureServer, fixture, fixtureBytes, startFixtureServer } from "../fixture-server";
import { clientOf, type Step, scripted } from "../helpers";

/**
 * Webhook endpoints (POST/GET /endpoints.json, PUT /endpoints/{id}.json) on the vendor's published examples, served
 * byte for byte by the fixture server: the requests sent and the results read, lenient where the vendor may vary.
 */

const LIST = "/endpoints.json";

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

const sentBodies = (method: string) => server.requests.filter((r) => r.method === method).map((r) => JSON.parse(r.text));

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
