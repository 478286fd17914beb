import { describe, expect, it, vi } from "vitest";

/**
 * Two copies of the SDK's error classes, as a program and a provider host that each load the package hold: same code,
 * different classes. The error module alone is loaded twice (the classes and their brand live there): reloading the
 * whole SDK would make the mutation run give every module-level mutant of sdk/ to these tests (mutation/README.md).
 */
async function twoCopies() {
  const a = await import("../../sdk/errors");
  vi.resetModules();
  const b = await import("../../sdk/errors");
  return { a, b };
}

describe("errors are recognised by class, across two copies of the package", () => {
  it("the copies are distinct, and instanceof still holds for the class and its ancestors only", async () => {
    const { a, b } = await twoCopies();
    expect(a.BillingApiError).not.toBe(b.BillingApiError);
    const err = new a.AuthenticationRequiredError({ errors: ["3DS"], method: "POST", path: "/p", actionLink: "https://x/a" });
    expect(err instanceof b.AuthenticationRequiredError).toBe(true);
    expect(err instanceof b.BillingApiError).toBe(true);
    expect(err instanceof b.BillingError).toBe(true);
    expect(err instanceof Error).toBe(true);
    expect(err instanceof b.ReplayPartialFailureError).toBe(false);
    expect(err instanceof b.MigrationOutcomeUnknownError).toBe(false);
    expect(err instanceof b.BillingValidationError).toBe(false);
  });

  it("a plain error, or an object that only looks like one, is not an SDK error", async () => {
    const { b } = await twoCopies();
    expect(new Error("x") instanceof b.BillingError).toBe(false);
    expect(Object.assign(new Error("x"), { name: "BillingApiError", status: 422 }) instanceof b.BillingApiError).toBe(false);
    expect((null as unknown as object) instanceof b.BillingError).toBe(false);
  });

  it("the brand is not enumerable: it adds nothing to JSON or to a log line", async () => {
    const { a } = await twoCopies();
    const err = new a.BillingApiError({ status: 404, errors: ["Not found"], method: "GET", path: "/subscriptions/1.json" });
    expect(Object.keys(err)).toEqual(["name", "status", "errors", "method", "path", "mayHaveApplied"]);
    expect(JSON.stringify(err)).toBe(
      JSON.stringify({
        name: "BillingApiError",
        status: 404,
        errors: ["Not found"],
        method: "GET",
        path: "/subscriptions/1.json",
        mayHaveApplied: false,
      }),
    );
  });
});
