import { describe, expect, it, vi } from "vitest";
import { BillingApiError, CatalogOutcomeUnknownError, PricePointsPartialFailureError } from "../../sdk";
import { everything, expectNoSecret } from "./helpers";

/** The catalog's errors: recognised across two copies of the package, and what they carry. */

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
    // The error module alone, twice (see errors.test.ts's twoCopies).
    const a = await import("../../sdk/errors");
    vi.resetModules();
    const b = await import("../../sdk/errors");
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
