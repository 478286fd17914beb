import { describe, expect, it } from "vitest";
import { AuthenticationRequiredError, BillingApiError, BillingValidationError, MigrationOutcomeUnknownError } from "../../sdk";
import { isOnTarget, migrationBodyOf } from "../../sdk/migration";
import type { Subscription } from "../../sdk/results";
import type { MigrationBody } from "../../sdk/wire";
import { catalogue, clientOf, posts, type Step, scripted, site } from "./helpers";

// Behaviour of sdk/migration.ts that `npm run mutate` (issue 24) found unchecked: the validation texts,
// the body's absent keys, isOnTarget's price point rules, the preview's retry and proration date,
// which refusals are 3-D Secure, and the settle message. See mutation/survivors.md.

const DUPLICATE: Step = { status: 409, json: { errors: ["DuplicatePrevention::DuplicateSubmissionError"] } };

function sub(product: { id: number; handle: string | undefined }, pricePoint: { id?: number; handle?: string } = {}): Subscription {
  return {
    id: 7,
    state: "active",
    previousState: "active",
    product,
    pricePointId: pricePoint.id,
    pricePointHandle: pricePoint.handle,
    currentPeriodEndsAt: undefined,
    nextAssessmentAt: undefined,
  };
}

const OPTIONS = { include_trial: false, include_initial_charge: false, include_coupons: true, preserve_period: false };
const target = (b: Omit<MigrationBody, keyof typeof OPTIONS>): MigrationBody => ({ ...b, ...OPTIONS }) as MigrationBody;

describe("migrationBodyOf", () => {
  it("names no price point key at all when none was given (not one set to undefined)", () => {
    const { id, body } = migrationBodyOf(7, { productHandle: "pro" });
    expect(id).toBe(7);
    expect(Object.keys(body).sort()).toEqual([
      "include_coupons",
      "include_initial_charge",
      "include_trial",
      "preserve_period",
      "product_handle",
    ]);
    expect(body).toStrictEqual({ product_handle: "pro", ...OPTIONS });
  });

  it("a price point by handle: that key only", () => {
    const { body } = migrationBodyOf(7, { productId: 2, pricePointHandle: "pro-annual" });
    expect(body).toStrictEqual({ product_id: 2, product_price_point_handle: "pro-annual", ...OPTIONS });
    expect(body).not.toHaveProperty("product_price_point_id");
  });

  it("a refusal is an 'invalid migration' naming both the id and the target's problems", () => {
    let err: unknown;
    try {
      migrationBodyOf(0, { productHandle: "pro", product_id: 2 } as never);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(BillingValidationError);
    const e = err as BillingValidationError;
    expect(e.message).toMatch(/^invalid migration: subscriptionId: /);
    expect(e.problems.map((p) => p.property)).toEqual(["subscriptionId", "migration.product_id"]);
  });

  it("an unknown key in the migration lists the accepted ones", () => {
    let err: unknown;
    try {
      migrationBodyOf(7, { productHandle: "pro", product_id: 2 } as never);
    } catch (e) {
      err = e;
    }
    expect((err as BillingValidationError).problems).toEqual([
      {
        property: "migration.product_id",
        message:
          "is not a known property (accepted: productId, productHandle, pricePointId, pricePointHandle, includeTrial, includeInitialCharge, includeCoupons, preservePeriod)",
      },
    ]);
  });
});

describe("isOnTarget", () => {
  it.each([
    ["the product by id, same", { id: 2, handle: "pro" }, {}, target({ product_id: 2 }), true],
    ["the product by id, another", { id: 1, handle: "pro" }, {}, target({ product_id: 2 }), false],
    ["the product by id, no handle reported", { id: 2, handle: undefined }, {}, target({ product_id: 2 }), true],
    ["the product by handle, same", { id: 2, handle: "pro" }, {}, target({ product_handle: "pro" }), true],
    ["the product by handle, another", { id: 2, handle: "basic" }, {}, target({ product_handle: "pro" }), false],
    [
      "price point id named, the same reported",
      { id: 2, handle: "pro" },
      { id: 202 },
      target({ product_id: 2, product_price_point_id: 202 }),
      true,
    ],
    [
      "price point id named, another reported",
      { id: 2, handle: "pro" },
      { id: 201 },
      target({ product_id: 2, product_price_point_id: 202 }),
      false,
    ],
    [
      "price point id named, none reported: the product decides",
      { id: 2, handle: "pro" },
      {},
      target({ product_id: 2, product_price_point_id: 202 }),
      true,
    ],
    ["no price point named, one reported: the product decides", { id: 2, handle: "pro" }, { id: 201 }, target({ product_id: 2 }), true],
    [
      "price point handle named, the same reported",
      { id: 2, handle: "pro" },
      { handle: "pro-annual" },
      target({ product_id: 2, product_price_point_handle: "pro-annual" }),
      true,
    ],
    [
      "price point handle named, another reported",
      { id: 2, handle: "pro" },
      { handle: "pro-monthly" },
      target({ product_id: 2, product_price_point_handle: "pro-annual" }),
      false,
    ],
    [
      "price point handle named, none reported: the product decides",
      { id: 2, handle: "pro" },
      {},
      target({ product_id: 2, product_price_point_handle: "pro-annual" }),
      true,
    ],
    [
      "no price point handle named, one reported: the product decides",
      { id: 2, handle: "pro" },
      { handle: "pro-monthly" },
      target({ product_handle: "pro" }),
      true,
    ],
    [
      "the right price point on another product",
      { id: 3, handle: "launch" },
      { id: 202 },
      target({ product_id: 2, product_price_point_id: 202 }),
      false,
    ],
  ] as const)("%s: %s", (_, product, pricePoint, body, expected) => {
    expect(isOnTarget(sub(product, pricePoint), body)).toBe(expected);
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

describe("migrateSubscription: what a refusal is", () => {
  const SCA = { action_link: "https://pay.example/authentications/abc", gateway_payment_id: "pi_1", description: "3DSecure" };

  it("a 3-D Secure refusal without errors: AuthenticationRequiredError with no errors", async () => {
    const server = await scripted([{ status: 422, json: SCA }]);
    const err = await clientOf(server.url)
      .migrateSubscription(7, { productHandle: "pro" })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthenticationRequiredError);
    expect(err).toMatchObject({ status: 422, actionLink: SCA.action_link, gatewayPaymentId: "pi_1", description: "3DSecure" });
    expect((err as AuthenticationRequiredError).errors).toEqual([]);
  });

  it.each([[400], [403], [404]])(
    "a %d that looks like a 3-D Secure answer is a plain BillingApiError, not one to authenticate",
    async (status) => {
      const server = await scripted([{ status, json: { errors: ["Refused"], ...SCA } }]);
      const err = await clientOf(server.url)
        .migrateSubscription(7, { productHandle: "pro" })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BillingApiError);
      expect(err).not.toBeInstanceOf(AuthenticationRequiredError);
      expect(err).toMatchObject({ status });
      expect(server.requests).toHaveLength(1);
    },
  );
});

describe("migrateSubscription: the unknown outcome after a 409 says where the subscription is", () => {
  const read = (handle: string | null): Step => ({
    status: 200,
    json: { subscription: { id: 7, state: "active", product: { id: 1, handle } } },
  });

  it.each([
    ["by its handle", "basic", "is on basic, not on the target"],
    ["by its id when it has no handle", null, "is on product 1, not on the target"],
  ])("the product it is on, %s, and the settle time in seconds", async (_, handle, where) => {
    const server = await scripted([DUPLICATE, ...Array<Step>(200).fill(read(handle))]);
    const err = await clientOf(server.url, { migrationSettleSeconds: 0.6 })
      .migrateSubscription(7, { productHandle: "pro" }, { uniquenessToken: "tok-409" })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MigrationOutcomeUnknownError);
    const message = (err as Error).message;
    expect(message).toContain(`after 1 s of reading back subscription 7 ${where}`);
    expect(server.requests.filter((r) => r.method === "POST")).toHaveLength(1);
    expect(server.requests.filter((r) => r.method === "GET").length).toBeGreaterThanOrEqual(2);
  });
});
