import { afterEach, describe, expect, it } from "vitest";
import { AuthenticationRequiredError, BillingApiError, BillingValidationError } from "../../sdk";
import { catalogue, posts, site, type Site } from "./support";

const MIGRATIONS = /^\/subscriptions\/\d+\/migrations\.json$/;

describe("migrateSubscription", () => {
  let s: Site;
  afterEach(async () => s?.close());

  async function withSubscription(state: "active" | "trialing" | "trial_ended" | "canceled" | "past_due" = "active", extra = {}) {
    s = await site();
    catalogue(s.sim);
    return s.sim.addSubscription({ productHandle: "basic", state, ...extra }).id;
  }

  it.each([
    [{}, "productId", /exactly one/],
    [{ productId: 2, productHandle: "pro" }, "productId", /exactly one/],
    [{ productHandle: "pro", pricePointId: 201, pricePointHandle: "pro-monthly" }, "pricePointId", /at most one/],
    [{ productId: -2 }, "productId", /positive integer/],
    [{ productHandle: "pro", includeTrial: "yes" }, "includeTrial", /must be true or false, got "yes"/],
  ])("refuses %o before sending, naming %s", async (target, property, message) => {
    const id = await withSubscription();
    const err = await s.billing.migrateSubscription(id, target as never).catch((e) => e);
    expect(err).toBeInstanceOf(BillingValidationError);
    expect(err.problems.map((p: { property: string }) => p.property).join(" ")).toContain(property);
    expect(err.message).toMatch(message);
    expect(s.sim.requests).toHaveLength(0);
  });

  it("refuses a non-positive subscription id before sending", async () => {
    await withSubscription();
    await expect(s.billing.migrateSubscription(0, { productHandle: "pro" })).rejects.toBeInstanceOf(BillingValidationError);
    expect(s.sim.requests).toHaveLength(0);
  });

  it("sends the documented defaults explicitly, with a uniqueness_token, and returns the subscription", async () => {
    const id = await withSubscription();
    const sub = await s.billing.migrateSubscription(id, { productHandle: "pro" });
    const [post] = posts(s.sim, MIGRATIONS);
    const body = post.body as { migration: Record<string, unknown> };
    expect(body.migration).toMatchObject({
      product_handle: "pro", include_trial: false, include_initial_charge: false, include_coupons: true, preserve_period: false,
    });
    expect(post.uniquenessToken ?? (body.migration as { uniqueness_token?: string }).uniqueness_token ?? (body as { uniqueness_token?: string }).uniqueness_token).toBeTruthy();
    expect(sub).toMatchObject({ id, state: "active", previousState: "active", product: { id: 2, handle: "pro" }, pricePointId: 201 });
    expect(typeof sub.currentPeriodEndsAt).toBe("string");
    expect(typeof sub.nextAssessmentAt).toBe("string");
    expect(s.sim.getSubscription(id)?.productId).toBe(2);
  });

  it.each([
    [{ productId: 2, pricePointId: 202 }, 202],
    [{ productHandle: "pro", pricePointHandle: "pro-annual" }, 202],
    [{ productId: 2 }, 201],
  ])("price point %o → %i", async (target, pricePointId) => {
    const id = await withSubscription();
    const sub = await s.billing.migrateSubscription(id, target);
    expect(sub.pricePointId).toBe(pricePointId);
  });

  it("same product: the service's 422 with its errors list, method and path", async () => {
    const id = await withSubscription();
    const err = await s.billing.migrateSubscription(id, { productHandle: "basic" }).catch((e) => e);
    expect(err).toBeInstanceOf(BillingApiError);
    expect(err).toMatchObject({ status: 422, method: "POST", path: `/subscriptions/${id}/migrations.json` });
    expect(err.errors.join(" ")).toMatch(/same|current|already/i);
  });

  it.each(["canceled", "past_due"] as const)("a %s subscription is refused with 422", async (state) => {
    const id = await withSubscription(state);
    const err = await s.billing.migrateSubscription(id, { productHandle: "pro" }).catch((e) => e);
    expect(err).toMatchObject({ status: 422 });
    expect(err.errors.join(" ")).toContain(state);
  });

  it.each(["trialing", "trial_ended"] as const)("a %s subscription is accepted", async (state) => {
    const id = await withSubscription(state);
    const sub = await s.billing.migrateSubscription(id, { productHandle: "pro" });
    expect(sub.product.handle).toBe("pro");
    expect(sub.previousState).toBe(state);
  });

  it("an unknown subscription is a 404", async () => {
    await withSubscription();
    await expect(s.billing.migrateSubscription(999_999, { productHandle: "pro" })).rejects.toMatchObject({ status: 404 });
  });

  it("3-D Secure: AuthenticationRequiredError with the action link; visiting it completes the migration", async () => {
    const id = await withSubscription("active", { requiresAuthentication: true });
    const err = await s.billing.migrateSubscription(id, { productHandle: "pro" }).catch((e) => e);
    expect(err).toBeInstanceOf(AuthenticationRequiredError);
    expect(err.actionLink).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/authentications\//);
    expect(err.gatewayPaymentId).toMatch(/^pi_/);
    expect(err.message).toContain(err.actionLink);
    expect(s.sim.getSubscription(id)?.productId).toBe(1);
    const visit = await fetch(err.actionLink);
    expect(visit.ok).toBe(true);
    expect(s.sim.getSubscription(id)?.productId).toBe(2);
  });

  it("an answer lost after the service applied it: reads back instead of posting again", async () => {
    const id = await withSubscription();
    s.sim.injectFault({ kind: "reset", times: 1, applyAfterHandling: true, match: { method: "POST", path: MIGRATIONS } });
    const sub = await s.billing.migrateSubscription(id, { productHandle: "pro" });
    expect(sub.product.handle).toBe("pro");
    expect(posts(s.sim, MIGRATIONS)).toHaveLength(1);
    expect(s.sim.requests.some((r) => r.method === "GET" && r.path === `/subscriptions/${id}.json`)).toBe(true);
  });

  it("a 503 after the service applied it: reads back, one POST", async () => {
    const id = await withSubscription();
    s.sim.injectFault({ kind: "status", status: 503, times: 1, applyAfterHandling: true, match: { method: "POST", path: MIGRATIONS } });
    const sub = await s.billing.migrateSubscription(id, { productHandle: "pro" });
    expect(sub.product.id).toBe(2);
    expect(posts(s.sim, MIGRATIONS)).toHaveLength(1);
  });

  it("a reset before the service saw it: reads back, learns nothing happened, re-posts with the same token", async () => {
    const id = await withSubscription();
    s.sim.injectFault({ kind: "reset", times: 1, match: { method: "POST", path: MIGRATIONS } });
    const sub = await s.billing.migrateSubscription(id, { productHandle: "pro" });
    expect(sub.product.handle).toBe("pro");
    const sent = posts(s.sim, MIGRATIONS);
    expect(sent).toHaveLength(2);
    expect(sent[0].uniquenessToken).toBeDefined();
    expect(sent[1].uniquenessToken).toBe(sent[0].uniquenessToken);
  });

  it("a 409 duplicate (the same token again) is read back, not an error", async () => {
    const id = await withSubscription();
    await s.billing.migrateSubscription(id, { productHandle: "pro" }, { uniquenessToken: "tok-dup-1" });
    const again = await s.billing.migrateSubscription(id, { productHandle: "pro" }, { uniquenessToken: "tok-dup-1" });
    expect(again.product.handle).toBe("pro");
    expect(posts(s.sim, MIGRATIONS).map((r) => r.status)).toEqual([200, 409]);
  });

  it("a 429 is retried: nothing was applied", async () => {
    const id = await withSubscription();
    s.sim.injectFault({ kind: "status", status: 429, times: 2, match: { method: "POST", path: MIGRATIONS } });
    const sub = await s.billing.migrateSubscription(id, { productHandle: "pro" });
    expect(sub.product.handle).toBe("pro");
    expect(posts(s.sim, MIGRATIONS).map((r) => r.status)).toEqual([429, 429, 200]);
  });
});

describe("reads", () => {
  let s: Site;
  afterEach(async () => s?.close());

  it("readSubscription returns the subscription; retried on 502", async () => {
    s = await site();
    catalogue(s.sim);
    const id = s.sim.addSubscription({ productHandle: "pro", state: "trialing" }).id;
    s.sim.injectFault({ kind: "status", status: 502, times: 1, match: { method: "GET" } });
    const sub = await s.billing.readSubscription(id);
    expect(sub).toMatchObject({ id, state: "trialing", product: { id: 2, handle: "pro" }, pricePointId: 201 });
    expect(s.sim.requests.map((r) => r.status)).toEqual([502, 200]);
  });

  it("previewMigration shows the charge and changes nothing", async () => {
    s = await site();
    catalogue(s.sim);
    const id = s.sim.addSubscription({ productHandle: "basic", state: "active" }).id;
    const p = await s.billing.previewMigration(id, { productHandle: "pro" });
    expect(p.chargeInCents).toBeGreaterThan(0);
    expect(Object.keys(p).sort()).toEqual(["chargeInCents", "creditAppliedInCents", "paymentDueInCents", "proratedAdjustmentInCents"]);
    expect(s.sim.getSubscription(id)?.productId).toBe(1);
  });

  it("setWebhooksEnabled turns delivery on and off; retried on 503", async () => {
    s = await site();
    s.sim.injectFault({ kind: "status", status: 503, times: 1 });
    expect(await s.billing.setWebhooksEnabled(true)).toEqual({ webhooksEnabled: true });
    expect(s.sim.webhooksEnabled).toBe(true);
    expect(await s.billing.setWebhooksEnabled(false)).toEqual({ webhooksEnabled: false });
    expect(s.sim.webhooksEnabled).toBe(false);
    expect(s.sim.requests.map((r) => [r.method, r.status])).toEqual([["PUT", 503], ["PUT", 200], ["PUT", 200]]);
  });

  it("listWebhooks follows pagination and filters", async () => {
    s = await site();
    catalogue(s.sim);
    const sub = s.sim.addSubscription({ productHandle: "basic", state: "active" }).id;
    const failed: number[] = [];
    for (let i = 0; i < 450; i++) {
      const w = s.sim.addWebhook({ status: i % 3 === 0 ? "successful" : "failed", subscriptionId: i % 2 === 0 ? sub : undefined });
      if (i % 3 !== 0) failed.push(w.id);
    }
    const all = await s.billing.listWebhooks({ status: "failed" });
    expect(all.map((w) => w.id)).toEqual(failed);
    const pages = s.sim.requests.filter((r) => r.path === "/webhooks.json");
    expect(pages).toHaveLength(Math.ceil(failed.length / 200));
    expect(pages.every((p) => p.query.per_page === "200")).toBe(true);
    const mine = await s.billing.listWebhooks({ status: "failed", subscriptionId: sub });
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.length).toBeLessThan(failed.length);
  });

  it("listWebhooks refuses a bad filter before sending", async () => {
    s = await site();
    await expect(s.billing.listWebhooks({ sinceDate: "2026-10-05", untilDate: "2026-10-01" })).rejects.toThrow(/untilDate/);
    await expect(s.billing.listWebhooks({ status: "lost" as never })).rejects.toThrow(/status/);
    expect(s.sim.requests).toHaveLength(0);
  });
});
