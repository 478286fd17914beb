import { describe, expect, it } from "vitest";
import { describeFinding, findCredentials, isCredentialKey, structuredString } from "../../fleet/credentials";

const KEY = "sk_live_9f8e7d6c5b4a";

describe("credential-named keys", () => {
  it.each([
    "apiKey",
    "api-key",
    "API_KEY",
    "billing:apiKey",
    "accessToken",
    "access_token",
    "password",
    "db.password",
    "secret",
    "clientSecret",
    "token",
    "refreshToken",
    "privateKey",
    "private_key",
    "passphrase",
    "credentials",
    "AZURE_STORAGE_KEY",
    "account_key",
    "accountKey",
    "api key",
    // Spaces around the words and between them are set aside, after the namespace.
    "api key ",
    "api  key",
    "site: api key",
    "my site:api key",
  ])("%j names a credential", (key) => {
    expect(isCredentialKey(key)).toBe(true);
  });

  it.each(["baseUrl", "subdomain", "tokenUrl", "secretName", "secrets", "rotate the token", "environment", "keyId", "timeoutMs"])(
    "%s does not",
    (key) => {
      expect(isCredentialKey(key)).toBe(false);
    },
  );
});

describe("findCredentials", () => {
  const sitesJson = JSON.stringify({ us: { baseUrl: "https://x", apiKey: KEY } });
  it.each<[string, string, unknown, string]>([
    ["a plain key", "billing:apiKey", KEY, ""],
    ["a number", "x:password", 123456, ""],
    ["a nested object", "billing:sites", { us: { baseUrl: "https://x", accessToken: KEY } }, " at .us.accessToken"],
    ["a JSON string", "billing:sites", sitesJson, " at .us.apiKey (a JSON string)"],
    ["a YAML string", "billing:sites", `us:\n  baseUrl: https://x\n  apiKey: ${KEY}\n`, " at .us.apiKey (a YAML string)"],
    ["YAML flow style", "foo:bar", `{ us: { password: ${KEY} } }`, " at .us.password (a YAML string)"],
    ["a JSON string inside YAML", "foo:bar", `sites: '${sitesJson}'\n`, " at .sites.us.apiKey (a JSON string inside a YAML string)"],
    ["JSON encoded twice", "foo:bar", JSON.stringify(sitesJson), " at .us.apiKey (a JSON string inside a JSON string)"],
    ["an array of objects", "foo:bar", [{ name: "a" }, { name: "b", clientSecret: KEY }], " at [1].clientSecret"],
    ["a list of credentials", "foo:bar", { tokens: 1, apiKey: [KEY] }, " at .apiKey[0]"],
    ["a key with a space", "foo:bar", { "api key": KEY }, ' at ["api key"]'],
    ["text that parses as JSON under a credential's key", "x:token", '{"a":1}', ""],
  ])("%s is found", (_, key, value, where) => {
    const found = findCredentials(key, value);
    expect(found.map(describeFinding)).toEqual([where]);
    expect(JSON.stringify(found)).not.toContain(KEY);
  });

  it.each<[string, string, unknown]>([
    ["billing:sites as JSON without credentials", "billing:sites", JSON.stringify({ us: { baseUrl: "https://x", environment: "eu" } })],
    ["text that mentions a token", "site:note", "the token is read from US_STORE_BILLING_API_KEY at run time"],
    ["a sentence with a colon", "site:note", "rotate the token: monthly"],
    ["a URL", "billing:baseUrl", "https://acme.example:8443/billing"],
    ["a flag under a credential's name", "site:requireToken", true],
    ["an empty credential", "billing:apiKey", ""],
    ["the README's receiver", "site:receiver", { url: "https://hooks.acme.example/billing", events: ["payment_failure"] }],
    ["a number", "billing:timeoutMs", 5000],
    ["text that is not JSON", "site:x", "{ not json"],
    ["nothing under a credential's key", "billing:apiKey", undefined],
    ["null under a credential's key", "billing:apiKey", null],
    ["null and nothing inside", "foo:bar", { apiKey: null, token: undefined, secrets: { password: null }, tokens: [null] }],
    ["a value that holds itself (the walk stops at its depth limit)", "foo:bar", cyclic()],
  ])("%s passes", (_, key, value) => {
    expect(findCredentials(key, value)).toEqual([]);
  });
});

/** An object that holds itself, and no credential. */
function cyclic(): Record<string, unknown> {
  const v: Record<string, unknown> = { name: "a" };
  v.self = v;
  return v;
}

/** `levels` objects { a: … } around `inner`. */
const nest = (levels: number, inner: object): object => (levels === 0 ? inner : { a: nest(levels - 1, inner) });

describe("how deep findCredentials looks", () => {
  it.each<[string, object, string[]]>([
    // The credential's value 32 levels down is the deepest one looked at.
    ["31 objects around the key", nest(31, { apiKey: KEY }), [`${".a".repeat(31)}.apiKey`]],
    ["32 objects around the key", nest(32, { apiKey: KEY }), []],
    // A JSON string is a level of its own.
    ["29 objects around a JSON string", nest(29, { s: JSON.stringify({ apiKey: KEY }) }), [`${".a".repeat(29)}.s.apiKey (a JSON string)`]],
    ["30 objects around a JSON string", nest(30, { s: JSON.stringify({ apiKey: KEY }) }), []],
  ])("%s", (_, value, found) => {
    expect(findCredentials("foo:bar", value).map((f) => describeFinding(f).replace(/^ at /, ""))).toEqual(found);
  });
});

describe("structuredString: text that holds JSON or YAML", () => {
  it.each<[string, unknown]>([
    ['  {"a":1}\n', { value: { a: 1 }, form: "JSON" }],
    ['"text"', { value: "text", form: "JSON" }],
    ["[a, b]", { value: ["a", "b"], form: "YAML" }],
    ["a: 1", { value: { a: 1 }, form: "YAML" }],
    ["a:", { value: { a: null }, form: "YAML" }],
    ["- a", { value: ["a"], form: "YAML" }],
    ["-\n  - a", { value: [["a"]], form: "YAML" }],
  ])("%j holds %o", (text, held) => {
    expect(structuredString(text)).toEqual(held);
  });

  // Only a "key: value", a "- item" at a line's start or flow style there is looked into, though YAML reads more as structure.
  it.each(["", "  ", "42", "true", "null", "plain text", "a:b", "x - y", "? a", "? a - b", "&x [1]", "!!map {}", "{ not json"])(
    "%j holds only text",
    (text) => {
      expect(structuredString(text)).toBeUndefined();
    },
  );
});
