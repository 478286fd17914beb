import { describe, expect, it, vi } from "vitest";
import {
  AuthenticationRequiredError,
  BillingApiError,
  BillingConnectionError,
  BillingError,
  BillingValidationError,
  CatalogOutcomeUnknownError,
  EndpointOutcomeUnknownError,
  MigrationOutcomeUnknownError,
  PricePointsPartialFailureError,
  ReplayPartialFailureError,
} from "../../../sdk/errors";

/**
 * The SDK's errors recognised by class, also across two copies of the package (each loaded afresh): every class
 * names itself, and the brand an error carries stands for its class and its ancestors only.
 */

/**
 * Two copies of the SDK's error classes, as a program and a provider host that each load the package hold: same code,
 * different classes. The error module alone is loaded twice (the classes and their brand live there): reloading the
 * whole SDK would make the mutation run give every module-level mutant of sdk/ to these tests (mutation/README.md).
 */
async function twoCopies() {
  const a = await import("../../../sdk/errors");
  vi.resetModules();
  const b = await import("../../../sdk/errors");
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

/** The brand's key is global (Symbol.for) so another copy of the package can read it; a test can too. */
const BRAND = Symbol.for("pulumi-subscription-billing/error-classes");

const replayRefused = () =>
  new BillingApiError({ status: 422, errors: ["Invalid webhook ids"], method: "POST", path: "/webhooks/replay.json" });

describe("every class names itself", () => {
  it.each([
    ["BillingError", () => new BillingError("x")],
    ["BillingValidationError", () => new BillingValidationError("invalid x", [{ property: "a", message: "b" }])],
    ["BillingApiError", () => replayRefused()],
    [
      "AuthenticationRequiredError",
      () => new AuthenticationRequiredError({ errors: [], method: "POST", path: "/p", actionLink: "https://x/a" }),
    ],
    ["BillingConnectionError", () => new BillingConnectionError({ method: "GET", path: "/p", message: "refused" })],
    ["ReplayPartialFailureError", () => new ReplayPartialFailureError([1], [2], replayRefused())],
    ["MigrationOutcomeUnknownError", () => new MigrationOutcomeUnknownError(1, "t", replayRefused())],
    [
      "EndpointOutcomeUnknownError",
      () => new EndpointOutcomeUnknownError({ url: "https://h/x", events: [], uniquenessToken: "t", cause: replayRefused(), why: "w" }),
    ],
    [
      "CatalogOutcomeUnknownError",
      () => new CatalogOutcomeUnknownError({ kind: "product", handle: "h", uniquenessToken: "t", cause: replayRefused(), why: "w" }),
    ],
    [
      "PricePointsPartialFailureError",
      () => new PricePointsPartialFailureError(1, [], [{ index: 0, handle: "h", error: replayRefused() }]),
    ],
  ] as const)("%s", (name, make) => {
    const err = make();
    expect(err.name).toBe(name);
    expect(String(err).startsWith(`${name}: `)).toBe(true);
  });
});

describe("the brand: the class names an error carries for copies of the package", () => {
  it.each([
    [
      "AuthenticationRequiredError",
      () => new AuthenticationRequiredError({ errors: [], method: "POST", path: "/p", actionLink: "https://x/a" }),
      ["AuthenticationRequiredError", "BillingApiError", "BillingError"],
    ],
    ["BillingApiError", () => replayRefused(), ["BillingApiError", "BillingError"]],
    ["BillingError", () => new BillingError("x"), ["BillingError"]],
  ] as const)("%s carries its class and its ancestors up to BillingError, frozen and not enumerable", (_, make, classes) => {
    const err = make();
    expect(Object.getOwnPropertyDescriptor(err, BRAND)).toEqual({
      value: classes,
      writable: false,
      enumerable: false,
      configurable: false,
    });
    expect(Object.isFrozen((err as unknown as Record<symbol, unknown>)[BRAND])).toBe(true);
  });

  it("a copy of an error's fields ({ ...err }) does not carry the brand", () => {
    const copy = { ...replayRefused() };
    expect(Object.getOwnPropertySymbols(copy)).toEqual([]);
    expect(copy).toEqual({
      name: "BillingApiError",
      status: 422,
      errors: ["Invalid webhook ids"],
      method: "POST",
      path: "/webhooks/replay.json",
      mayHaveApplied: false,
    });
  });

  it("an object given a class's prototype without its constructor (as a deserialiser does) is an instance, brand or not", () => {
    const revived = Object.setPrototypeOf({ status: 404 }, BillingApiError.prototype) as object;
    expect(revived instanceof BillingApiError).toBe(true);
    expect(revived instanceof BillingError).toBe(true);
    expect(revived instanceof AuthenticationRequiredError).toBe(false);
  });

  it("an object carrying the brand is recognised, but a function carrying it is not: errors are objects", () => {
    const branded = { [BRAND]: ["BillingApiError", "BillingError"] };
    expect(branded instanceof BillingApiError).toBe(true);
    const fn = Object.assign(() => undefined, { [BRAND]: ["BillingApiError", "BillingError"] });
    expect(fn instanceof BillingApiError).toBe(false);
    expect(fn instanceof BillingError).toBe(false);
  });
});
