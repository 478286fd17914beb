import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEMO_SITE, type Simulator } from "../../simulator";
import { CONTRACT } from "../contract/validator";
import { basic, call, DUPLICATE, start } from "./helpers";

// Webhook endpoints: POST/GET /endpoints.json, PUT /endpoints/{id}.json.
// Every answer goes through call(), which checks it against the contract.

const VENDOR = path.resolve(__dirname, "../fixtures/vendor");
const fixture = (name: string): any => JSON.parse(readFileSync(path.join(VENDOR, name), "utf8"));

/** The contract's own enum of event keys, read from the contract (not from the simulator). */
const CONTRACT_EVENT_KEYS: string[] = JSON.parse(readFileSync(CONTRACT, "utf8")).paths["/endpoints.json"].post.requestBody.content[
  "application/json"
].schema.properties.endpoint.properties.webhook_subscriptions.items.enum;

const body = (url: unknown, events: unknown, extra: Record<string, unknown> = {}) => ({
  endpoint: { url, webhook_subscriptions: events },
  ...extra,
});
const create = (sim: Simulator, url: string, events: string[], extra: Record<string, unknown> = {}) =>
  call(sim, "POST", "/endpoints.json", { body: body(url, events, extra) });

describe("POST /endpoints.json", () => {
  it("the vendor's request on a fresh site answers exactly the vendor's 200 example", async () => {
    const sim = await start();
    const res = await call(sim, "POST", "/endpoints.json", { body: fixture("endpoint-create.request.json") });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(fixture("endpoint-create.200.json"));
    expect(sim.endpoints()).toEqual([
      { id: 1, url: "https://your.site/webhooks", events: ["payment_success", "payment_failure"], status: "enabled" },
    ]);
  });

  it("gives each new endpoint the next id and the site's own id", async () => {
    const sim = await start();
    const a = await create(sim, "https://a.example/hooks", ["signup_success"]);
    const b = await create(sim, "http://b.example:8080/hooks?x=1", ["refund_success"]);
    expect([a.body.endpoint.id, b.body.endpoint.id]).toEqual([1, 2]);
    const siteId = (await call(sim, "GET", "/site.json")).body.site.id;
    expect(a.body.endpoint.site_id).toBe(siteId);
    expect(b.body.endpoint).toEqual({
      id: 2,
      url: "http://b.example:8080/hooks?x=1",
      site_id: siteId,
      status: "enabled",
      webhook_subscriptions: ["refund_success"],
    });
  });

  it("keeps the events in the order sent, each once", async () => {
    const sim = await start();
    const res = await create(sim, "https://x.example/h", [
      "refund_failure",
      "payment_success",
      "refund_failure",
      "customer_create",
      "payment_success",
    ]);
    expect(res.body.endpoint.webhook_subscriptions).toEqual(["refund_failure", "payment_success", "customer_create"]);
    expect(sim.endpoints()[0].events).toEqual(["refund_failure", "payment_success", "customer_create"]);
  });

  it("takes an empty event list: an endpoint subscribed to nothing", async () => {
    const sim = await start();
    const res = await create(sim, "https://x.example/h", []);
    expect(res).toMatchObject({ status: 200, body: { endpoint: { id: 1, webhook_subscriptions: [] } } });
    expect(sim.endpoints()).toMatchObject([{ id: 1, events: [] }]);
  });

  it("takes every event key of the contract's enum at once", async () => {
    expect(CONTRACT_EVENT_KEYS.length).toBeGreaterThan(30);
    const sim = await start();
    const res = await create(sim, "https://x.example/h", CONTRACT_EVENT_KEYS);
    expect(res.status).toBe(200);
    expect(res.body.endpoint.webhook_subscriptions).toEqual(CONTRACT_EVENT_KEYS);
  });

  it("allows two endpoints with the same URL (distinct ids, both listed)", async () => {
    const sim = await start();
    const a = await create(sim, "https://same.example/h", ["payment_success"]);
    const b = await create(sim, "https://same.example/h", ["payment_failure"]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.body.endpoint.id).not.toBe(a.body.endpoint.id);
    expect((await call(sim, "GET", "/endpoints.json")).body.map((e: { url: string }) => e.url)).toEqual([
      "https://same.example/h",
      "https://same.example/h",
    ]);
  });

  it.each([
    "http://localhost/hook",
    "https://127.0.0.1:9443/hook",
    "HTTPS://UPPER.EXAMPLE/Hook",
    "https://yout.site/webhooks/1/json.",
    "https:/example.com/webhooks",
  ])("accepts %s and stores it exactly as sent", async (url) => {
    const sim = await start();
    const res = await create(sim, url, ["payment_success"]);
    expect(res.status).toBe(200);
    expect(res.body.endpoint.url).toBe(url);
    expect(sim.endpoints()[0].url).toBe(url);
  });

  it("ignores keys the request does not define (a status cannot be set)", async () => {
    const sim = await start();
    const res = await call(sim, "POST", "/endpoints.json", {
      body: {
        endpoint: { url: "https://x.example/h", webhook_subscriptions: ["payment_success"], status: "disabled", id: 77, site_id: 9 },
        extra: true,
      },
    });
    expect(res.body.endpoint).toEqual({
      id: 1,
      url: "https://x.example/h",
      site_id: 1,
      status: "enabled",
      webhook_subscriptions: ["payment_success"],
    });
  });
});

/** 422s: each body, with the exact error list; nothing is created. */
const REFUSED: { name: string; body: unknown; errors: string[] }[] = [
  {
    name: "an ftp URL (the vendor's 422 example)",
    body: body("ftp://your.site/webhooks", ["payment_success"]),
    errors: fixture("endpoint-create-422.json").errors,
  },
  {
    name: "a mailto URL",
    body: body("mailto:ops@example.com", ["payment_success"]),
    errors: ["URL: invalid, only http and https supported"],
  },
  {
    name: "a javascript URL",
    body: body("javascript:alert(1)", ["payment_success"]),
    errors: ["URL: invalid, only http and https supported"],
  },
  { name: "a relative URL", body: body("/webhooks", ["payment_success"]), errors: ["URL: invalid, only http and https supported"] },
  {
    name: "a URL without a scheme",
    body: body("your.site/webhooks", ["payment_success"]),
    errors: ["URL: invalid, only http and https supported"],
  },
  { name: "a URL without a host", body: body("https://", ["payment_success"]), errors: ["URL: invalid, only http and https supported"] },
  {
    name: "a URL with a space",
    body: body("https://your.site/web hooks", ["payment_success"]),
    errors: ["URL: invalid, only http and https supported"],
  },
  {
    name: "a URL with surrounding spaces",
    body: body(" https://your.site/webhooks", ["payment_success"]),
    errors: ["URL: invalid, only http and https supported"],
  },
  { name: "a URL that is a number", body: body(42, ["payment_success"]), errors: ["URL: invalid, only http and https supported"] },
  { name: "an empty URL", body: body("", ["payment_success"]), errors: ["URL: cannot be blank."] },
  { name: "a blank URL", body: body("   ", ["payment_success"]), errors: ["URL: cannot be blank."] },
  { name: "a null URL", body: body(null, ["payment_success"]), errors: ["URL: cannot be blank."] },
  { name: "no URL", body: { endpoint: { webhook_subscriptions: ["payment_success"] } }, errors: ["URL: cannot be blank."] },
  {
    name: "an unknown event key (the vendor's 422 example)",
    body: body("https://x.example/h", ["payment_success", "foobar"]),
    errors: fixture("endpoint-update-422.json").errors,
  },
  {
    name: "an event key in the wrong case",
    body: body("https://x.example/h", ["Payment_Success"]),
    errors: ["Event key is not valid - Payment_Success"],
  },
  {
    name: "unknown keys, each named once",
    body: body("https://x.example/h", ["foo", "payment_success", "bar", "foo"]),
    errors: ["Event key is not valid - foo", "Event key is not valid - bar"],
  },
  {
    name: "event keys that are not strings",
    body: body("https://x.example/h", [5, null, { k: 1 }]),
    errors: ["Event key is not valid - 5", "Event key is not valid - null", 'Event key is not valid - {"k":1}'],
  },
  {
    name: "no webhook_subscriptions",
    body: { endpoint: { url: "https://x.example/h" } },
    errors: ["webhook_subscriptions must be an Array"],
  },
  {
    name: "webhook_subscriptions as a string",
    body: body("https://x.example/h", "payment_success"),
    errors: ["webhook_subscriptions must be an Array"],
  },
  {
    name: "a bad URL and a bad key together",
    body: body("ftp://x", ["nope"]),
    errors: ["URL: invalid, only http and https supported", "Event key is not valid - nope"],
  },
  { name: "no endpoint object", body: { url: "https://x.example/h", webhook_subscriptions: [] }, errors: ["endpoint must be an Object"] },
  { name: "endpoint as an array", body: { endpoint: [] }, errors: ["endpoint must be an Object"] },
  { name: "endpoint as null", body: { endpoint: null }, errors: ["endpoint must be an Object"] },
  { name: "a body that is an array", body: [], errors: ["endpoint must be an Object"] },
  { name: "no body", body: undefined, errors: ["endpoint must be an Object"] },
];

describe("422s", () => {
  it.each(REFUSED)("POST: $name", async ({ body: b, errors }) => {
    const sim = await start();
    const res = await call(sim, "POST", "/endpoints.json", { body: b });
    expect(res).toMatchObject({ status: 422, body: { errors } });
    expect(res.body.errors).toEqual(errors);
    expect(sim.endpoints()).toEqual([]);
  });

  it.each(REFUSED)("PUT: $name, the endpoint unchanged", async ({ body: b, errors }) => {
    const sim = await start();
    const held = sim.addEndpoint({ url: "https://held.example/h", events: ["payment_success"] });
    const res = await call(sim, "PUT", `/endpoints/${held.id}.json`, { body: b });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual(errors);
    expect(sim.endpoints()).toEqual([held]);
  });

  it("names at most ten unknown event keys, then a count", async () => {
    const sim = await start();
    const keys = Array.from({ length: 14 }, (_, i) => `bogus_${i}`);
    const res = await create(sim, "https://x.example/h", keys);
    expect(res.status).toBe(422);
    expect(res.body.errors).toHaveLength(11);
    expect(res.body.errors[0]).toBe("Event key is not valid - bogus_0");
    expect(res.body.errors[10]).toMatch(/4 more/);
  });
});

describe("GET /endpoints.json", () => {
  it("is an empty bare array on a site without endpoints", async () => {
    const sim = await start();
    const res = await call(sim, "GET", "/endpoints.json");
    expect(res).toMatchObject({ status: 200, body: [] });
    expect(res.text).toBe("[]");
  });

  it("answers the vendor's list example for the endpoints it shows (bare array, not wrapped)", async () => {
    const sim = await start();
    const published = fixture("endpoints-list.200.json") as { id: number; url: string; status: string; webhook_subscriptions: string[] }[];
    for (const e of published) sim.addEndpoint({ id: e.id, url: e.url, events: e.webhook_subscriptions, status: e.status });
    const res = await call(sim, "GET", "/endpoints.json");
    expect(res.body).toEqual(published);
  });

  it("lists every endpoint, oldest first, as create answered them", async () => {
    const sim = await start();
    const made = [];
    for (const [url, events] of [
      ["https://a.example/1", ["payment_success"]],
      ["https://b.example/2", []],
      ["https://c.example/3", ["trial_end_notice", "dunning_step_reached"]],
    ] as const) {
      made.push((await create(sim, url, [...events])).body.endpoint);
    }
    const res = await call(sim, "GET", "/endpoints.json");
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body).toEqual(made);
  });

  it("ignores a query string (the contract defines no paging)", async () => {
    const sim = await start();
    for (let i = 0; i < 3; i++) sim.addEndpoint({ url: `https://x.example/${i}`, events: [] });
    expect((await call(sim, "GET", "/endpoints.json?page=2&per_page=1")).body.map((e: { id: number }) => e.id)).toEqual([1, 2, 3]);
  });
});

describe("PUT /endpoints/{id}.json", () => {
  it("takes the vendor's request: the url and the complete event list replace what was held", async () => {
    const sim = await start();
    const held = sim.addEndpoint({ url: "https://old.example/h", events: ["signup_success", "payment_success"] });
    const res = await call(sim, "PUT", `/endpoints/${held.id}.json`, { body: fixture("endpoint-update.request.json") });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      endpoint: {
        id: held.id,
        url: "https://yout.site/webhooks/1/json.",
        site_id: 1,
        status: "enabled",
        webhook_subscriptions: ["payment_failure", "payment_success", "refund_failure"],
      },
    });
    expect(sim.endpoints()).toEqual([
      {
        id: held.id,
        url: "https://yout.site/webhooks/1/json.",
        events: ["payment_failure", "payment_success", "refund_failure"],
        status: "enabled",
      },
    ]);
    expect((await call(sim, "GET", "/endpoints.json")).body).toEqual([res.body.endpoint]);
  });

  it("an empty list unsubscribes from every event; the endpoint stays", async () => {
    const sim = await start();
    const held = sim.addEndpoint({ url: "https://x.example/h", events: ["payment_success", "payment_failure"] });
    const res = await call(sim, "PUT", `/endpoints/${held.id}.json`, { body: body("https://x.example/h", []) });
    expect(res).toMatchObject({ status: 200, body: { endpoint: { id: held.id, url: "https://x.example/h", webhook_subscriptions: [] } } });
    expect(sim.endpoints()).toEqual([{ ...held, events: [] }]);
  });

  it("leaving an event out unsubscribes from it; order as sent, repeats once", async () => {
    const sim = await start();
    const held = sim.addEndpoint({ url: "https://x.example/h", events: ["payment_success", "payment_failure", "refund_failure"] });
    const res = await call(sim, "PUT", `/endpoints/${held.id}.json`, {
      body: body("https://x.example/h", ["refund_failure", "payment_success", "refund_failure"]),
    });
    expect(res.body.endpoint.webhook_subscriptions).toEqual(["refund_failure", "payment_success"]);
    expect(sim.endpoints()[0].events).toEqual(["refund_failure", "payment_success"]);
  });

  it("changes only the endpoint named; keeps its status", async () => {
    const sim = await start();
    const a = sim.addEndpoint({ url: "https://a.example/h", events: ["payment_success"], status: "disabled" });
    const b = sim.addEndpoint({ url: "https://b.example/h", events: ["payment_failure"] });
    const res = await call(sim, "PUT", `/endpoints/${a.id}.json`, { body: body("https://a2.example/h", ["signup_failure"]) });
    expect(res.body.endpoint).toMatchObject({
      id: a.id,
      url: "https://a2.example/h",
      status: "disabled",
      webhook_subscriptions: ["signup_failure"],
    });
    expect(sim.endpoints()).toEqual([{ id: a.id, url: "https://a2.example/h", events: ["signup_failure"], status: "disabled" }, b]);
  });

  it("may give an endpoint the URL of another", async () => {
    const sim = await start();
    const a = sim.addEndpoint({ url: "https://a.example/h", events: [] });
    const b = sim.addEndpoint({ url: "https://b.example/h", events: [] });
    expect((await call(sim, "PUT", `/endpoints/${b.id}.json`, { body: body(a.url, ["payment_success"]) })).status).toBe(200);
    expect(sim.endpoints().map((e) => e.url)).toEqual([a.url, a.url]);
  });

  it.each([
    { name: "an id never used", path: "/endpoints/99.json" },
    { name: "id 0", path: "/endpoints/0.json" },
    { name: "a removed endpoint", path: "/endpoints/1.json" },
  ])("404 for $name, whatever the body; nothing changes", async ({ path: p }) => {
    const sim = await start();
    const kept = sim.addEndpoint({ id: 2, url: "https://kept.example/h", events: ["payment_success"] });
    sim.addEndpoint({ id: 1, url: "https://gone.example/h", events: [] });
    sim.removeEndpoint(1);
    for (const b of [body("https://x.example/h", ["payment_success"]), body("ftp://x", ["foobar"]), undefined]) {
      const res = await call(sim, "PUT", p, { body: b });
      expect(res).toMatchObject({ status: 404, body: { errors: ["Endpoint not found"] } });
    }
    expect(sim.endpoints()).toEqual([kept]);
  });

  it("404 for an id that is not a number (no such route)", async () => {
    const sim = await start();
    sim.addEndpoint({ url: "https://x.example/h", events: [] });
    expect((await call(sim, "PUT", "/endpoints/abc.json", { body: body("https://x.example/h", []) })).status).toBe(404);
  });
});

describe("duplicate prevention (uniqueness_token)", () => {
  it("a repeated POST token is a 409 and creates nothing more; a new token creates", async () => {
    const sim = await start();
    const b = body("https://x.example/h", ["payment_success"], { uniqueness_token: "ep-1" });
    expect((await call(sim, "POST", "/endpoints.json", { body: b })).status).toBe(200);
    const again = await call(sim, "POST", "/endpoints.json", { body: b });
    expect(again).toMatchObject({ status: 409, body: { errors: [DUPLICATE] } });
    expect(sim.endpoints()).toHaveLength(1);
    expect(sim.tokenStatus("ep-1")).toBe("applied");
    expect((await call(sim, "POST", "/endpoints.json", { body: { ...b, uniqueness_token: "ep-2" } })).status).toBe(200);
    expect(sim.endpoints().map((e) => e.id)).toEqual([1, 2]);
  });

  it("a repeated PUT token is a 409 and changes nothing, even with another body", async () => {
    const sim = await start();
    const held = sim.addEndpoint({ url: "https://x.example/h", events: ["payment_success"] });
    const first = body("https://y.example/h", ["payment_failure"], { uniqueness_token: "put-1" });
    expect((await call(sim, "PUT", `/endpoints/${held.id}.json`, { body: first })).status).toBe(200);
    sim.updateEndpoint(held.id, { events: ["signup_success"] }); // changed in the web UI meanwhile
    const again = await call(sim, "PUT", `/endpoints/${held.id}.json`, {
      body: body("https://z.example/h", [], { uniqueness_token: "put-1" }),
    });
    expect(again).toMatchObject({ status: 409, body: { errors: [DUPLICATE] } });
    expect(sim.endpoints()).toEqual([{ ...held, url: "https://y.example/h", events: ["signup_success"] }]);
  });

  it("a token on a refused request (422, 404) is not recorded: the corrected request applies", async () => {
    const sim = await start();
    expect((await call(sim, "POST", "/endpoints.json", { body: body("ftp://x", [], { uniqueness_token: "fix-me" }) })).status).toBe(422);
    expect(
      (await call(sim, "PUT", "/endpoints/5.json", { body: body("https://x.example/h", [], { uniqueness_token: "fix-me" }) })).status,
    ).toBe(404);
    expect(sim.tokenStatus("fix-me")).toBeUndefined();
    expect(
      (await call(sim, "POST", "/endpoints.json", { body: body("https://x.example/h", [], { uniqueness_token: "fix-me" }) })).status,
    ).toBe(200);
    expect(sim.endpoints()).toHaveLength(1);
  });
});

describe("no DELETE, and other methods the contract does not define", () => {
  it.each([
    { method: "DELETE", path: "/endpoints/1.json", allow: "PUT" },
    { method: "GET", path: "/endpoints/1.json", allow: "PUT" },
    { method: "PATCH", path: "/endpoints/1.json", allow: "PUT" },
    { method: "POST", path: "/endpoints/1.json", allow: "PUT" },
    { method: "DELETE", path: "/endpoints.json", allow: "POST, GET" },
    { method: "PUT", path: "/endpoints.json", allow: "POST, GET" },
  ])("$method $path → 405, Allow: $allow; the endpoint stays", async ({ method, path: p, allow }) => {
    const sim = await start();
    const held = sim.addEndpoint({ url: "https://x.example/h", events: ["payment_success"] });
    const res = await call(sim, method, p, method === "GET" ? {} : { body: body("https://y.example/h", []) });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe(allow);
    expect(res.body.errors).toHaveLength(1);
    expect(sim.endpoints()).toEqual([held]);
  });
});

describe("authentication", () => {
  it.each([
    { method: "POST", path: "/endpoints.json", b: body("https://x.example/h", ["payment_success"]) },
    { method: "GET", path: "/endpoints.json", b: undefined },
    { method: "PUT", path: "/endpoints/1.json", b: body("https://y.example/h", []) },
    { method: "DELETE", path: "/endpoints/1.json", b: undefined },
  ])("$method $path without credentials or with a wrong key → 401, nothing changes", async ({ method, path: p, b }) => {
    const sim = await start({ accessToken: "tok_ep" });
    const held = sim.addEndpoint({ url: "https://x.example/h", events: ["payment_success"] });
    for (const auth of [null, basic("wrong_key"), "Bearer tok_other"]) {
      const res = await call(sim, method, p, { body: b, auth });
      expect(res.status).toBe(401);
      expect(res.body.errors).toHaveLength(1);
    }
    expect(sim.endpoints()).toEqual([held]);
    if (method !== "DELETE") expect((await call(sim, method, p, { body: b, auth: "Bearer tok_ep" })).status).toBe(200);
  });
});

describe("ground truth for tests", () => {
  it("addEndpoint: next free id unless given; the API's ids continue after it", async () => {
    const sim = await start();
    expect(sim.addEndpoint({ url: "https://a.example/h", events: ["payment_success"] })).toEqual({
      id: 1,
      url: "https://a.example/h",
      events: ["payment_success"],
      status: "enabled",
    });
    expect(sim.addEndpoint({ id: 7, url: "https://b.example/h", events: [], status: "disabled" }).id).toBe(7);
    expect((await create(sim, "https://c.example/h", [])).body.endpoint.id).toBe(8);
    expect(sim.addEndpoint({ id: 3, url: "https://d.example/h", events: [] }).id).toBe(3);
    expect(sim.addEndpoint({ url: "https://e.example/h", events: [] }).id).toBe(9);
    expect(sim.endpoints().map((e) => e.id)).toEqual([1, 3, 7, 8, 9]);
  });

  it("addEndpoint takes what the web UI might hold (an event the API's enum lacks), listed as held", async () => {
    const sim = await start();
    sim.addEndpoint({ url: "https://x.example/h", events: ["payment_success", "some_newer_event", "payment_success"] });
    expect((await call(sim, "GET", "/endpoints.json")).body[0].webhook_subscriptions).toEqual(["payment_success", "some_newer_event"]);
  });

  it("addEndpoint refuses nonsense loudly", async () => {
    const sim = await start();
    sim.addEndpoint({ id: 1, url: "https://x.example/h", events: [] });
    expect(() => sim.addEndpoint({ id: 1, url: "https://y.example/h", events: [] })).toThrow(/id 1 exists/);
    expect(() => sim.addEndpoint({ id: 0, url: "https://y.example/h", events: [] })).toThrow(/positive integer/);
    expect(() => sim.addEndpoint({ id: 1.5, url: "https://y.example/h", events: [] })).toThrow(/positive integer/);
    expect(() => sim.addEndpoint({ url: "", events: [] })).toThrow(/url/);
    expect(() => sim.addEndpoint({ url: "https://y.example/h", events: "payment_success" as never })).toThrow(/events/);
    expect(() => sim.addEndpoint({ url: "https://y.example/h", events: [""] })).toThrow(/events/);
    expect(() => sim.addEndpoint({ url: "https://y.example/h", events: [], status: "" })).toThrow(/status/);
    expect(sim.endpoints()).toHaveLength(1);
  });

  it("endpoints() hands out copies", async () => {
    const sim = await start();
    const added = sim.addEndpoint({ url: "https://x.example/h", events: ["payment_success"] });
    added.events.push("payment_failure");
    const [copy] = sim.endpoints();
    copy.url = "https://changed.example/h";
    copy.events.length = 0;
    expect(sim.endpoints()).toEqual([{ id: 1, url: "https://x.example/h", events: ["payment_success"], status: "enabled" }]);
  });

  it("updateEndpoint: a change made in the web UI is what the API lists next; only the given fields change", async () => {
    const sim = await start();
    const held = (await create(sim, "https://x.example/h", ["payment_success"])).body.endpoint;
    expect(sim.updateEndpoint(held.id, { events: ["payment_failure", "payment_failure", "refund_success"] })).toEqual({
      id: held.id,
      url: "https://x.example/h",
      events: ["payment_failure", "refund_success"],
      status: "enabled",
    });
    sim.updateEndpoint(held.id, { url: "https://moved.example/h" });
    sim.updateEndpoint(held.id, { status: "disabled" });
    expect((await call(sim, "GET", "/endpoints.json")).body).toEqual([
      {
        id: held.id,
        url: "https://moved.example/h",
        site_id: 1,
        status: "disabled",
        webhook_subscriptions: ["payment_failure", "refund_success"],
      },
    ]);
    expect(() => sim.updateEndpoint(99, { url: "https://x.example/h" })).toThrow(/no endpoint 99/);
    expect(() => sim.updateEndpoint(held.id, { url: "" })).toThrow(/url/);
  });

  it("removeEndpoint: gone from the list and from PUT; ids are not reused", async () => {
    const sim = await start();
    const a = sim.addEndpoint({ url: "https://a.example/h", events: [] });
    const b = sim.addEndpoint({ url: "https://b.example/h", events: [] });
    sim.removeEndpoint(b.id);
    expect((await call(sim, "GET", "/endpoints.json")).body.map((e: { id: number }) => e.id)).toEqual([a.id]);
    expect((await call(sim, "PUT", `/endpoints/${b.id}.json`, { body: body("https://b.example/h", []) })).status).toBe(404);
    expect((await create(sim, "https://c.example/h", [])).body.endpoint.id).toBe(b.id + 1);
    expect(() => sim.removeEndpoint(b.id)).toThrow(/no endpoint/);
  });
});

describe("the demo site", () => {
  it("holds one endpoint, id 1, at the receiver its webhooks went to; the next one made is 2", async () => {
    const sim = await start({ seed: "demo" });
    const auth = basic(DEMO_SITE.apiKey);
    expect(DEMO_SITE.endpoints).toEqual([
      { id: 1, url: "https://merchant.example.com/billing/webhooks", events: ["payment_failure", "subscription_state_change"] },
    ]);
    expect(Object.isFrozen(DEMO_SITE.endpoints[0].events)).toBe(true);
    expect((await call(sim, "GET", "/endpoints.json", { auth })).body).toEqual([
      {
        id: 1,
        url: "https://merchant.example.com/billing/webhooks",
        site_id: 1,
        status: "enabled",
        webhook_subscriptions: ["payment_failure", "subscription_state_change"],
      },
    ]);
    const failed = (await call(sim, "GET", "/webhooks.json?status=failed&per_page=1", { auth })).body[0].webhook;
    expect(failed.last_sent_url).toBe(DEMO_SITE.endpoints[0].url);
    const made = await call(sim, "POST", "/endpoints.json", { auth, body: body("https://other.example/h", ["payment_success"]) });
    expect(made.body.endpoint.id).toBe(2);
  });
});
