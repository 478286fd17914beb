import { describe, expect, it, vi } from "vitest";
import { BillingApiError, CatalogOutcomeUnknownError, PricePointsPartialFailureError } from "../../../sdk";
import {
  AuthenticationRequiredError,
  BillingConnectionError,
  BillingValidationError,
  EndpointOutcomeUnknownError,
  MigrationOutcomeUnknownError,
  type ReplayBatch,
  ReplayPartialFailureError,
} from "../../../sdk/errors";
import type { PricePoint } from "../../../sdk/results";
import { everything, expectNoSecret } from "../helpers";

/**
 * The exact words, names and fields of every SDK error: a caller logs these messages and switches on `name`, so each
 * is pinned whole, on both sides of every cut-off (10 ids, 5 failures).
 */

const replayRefused = () =>
  new BillingApiError({ status: 422, errors: ["Invalid webhook ids"], method: "POST", path: "/webhooks/replay.json" });

const REPLAY_REFUSED = "POST /webhooks/replay.json failed with 422: Invalid webhook ids";

type Failure = PricePointsPartialFailureError["failures"][number];

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe("BillingValidationError", () => {
  it("leads with what was invalid, then every problem, and keeps the problems as given", () => {
    const problems = [
      { property: "migration.productId", message: "must be a positive integer id, got 0" },
      { property: "migration.pricePointHandle", message: "must be a non-empty handle" },
    ];
    const err = new BillingValidationError("invalid migration", problems);
    expect(err.message).toBe(
      "invalid migration: migration.productId: must be a positive integer id, got 0; migration.pricePointHandle: must be a non-empty handle",
    );
    expect(err.problems).toEqual(problems);
  });
});

describe("BillingApiError", () => {
  it("with the service's errors: they follow the status, joined by '; '", () => {
    const err = new BillingApiError({
      status: 422,
      errors: ["Product must be set", "Price point is archived"],
      method: "PUT",
      path: "/subscriptions/7.json",
    });
    expect(err.message).toBe("PUT /subscriptions/7.json failed with 422: Product must be set; Price point is archived");
    expect([err.status, err.errors, err.method, err.path, err.mayHaveApplied]).toEqual([
      422,
      ["Product must be set", "Price point is archived"],
      "PUT",
      "/subscriptions/7.json",
      false,
    ]);
  });

  it("with no errors in the body: the message ends at the status", () => {
    const err = new BillingApiError({ status: 404, errors: [], method: "GET", path: "/subscriptions/1.json" });
    expect(err.message).toBe("GET /subscriptions/1.json failed with 404");
    expect(err.errors).toEqual([]);
  });

  it("a given message replaces the default; mayHaveApplied is kept when given", () => {
    const err = new BillingApiError({
      status: 503,
      errors: ["busy"],
      method: "POST",
      path: "/p",
      message: "the service is busy",
      mayHaveApplied: true,
    });
    expect(err.message).toBe("the service is busy");
    expect(err.mayHaveApplied).toBe(true);
  });
});

describe("AuthenticationRequiredError", () => {
  it("says where to send the customer; status 422, the link and the payment kept", () => {
    const err = new AuthenticationRequiredError({
      errors: ["Payment requires authentication"],
      method: "POST",
      path: "/subscriptions/7/migrations.json",
      actionLink: "https://billing.example/3ds/abc",
      gatewayPaymentId: "pi_123",
      description: "awaiting 3-D Secure",
    });
    expect(err.message).toBe(
      "POST /subscriptions/7/migrations.json needs 3-D Secure authentication by the customer; send them to https://billing.example/3ds/abc and the service completes the migration after it",
    );
    expect([err.status, err.errors, err.actionLink, err.gatewayPaymentId, err.description, err.mayHaveApplied]).toEqual([
      422,
      ["Payment requires authentication"],
      "https://billing.example/3ds/abc",
      "pi_123",
      "awaiting 3-D Secure",
      false,
    ]);
  });
});

describe("BillingConnectionError", () => {
  it("with a code: it follows the message in parentheses", () => {
    const err = new BillingConnectionError({ method: "GET", path: "/subscriptions/1.json", code: "ECONNRESET", message: "socket hang up" });
    expect(err.message).toBe("GET /subscriptions/1.json: socket hang up (ECONNRESET)");
    expect([err.method, err.path, err.code]).toEqual(["GET", "/subscriptions/1.json", "ECONNRESET"]);
  });

  it("without a code: nothing follows the message", () => {
    const err = new BillingConnectionError({ method: "POST", path: "/webhooks/replay.json", message: "the connection closed" });
    expect(err.message).toBe("POST /webhooks/replay.json: the connection closed");
    expect(err.code).toBe(undefined);
  });

  it("mayHaveApplied defaults to true, the safe assumption; false only when said", () => {
    expect(new BillingConnectionError({ method: "GET", path: "/p", message: "m" }).mayHaveApplied).toBe(true);
    expect(
      new BillingConnectionError({ method: "GET", path: "/p", code: "ECONNREFUSED", message: "m", mayHaveApplied: false }).mayHaveApplied,
    ).toBe(false);
  });
});

describe("ReplayPartialFailureError", () => {
  it("nothing not queued and nothing unknown: only the counts and the first failure", () => {
    const cause = replayRefused();
    const err = new ReplayPartialFailureError([1, 2], [], cause);
    expect(err.message).toBe(`webhook replay partly failed: 2 id(s) queued, 0 not queued; first failure: ${REPLAY_REFUSED}`);
    expect([err.queued, err.notQueued, err.unknown, err.unknownBatches]).toEqual([[1, 2], [], [], []]);
    expect(err.cause).toBe(cause);
  });

  it("ids not queued are listed after their count", () => {
    const err = new ReplayPartialFailureError([], [3, "9007199254740993"], replayRefused());
    expect(err.message).toBe(
      `webhook replay partly failed: 0 id(s) queued, 2 not queued (3, 9007199254740993); first failure: ${REPLAY_REFUSED}`,
    );
    expect(err.notQueued).toEqual([3, "9007199254740993"]);
  });

  it("unknown ids come from the unknown batches, in order, and are listed with their count", () => {
    const batches: ReplayBatch[] = [
      { ids: [5, 6], uniquenessToken: "tok-a" },
      { ids: [7], uniquenessToken: "tok-b" },
    ];
    const err = new ReplayPartialFailureError([1], [4], replayRefused(), batches);
    expect(err.message).toBe(
      `webhook replay partly failed: 1 id(s) queued, 1 not queued (4), 3 unknown (5, 6, 7: the service may have queued them); first failure: ${REPLAY_REFUSED}`,
    );
    expect(err.unknown).toEqual([5, 6, 7]);
    expect(err.unknownBatches).toEqual(batches);
  });

  it.each([
    [9, "1, 2, 3, 4, 5, 6, 7, 8, 9"],
    [10, "1, 2, 3, 4, 5, 6, 7, 8, 9, 10"],
    [11, "1, 2, 3, 4, 5, 6, 7, 8, 9, 10, … 1 more"],
    [12, "1, 2, 3, 4, 5, 6, 7, 8, 9, 10, … 2 more"],
  ])("%i ids not queued: up to 10 are listed, then how many more", (n, listed) => {
    const err = new ReplayPartialFailureError([], range(1, n), replayRefused());
    expect(err.message).toBe(`webhook replay partly failed: 0 id(s) queued, ${n} not queued (${listed}); first failure: ${REPLAY_REFUSED}`);
    expect(err.notQueued).toEqual(range(1, n));
  });

  it.each([
    [10, "101, 102, 103, 104, 105, 106, 107, 108, 109, 110"],
    [11, "101, 102, 103, 104, 105, 106, 107, 108, 109, 110, … 1 more"],
  ])("%i unknown ids: the same cut-off at 10", (n, listed) => {
    const err = new ReplayPartialFailureError([], [], replayRefused(), [{ ids: range(101, 100 + n), uniquenessToken: "tok" }]);
    expect(err.message).toBe(
      `webhook replay partly failed: 0 id(s) queued, 0 not queued, ${n} unknown (${listed}: the service may have queued them); first failure: ${REPLAY_REFUSED}`,
    );
  });
});

describe("MigrationOutcomeUnknownError", () => {
  it("by default says the request failed and the read-back too, and names the token to resume with", () => {
    const cause = new BillingConnectionError({
      method: "POST",
      path: "/subscriptions/42/migrations.json",
      code: "ECONNRESET",
      message: "socket hang up",
    });
    const err = new MigrationOutcomeUnknownError(42, "tok-42", cause);
    expect(err.message).toBe(
      "migration of subscription 42 may or may not have been applied: the request failed (POST /subscriptions/42/migrations.json: socket hang up (ECONNRESET)) and the subscription could not be read back; resume it with the same uniqueness_token (tok-42), never with a new one",
    );
    expect([err.subscriptionId, err.uniquenessToken]).toEqual([42, "tok-42"]);
    expect(err.cause).toBe(cause);
  });

  it("a given reason replaces the default one", () => {
    const err = new MigrationOutcomeUnknownError(42, "tok-42", replayRefused(), "a request with this token is still being processed");
    expect(err.message).toBe(
      "migration of subscription 42 may or may not have been applied: a request with this token is still being processed; resume it with the same uniqueness_token (tok-42), never with a new one",
    );
  });
});

describe("EndpointOutcomeUnknownError and CatalogOutcomeUnknownError", () => {
  it("an endpoint create: the url, the reason, the token; always mayHaveApplied", () => {
    const cause = replayRefused();
    const err = new EndpointOutcomeUnknownError({
      url: "https://hooks.example/billing",
      events: ["payment_failure", "signup_success"],
      uniquenessToken: "tok-e",
      cause,
      why: "the POST failed with 502 and the endpoint was not in the list",
    });
    expect(err.message).toBe(
      "creating the webhook endpoint https://hooks.example/billing may or may not have been applied: the POST failed with 502 and the endpoint was not in the list; resume it with the same uniqueness_token (tok-e), never with a new one",
    );
    expect([err.url, err.events, err.uniquenessToken, err.mayHaveApplied]).toEqual([
      "https://hooks.example/billing",
      ["payment_failure", "signup_success"],
      "tok-e",
      true,
    ]);
    expect(err.cause).toBe(cause);
  });

  it("a catalog create: the kind, the handle, the reason, the token; always mayHaveApplied", () => {
    const err = new CatalogOutcomeUnknownError({
      kind: "price point",
      handle: "gold-monthly",
      uniquenessToken: "tok-c",
      cause: replayRefused(),
      why: "the POST timed out",
    });
    expect(err.message).toBe(
      'creating the price point "gold-monthly" may or may not have been applied: the POST timed out; it may or may not have been created. Resuming reads it back by handle first, then creates it with the same uniqueness_token (tok-c), never a new one',
    );
    expect([err.kind, err.handle, err.uniquenessToken, err.mayHaveApplied]).toEqual(["price point", "gold-monthly", "tok-c", true]);
  });
});

describe("PricePointsPartialFailureError", () => {
  const refused = (i: number) =>
    new BillingApiError({ status: 422, errors: [`Handle pp-${i} is taken`], method: "POST", path: "/products/9/price_points.json" });
  const failure = (i: number) => ({ index: i, handle: `pp-${i}`, error: refused(i) });
  const shown = (i: number) => `[${i}] "pp-${i}": POST /products/9/price_points.json failed with 422: Handle pp-${i} is taken`;
  const gold: PricePoint = { id: 501, handle: "gold", name: "Gold", type: "catalog" };

  it("one failure: the counts and that failure; cause is its error; nothing unknown", () => {
    const f = failure(1);
    const err = new PricePointsPartialFailureError(9, [{ index: 0, pricePoint: gold }], [f]);
    expect(err.message).toBe(`creating price points of product 9 partly failed: 1 created, 1 failed: ${shown(1)}`);
    expect(err.productId).toBe(9);
    expect(err.created).toEqual([{ index: 0, pricePoint: gold }]);
    expect(err.failures).toEqual([f]);
    expect(err.cause).toBe(f.error);
    expect(err.mayHaveApplied).toBe(false);
  });

  it.each([
    [2, `${shown(0)}; ${shown(1)}`],
    [5, range(0, 4).map(shown).join("; ")],
    [6, `${range(0, 4).map(shown).join("; ")}; … 1 more`],
    [7, `${range(0, 4).map(shown).join("; ")}; … 2 more`],
  ])("%i failures: up to 5 are shown, joined by '; ', then how many more", (n, listed) => {
    const failures: [Failure, ...Failure[]] = [failure(0), ...range(1, n - 1).map(failure)];
    const err = new PricePointsPartialFailureError(9, [], failures);
    expect(err.message).toBe(`creating price points of product 9 partly failed: 0 created, ${n} failed: ${listed}`);
    expect(err.failures).toEqual(failures);
  });

  it("a failure whose outcome is unknown makes mayHaveApplied true", () => {
    const unknown = new CatalogOutcomeUnknownError({
      kind: "price point",
      handle: "pp-2",
      uniquenessToken: "tok-2",
      cause: refused(2),
      why: "the POST timed out",
    });
    const err = new PricePointsPartialFailureError(9, [], [failure(1), { index: 2, handle: "pp-2", error: unknown }]);
    expect(err.mayHaveApplied).toBe(true);
    expect(err.cause).toBe(err.failures[0]?.error);
  });
});

const cause = () =>
  new BillingApiError({
    status: 503,
    errors: ["Service Unavailable"],
    method: "POST",
    path: "/product_families.json",
    mayHaveApplied: true,
  });

describe("CatalogOutcomeUnknownError and PricePointsPartialFailureError", () => {
  it("are recognised by class across two copies of the package, and only as what they are", async () => {
    // The error module alone, twice (see recognition.test.ts's twoCopies).
    const a = await import("../../../sdk/errors");
    vi.resetModules();
    const b = await import("../../../sdk/errors");
    expect(a.CatalogOutcomeUnknownError).not.toBe(b.CatalogOutcomeUnknownError);
    const err = new a.CatalogOutcomeUnknownError({ kind: "product", handle: "pro", uniquenessToken: "tok", cause: cause(), why: "x" });
    expect(err instanceof b.CatalogOutcomeUnknownError).toBe(true);
    expect(err instanceof b.BillingError).toBe(true);
    expect(err instanceof b.EndpointOutcomeUnknownError).toBe(false);
    expect(err instanceof b.PricePointsPartialFailureError).toBe(false);
    const partial = new a.PricePointsPartialFailureError(7, [], [{ index: 0, handle: "a", error: err }]);
    expect(partial instanceof b.PricePointsPartialFailureError).toBe(true);
    expect(partial instanceof b.CatalogOutcomeUnknownError).toBe(false);
  });

  it("an unknown outcome carries kind, handle and token, says it may or may not have been created, and how to resume", () => {
    const err = new CatalogOutcomeUnknownError({
      kind: "price point",
      handle: "annual",
      uniquenessToken: "tok-1",
      cause: cause(),
      why: "the reason",
    });
    expect(err).toMatchObject({
      name: "CatalogOutcomeUnknownError",
      kind: "price point",
      handle: "annual",
      uniquenessToken: "tok-1",
      mayHaveApplied: true,
    });
    expect(err.message).toBe(
      'creating the price point "annual" may or may not have been applied: the reason; it may or may not have been created. ' +
        "Resuming reads it back by handle first, then creates it with the same uniqueness_token (tok-1), never a new one",
    );
    expect(err.cause).toBeInstanceOf(BillingApiError);
    expectNoSecret(everything(err));
  });

  it("a partial failure lists what was created and each failure by index; mayHaveApplied when one is unknown", () => {
    const unknown = new CatalogOutcomeUnknownError({ kind: "price point", handle: "b", uniquenessToken: "t", cause: cause(), why: "w" });
    const refused = new BillingApiError({ status: 422, errors: ["handle: taken"], method: "POST", path: "/products/7/price_points.json" });
    const pp = { id: 5, handle: "a", name: "A", type: "catalog" };
    const err = new PricePointsPartialFailureError(
      7,
      [{ index: 0, pricePoint: pp }],
      [
        { index: 1, handle: "b", error: unknown },
        { index: 2, handle: "c", error: refused },
      ],
    );
    expect(err.mayHaveApplied).toBe(true);
    expect(err.cause).toBe(unknown);
    expect(err.message).toMatch(
      /^creating price points of product 7 partly failed: 1 created, 2 failed: \[1\] "b": creating the price point "b" may or may not/,
    );
    expect(err.message).toContain('[2] "c": POST /products/7/price_points.json failed with 422: handle: taken');
    expect(new PricePointsPartialFailureError(7, [], [{ index: 2, handle: "c", error: refused }]).mayHaveApplied).toBe(false);
  });
});
