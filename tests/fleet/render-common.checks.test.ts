import { describe, expect, it } from "vitest";
import {
  check,
  checkDnsLabel,
  checkDnsSubdomain,
  checkInt,
  checkLabels,
  checkSecretEnv,
  checkSecretKeyRef,
  RenderOptionsError,
  type SecretKeyRef,
} from "../../fleet/render";

/**
 * The option checks both renderers share (fleet/render.ts): what each accepts, up to its limits, and the
 * whole message of what it refuses: the option, what it accepts, what it got (issue 24: render.ts's
 * mutants; render.test.ts reaches these only through the renderers, by a regex on the message's start).
 */

/** The message of the RenderOptionsError that `run` throws (any other outcome fails the test). */
function messageOf(run: () => unknown): string {
  let thrown: unknown;
  try {
    run();
  } catch (err) {
    thrown = err;
  }
  expect(thrown).toBeInstanceOf(RenderOptionsError);
  expect((thrown as Error).name).toBe("RenderOptionsError");
  return (thrown as Error).message;
}

const DNS_LABEL = (max: number) =>
  `a Kubernetes name of at most ${max} characters: lower-case letters, digits and '-', starting and ending with a letter or digit`;
const SUBDOMAIN = "a Kubernetes name of at most 253 characters: lower-case letters, digits, '-' and '.'";
const SECRET_REF = 'a Secret and its key, e.g. { name: "pulumi", key: "passphrase" }';
const SECRET_KEY = "a key of a Secret: letters, digits, '-', '_' and '.'";
const ENV_NAME = "the name of an environment variable, e.g. AWS_ACCESS_KEY_ID";
const LABEL_KEY = "a label key: [prefix/]name, the prefix a DNS name, the name at most 63 letters, digits, '-', '_' and '.'";
const LABEL_VALUE = "a label value: at most 63 letters, digits, '-', '_' and '.', starting and ending with a letter or digit";

/** A DNS subdomain of exactly `n` characters (n >= 190): three labels of 63 and a last one. */
const subdomainOf = (n: number) => `${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(n - 192)}`;

describe("check and RenderOptionsError", () => {
  it("passes when ok, and throws option, accepted and got (as JSON, or nothing) when not", () => {
    expect(check(true, "opt", "anything", undefined)).toBeUndefined();
    expect(messageOf(() => check(false, "opt", "what it takes", { a: [1, "b"] }))).toBe('opt: what it takes; got {"a":[1,"b"]}');
    expect(messageOf(() => check(false, "opt", "what it takes", undefined))).toBe("opt: what it takes; got nothing");
    expect(messageOf(() => check(false, "opt", "what it takes", "nothing"))).toBe('opt: what it takes; got "nothing"');
    expect(messageOf(() => check(false, "opt", "what it takes", null))).toBe("opt: what it takes; got null");
  });

  it("is an Error named RenderOptionsError", () => {
    const err = new RenderOptionsError("m");
    expect(err).toBeInstanceOf(Error);
    expect([err.name, err.message]).toEqual(["RenderOptionsError", "m"]);
  });
});

describe("checkDnsLabel: a Kubernetes name (DNS-1123 label)", () => {
  it.each([
    ["a", 63],
    ["0", 63],
    ["a1-b", 63],
    ["a--b", 63],
    ["a".repeat(63), 63],
    ["abcdefghij", 10],
  ] as const)("accepts %j (at most %i)", (value, max) => {
    expect(checkDnsLabel(value, "name", max)).toBeUndefined();
  });

  it("takes 63 characters at most by default", () => {
    expect(checkDnsLabel("a".repeat(63), "name")).toBeUndefined();
    expect(messageOf(() => checkDnsLabel("a".repeat(64), "name"))).toBe(`name: ${DNS_LABEL(63)}; got "${"a".repeat(64)}"`);
  });

  it.each([
    ["a".repeat(64), 63, `"${"a".repeat(64)}"`],
    ["abcdefghijk", 10, '"abcdefghijk"'],
    ["-a", 63, '"-a"'],
    ["a-", 63, '"a-"'],
    ["Billing", 63, '"Billing"'],
    ["a_b", 63, '"a_b"'],
    ["a.b", 63, '"a.b"'],
    ["", 63, '""'],
    [42, 63, "42"],
    [null, 63, "null"],
    [undefined, 63, "nothing"],
  ] as const)("refuses %j (at most %i)", (value, max, got) => {
    expect(messageOf(() => checkDnsLabel(value, "namespace", max))).toBe(`namespace: ${DNS_LABEL(max)}; got ${got}`);
  });
});

describe("checkDnsSubdomain: a Secret's or ConfigMap's name", () => {
  it.each(["a", "a.b-c.d", "0-9", subdomainOf(253)])("accepts %j", (value) => {
    expect(checkDnsSubdomain(value, "credentialsSecret.name")).toBeUndefined();
  });

  it.each([subdomainOf(254), "a..b", ".a", "a.", "A", "a.B", "a_b", "", 7, undefined])("refuses %j", (value) => {
    const got = value === undefined ? "nothing" : JSON.stringify(value);
    expect(messageOf(() => checkDnsSubdomain(value, "credentialsSecret.name"))).toBe(`credentialsSecret.name: ${SUBDOMAIN}; got ${got}`);
  });
});

describe("checkSecretKeyRef: a Secret's name and key", () => {
  it.each([
    { name: "pulumi", key: "passphrase" },
    { name: "a.b", key: "A-_.9" },
    { name: "x", key: "k" },
  ])("accepts %j", (ref) => {
    expect(checkSecretKeyRef(ref, "passphraseSecret")).toBeUndefined();
  });

  it.each([
    { ref: undefined, message: `passphraseSecret: ${SECRET_REF}; got nothing` },
    { ref: null, message: `passphraseSecret: ${SECRET_REF}; got null` },
    { ref: "pulumi", message: `passphraseSecret: ${SECRET_REF}; got "pulumi"` },
    { ref: { name: "pulumi" }, message: `passphraseSecret: ${SECRET_REF}; got {"name":"pulumi"}` },
    { ref: { key: "k" }, message: `passphraseSecret: ${SECRET_REF}; got {"key":"k"}` },
    { ref: { name: 5, key: "k" }, message: `passphraseSecret: ${SECRET_REF}; got {"name":5,"key":"k"}` },
    { ref: { name: "pulumi", key: 5 }, message: `passphraseSecret: ${SECRET_REF}; got {"name":"pulumi","key":5}` },
    { ref: { name: "Pulumi", key: "k" }, message: `passphraseSecret.name: ${SUBDOMAIN}; got "Pulumi"` },
    { ref: { name: "pulumi", key: "a/b" }, message: `passphraseSecret.key: ${SECRET_KEY}; got "a/b"` },
    { ref: { name: "pulumi", key: "/a" }, message: `passphraseSecret.key: ${SECRET_KEY}; got "/a"` },
    { ref: { name: "pulumi", key: "a/" }, message: `passphraseSecret.key: ${SECRET_KEY}; got "a/"` },
    { ref: { name: "pulumi", key: "" }, message: `passphraseSecret.key: ${SECRET_KEY}; got ""` },
  ])("refuses $ref", ({ ref, message }) => {
    expect(messageOf(() => checkSecretKeyRef(ref as unknown as SecretKeyRef, "passphraseSecret"))).toBe(message);
  });
});

describe("checkSecretEnv: environment variable → Secret key", () => {
  it.each<Record<string, SecretKeyRef> | undefined>([
    undefined,
    {},
    { AWS_ACCESS_KEY_ID: { name: "aws", key: "id" }, _x9: { name: "aws", key: "x" }, a: { name: "b", key: "c" } },
  ])("accepts %j", (env) => {
    expect(checkSecretEnv(env, "extraSecretEnv")).toBeUndefined();
  });

  it.each<{ env: Record<string, SecretKeyRef>; message: string }>([
    { env: { "AWS-KEY": { name: "aws", key: "k" } }, message: `extraSecretEnv key: ${ENV_NAME}; got "AWS-KEY"` },
    { env: { "-A": { name: "aws", key: "k" } }, message: `extraSecretEnv key: ${ENV_NAME}; got "-A"` },
    { env: { "9X": { name: "aws", key: "k" } }, message: `extraSecretEnv key: ${ENV_NAME}; got "9X"` },
    { env: { "": { name: "aws", key: "k" } }, message: `extraSecretEnv key: ${ENV_NAME}; got ""` },
    {
      env: { GOOD: { name: "aws", key: "k" }, A: { name: "aws" } as SecretKeyRef },
      message: `extraSecretEnv.A: ${SECRET_REF}; got {"name":"aws"}`,
    },
    { env: { A: { name: "Aws", key: "k" } }, message: `extraSecretEnv.A.name: ${SUBDOMAIN}; got "Aws"` },
    { env: { A: { name: "aws", key: "k k" } }, message: `extraSecretEnv.A.key: ${SECRET_KEY}; got "k k"` },
  ])("refuses $env", ({ env, message }) => {
    expect(messageOf(() => checkSecretEnv(env, "extraSecretEnv"))).toBe(message);
  });
});

describe("checkLabels: extra labels", () => {
  it.each<Record<string, string> | undefined>([
    undefined,
    {},
    { team: "billing", x: "a", "x-y_z.w": "" },
    { "example.com/tier": "gold", "a/x": "v1.2_3-4", "a.b/x": "A", "a.b.c/x": "a".repeat(63) },
    { "k8s.example/x": "b", "app.kubernetes.io/component": "fleet", [`${"p".repeat(253)}/n`]: "v" },
    { ["n".repeat(63)]: "v", [`example.com/${"n".repeat(63)}`]: "v" },
  ])("accepts %j", (labels) => {
    expect(checkLabels(labels, "labels")).toBeUndefined();
  });

  it.each([
    "bad key",
    "-x",
    "x-",
    "a/b/c",
    "Example.com/x",
    "/x",
    "x/",
    "",
    "n".repeat(64),
    `example.com/${"n".repeat(64)}`,
    `${"p".repeat(254)}/n`,
  ])("refuses the key %j", (key) => {
    expect(messageOf(() => checkLabels({ team: "billing", [key]: "v" }, "labels"))).toBe(
      `labels key: ${LABEL_KEY}; got ${JSON.stringify(key)}`,
    );
  });

  it.each(["billing team", "-a", "a-", "_a", "a.", "a".repeat(64), 5, ["a"], null])("refuses the value %j", (value) => {
    expect(messageOf(() => checkLabels({ ok: "fine", team: value as string }, "labels"))).toBe(
      `labels.team: ${LABEL_VALUE}; got ${JSON.stringify(value)}`,
    );
  });
});

describe("checkInt: a whole number within bounds", () => {
  it.each([1, 2, 3])("accepts %i in [1, 3]", (value) => {
    expect(checkInt(value, "completions", 1, 3)).toBeUndefined();
  });

  it.each([
    [0, "0"],
    [4, "4"],
    [1.5, "1.5"],
    ["2", '"2"'],
    [Number.NaN, "null"],
    [undefined, "nothing"],
  ] as const)("refuses %j in [1, 3]", (value, got) => {
    expect(messageOf(() => checkInt(value, "completions", 1, 3))).toBe(`completions: a whole number from 1 to 3; got ${got}`);
  });

  it("says what the bounds are for when told", () => {
    expect(messageOf(() => checkInt(9, "parallelism", 2, 8, " (at most completions)"))).toBe(
      "parallelism: a whole number from 2 to 8 (at most completions); got 9",
    );
  });
});
