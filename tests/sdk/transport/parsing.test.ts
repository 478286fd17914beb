import { describe, expect, it } from "vitest";
import { z } from "zod";
import { BillingApiError, BillingConnectionError } from "../../../sdk";
import { type Exchange, exactIds, failureOf, parseBody, parseJsonExact } from "../../../sdk/transport";

/**
 * How the transport reads text and builds errors (sdk/transport.ts): exact JSON (ids past 2^53 kept as text), the
 * ids written back digit for digit, the typed errors built from an exchange, a body the schema refuses.
 */

describe("parseJsonExact", () => {
  it("empty text or text that is not JSON: undefined", () => {
    expect(parseJsonExact("")).toBeUndefined();
    expect(parseJsonExact("not json")).toBeUndefined();
    expect(parseJsonExact('{"id": 12345678901234567890')).toBeUndefined(); // a long digit run, cut short
  });

  it("integers past 2^53 kept as their decimal text; safe numbers, fractions and exponents stay numbers", () => {
    expect(
      parseJsonExact('{"a": 9007199254740993, "b": -9007199254740993, "c": 9007199254740991, "d": 1234567890123456.5, "e": 1e300}'),
    ).toEqual({
      a: "9007199254740993",
      b: "-9007199254740993",
      c: 9007199254740991,
      d: 1234567890123456.5,
      e: 1e300,
    });
  });

  it("text without a 16-digit run is parsed as plain JSON", () => {
    expect(parseJsonExact('{"a": [1, 2.5, "x"], "b": null}')).toEqual({ a: [1, 2.5, "x"], b: null });
  });
});

describe("exactIds", () => {
  it("numbers only: the same list; with decimal text: each text written as a JSON number, digit for digit", () => {
    const nums = [1, 2, 3];
    expect(exactIds(nums)).toBe(nums);
    expect(JSON.stringify(exactIds([1, "9007199254740993", 3]))).toBe("[1,9007199254740993,3]");
  });
});

describe("failureOf and parseBody", () => {
  const req = { method: "POST", path: "/p.json" } as const;
  const of = (outcome: Exchange["outcome"], mayHaveApplied = false): Exchange => ({ outcome, mayHaveApplied, attempts: 1 });

  it("never sent, or no answer: a connection error with the code, the message and whether it may have applied", () => {
    const notSent = failureOf(req, of({ kind: "not-sent", code: "ECONNREFUSED", message: "refused" }));
    expect(notSent).toBeInstanceOf(BillingConnectionError);
    expect(notSent).toMatchObject({ code: "ECONNREFUSED", method: "POST", path: "/p.json", mayHaveApplied: false });
    expect(notSent.message).toContain("refused");
    const lost = failureOf(req, of({ kind: "ambiguous", status: undefined, code: "ECONNRESET", message: "reset" }, true));
    expect(lost).toBeInstanceOf(BillingConnectionError);
    expect(lost).toMatchObject({ code: "ECONNRESET", mayHaveApplied: true });
  });

  it("an answer: an API error with its status and the service's messages", () => {
    const e = failureOf(req, of({ kind: "ambiguous", status: 503, body: { errors: ["down"] }, text: "", message: "answered 503" }, true));
    expect(e).toBeInstanceOf(BillingApiError);
    expect(e).toMatchObject({ status: 503, errors: ["down"], mayHaveApplied: true });
    expect(failureOf(req, of({ kind: "refused", status: 404, body: undefined, text: "" }))).toMatchObject({ status: 404, errors: [] });
  });

  it("parseBody: a body the schema refuses names at most three fields, '(body)' for the body itself", () => {
    const schema = z.object({ a: z.string(), b: z.string(), c: z.string(), d: z.string() });
    const e = (() => {
      try {
        parseBody(req, 201, {}, schema);
      } catch (err) {
        return err as BillingApiError;
      }
    })();
    expect(e).toBeInstanceOf(BillingApiError);
    expect(e).toMatchObject({ status: 201, errors: [], mayHaveApplied: false, method: "POST", path: "/p.json" });
    expect(e?.message).toMatch(/^POST \/p\.json answered 201 with a body this SDK does not understand: a: .+; b: .+; c: [^;]+$/);
    expect(() => parseBody(req, 200, "text", schema)).toThrow(/does not understand: \(body\): /);
  });
});

describe("parseBody: a nested field", () => {
  it("is named by its dotted path", () => {
    const schema = z.object({ subscription: z.object({ product: z.object({ id: z.number() }) }) });
    expect(() => parseBody({ method: "GET", path: "/s.json" }, 200, { subscription: { product: {} } }, schema)).toThrow(
      /does not understand: subscription\.product\.id: /,
    );
  });
});
