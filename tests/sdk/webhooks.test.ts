import { describe, expect, it } from "vitest";
import { BillingApiError, BillingValidationError } from "../../sdk";
import type { WebhookStatus } from "../../simulator";
import { site, type Site } from "./helpers";

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
    ["reset", { kind: "reset" } as const],
    ["503 after applying", { kind: "status", status: 503, applyAfterHandling: true } as const],
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
    expect(s.sim.requests).toHaveLength(2);
  });

  it("a 503 for good: BillingApiError after maxRetries + 1 attempts; the site unchanged", async () => {
    s = await site({}, { maxRetries: 1 });
    s.sim.injectFault({ kind: "status", status: 503, match: { method: "PUT" } });
    const err = await s.billing.setWebhooksEnabled(true).catch((e) => e);
    expect(err).toBeInstanceOf(BillingApiError);
    expect(err).toMatchObject({ status: 503, method: "PUT", path: SETTINGS });
    expect(s.sim.requests).toHaveLength(2);
    expect(s.sim.webhooksEnabled).toBe(false);
  });

  it.each([["a string", "true"], ["a number", 1], ["undefined", undefined]])("%s is refused before sending", async (_, v) => {
    s = await site();
    await expect(s.billing.setWebhooksEnabled(v as never)).rejects.toBeInstanceOf(BillingValidationError);
    expect(s.sim.requests).toHaveLength(0);
  });
});

describe("listWebhooks", () => {
  let s: Site;
  const pages = () => s.sim.requests.filter((r) => r.method === "GET" && r.path === LIST);

  const iso = (day: number) => new Date(Date.UTC(2026, 0, 1) + day * 86_400_000).toISOString().replace(/\.\d{3}Z$/, "Z");

  it.each([[0, 1], [1, 1], [199, 1], [200, 2], [201, 2], [450, 3], [600, 4]])(
    "%i webhooks: all returned, oldest first, in %i GET pages of 200", async (n, pageCount) => {
      s = await site();
      // Created out of id order, so "oldest first" and "by id" differ.
      const made = Array.from({ length: n }, (_, i) => s.sim.addWebhook({ id: 10_000 + i, status: "failed", createdAt: iso((i * 7) % (n || 1)) }));
      const expected = [...made].sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt) || a.id - b.id).map((w) => w.id);
      const all = await s.billing.listWebhooks();
      expect(all.map((w) => w.id)).toEqual(expected);
      expect(pages()).toHaveLength(pageCount);
      expect(pages().map((p) => p.query.page)).toEqual(Array.from({ length: pageCount }, (_, i) => String(i + 1)));
      expect(pages().every((p) => p.query.per_page === "200" && p.query.order === "oldest_first")).toBe(true);
    });

  it("returns each webhook's fields", async () => {
    s = await site();
    s.sim.addWebhook({ id: 77, status: "failed", event: "payment_failure", createdAt: "2026-10-01T09:00:00Z" });
    const [w] = await s.billing.listWebhooks();
    expect(w).toMatchObject({ id: 77, event: "payment_failure", successful: false });
    expect(Date.parse(w.createdAt!)).toBe(Date.parse("2026-10-01T09:00:00Z"));
  });

  describe("filters, across pages", () => {
    const statuses: WebhookStatus[] = ["successful", "failed", "pending", "paused"];
    const seeded: { id: number; status: WebhookStatus; subscriptionId?: number; day: string }[] = [];

    async function seed() {
      s = await site();
      seeded.length = 0;
      for (let i = 0; i < 900; i++) {
        const createdAt = iso(i % 60);
        const w = s.sim.addWebhook({ status: statuses[i % 4], subscriptionId: i % 3 === 0 ? 1001 : i % 3 === 1 ? 1002 : undefined, createdAt });
        seeded.push({ id: w.id, status: w.status, subscriptionId: w.subscriptionId, day: createdAt.slice(0, 10) });
      }
    }

    it.each([
      ["status", { status: "failed" as const }, { status: "failed" }],
      ["subscription", { subscriptionId: 1001 }, { subscription: "1001" }],
      ["since", { sinceDate: "2026-01-31" }, { since_date: "2026-01-31" }],
      ["until", { untilDate: "2026-01-10" }, { until_date: "2026-01-10" }],
      ["all four", { status: "successful" as const, subscriptionId: 1002, sinceDate: "2026-01-05", untilDate: "2026-02-20" },
        { status: "successful", subscription: "1002", since_date: "2026-01-05", until_date: "2026-02-20" }],
    ])("%s: exactly the matching webhooks, oldest first; the filter is sent on every page", async (_, filter, query) => {
      await seed();
      const f = filter as { status?: WebhookStatus; subscriptionId?: number; sinceDate?: string; untilDate?: string };
      const expected = seeded
        .filter((w) => (f.status === undefined || w.status === f.status)
          && (f.subscriptionId === undefined || w.subscriptionId === f.subscriptionId)
          && (f.sinceDate === undefined || w.day >= f.sinceDate)
          && (f.untilDate === undefined || w.day <= f.untilDate))
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
