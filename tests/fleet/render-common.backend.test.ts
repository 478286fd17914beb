import { describe, expect, it } from "vitest";
import type { Fleet, ResolvedSite } from "../../fleet/fleet-file";
import {
  backendOf,
  backendWithSecrets,
  programInRepo,
  RenderOptionsError,
  type SecretKeyRef,
  type SecretName,
  secretEnvRefs,
} from "../../fleet/render";

/**
 * What both renderers take from the fleet and their options (fleet/render.ts): the pods' shared state
 * backend and the Secret keys it needs, the Secret key of each variable the fleet's `secrets` name, and a
 * program's path in the checkout; each result whole, each refusal by its whole message (issue 24).
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
  return (thrown as Error).message;
}

const site = (name: string, secrets: Record<string, string> = {}, program = `/srv/checkout/examples/${name}`): ResolvedSite => ({
  name,
  stack: name,
  program,
  programKind: "directory",
  config: {},
  secrets,
});

const fleetOf = (backend: string | undefined, ...sites: ResolvedSite[]): Fleet => ({
  file: "/srv/checkout/fleets/prod.yaml",
  project: "billing-fleet",
  backend,
  concurrency: undefined,
  sites: sites.length > 0 ? sites : [site("us-store")],
});

const ACCEPTED =
  "a backend shared by every pod: an object store (s3://bucket, gs://bucket, azblob://container) or a Pulumi Cloud URL " +
  "(https://api.pulumi.com), from this option or the fleet file's `backend`";
const SECRET_REF = 'a Secret and its key, e.g. { name: "pulumi", key: "passphrase" }';
const SUBDOMAIN = "a Kubernetes name of at most 253 characters: lower-case letters, digits, '-' and '.'";
const ENV_NAME = "the name of an environment variable, e.g. AWS_ACCESS_KEY_ID";
const MISSING = (names: string) =>
  `a Secret holding, under keys of the same names, the environment variables the fleet's \`secrets\` name (${names}), or \`secretKeys\` for each`;

describe("backendOf: the pods' state backend", () => {
  it("the option wins over the fleet file's backend, which is used when there is no option", () => {
    expect(backendOf(fleetOf("gs://from-the-fleet"), "s3://from-the-option")).toEqual({
      url: "s3://from-the-option",
      kind: "object-store",
    });
    expect(backendOf(fleetOf("gs://from-the-fleet"), undefined)).toEqual({ url: "gs://from-the-fleet", kind: "object-store" });
    expect(backendOf(fleetOf(undefined), "https://api.pulumi.com")).toEqual({ url: "https://api.pulumi.com", kind: "cloud" });
  });

  it.each([
    ["https://api.pulumi.com", "cloud"],
    ["http://pulumi.internal:8080", "cloud"],
    ["HTTPS://API.PULUMI.COM", "cloud"],
    ["s3://billing-state?region=eu-west-1", "object-store"],
    ["S3://billing-state", "object-store"],
    ["gs://billing-state/prefix", "object-store"],
    ["azblob://billing-state", "object-store"],
    ["s3://billing-state/path@with-an-at", "object-store"],
    ["https://api.pulumi.com/?from=a@b", "cloud"],
    ["s3://billing-state/x?redirect=https://user@host", "object-store"],
  ] as const)("accepts %s, a %s backend", (url, kind) => {
    expect(backendOf(fleetOf(undefined), url)).toEqual({ url, kind });
  });

  const FILE = `${ACCEPTED} (a file:// backend lives on one pod's disk and goes with it)`;
  const CREDENTIAL = `backend: ${ACCEPTED}, with no credential in the URL (give it by Secret reference); got`;
  it.each([
    { fleet: undefined, option: undefined, message: `backend: ${ACCEPTED}; got nothing` },
    { fleet: "s3://state", option: "", message: `backend: ${ACCEPTED}; got ""` },
    { fleet: undefined, option: "file:///var/state", message: `backend: ${FILE}; got "file:///var/state"` },
    { fleet: "FILE:///var/state", option: undefined, message: `backend: ${FILE}; got "FILE:///var/state"` },
    { fleet: undefined, option: "postgres://db/state", message: `backend: ${ACCEPTED}; got "postgres://db/state"` },
    { fleet: undefined, option: "ftp://state", message: `backend: ${ACCEPTED}; got "ftp://state"` },
    { fleet: undefined, option: "billing-state", message: `backend: ${ACCEPTED}; got "billing-state"` },
    { fleet: undefined, option: "my bucket s3://state", message: `backend: ${ACCEPTED}; got "my bucket s3://state"` },
    // A refusal is printed and logged by CI: it shows the URL, never the credential in it.
    { fleet: undefined, option: "https://user:pw@pulumi.example", message: `${CREDENTIAL} "https://[secret]@pulumi.example"` },
    { fleet: undefined, option: "s3://key@billing-state", message: `${CREDENTIAL} "s3://[secret]@billing-state"` },
    { fleet: "gs://token@billing-state/x", option: undefined, message: `${CREDENTIAL} "gs://[secret]@billing-state/x"` },
    {
      fleet: undefined,
      option: "azblob://state?storage_account=acme&account_key=abc",
      message: `${CREDENTIAL} "azblob://state?storage_account=acme&account_key=[secret]"`,
    },
    { fleet: undefined, option: "ftp://u:pw@state", message: `backend: ${ACCEPTED}; got "ftp://[secret]@state"` },
    { fleet: undefined, option: "file://u:pw@/var/state", message: `backend: ${FILE}; got "file://[secret]@/var/state"` },
  ])("refuses fleet $fleet, option $option", ({ fleet, option, message }) => {
    expect(messageOf(() => backendOf(fleetOf(fleet), option))).toBe(message);
  });
});

describe("backendWithSecrets: the backend and the Secret keys its stacks need", () => {
  const passphraseSecret: SecretKeyRef = { name: "pulumi", key: "passphrase" };
  const accessTokenSecret: SecretKeyRef = { name: "pulumi", key: "token" };
  const OBJECT_STORE = { url: "s3://state", kind: "object-store" };
  const CLOUD = { url: "https://api.pulumi.com", kind: "cloud" };

  it.each([
    { name: "object store, passphrase", fleet: "s3://state", opts: { passphraseSecret }, result: OBJECT_STORE },
    {
      name: "object store, passphrase and token",
      fleet: "s3://state",
      opts: { passphraseSecret, accessTokenSecret },
      result: OBJECT_STORE,
    },
    { name: "Pulumi Cloud, token", fleet: "https://api.pulumi.com", opts: { accessTokenSecret }, result: CLOUD },
    {
      name: "Pulumi Cloud, token and passphrase",
      fleet: "https://api.pulumi.com",
      opts: { accessTokenSecret, passphraseSecret },
      result: CLOUD,
    },
    { name: "the option's backend", fleet: "s3://state", opts: { backend: "https://api.pulumi.com", accessTokenSecret }, result: CLOUD },
  ])("$name", ({ fleet, opts, result }) => {
    expect(backendWithSecrets(fleetOf(fleet), opts)).toEqual(result);
  });

  it.each([
    {
      name: "object store, no passphrase",
      fleet: "s3://state",
      opts: { accessTokenSecret },
      message:
        "passphraseSecret: the Secret key holding PULUMI_CONFIG_PASSPHRASE: stacks on s3://state encrypt their secrets with it; got nothing",
    },
    {
      name: "Pulumi Cloud, no token",
      fleet: "https://api.pulumi.com",
      opts: { passphraseSecret },
      message: "accessTokenSecret: the Secret key holding PULUMI_ACCESS_TOKEN, for https://api.pulumi.com; got nothing",
    },
    {
      name: "a passphrase with no key",
      fleet: "s3://state",
      opts: { passphraseSecret: { name: "pulumi" } as SecretKeyRef },
      message: `passphraseSecret: ${SECRET_REF}; got {"name":"pulumi"}`,
    },
    {
      name: "Pulumi Cloud: a bad passphrase is refused too",
      fleet: "https://api.pulumi.com",
      opts: { accessTokenSecret, passphraseSecret: { name: "Pulumi", key: "p" } },
      message: `passphraseSecret.name: ${SUBDOMAIN}; got "Pulumi"`,
    },
    {
      name: "a token in a badly named Secret",
      fleet: "https://api.pulumi.com",
      opts: { accessTokenSecret: { name: "Tokens", key: "t" } },
      message: `accessTokenSecret.name: ${SUBDOMAIN}; got "Tokens"`,
    },
    {
      name: "object store: a bad token is refused too",
      fleet: "s3://state",
      opts: { passphraseSecret, accessTokenSecret: { name: "pulumi" } as SecretKeyRef },
      message: `accessTokenSecret: ${SECRET_REF}; got {"name":"pulumi"}`,
    },
    {
      name: "no backend, before the Secrets",
      fleet: undefined,
      opts: {},
      message: `backend: ${ACCEPTED}; got nothing`,
    },
  ])("refuses: $name", ({ fleet, opts, message }) => {
    expect(messageOf(() => backendWithSecrets(fleetOf(fleet), opts))).toBe(message);
  });
});

describe("secretEnvRefs: the Secret key of each variable the fleet's secrets name", () => {
  /** Two sites sharing one variable, each with one of its own. */
  const twoSites = () =>
    fleetOf(
      "s3://state",
      site("us-store", { "billing:apiKey": "US_KEY", "billing:sites": "FLEET_SITES" }),
      site("eu-store", { "billing:apiKey": "EU_KEY", "billing:sites": "FLEET_SITES" }),
    );

  it("by default the key of the same name in credentialsSecret, each variable once, in the fleet's order", () => {
    expect([...secretEnvRefs(twoSites(), { name: "creds" }, undefined)]).toEqual([
      ["US_KEY", { name: "creds", key: "US_KEY" }],
      ["FLEET_SITES", { name: "creds", key: "FLEET_SITES" }],
      ["EU_KEY", { name: "creds", key: "EU_KEY" }],
    ]);
  });

  it("secretKeys points single variables elsewhere; variables the fleet does not name are left out", () => {
    const secretKeys = { EU_KEY: { name: "eu-store", key: "api-key" }, OTHER: { name: "x", key: "y" } };
    expect([...secretEnvRefs(twoSites(), { name: "creds" }, secretKeys)]).toEqual([
      ["US_KEY", { name: "creds", key: "US_KEY" }],
      ["FLEET_SITES", { name: "creds", key: "FLEET_SITES" }],
      ["EU_KEY", { name: "eu-store", key: "api-key" }],
    ]);
  });

  it("needs no credentialsSecret when secretKeys gives every variable", () => {
    const secretKeys = {
      FLEET_SITES: { name: "fleet", key: "sites" },
      EU_KEY: { name: "eu-store", key: "api-key" },
      US_KEY: { name: "us-store", key: "api-key" },
    };
    expect([...secretEnvRefs(twoSites(), undefined, secretKeys)]).toEqual([
      ["US_KEY", { name: "us-store", key: "api-key" }],
      ["FLEET_SITES", { name: "fleet", key: "sites" }],
      ["EU_KEY", { name: "eu-store", key: "api-key" }],
    ]);
  });

  it("a fleet without secrets needs no Secret at all", () => {
    expect([...secretEnvRefs(fleetOf("s3://state", site("a"), site("b")), undefined, undefined)]).toEqual([]);
  });

  it.each([
    {
      name: "no Secret: every variable named once",
      credentialsSecret: undefined,
      secretKeys: undefined,
      message: `credentialsSecret: ${MISSING("US_KEY, FLEET_SITES, EU_KEY")}; got nothing`,
    },
    {
      name: "secretKeys for some only",
      credentialsSecret: undefined,
      secretKeys: { US_KEY: { name: "us-store", key: "api-key" } },
      message: `credentialsSecret: ${MISSING("FLEET_SITES, EU_KEY")}; got nothing`,
    },
    {
      name: "credentialsSecret null",
      credentialsSecret: null,
      secretKeys: undefined,
      message: `credentialsSecret: { name: "a Secret" }; got null`,
    },
    {
      name: "credentialsSecret a bare name",
      credentialsSecret: "creds",
      secretKeys: undefined,
      message: `credentialsSecret: { name: "a Secret" }; got "creds"`,
    },
    {
      name: "credentialsSecret without a name",
      credentialsSecret: {},
      secretKeys: undefined,
      message: `credentialsSecret.name: ${SUBDOMAIN}; got nothing`,
    },
    {
      name: "credentialsSecret badly named, though secretKeys gives every variable",
      credentialsSecret: { name: "Creds" },
      secretKeys: { US_KEY: { name: "a", key: "b" }, FLEET_SITES: { name: "a", key: "c" }, EU_KEY: { name: "a", key: "d" } },
      message: `credentialsSecret.name: ${SUBDOMAIN}; got "Creds"`,
    },
    {
      name: "a secretKeys name that is no variable",
      credentialsSecret: { name: "creds" },
      secretKeys: { "eu-key": { name: "a", key: "b" } },
      message: `secretKeys key: ${ENV_NAME}; got "eu-key"`,
    },
    {
      name: "a secretKeys entry with no key",
      credentialsSecret: { name: "creds" },
      secretKeys: { EU_KEY: { name: "a" } },
      message: `secretKeys.EU_KEY: ${SECRET_REF}; got {"name":"a"}`,
    },
  ])("refuses: $name", ({ credentialsSecret, secretKeys, message }) => {
    expect(
      messageOf(() =>
        secretEnvRefs(twoSites(), credentialsSecret as SecretName | undefined, secretKeys as Record<string, SecretKeyRef> | undefined),
      ),
    ).toBe(message);
  });
});

describe("programInRepo: a program's path in the checkout", () => {
  it.each([
    ["/srv/checkout/examples/webhook-settings", "/srv/checkout", "examples/webhook-settings"],
    ["/srv/checkout/examples/webhook-settings", "/srv/checkout/", "examples/webhook-settings"],
    ["/srv/checkout/a/b/c/index.ts", "/srv/checkout", "a/b/c/index.ts"],
    ["/srv/checkout/site", "/srv/checkout", "site"],
    ["/srv/checkout", "/srv/checkout", ""],
    ["/srv/checkout", "/srv/checkout/examples/..", ""],
    ["/srv/checkout/..site/program", "/srv/checkout", "..site/program"],
    ["/srv/checkout/...", "/srv/checkout", "..."],
  ])("%s in %s is %j", (program, repoRoot, rel) => {
    expect(programInRepo(site("us-store", {}, program), repoRoot, "repoRoot")).toBe(rel);
  });

  it.each([
    ["/srv/other/program", "/srv/checkout"],
    ["/srv", "/srv/checkout"],
    ["/srv/..site/program", "/srv/checkout"],
    ["/srv/checkout-2/program", "/srv/checkout"],
    ["/elsewhere/program", "/srv/checkout"],
  ])("refuses %s outside %s", (program, repoRoot) => {
    expect(messageOf(() => programInRepo(site("us-store", {}, program), repoRoot, "repoRoot"))).toBe(
      `repoRoot: the local checkout that holds every site's program (site "us-store" runs ${program}); got ${JSON.stringify(repoRoot)}`,
    );
  });
});
