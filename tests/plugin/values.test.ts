import { describe, expect, it } from "vitest";
import { plain, unwrapSecret } from "../../plugin/values";

// The values the plugin hands back to the SDK's provider server (a JSON round trip drops what a protobuf
// Struct cannot hold), and the engine's secret marker taken off a configuration value.

const SECRET = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };

describe("plain", () => {
  it("drops undefined fields, keeps null ones, and answers a copy, not the value itself", () => {
    const value = { id: "1", props: { a: 1, b: undefined, c: null, d: [1, "x"] } };
    const out = plain(value);
    expect(out).toStrictEqual({ id: "1", props: { a: 1, c: null, d: [1, "x"] } });
    expect(Object.keys(out.props)).toEqual(["a", "c", "d"]);
    expect(out).not.toBe(value);
    expect(out.props).not.toBe(value.props);
  });

  it("undefined stays undefined (a JSON round trip of it would throw)", () => {
    expect(plain(undefined)).toBeUndefined();
  });
});

describe("unwrapSecret", () => {
  it("the value inside the engine's secret marker", () => {
    expect(unwrapSecret({ ...SECRET, value: "sk_live_X" })).toBe("sk_live_X");
    expect(unwrapSecret({ ...SECRET })).toBeUndefined();
  });

  const fn = Object.assign(() => 1, { ...SECRET, value: "inside" });
  const notMarked = { value: "v", "4dabf18193072939515e22adb298388d": "other" };
  it.each([
    ["null", null],
    ["undefined", undefined],
    ["a string", "sk_live_X"],
    ["a number", 42],
    ["an object without the marker", notMarked],
    ["a function carrying the marker's fields (not an object)", fn],
  ])("other values as they are: %s", (_, v) => {
    expect(unwrapSecret(v)).toBe(v);
  });
});
