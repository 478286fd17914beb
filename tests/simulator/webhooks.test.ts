import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Simulator, startSimulator } from "../../simulator";
import { call, DUPLICATE } from "./helpers";

let sim: Simulator;
beforeEach(async () => {
  sim = await startSimulator();
});
afterEach(async () => {
  await sim.close();
});

describe("POST /webhooks/replay.json", () => {
  it("queues the ids in order, duplicates and unknown ids included, and answers ok", async () => {
    sim.addWebhook({ id: 7, status: "failed" });
    const res = await call(sim, "POST", "/webhooks/replay.json", { body: { ids: [7, 8, 7] } });
    expect(res).toMatchObject({ status: 200, body: { status: "ok" } });
    await call(sim, "POST", "/webhooks/replay.json", { body: { ids: [7] } });
    expect(sim.replayQueue).toEqual([7, 8, 7, 7]);
    expect(sim.replayLog).toEqual(["7", "8", "7", "7"]);
  });

  it("takes exactly 1000 ids", async () => {
    const ids = Array.from({ length: 1000 }, (_, i) => i + 1);
    expect((await call(sim, "POST", "/webhooks/replay.json", { body: { ids } })).status).toBe(200);
    expect(sim.replayQueue).toHaveLength(1000);
  });

  const refused: { name: string; body: unknown; message: RegExp }[] = [
    { name: "1001 ids", body: { ids: Array.from({ length: 1001 }, (_, i) => i + 1) }, message: /1001 entries; at most 1000/ },
    { name: "a fractional id", body: { ids: [1, 2.5] }, message: /ids\[1\].*2\.5/ },
    { name: "a string id", body: { ids: ["3"] }, message: /ids\[0\].*"3"/ },
    { name: "a negative id", body: { ids: [-4] }, message: /ids\[0\].*-4/ },
    { name: "zero", body: { ids: [0] }, message: /ids\[0\]/ },
    { name: "no ids", body: { ids: [] }, message: /at least one/ },
    { name: "ids missing", body: {}, message: /ids is required/ },
    { name: "ids not an array", body: { ids: 5 }, message: /ids is required/ },
    { name: "no body", body: undefined, message: /ids is required/ },
  ];
  it.each(refused)("422 for $name, nothing queued", async ({ body, message }) => {
    const res = await call(sim, "POST", "/webhooks/replay.json", { body });
    expect(res.status).toBe(422);
    expect(res.body.errors.join(" ")).toMatch(message);
    expect(sim.replayQueue).toEqual([]);
  });

  it("lists at most ten bad entries, then a count", async () => {
    const res = await call(sim, "POST", "/webhooks/replay.json", { body: { ids: Array.from({ length: 15 }, () => "x") } });
    expect(res.body.errors).toHaveLength(11);
    expect(res.body.errors[10]).toMatch(/5 more/);
  });

  it("a repeated uniqueness_token is a 409 and queues nothing; a new token queues", async () => {
    const body = { ids: [1, 2], uniqueness_token: "batch-1" };
    expect((await call(sim, "POST", "/webhooks/replay.json", { body })).status).toBe(200);
    const again = await call(sim, "POST", "/webhooks/replay.json", { body });
    expect(again).toMatchObject({ status: 409, body: { errors: [DUPLICATE] } });
    expect(sim.replayQueue).toEqual([1, 2]);
    await call(sim, "POST", "/webhooks/replay.json", { body: { ...body, uniqueness_token: "batch-2" } });
    expect(sim.replayQueue).toEqual([1, 2, 1, 2]);
    expect(sim.requests.map((r) => r.uniquenessToken)).toEqual(["batch-1", "batch-1", "batch-2"]);
  });

  it("a token on a refused request is not recorded: fixing the body and resending works", async () => {
    expect((await call(sim, "POST", "/webhooks/replay.json", { body: { ids: [0], uniqueness_token: "t" } })).status).toBe(422);
    expect((await call(sim, "POST", "/webhooks/replay.json", { body: { ids: [1], uniqueness_token: "t" } })).status).toBe(200);
  });

  it("tokens expire after 60 minutes", async () => {
    let now = Date.parse("2026-11-01T00:00:00Z");
    const clocked = await startSimulator({ now: () => new Date(now) });
    try {
      const body = { ids: [1], uniqueness_token: "hourly" };
      expect((await call(clocked, "POST", "/webhooks/replay.json", { body })).status).toBe(200);
      now += 59 * 60_000;
      expect((await call(clocked, "POST", "/webhooks/replay.json", { body })).status).toBe(409);
      now += 2 * 60_000;
      expect((await call(clocked, "POST", "/webhooks/replay.json", { body })).status).toBe(200);
      expect(clocked.replayQueue).toEqual([1, 1]);
    } finally {
      await clocked.close();
    }
  });
});

describe("PUT /webhooks/settings.json", () => {
  it.each([true, false])("sets webhooks_enabled to %s", async (v) => {
    sim.webhooksEnabled = !v;
    const res = await call(sim, "PUT", "/webhooks/settings.json", { body: { webhooks_enabled: v } });
    expect(res).toMatchObject({ status: 200, body: { webhooks_enabled: v } });
    expect(sim.webhooksEnabled).toBe(v);
  });

  it.each([{}, { webhooks_enabled: "true" }, { webhooks_enabled: 1 }, []])("422 for %j, setting unchanged", async (body) => {
    const res = await call(sim, "PUT", "/webhooks/settings.json", { body });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatch(/webhooks_enabled/);
    expect(sim.webhooksEnabled).toBe(false);
  });

  it("honours uniqueness_token like every PUT", async () => {
    const body = { webhooks_enabled: true, uniqueness_token: "s1" };
    expect((await call(sim, "PUT", "/webhooks/settings.json", { body })).status).toBe(200);
    sim.webhooksEnabled = false;
    expect((await call(sim, "PUT", "/webhooks/settings.json", { body })).status).toBe(409);
    expect(sim.webhooksEnabled).toBe(false);
  });
});

describe("GET /webhooks.json", () => {
  beforeEach(() => {
    // 45 webhooks, one a day from 2026-10-01: every third failed, subscriptions 1 and 2 alternating.
    for (let i = 0; i < 45; i++) {
      const d = new Date(Date.UTC(2026, 9, 1 + i, 12));
      sim.addWebhook({
        status: i % 3 === 0 ? "failed" : "successful",
        subscriptionId: 1 + (i % 2),
        createdAt: d.toISOString().replace(".000", ""),
      });
    }
    sim.addWebhook({ status: "pending", createdAt: "2026-12-01T00:00:00Z" });
    sim.addWebhook({ status: "paused", createdAt: "2026-12-02T00:00:00Z" });
  });
  const ids = (res: { body: { webhook: { id: number } }[] }) => res.body.map((r) => r.webhook.id);

  it("answers 200 with 20 per page, newest first by default", async () => {
    const res = await call(sim, "GET", "/webhooks.json");
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(20);
    expect(ids(res)[0]).toBe(5047);
    expect(ids(res)[19]).toBe(5028);
  });

  it("pages through everything exactly once, oldest first", async () => {
    const seen: number[] = [];
    for (let page = 1; ; page++) {
      const res = await call(sim, "GET", `/webhooks.json?order=oldest_first&per_page=10&page=${page}`);
      seen.push(...ids(res));
      if (res.body.length < 10) break;
    }
    expect(seen).toEqual(Array.from({ length: 47 }, (_, i) => 5001 + i));
  });

  it("clamps per_page to 200 and answers [] past the end", async () => {
    expect((await call(sim, "GET", "/webhooks.json?per_page=500")).body).toHaveLength(47);
    expect((await call(sim, "GET", "/webhooks.json?page=99")).body).toEqual([]);
  });

  const filters: { query: string; count: number; check?: (w: any) => boolean }[] = [
    {
      query: "status=failed",
      count: 15,
      check: (w) => w.successful === false && typeof w.last_error === "string" && w.accepted_at === null,
    },
    {
      query: "status=successful",
      count: 30,
      check: (w) => w.successful === true && typeof w.accepted_at === "string" && w.last_error === null,
    },
    { query: "status=pending", count: 1, check: (w) => w.accepted_at === null && w.last_sent_at === null },
    { query: "status=paused", count: 1, check: (w) => w.accepted_at === null && w.last_sent_at === null },
    { query: "subscription=1", count: 23 },
    { query: "status=failed&subscription=2", count: 7 },
    { query: "since_date=2026-11-10", count: 5 + 2 }, // Nov 10–14 and the two December ones
    { query: "until_date=2026-10-03", count: 3 },
    { query: "since_date=2026-10-02&until_date=2026-10-02", count: 1, check: (w) => w.created_at.startsWith("2026-10-02") },
  ];
  it.each(filters)("filters by $query", async ({ query, count, check }) => {
    const res = await call(sim, "GET", `/webhooks.json?per_page=200&${query}`);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(count);
    if (check) for (const { webhook } of res.body) expect(check(webhook)).toBe(true);
  });

  it.each(["status=lost", "since_date=10/01/2026", "until_date=2026-13-45", "page=0", "per_page=-1", "order=random", "subscription=abc"])(
    "422 for %s",
    async (query) => {
      const res = await call(sim, "GET", `/webhooks.json?${query}`);
      expect(res.status).toBe(422);
      expect(res.body.errors[0]).toMatch(new RegExp(query.split("=")[0]));
    },
  );

  const FIELDS = [
    "accepted_at",
    "body",
    "created_at",
    "event",
    "id",
    "last_error",
    "last_error_at",
    "last_sent_at",
    "last_sent_url",
    "signature",
    "signature_hmac_sha_256",
    "successful",
  ];
  // The newest of each status (the default order): successful on day 44, accepted 5 s after its creation; failed on
  // day 42, its fifth and last attempt an hour after.
  const RECEIVER = "https://merchant.example.com/billing/webhooks";
  it.each([
    {
      status: "successful",
      want: {
        successful: true,
        created_at: "2026-11-14T12:00:00Z",
        accepted_at: "2026-11-14T12:00:05Z",
        last_sent_at: "2026-11-14T12:00:05Z",
        last_sent_url: RECEIVER,
        last_error: null,
        last_error_at: null,
      },
    },
    {
      status: "failed",
      want: {
        successful: false,
        created_at: "2026-11-12T12:00:00Z",
        accepted_at: null,
        last_sent_at: "2026-11-12T13:00:00Z",
        last_sent_url: RECEIVER,
        last_error: "404 Resource Not Found (retry 5 of 5)",
        last_error_at: "2026-11-12T13:00:00Z",
      },
    },
    {
      status: "pending",
      want: { successful: false, accepted_at: null, last_sent_at: null, last_sent_url: null, last_error: null, last_error_at: null },
    },
    {
      status: "paused",
      want: { successful: false, accepted_at: null, last_sent_at: null, last_sent_url: null, last_error: null, last_error_at: null },
    },
  ])("a $status webhook renders every field, unset ones as null", async ({ status, want }) => {
    const [{ webhook }] = (await call(sim, "GET", `/webhooks.json?status=${status}&per_page=1`)).body;
    expect(Object.keys(webhook).sort()).toEqual(FIELDS);
    expect(webhook).toMatchObject(want);
    expect(webhook.body).toContain(`id=${webhook.id}`);
  });
});

describe("webhook ids past 2^53", () => {
  const BIG = "9007199254740993"; // 2^53 + 1: JSON.parse reads it as ...992
  const INT64_MAX = "9223372036854775807";

  it("addWebhook keeps a decimal string id exactly and GET /webhooks.json writes its digits", async () => {
    const w = sim.addWebhook({ id: BIG, status: "failed", createdAt: "2026-10-01T00:00:00Z" });
    sim.addWebhook({ id: INT64_MAX, status: "failed", createdAt: "2026-10-01T00:00:00Z" });
    expect(w.id).toBe(BIG);
    const res = await call(sim, "GET", "/webhooks.json?order=oldest_first");
    expect(res.text).toContain(`"id":${BIG},`);
    expect(res.text).toContain(`"id":${INT64_MAX},`);
    expect(res.text).toContain(`id=${BIG}&event=`);
    // Same timestamp: ordered by id, compared exactly (as doubles BIG and BIG-1 would tie).
    expect(res.text.indexOf(BIG)).toBeLessThan(res.text.indexOf(INT64_MAX));
    expect(sim.addWebhook({ status: "pending" }).id).toBe(5001); // generated ids stay small and numeric
  });

  it("replay queues a big id exactly: in replayLog as text, not in replayQueue", async () => {
    const raw = `{"ids":[7,${BIG},${INT64_MAX},${BIG}]}`;
    expect(String(JSON.parse(raw).ids[1])).not.toBe(BIG); // why it matters: a plain parse loses it
    const res = await call(sim, "POST", "/webhooks/replay.json", { raw });
    expect(res).toMatchObject({ status: 200, body: { status: "ok" } });
    expect(sim.replayLog).toEqual(["7", BIG, INT64_MAX, BIG]);
    expect(sim.replayQueue).toEqual([7]);
    expect(JSON.stringify(sim.requests[0].body)).toBe(raw);
  });

  it.each([
    { name: "past int64", raw: '{"ids":[9223372036854775808]}' },
    { name: "a negative big id", raw: '{"ids":[-9007199254740993]}' },
    { name: "a big id written with an exponent", raw: '{"ids":[9.007199254740993e15]}' },
  ])("422 for $name, nothing queued", async ({ raw }) => {
    const res = await call(sim, "POST", "/webhooks/replay.json", { raw });
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatch(/ids\[0\] must be a positive integer webhook id/);
    expect(sim.replayLog).toEqual([]);
  });

  it("refuses ids that are not int64 decimals", () => {
    expect(() => sim.addWebhook({ id: "12a", status: "failed" })).toThrow(/int64/);
    expect(() => sim.addWebhook({ id: "9223372036854775808", status: "failed" })).toThrow(/int64/);
    expect(() => sim.addWebhook({ id: 2 ** 53, status: "failed" })).toThrow(/positive integer/);
  });
});
