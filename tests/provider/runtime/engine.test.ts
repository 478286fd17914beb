import { afterEach, describe, expect, it } from "vitest";
import {
  isUnknown,
  notice,
  onTopLevel,
  partialFailure,
  setNoticeSink,
  siteFailure,
  UNKNOWN,
  unknownInputs,
  userInputs,
} from "../../../provider/engine";
import { captureOutput } from "../support";

/**
 * The engine's helpers every kind's runtime uses (provider/engine.ts), called directly: what is unknown at preview,
 * the inputs a user gave, a partial failure's record, the failures of unknown inputs and of a `site` that is no
 * name, and where a notice goes.
 */

afterEach(() => setNoticeSink(undefined));

describe("the engine's helpers", () => {
  it("onTopLevel: a nested failure on its top-level input, the path as JavaScript writes it leading the reason", () => {
    const inputs = ["prices", "currencyPrices", "selector", "url"];
    expect(onTopLevel({ property: "prices.1.startingQuantity", reason: "overlaps prices[0]" }, inputs)).toEqual({
      property: "prices",
      reason: "prices[1].startingQuantity: overlaps prices[0]",
    });
    expect(onTopLevel({ property: "currencyPrices.EUR.0", reason: "r" }, inputs)).toEqual({
      property: "currencyPrices",
      reason: "currencyPrices.EUR[0]: r",
    });
    // A key that is no identifier is quoted, so that the path reads as one.
    expect(onTopLevel({ property: "selector.ids[0]", reason: "r" }, inputs)).toEqual({
      property: "selector",
      reason: 'selector["ids[0]"]: r',
    });
    // A top-level failure, one on no property, and an unknown key holding a dot stay as they are.
    for (const f of [
      { property: "url", reason: "r" },
      { property: "", reason: "r" },
      { property: "a.b", reason: "is not an input" },
    ])
      expect(onTopLevel(f, inputs)).toBe(f);
  });

  it("isUnknown: the placeholder itself, inside arrays and objects, at any depth; nothing else", () => {
    expect(isUnknown(UNKNOWN)).toBe(true);
    expect(isUnknown([1, [2, UNKNOWN]])).toBe(true);
    expect(isUnknown({ a: { b: [UNKNOWN] } })).toBe(true);
    expect(isUnknown([1, "x", null, { a: 1 }])).toBe(false);
    expect(isUnknown({ a: null, b: "x" })).toBe(false);
    expect(isUnknown(null)).toBe(false);
    expect(isUnknown(`${UNKNOWN} `)).toBe(false);
  });

  it("userInputs drops only __provider", () => {
    expect(userInputs({ __provider: "p", a: 1, b: undefined })).toEqual({ a: 1, b: undefined });
  });

  it("partialFailure: id, the properties without undefined values, __provider only when there is one, and the reason", () => {
    const withShell = partialFailure("half done", "id-1", { a: 1, b: undefined, c: { d: undefined, e: 2 } }, "shell");
    expect(withShell.message).toBe("half done");
    expect({ ...withShell }).toEqual({ id: "id-1", properties: { a: 1, c: { e: 2 }, __provider: "shell" }, reasons: ["half done"] });
    const plugin = partialFailure("half done", "id-2", { a: 1 }, undefined);
    expect({ ...plugin }).toEqual({ id: "id-2", properties: { a: 1 }, reasons: ["half done"] });
    expect(Object.hasOwn((plugin as unknown as { properties: object }).properties, "__provider")).toBe(false);
  });

  it("unknownInputs: one failure per key not accepted, naming the accepted ones", () => {
    expect(unknownInputs("billing:T", ["a", "b"], { a: 1, x: 2, y: 3 })).toEqual([
      { property: "x", reason: "is not an input of billing:T (accepted: a, b)" },
      { property: "y", reason: "is not an input of billing:T (accepted: a, b)" },
    ]);
    expect(unknownInputs("billing:T", ["a"], { a: 1 })).toEqual([]);
  });

  it("siteFailure: undefined and unknown pass; a non-string or an empty string fails on site", () => {
    expect(siteFailure(undefined)).toBeUndefined();
    expect(siteFailure(UNKNOWN)).toBeUndefined();
    expect(siteFailure("eu")).toBeUndefined();
    for (const bad of ["", 3, null, {}]) {
      expect(siteFailure(bad)).toEqual({
        property: "site",
        reason: "must be the name of an entry of the stack config billing:sites (a non-empty string)",
      });
    }
  });

  it("notice: to the sink when one is set, else to stderr", async () => {
    const got: string[] = [];
    setNoticeSink((m) => got.push(m));
    const sunk = await captureOutput(async () => notice("one"));
    expect([got, sunk.text]).toEqual([["one"], ""]);
    setNoticeSink(undefined);
    const printed = await captureOutput(async () => notice("two"));
    expect([got, printed.text]).toEqual([["one"], "two\n"]);
  });
});
