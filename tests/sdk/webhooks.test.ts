import { describe, expect, it } from "vitest";
import { BillingApiError, BillingValidationError } from "../../sdk";
import type { WebhookStatus } from "../../simulator";
import { recordingProxy } from "../contract/recorder";
import { clientOf, type Site, scripted, site } from "./helpers";

/**
 * setWebhooksEnabled and listWebhooks (sdk/webhooks.ts) against the simulator: results, retries, refusals in their
 * exact words, filters across pages, and a page that repeats the end of the one before.
 */

const SETTINGS = "/webhooks/settings.json";

const LIST = "/webhooks.json";

describe("setWebhooksEnabled", () => {
  let s: Site;

  it("true then false: returns { webhooksEnabled } and the site follows", async () => {
    s = await site();
    expect(s.sim.webhooksEnabled).toBe(false);
    expect(await s.billing.setWebhooksEnabled(true)).toStrictEqual({ webhooksEnabled: true });
    expect(s.sim.webhooksEnabled).toBe(true);
    expect(await s.billing.setWebhooksEnabled(false)).toStrictEqual({ webhooksEnabled: false });
    expect(s.sim.webhooksEnabled).toBe(false);
    expect(s.sim.requests.map((r) => [r.method, r.path, r.body])).toEqual([
      ["PUT", SETTINGS, { webhooks_enabled: true }],
      ["PUT", SETTINGS, { webhooks_enabled: false }],
    ]);
  });

  it.each([
    ["503", { kind: "status", status: 503 } as const],
    ["429", { kind: "status", status: 429 } as const],
    ["429 with Retry-After: 0", { kind: "status", status: 429, retryAfter: 0 } as const],
    ["500", { kind: "status", status: 500 } as const],
    ["reset", { kind: "reset" } as const],
    ["503 after applying", { kind: "status", status: 503, applyAfterHandling: true } as const],
    ["reset after applying", { kind: "reset", applyAfterHandling: true } as const],
  ])("retried on %s", async (_, fault) => {
    s = await site();
    s.sim.injectFault({ ...fault, times: 2, match: { method: "PUT" } });
    expect(await s.billing.setWebhooksEnabled(true)).toStrictEqual({ webhooksEnabled: true });
    expect(s.sim.webhooksEnabled).toBe(true);
    expect(s.sim.requests).toHaveLength(3);
    expect(s.sim.requests.at(-1)?.status).toBe(200);
  });

  it("retried after a timeout", async () => {
    s = await site({}, { timeoutMs: 100 });
    s.sim.injectFault({ kind: "delay", ms: 3000, times: 1, match: { method: "PUT" } });
    expect(await s.billing.setWebhooksEnabled(true)).toStrictEqual({ webhooksEnabled: true });
    expect(s.sim.webhooksEnabled).toBe(true);
    // The first attempt was abandoned (no answer sent: its answer was due in 3 s), the second answered.
    expect(s.sim.requests.map((r) => r.status)).toEqual([0, 200]);
  });

  it("a 503 for good: BillingApiError after maxRetries + 1 attempts, which may have applied; the site unchanged", async () => {
    s = await site({}, { maxRetries: 1 });
    s.sim.injectFault({ kind: "status", status: 503, match: { method: "PUT" } });
    const err = await s.billing.setWebhooksEnabled(true).catch((e) => e);
    expect(err).toBeInstanceOf(BillingApiError);
    expect(err).toMatchObject({ status: 503, method: "PUT", path: SETTINGS, mayHaveApplied: true });
    expect(s.sim.requests).toHaveLength(2);
    expect(s.sim.webhooksEnabled).toBe(false);
  });

  it("a 429 for good: retried on the time budget, then BillingApiError with the vendor's text, which applied nothing", async () => {
    s = await site({}, { maxRetries: 0, retryBudgetSeconds: 0.2, retryBaseDelayMs: 10 });
    s.sim.injectFault({ kind: "status", status: 429, match: { method: "PUT" } });
    const err = await s.billing.setWebhooksEnabled(true).catch((e) => e);
    expect(err).toBeInstanceOf(BillingApiError);
    expect(err).toMatchObject({ status: 429, mayHaveApplied: false });
    expect(err.errors[0]).toMatch(/^Your request was denied due to a usage violation\./);
    expect(err.message).toContain(err.errors[0]);
    expect(s.sim.requests.length).toBeGreaterThan(1); // past maxRetries 0
    expect(s.sim.webhooksEnabled).toBe(false);
  });

  it.each([
    ["a string", "true"],
    ["a number", 1],
    ["undefined", undefined],
  ])("%s is refused before sending", async (_, v) => {
    s = await site();
    await expect(s.billing.setWebhooksEnabled(v as never)).rejects.toBeInstanceOf(BillingValidationError);
    expect(s.sim.requests).toHaveLength(0);
  });
});

describe("listWebhooks", () => {
  let s: Site;
  const pages = () => s.sim.requests.filter((r) => r.method === "GET" && r.path === LIST);

  const iso = (day: number) => new Date(Date.UTC(2026, 0, 1) + day * 86_400_000).toISOString().replace(/\.\d{3}Z$/, "Z");

  it.each([
    [0, 1],
    [1, 1],
    [199, 1],
    [200, 2],
    [201, 2],
    [450, 3],
    [600, 4],
  ])("%i webhooks: all returned, oldest first, in %i GET pages of 200", async (n, pageCount) => {
    s = await site();
    // Created out of id order, so "oldest first" and "by id" differ.
    const made = Array.from({ length: n }, (_, i) =>
      s.sim.addWebhook({ id: 10_000 + i, status: "failed", createdAt: iso((i * 7) % (n || 1)) }),
    );
    const expected = [...made].sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt) || a.id - b.id).map((w) => w.id);
    const all = await s.billing.listWebhooks();
    expect(all.map((w) => w.id)).toEqual(expected);
    expect(pages()).toHaveLength(pageCount);
    expect(pages().map((p) => p.query.page)).toEqual(Array.from({ length: pageCount }, (_, i) => String(i + 1)));
    expect(pages().every((p) => p.query.per_page === "200" && p.query.order === "oldest_first")).toBe(true);
  });

  it("returns each webhook's fields; what the service sends as null is undefined", async () => {
    s = await site();
    const createdAt = "2026-10-01T09:00:00Z";
    s.sim.addWebhook({ id: 77, status: "failed", event: "payment_failure", createdAt });
    s.sim.addWebhook({ id: 78, status: "successful", event: "payment_success", createdAt });
    s.sim.addWebhook({ id: 79, status: "pending", event: "signup_success", createdAt });
    const [failed, successful, pending] = await s.billing.listWebhooks();
    const KEYS = ["acceptedAt", "createdAt", "event", "id", "lastError", "lastErrorAt", "lastSentAt", "lastSentUrl", "successful"];
    for (const w of [failed, successful, pending]) expect(Object.keys(w).sort()).toEqual(KEYS);
    // As the simulator renders them: a failed one last sent an hour after its creation, a successful one accepted 5 s after.
    const RECEIVER = "https://merchant.example.com/billing/webhooks";
    // Sent, never accepted: the receiver's last error.
    expect(failed).toStrictEqual({
      id: 77,
      event: "payment_failure",
      successful: false,
      createdAt,
      acceptedAt: undefined,
      lastError: "404 Resource Not Found (retry 5 of 5)",
      lastErrorAt: "2026-10-01T10:00:00Z",
      lastSentAt: "2026-10-01T10:00:00Z",
      lastSentUrl: RECEIVER,
    });
    // Accepted: no error (null on the wire).
    expect(successful).toStrictEqual({
      id: 78,
      event: "payment_success",
      successful: true,
      createdAt,
      acceptedAt: "2026-10-01T09:00:05Z",
      lastError: undefined,
      lastErrorAt: undefined,
      lastSentAt: "2026-10-01T09:00:05Z",
      lastSentUrl: RECEIVER,
    });
    // Never sent: nothing about sending (all null on the wire).
    expect(pending).toStrictEqual({
      id: 79,
      event: "signup_success",
      successful: false,
      createdAt,
      acceptedAt: undefined,
      lastError: undefined,
      lastErrorAt: undefined,
      lastSentAt: undefined,
      lastSentUrl: undefined,
    });
  });

  it("every field but the id may be null or missing on the wire: undefined in the result; a big id kept as text", async () => {
    // Written by hand, not by the simulator: raw JSON with an int64 id past 2^53 and every kind of absence.
    const page = `[
      {"webhook": {"id": 9007199254740993, "event": null, "successful": null, "created_at": null, "last_error": null,
        "last_error_at": null, "accepted_at": null, "last_sent_at": null, "last_sent_url": null, "body": null, "signature": null}},
      {"webhook": {"id": 12}},
      {"webhook": {"id": 13, "event": "payment_failure", "successful": false, "created_at": "2026-10-01T09:00:00-04:00",
        "last_error": "500 Internal Server Error", "last_error_at": "2026-10-01T10:00:00-04:00", "accepted_at": null,
        "last_sent_at": "2026-10-01T10:00:00-04:00", "last_sent_url": "https://example.com/hooks"}}
    ]`;
    const server = await scripted([{ status: 200, text: page, contentType: "application/json" }]);
    const none = {
      event: undefined,
      successful: undefined,
      createdAt: undefined,
      lastError: undefined,
      lastErrorAt: undefined,
      acceptedAt: undefined,
      lastSentAt: undefined,
      lastSentUrl: undefined,
    };
    expect(await clientOf(server.url).listWebhooks()).toStrictEqual([
      { id: "9007199254740993", ...none },
      { id: 12, ...none },
      {
        id: 13,
        event: "payment_failure",
        successful: false,
        createdAt: "2026-10-01T09:00:00-04:00",
        acceptedAt: undefined,
        lastError: "500 Internal Server Error",
        lastErrorAt: "2026-10-01T10:00:00-04:00",
        lastSentAt: "2026-10-01T10:00:00-04:00",
        lastSentUrl: "https://example.com/hooks",
      },
    ]);
    expect(server.requests).toHaveLength(1);
  });

  it("int64 ids above 2^53 come back as their exact decimal text, and replay exactly", async () => {
    s = await site();
    const big = ["9007199254740993", "9223372036854775807", "1234567890123456789"];
    for (const [i, id] of big.entries()) s.sim.addWebhook({ id, status: "failed", createdAt: iso(i) });
    s.sim.addWebhook({ id: 5001, status: "failed", createdAt: iso(5) });
    const listed = await s.billing.listWebhooks();
    expect(listed.map((w) => w.id)).toStrictEqual([...big, 5001]);
    expect(await s.billing.replayWebhooks(listed.map((w) => w.id))).toEqual({ queued: 4, batches: 1 });
    expect(s.sim.replayLog).toEqual([...big, "5001"]);
  });

  describe("filters, across pages", () => {
    const statuses: WebhookStatus[] = ["successful", "failed", "pending", "paused"];
    const seeded: { id: number; status: WebhookStatus; subscriptionId?: number; day: string }[] = [];

    async function seed() {
      s = await site();
      seeded.length = 0;
      for (let i = 0; i < 900; i++) {
        const createdAt = iso(i % 60);
        const w = s.sim.addWebhook({
          status: statuses[i % 4],
          subscriptionId: i % 3 === 0 ? 1001 : i % 3 === 1 ? 1002 : undefined,
          createdAt,
        });
        seeded.push({ id: w.id, status: w.status, subscriptionId: w.subscriptionId, day: createdAt.slice(0, 10) });
      }
    }

    it.each([
      ["status", { status: "failed" as const }, { status: "failed" }],
      ["subscription", { subscriptionId: 1001 }, { subscription: "1001" }],
      ["since", { sinceDate: "2026-01-31" }, { since_date: "2026-01-31" }],
      ["until", { untilDate: "2026-01-10" }, { until_date: "2026-01-10" }],
      [
        "all four",
        { status: "successful" as const, subscriptionId: 1002, sinceDate: "2026-01-05", untilDate: "2026-02-20" },
        { status: "successful", subscription: "1002", since_date: "2026-01-05", until_date: "2026-02-20" },
      ],
    ])("%s: exactly the matching webhooks, oldest first; the filter is sent on every page", async (_, filter, query) => {
      await seed();
      const f = filter as { status?: WebhookStatus; subscriptionId?: number; sinceDate?: string; untilDate?: string };
      const expected = seeded
        .filter(
          (w) =>
            (f.status === undefined || w.status === f.status) &&
            (f.subscriptionId === undefined || w.subscriptionId === f.subscriptionId) &&
            (f.sinceDate === undefined || w.day >= f.sinceDate) &&
            (f.untilDate === undefined || w.day <= f.untilDate),
        )
        .sort((a, b) => a.day.localeCompare(b.day) || a.id - b.id)
        .map((w) => w.id);
      expect(expected.length).toBeGreaterThan(0);
      expect(expected.length).toBeLessThan(seeded.length);
      const got = await s.billing.listWebhooks(filter);
      expect(got.map((w) => w.id)).toEqual(expected);
      expect(pages()).toHaveLength(Math.floor(expected.length / 200) + 1);
      for (const p of pages()) expect(p.query).toMatchObject(query);
    });
  });

  it("a 503 on a page is retried; nothing missing, nothing doubled", async () => {
    s = await site();
    for (let i = 0; i < 450; i++) s.sim.addWebhook({ status: "failed" });
    s.sim.injectFault({ kind: "status", status: 503, times: 1, match: { method: "GET", path: LIST } });
    s.sim.injectFault({ kind: "delay", ms: 0, times: 1, match: { method: "GET", path: LIST } });
    s.sim.injectFault({ kind: "reset", times: 1, match: { method: "GET", path: LIST } });
    const all = await s.billing.listWebhooks();
    expect(all).toHaveLength(450);
    expect(new Set(all.map((w) => w.id)).size).toBe(450);
  });

  it.each([
    ["until before since", { sinceDate: "2026-10-05", untilDate: "2026-10-01" }, /untilDate/],
    ["unknown status", { status: "lost" }, /status/],
    ["bad date", { sinceDate: "01/10/2026" }, /sinceDate/],
    ["bad subscription id", { subscriptionId: 0 }, /subscriptionId/],
    ["unknown key", { since: "2026-10-01" }, /since/],
  ])("%s: refused before sending", async (_, filter, message) => {
    s = await site();
    const err = await s.billing.listWebhooks(filter as never).catch((e) => e);
    expect(err).toBeInstanceOf(BillingValidationError);
    expect(err.message).toMatch(message);
    expect(s.sim.requests).toHaveLength(0);
  });
});

describe("setWebhooksEnabled: the refusal's exact words", () => {
  it.each([
    ["a string", "true", "string"],
    ["a number", 1, "number"],
    ["undefined", undefined, "undefined"],
    ["null", null, "object"],
  ])("%s: invalid webhook settings, webhooksEnabled named; nothing sent", async (_, v, type) => {
    const s = await site();
    const err = await s.billing.setWebhooksEnabled(v as never).catch((e) => e);
    expect(err).toBeInstanceOf(BillingValidationError);
    expect(err.message).toBe(`invalid webhook settings: webhooksEnabled: must be true or false, got ${type}`);
    expect(err.problems).toStrictEqual([{ property: "webhooksEnabled", message: `must be true or false, got ${type}` }]);
    expect(s.sim.requests).toStrictEqual([]);
  });
});

describe("listWebhooks: refused filters, and pages that repeat", () => {
  it.each([
    [
      "an unknown key: the accepted ones listed",
      { since: "2026-10-01" },
      [{ property: "filter.since", message: "is not a known property (accepted: status, sinceDate, untilDate, subscriptionId)" }],
    ],
    [
      "until before since",
      { sinceDate: "2026-10-05", untilDate: "2026-10-01" },
      [{ property: "filter.untilDate", message: "must not be before sinceDate (2026-10-05)" }],
    ],
  ])("%s: invalid webhook filter, each problem under filter.; nothing sent", async (_, filter, problems) => {
    const s = await site();
    const err = await s.billing.listWebhooks(filter as never).catch((e) => e);
    expect(err).toBeInstanceOf(BillingValidationError);
    expect(err.message).toBe(`invalid webhook filter: ${problems.map((p) => `${p.property}: ${p.message}`).join("; ")}`);
    expect(err.problems).toStrictEqual(problems);
    expect(s.sim.requests).toStrictEqual([]);
  });

  it("a page that repeats the end of the one before (the list moved between reads): each webhook once, in order", async () => {
    const row = (id: number) => ({ webhook: { id, event: "payment_success", successful: true } });
    const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => row(from + i));
    // Page 1 is full (200); page 2 starts with the last 50 of page 1 again, then 50 new ones: short, the last.
    const server = await scripted([
      { status: 200, json: range(1, 200) },
      { status: 200, json: range(151, 250) },
    ]);
    const proxy = await recordingProxy(server.url);
    try {
      const all = await clientOf(proxy.url).listWebhooks({ status: "successful" });
      expect(all.map((w) => w.id)).toStrictEqual(Array.from({ length: 250 }, (_, i) => i + 1));
      expect(all[249]).toStrictEqual({
        id: 250,
        event: "payment_success",
        successful: true,
        createdAt: undefined,
        acceptedAt: undefined,
        lastError: undefined,
        lastErrorAt: undefined,
        lastSentAt: undefined,
        lastSentUrl: undefined,
      });
      expect(proxy.exchanges.map((x) => [x.method, x.url, x.requestBody])).toStrictEqual([
        ["GET", "/webhooks.json?status=successful&page=1&per_page=200&order=oldest_first", undefined],
        ["GET", "/webhooks.json?status=successful&page=2&per_page=200&order=oldest_first", undefined],
      ]);
    } finally {
      await proxy.close();
    }
  });

  it("a service that ignores page (page 2 is page 1 again, full): the list ends there, each webhook once", async () => {
    const row = (id: number) => ({ webhook: { id, event: "payment_success", successful: true } });
    const page = Array.from({ length: 200 }, (_, i) => row(i + 1));
    // Three scripted answers: a list that read on after the repeated page would ask for page 3 (and, against a real
    // service that ignores page, for ever).
    const server = await scripted([
      { status: 200, json: page },
      { status: 200, json: page },
      { status: 200, json: page },
    ]);
    const proxy = await recordingProxy(server.url);
    try {
      const all = await clientOf(proxy.url).listWebhooks();
      expect(all.map((w) => w.id)).toStrictEqual(Array.from({ length: 200 }, (_, i) => i + 1));
      expect(proxy.exchanges.map((x) => x.url)).toStrictEqual([
        "/webhooks.json?page=1&per_page=200&order=oldest_first",
        "/webhooks.json?page=2&per_page=200&order=oldest_first",
      ]);
    } finally {
      await proxy.close();
    }
  });
});
