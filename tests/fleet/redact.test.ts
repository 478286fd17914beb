import { describe, expect, it } from "vitest";
import { REDACTED, Redactor } from "../../fleet/redact";

// Each test builds its own Redactor: one built while the file loads would run unmutated under Stryker.

const SIG = "4dabf18193072939515e22adb298388d";

/** `n` arrays (or objects under key `a`) around `leaf`. */
const inArrays = (n: number, leaf: unknown): unknown => (n === 0 ? leaf : [inArrays(n - 1, leaf)]);
const inObjects = (n: number, leaf: unknown): unknown => (n === 0 ? leaf : { a: inObjects(n - 1, leaf) });

describe("the redactor's literals: the site's secret config values, wherever they appear in text", () => {
  it("blanks a secret's literal value, as it is and as JSON re-encodes it (quotes and backslashes escaped)", () => {
    const secret = 'pa"ss\\word';
    const r = new Redactor([secret]);
    expect(r.text(`raw ${secret} end`)).toBe(`raw ${REDACTED} end`);
    // The same secret inside a JSON document: its text escaped, without the quotes JSON.stringify puts around it.
    expect(r.text(`{"note":"the ${JSON.stringify(secret).slice(1, -1)} here"}`)).toBe(`{"note":"the ${REDACTED} here"}`);
  });

  it("blanks the longest literal first, so that a secret containing another is blanked whole", () => {
    const r = new Redactor(["abcd", "abcdefgh"]);
    expect(r.text("x abcdefgh y abcd z")).toBe(`x ${REDACTED} y ${REDACTED} z`);
  });

  it("searches literals of four characters or more, not shorter ones", () => {
    expect(new Redactor(["wxyz", "abc"]).text("wxyz abc wxyz")).toBe(`${REDACTED} abc ${REDACTED}`);
  });

  it("blanks the credentials inside a secret that holds JSON, each on its own", () => {
    const r = new Redactor([JSON.stringify({ eu: { baseUrl: "https://eu", apiKey: "sk_eu_inner_42" } })]);
    expect(r.text("refused: sk_eu_inner_42 (https://eu)")).toBe(`refused: ${REDACTED} (https://eu)`);
  });

  it.each([
    ["no secrets", undefined],
    ["a plain secret", ["sk_live_9f8e7d6c5b4a"]],
    ["a secret holding JSON", [JSON.stringify({ us: { apiKey: "sk_us_inner_7" } })]],
  ])("with %s, leaves ordinary text alone", (_, secrets) => {
    const r = secrets === undefined ? new Redactor() : new Redactor(secrets);
    // "Stryker was here" is the text Stryker's array mutants put into the defaults and the leaves' list.
    for (const text of ["Stryker was here", "deploying site us: 3 resources", "apiKeyRotation is monthly"]) {
      expect(r.text(text)).toBe(text);
    }
  });
});

describe("the redactor's structured values", () => {
  it("keeps null, undefined, booleans and numbers, also under credential-named keys when they hold nothing", () => {
    const r = new Redactor();
    expect(r.value({ a: null, b: undefined, c: true, d: 3, password: "", apiKey: undefined, token: null })).toStrictEqual({
      a: null,
      b: undefined,
      c: true,
      d: 3,
      password: "",
      apiKey: undefined,
      token: null,
    });
  });

  it("blanks an object carrying the engine's secret signature, or a ciphertext, each on its own", () => {
    const r = new Redactor();
    expect(
      r.value({ sig: { [SIG]: "1b47061264138c4ac30d75fd1eb44270", value: "plain" }, enc: { ciphertext: "v1:abc" }, n: { v: "x" } }),
    ).toEqual({
      sig: REDACTED,
      enc: REDACTED,
      n: { v: "x" },
    });
  });

  it("blanks an object under a credential-named key whole, and each item of a list under one", () => {
    const r = new Redactor();
    expect(r.value({ apiKey: { value: "sk_1", note: "n" }, password: ["hunter2", "", 42], names: ["a", "b"] })).toEqual({
      apiKey: REDACTED,
      password: [REDACTED, "", REDACTED],
      names: ["a", "b"],
    });
  });

  it("blanks what lies deeper than 64 levels of arrays", () => {
    const r = new Redactor();
    expect(r.value(inArrays(70, "x"))).toEqual(inArrays(65, REDACTED));
    expect(r.value(inArrays(64, "x"))).toEqual(inArrays(64, "x"));
  });

  it("blanks what lies deeper than 64 levels of objects", () => {
    const r = new Redactor();
    expect(r.value(inObjects(70, "x"))).toEqual(inObjects(65, REDACTED));
    expect(r.value(inObjects(64, "x"))).toEqual(inObjects(64, "x"));
  });

  it("counts a JSON string's content as one level deeper", () => {
    const r = new Redactor();
    // The string at depth 63 holds an object (depth 64) whose value is at depth 65: blanked, and the string re-encoded.
    expect(r.value(inArrays(63, JSON.stringify({ a: "x" })))).toEqual(inArrays(63, JSON.stringify({ a: REDACTED })));
    expect(r.value(inArrays(62, JSON.stringify({ a: "x" })))).toEqual(inArrays(62, JSON.stringify({ a: "x" })));
  });
});

describe("the redactor's fixed leaks and doubles", () => {
  it("blanks a credential inside a JSON string encoded twice, as findCredentials finds it", () => {
    const twice = JSON.stringify(JSON.stringify({ apiKey: "sk_abc_123", site: "us" }));
    const out = new Redactor().value({ s: twice }) as { s: string };
    expect(out).toEqual({ s: JSON.stringify(JSON.stringify({ apiKey: REDACTED, site: "us" })) });
    // A string encoded twice that holds nothing secret stays exactly as it was.
    const plain = JSON.stringify(JSON.stringify({ site: "us" }));
    expect(new Redactor().value({ s: plain })).toEqual({ s: plain });
  });

  it.each([
    ["apiKey=sk_live_xyz", `apiKey=${REDACTED}`],
    [`token=${REDACTED}`, `token=${REDACTED}`],
    [`items: [apiKey: ${REDACTED}]`, `items: [apiKey: ${REDACTED}]`],
    ["password=hunter22 more", `password=${REDACTED} more`],
  ])("blanks an unquoted credential once: %s", (text, expected) => {
    expect(new Redactor(["sk_live_xyz"]).text(text)).toBe(expected);
  });
});

const KEY = "sk_live_9f8e7d6c5b4a";

describe("the redactor on a fleet's secrets", () => {
  const r = new Redactor([KEY, JSON.stringify({ eu: { baseUrl: "https://eu", apiKey: "sk_eu_inner_42" } })]);

  it("blanks the engine's secret markers, ciphertexts and credential-named keys, deep and in JSON strings", () => {
    const inputs = {
      __provider: "x",
      "billing:apiKey": { [SIG]: "1b47061264138c4ac30d75fd1eb44270", value: "sk_x" },
      "billing:sites": JSON.stringify({ us: { baseUrl: "https://us", apiKey: "sk_us_3" } }),
      nested: [{ accessToken: "tok_1", name: "a" }],
      encrypted: { [SIG]: "1b47061264138c4ac30d75fd1eb44270", ciphertext: "v1:abc" },
      yaml: "us:\n  password: hunter2hunter2\n",
      marked: "[secret]",
      plain: "https://hooks.acme.example",
      count: 3,
      flag: false,
    };
    const out = r.value(inputs);
    expect(out).toEqual({
      __provider: "x",
      "billing:apiKey": REDACTED,
      "billing:sites": JSON.stringify({ us: { baseUrl: "https://us", apiKey: REDACTED } }),
      nested: [{ accessToken: REDACTED, name: "a" }],
      encrypted: REDACTED,
      yaml: `us:\n  password: "${REDACTED}"`,
      marked: REDACTED,
      plain: "https://hooks.acme.example",
      count: 3,
      flag: false,
    });
    // The original is left alone.
    expect(inputs.nested[0].accessToken).toBe("tok_1");
  });

  it("leaves a JSON string without credentials byte for byte", () => {
    const text = '{ "us": {"baseUrl": "https://us"} }';
    expect(r.value({ s: text })).toEqual({ s: text });
  });

  it("blanks the secret config's literal values in text, also the credentials inside a secret that holds JSON", () => {
    const log = `error: PUT /x: 401 for key ${KEY} and sk_eu_inner_42\n  + apiKey    : "sk_other"\n"accessToken":"t0k3n" PULUMI_CONFIG_PASSPHRASE=pass1234`;
    const out = r.text(log);
    for (const leak of [KEY, "sk_eu_inner_42", "sk_other", "t0k3n", "pass1234"]) expect(out).not.toContain(leak);
    expect(out).toContain('+ apiKey    : "[secret]"');
    expect(out).toContain('"accessToken":"[secret]"');
    expect(out).toContain("PULUMI_CONFIG_PASSPHRASE=[secret]");
  });

  it("leaves ordinary text alone", () => {
    for (const text of [
      "secret config billing:apiKey needs the environment variable US_KEY, which is not set",
      "webhooks: PUT /webhooks/settings.json: connect ECONNREFUSED 127.0.0.1:43351 (ECONNREFUSED)",
      "create billing:index:WebhookSettings webhooks",
      "see https://acme.example:8443/billing",
    ]) {
      expect(r.text(text)).toBe(text);
    }
  });

  it("blanks literals inside structured values' text, and short literals are not searched for", () => {
    expect(r.value({ diagnostics: [{ message: `the key ${KEY} was refused` }] })).toEqual({
      diagnostics: [{ message: `the key ${REDACTED} was refused` }],
    });
    expect(new Redactor(["abc"]).text("abc abc")).toBe("abc abc");
  });
});
