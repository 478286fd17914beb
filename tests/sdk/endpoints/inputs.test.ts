import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BillingClient, BillingValidationError, endpointInput, WEBHOOK_EVENTS } from "../../../sdk";
import { type FixtureServer, startFixtureServer } from "../fixture-server";
import { site } from "../helpers";

/** An endpoint's input refused before any request (sdk/endpoints.ts), naming each property, in its exact words. */

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

const URL_ = "https://hooks.example.com/billing";

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
