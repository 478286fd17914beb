import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DEMO_SITE, type Simulator, startSimulator } from "../../simulator";
import { contractCheck, PATCHES } from "../contract/validator";
import { basic, call, migration } from "./helpers";

// Every answer in these tests goes through the contract check in call(); this
// file makes sure each operation and each kind of failure is exercised at
// least once, and that the patches are neither vacuous nor too wide.

const auth = basic(DEMO_SITE.apiKey);

describe("every served operation answers within the patched contract", () => {
  // A fresh demo site for each case: a migration or a fault of one case must not change what another is answered.
  let sim: Simulator;
  beforeEach(async () => {
    sim = await startSimulator({ seed: "demo" });
  });
  afterEach(async () => {
    await sim.close();
  });

  const cases: { method: string; path: string; body?: unknown; status: number }[] = [
    { method: "POST", path: "/webhooks/replay.json", body: { ids: [5005, 5006] }, status: 200 },
    { method: "POST", path: "/webhooks/replay.json", body: { ids: [] }, status: 422 },
    { method: "PUT", path: "/webhooks/settings.json", body: { webhooks_enabled: true }, status: 200 },
    { method: "GET", path: "/webhooks.json?per_page=200", status: 200 },
    { method: "GET", path: "/webhooks.json?status=lost", status: 422 },
    { method: "GET", path: "/subscriptions/1002.json", status: 200 },
    { method: "GET", path: "/subscriptions/1004.json", status: 200 },
    { method: "GET", path: "/subscriptions/9.json", status: 404 },
    { method: "POST", path: "/subscriptions/1001/migrations/preview.json", body: migration({ product_handle: "pro" }), status: 200 },
    { method: "POST", path: "/subscriptions/1001/migrations/preview.json", body: migration({ product_handle: "basic" }), status: 422 },
    {
      method: "POST",
      path: "/subscriptions/1001/migrations.json",
      body: migration({ product_handle: "pro", product_price_point_handle: "pro-annual" }),
      status: 200,
    },
    { method: "POST", path: "/subscriptions/1003/migrations.json", body: migration({ product_id: 4 }), status: 200 },
    { method: "POST", path: "/subscriptions/1004/migrations.json", body: migration({ product_id: 2 }), status: 422 },
    { method: "POST", path: "/subscriptions/1005/migrations.json", body: migration({ product_id: 2 }), status: 422 },
    { method: "POST", path: "/subscriptions/9/migrations.json", body: migration({ product_id: 2 }), status: 404 },
    { method: "GET", path: "/products/2.json", status: 200 },
    { method: "GET", path: "/products/4.json", status: 200 },
    { method: "GET", path: "/products/99.json", status: 404 },
    { method: "GET", path: "/products/handle/pro.json", status: 200 },
    { method: "GET", path: "/products/handle/gold.json", status: 404 },
    { method: "GET", path: "/products/2/price_points.json", status: 200 },
    { method: "GET", path: "/products/handle:pro/price_points.json?filter[type]=catalog", status: 200 },
    { method: "GET", path: "/products/2/price_points.json?filter[type]=gold", status: 422 },
    { method: "GET", path: "/products/99/price_points.json", status: 404 },
    { method: "GET", path: "/site.json", status: 200 },
    { method: "GET", path: "/endpoints.json", status: 200 },
    {
      method: "POST",
      path: "/endpoints.json",
      body: { endpoint: { url: "https://h.example/w", webhook_subscriptions: ["payment_success"] } },
      status: 200,
    },
    { method: "POST", path: "/endpoints.json", body: { endpoint: { url: "ftp://h.example/w", webhook_subscriptions: [] } }, status: 422 },
    {
      method: "PUT",
      path: "/endpoints/1.json",
      body: { endpoint: { url: "https://h.example/w", webhook_subscriptions: [] } },
      status: 200,
    },
    {
      method: "PUT",
      path: "/endpoints/1.json",
      body: { endpoint: { url: "https://h.example/w", webhook_subscriptions: ["foobar"] } },
      status: 422,
    },
    {
      method: "PUT",
      path: "/endpoints/99.json",
      body: { endpoint: { url: "https://h.example/w", webhook_subscriptions: [] } },
      status: 404,
    },
  ];
  it.each(cases)("$method $path → $status", async ({ method, path, body, status }) => {
    expect((await call(sim, method, path, { body, auth })).status).toBe(status);
  });

  it("401, 400 and 409 are error lists", async () => {
    expect((await call(sim, "GET", "/site.json", { auth: null })).status).toBe(401);
    expect((await call(sim, "POST", "/webhooks/replay.json", { raw: "{", auth })).status).toBe(400);
    const body = { ids: [5005], uniqueness_token: "contract-409" };
    await call(sim, "POST", "/webhooks/replay.json", { body, auth });
    expect((await call(sim, "POST", "/webhooks/replay.json", { body, auth })).status).toBe(409);
  });

  it.each([429, 500, 502, 503, 504] as const)("an injected %i is within the patched contract on every operation kind", async (status) => {
    sim.injectFault({ kind: "status", status, times: 3 });
    expect((await call(sim, "GET", "/site.json", { auth })).status).toBe(status);
    expect((await call(sim, "GET", "/webhooks.json", { auth })).status).toBe(status);
    expect((await call(sim, "POST", "/subscriptions/1002/migrations.json", { body: migration({ product_id: 3 }), auth })).status).toBe(
      status,
    );
  });
});

describe("the patches", () => {
  // A fresh demo site for each case, as above.
  let sim: Simulator;
  beforeEach(async () => {
    sim = await startSimulator({ seed: "demo" });
  });
  afterEach(async () => {
    await sim.close();
  });

  it("each has a reason", () => {
    expect(PATCHES.length).toBeGreaterThan(0);
    for (const p of PATCHES) expect(p.why.length).toBeGreaterThan(30);
  });

  /** Answers the published contract refuses and the patched one allows: one per patch that the simulator relies on. */
  const departures: {
    patch: RegExp;
    method: string;
    path: string;
    prepare?: (s: Simulator) => void;
    body?: unknown;
    raw?: string;
    auth?: string | null;
  }[] = [
    { patch: /answers 200/, method: "GET", path: "/webhooks.json?status=failed&per_page=1" },
    { patch: /may be null/, method: "GET", path: "/webhooks.json?status=pending" },
    { patch: /429/, method: "GET", path: "/site.json", prepare: (s) => s.injectFault({ kind: "status", status: 429, times: 1 }) },
    {
      patch: /409/,
      method: "PUT",
      path: "/webhooks/settings.json",
      body: { webhooks_enabled: true, uniqueness_token: "patch-409" },
      prepare: () => undefined,
    },
    { patch: /404/, method: "GET", path: "/products/77.json" },
    {
      patch: /without a body/,
      method: "PUT",
      path: "/endpoints/99.json",
      body: { endpoint: { url: "https://h.example/w", webhook_subscriptions: [] } },
    },
    { patch: /422/, method: "POST", path: "/webhooks/replay.json", body: { ids: [0] } },
    { patch: /401/, method: "GET", path: "/site.json", auth: null },
    { patch: /400/, method: "POST", path: "/webhooks/replay.json", raw: "[" },
    { patch: /500/, method: "GET", path: "/site.json", prepare: (s) => s.injectFault({ kind: "status", status: 502, times: 1 }) },
  ];
  it.each(departures)("$patch: $method $path", async ({ patch, method, path, prepare, body, raw, auth: a }) => {
    expect(PATCHES.some((p) => patch.test(p.what))).toBe(true);
    prepare?.(sim);
    if (patch.source === "409") await call(sim, method, path, { body, auth }); // the first of the pair is fine as published
    const res = await fetch(sim.url + path, {
      method,
      body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
      headers: { ...(a === null ? {} : { authorization: a ?? auth }), "content-type": "application/json" },
    });
    const answer = { method, path, status: res.status, contentType: res.headers.get("content-type"), text: await res.text() };
    expect((await contractCheck(false)).problems(answer)).not.toEqual([]);
    expect((await contractCheck(true)).problems(answer)).toEqual([]);
  });

  it("patched, the contract still refuses what the service would not send", async () => {
    const check = await contractCheck(true);
    const answer = (status: number, text: string, contentType = "application/json") => ({
      method: "GET",
      path: "/webhooks.json",
      status,
      contentType,
      text,
    });
    expect(check.problems(answer(200, '[{"webhook":{"id":"5001"}}]'))).not.toEqual([]);
    expect(check.problems(answer(200, '[{"webhook":{"id":1,"successful":null}}]'))).not.toEqual([]);
    expect(check.problems(answer(429, '{"errors":["Too many"]}'))).not.toEqual([]);
    expect(check.problems(answer(429, "Slow down", "text/plain"))).not.toEqual([]);
    expect(check.problems(answer(418, '{"errors":["teapot"]}'))).not.toEqual([]);
    expect(check.problems(answer(200, '[{"webhook":{"id":9223372036854775808}}]'))).not.toEqual([]);
    expect(check.problems(answer(200, '[{"webhook":{"id":9223372036854775807}}]'))).toEqual([]);
  });
});
