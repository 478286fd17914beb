import { describe, expect, it } from "vitest";
import { plainCredentials, providerConfig } from "../../plugin/config";
import { UNKNOWN } from "../../provider/engine";

// The provider configuration of a Configure request as the runtime reads it, and which credentials of it
// are plain text: values that say nothing (absent, null, unknown, empty) are neither read nor warned about.

const SECRET = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };

describe("providerConfig", () => {
  it("keys as billing:<key>, non-strings as JSON, secrets unwrapped, variables last", () => {
    expect(
      providerConfig([["billing:config:baseUrl", "http://127.0.0.1:9"]], {
        apiKey: { ...SECRET, value: "sk_live_X" },
        baseUrl: "http://ignored",
        timeoutMs: 500,
      }),
    ).toStrictEqual({ "billing:apiKey": "sk_live_X", "billing:baseUrl": "http://127.0.0.1:9", "billing:timeoutMs": "500" });
  });

  it("leaves out undefined, null, unknown values and the version, not even as a key", () => {
    const out = providerConfig([["billing:config:subdomain", UNKNOWN]], {
      apiKey: undefined,
      accessToken: null,
      sites: { ...SECRET, value: null },
      environment: { ...SECRET },
      subdomain: "acme",
      version: "0.1.0",
      baseUrl: UNKNOWN,
    });
    expect(out).toStrictEqual({ "billing:subdomain": "acme" });
    expect(Object.keys(out)).toEqual(["billing:subdomain"]);
  });
});

describe("plainCredentials", () => {
  it.each([
    ["null", null],
    ["an empty string", ""],
    ["unknown", UNKNOWN],
    ["undefined", undefined],
  ])("a credential whose value is %s is not reported", (_, v) => {
    expect(plainCredentials({ apiKey: v, accessToken: v, sites: v })).toEqual([]);
  });

  it("a value of one character is reported (only the empty string is nothing)", () => {
    expect(plainCredentials({ apiKey: "k", accessToken: "", sites: null })).toEqual(["billing:apiKey"]);
  });
});
