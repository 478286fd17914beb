import { describe, expect, it } from "vitest";
import { BillingApiError, BillingValidationError } from "../../../sdk";
import { catalogue, migrationSite, posts, type Site, site } from "../helpers";

/** readSubscription and previewMigration (sdk/migration.ts): results, refusals, retries and the proration date. */

type Body = { migration: Record<string, unknown>; uniqueness_token?: string };

describe("readSubscription and previewMigration", () => {
  let s: Site;

  it.each([
    ["not reported (as in most of the vendor's answers)", false, undefined],
    ["reported", true, 202],
  ])(
    "readSubscription returns the subscription, price point %s; retried on 502, on a reset and on 500",
    async (_, reportPricePoint, pricePointId) => {
      s = await site({ reportPricePoint });
      catalogue(s.sim);
      const id = s.sim.addSubscription({ productHandle: "pro", pricePointId: 202, state: "trialing" }).id;
      s.sim.injectFault({ kind: "status", status: 502, times: 1, match: { method: "GET" } });
      s.sim.injectFault({ kind: "reset", times: 1, match: { method: "GET" } });
      s.sim.injectFault({ kind: "status", status: 500, times: 1, match: { method: "GET" } });
      const sub = await s.billing.readSubscription(id);
      expect(sub).toStrictEqual({
        id,
        state: "trialing",
        previousState: "trialing",
        product: { id: 2, handle: "pro" },
        pricePointId,
        pricePointHandle: undefined,
        currentPeriodEndsAt: s.sim.getSubscription(id)!.currentPeriodEndsAt,
        nextAssessmentAt: s.sim.getSubscription(id)!.currentPeriodEndsAt,
      });
      expect(s.sim.requests.map((r) => r.status)).toEqual([502, 0, 500, 200]);
    },
  );

  it("readSubscription of an unknown id: BillingApiError 404", async () => {
    s = await site();
    const err = await s.billing.readSubscription(4242).catch((e) => e);
    expect(err).toBeInstanceOf(BillingApiError);
    expect(err).toMatchObject({ status: 404, method: "GET", path: "/subscriptions/4242.json" });
    expect(s.sim.requests).toHaveLength(1);
  });

  it.each([[0], [-5], [1.5], ["12"]])("readSubscription(%o): refused before sending", async (bad) => {
    s = await site();
    await expect(s.billing.readSubscription(bad as never)).rejects.toBeInstanceOf(BillingValidationError);
    expect(s.sim.requests).toHaveLength(0);
  });

  it.each([
    [
      "full period",
      { productHandle: "pro" },
      { proratedAdjustmentInCents: -500, chargeInCents: 5000, paymentDueInCents: 4500, creditAppliedInCents: 500 },
    ],
    [
      "preserve_period",
      { productId: 2, preservePeriod: true },
      { proratedAdjustmentInCents: -500, chargeInCents: 2500, paymentDueInCents: 2000, creditAppliedInCents: 500 },
    ],
  ])("previewMigration (%s) returns the charges and changes nothing", async (_, target, expected) => {
    s = await site();
    s.sim.addProduct({ id: 1, handle: "basic", priceInCents: 1000 });
    s.sim.addProduct({ id: 2, handle: "pro", priceInCents: 5000 });
    const id = s.sim.addSubscription({ productHandle: "basic", state: "active" }).id;
    expect(await s.billing.previewMigration(id, target)).toStrictEqual(expected);
    const [req] = s.sim.requests;
    expect(req.path).toBe(`/subscriptions/${id}/migrations/preview.json`);
    expect((req.body as Body).migration).toMatchObject({ include_trial: false, include_initial_charge: false, include_coupons: true });
    expect((req.body as Body).migration).not.toHaveProperty("proration_date");
    expect(s.sim.getSubscription(id)?.productId).toBe(1);
  });

  it("previewMigration to the same product: BillingApiError 422; validated like a migration", async () => {
    s = await site();
    catalogue(s.sim);
    const id = s.sim.addSubscription({ productHandle: "basic", state: "active" }).id;
    await expect(s.billing.previewMigration(id, { productHandle: "basic" })).rejects.toMatchObject({
      status: 422,
      path: `/subscriptions/${id}/migrations/preview.json`,
    });
    await expect(s.billing.previewMigration(id, {})).rejects.toBeInstanceOf(BillingValidationError);
    expect(s.sim.requests).toHaveLength(1);
  });
});

describe("readSubscription: a refused id", () => {
  it("is an 'invalid subscription id' on subscriptionId", async () => {
    const s = await site();
    const err = await s.billing.readSubscription(0).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BillingValidationError);
    expect((err as BillingValidationError).message).toMatch(/^invalid subscription id: subscriptionId: /);
    expect((err as BillingValidationError).problems.map((p) => p.property)).toEqual(["subscriptionId"]);
  });
});

describe("previewMigration", () => {
  const PREVIEW = /^\/subscriptions\/\d+\/migrations\/preview\.json$/;

  async function withSubscription() {
    const s = await site();
    catalogue(s.sim);
    return { s, id: s.sim.addSubscription({ productHandle: "basic", state: "active" }).id };
  }

  it("is repeated after a 5xx like a read: it changes nothing", async () => {
    const { s, id } = await withSubscription();
    s.sim.injectFault({ kind: "status", status: 502, times: 1, match: { method: "POST", path: PREVIEW } });
    const preview = await s.billing.previewMigration(id, { productHandle: "pro" });
    expect(preview.chargeInCents).toEqual(expect.any(Number));
    expect(posts(s.sim, PREVIEW).map((r) => r.status)).toEqual([502, 200]);
    expect(s.sim.getSubscription(id)?.productId).toBe(1);
  });

  it.each([
    ["a date", "2026-12-01"],
    ["a date-time without a zone", "2026-12-01T10:00:00"],
    ["a date-time with a +hhmm offset", "2026-12-01T10:00:00+0100"],
    ["a date-time with a +hh:mm offset", "2026-12-01T10:00:00+01:00"],
    ["a date-time with a space", "2026-12-01 10:00:00Z"],
  ])("accepts %s (%s) and sends it as given", async (_, prorationDate) => {
    const { s, id } = await withSubscription();
    await s.billing.previewMigration(id, { productHandle: "pro" }, { prorationDate });
    const [req] = posts(s.sim, PREVIEW);
    expect((req.body as { migration: Record<string, unknown> }).migration.proration_date).toBe(prorationDate);
  });

  // Each of these, unanchored, would reach Date.parse, which reads them as dates.
  it.each([
    ["text before the date", "junk 2026-12-01"],
    ["a five-digit year", "12026-12-01"],
    ["text after the date", "2026-12-01 junk"],
    ["no date at all", "tomorrow"],
  ])("refuses %s (%s) before sending: 'invalid migration preview' on prorationDate", async (_, prorationDate) => {
    const { s, id } = await withSubscription();
    const err = await s.billing.previewMigration(id, { productHandle: "pro" }, { prorationDate }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BillingValidationError);
    expect((err as BillingValidationError).problems).toEqual([
      { property: "prorationDate", message: "must be a Date or an ISO-8601 date-time such as 2026-12-01T00:00:00Z" },
    ]);
    expect((err as Error).message).toMatch(/^invalid migration preview: prorationDate: /);
    expect(s.sim.requests).toHaveLength(0);
  });
});

describe("previewMigration: proration_date", () => {
  it.each([
    ["an ISO-8601 string, sent as given", "2026-12-01T00:00:00Z", "2026-12-01T00:00:00Z"],
    ["a date with an offset", "2026-12-01T09:30:00+02:00", "2026-12-01T09:30:00+02:00"],
    ["a Date, sent as ISO-8601 UTC", new Date(Date.UTC(2026, 11, 1, 12)), "2026-12-01T12:00:00.000Z"],
  ])("%s", async (_, prorationDate, sent) => {
    const { sim, billing, id } = await migrationSite();
    await billing.previewMigration(id, { productHandle: "pro" }, { prorationDate });
    expect(sim.requests).toHaveLength(1);
    expect((sim.requests[0].body as { migration: Record<string, unknown> }).migration.proration_date).toBe(sent);
  });

  it("none given: no proration_date", async () => {
    const { sim, billing, id } = await migrationSite();
    await billing.previewMigration(id, { productHandle: "pro" });
    expect(sim.requests[0].body).toEqual({ migration: expect.not.objectContaining({ proration_date: expect.anything() }) });
    expect(Object.keys((sim.requests[0].body as { migration: object }).migration)).not.toContain("proration_date");
  });

  it.each([
    ["text", "next week"],
    ["a US date", "12/01/2026"],
    ["an invalid Date", new Date(Number.NaN)],
    ["a number", 1_796_083_200_000],
  ])("%s: refused before sending", async (_, prorationDate) => {
    const { sim, billing, id } = await migrationSite();
    const err = await billing.previewMigration(id, { productHandle: "pro" }, { prorationDate: prorationDate as never }).catch((e) => e);
    expect(err).toBeInstanceOf(BillingValidationError);
    expect(err.problems.map((p: { property: string }) => p.property)).toEqual(["prorationDate"]);
    expect(sim.requests).toHaveLength(0);
  });
});
