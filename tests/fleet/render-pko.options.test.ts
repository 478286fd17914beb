import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Fleet, ResolvedSite } from "../../fleet/fleet-file";
import { kubeName, RenderOptionsError, withoutCredential } from "../../fleet/render";
import { type PkoOptions, renderPkoServiceAccount, renderPkoStacks } from "../../fleet/render-pko";

/**
 * `billing-fleet render pko`, bad options: each fails with a RenderOptionsError whose whole message
 * names the option, what it accepts and what it got (issue 24: the mutants of render-pko.ts's checks).
 */

const REPO = path.resolve(__dirname, "../..");
const PROGRAM = path.join(REPO, "examples/webhook-settings");

const site = (name: string, over: Partial<ResolvedSite> = {}): ResolvedSite => ({
  name,
  stack: name,
  program: PROGRAM,
  programKind: "directory",
  config: { "billing:baseUrl": "https://billing.example" },
  secrets: { "billing:apiKey": "US_STORE_BILLING_API_KEY" },
  ...over,
});

const fleetOf = (...sites: ResolvedSite[]): Fleet => ({
  file: path.join(REPO, "fleets/prod.yaml"),
  project: "billing-fleet",
  backend: "s3://billing-pulumi-state",
  concurrency: undefined,
  sites: sites.length > 0 ? sites : [site("us-store")],
});

const options = (over: Partial<PkoOptions> = {}): PkoOptions => ({
  projectRepo: "https://github.com/acme/billing-infra.git",
  branch: "main",
  repoRoot: REPO,
  serviceAccountName: "billing-fleet-workspace",
  passphraseSecret: { name: "pulumi", key: "passphrase" },
  credentialsSecret: { name: "billing-credentials" },
  ...over,
});

/** The message of the RenderOptionsError that `render` throws (any other outcome fails the test). */
function messageOf(render: () => unknown): string {
  let thrown: unknown;
  try {
    render();
  } catch (err) {
    thrown = err;
  }
  expect(thrown).toBeInstanceOf(RenderOptionsError);
  return (thrown as Error).message;
}

const REPO_URL =
  "the git repository's URL, e.g. https://github.com/acme/billing-infra.git, with no credential in it (gitAccessTokenSecret)";
const EXACTLY_ONE = "exactly one: a branch to follow or a commit to deploy (the operator takes one; its schema does not check it)";
const DNS_LABEL =
  "a Kubernetes name of at most 63 characters: lower-case letters, digits and '-', starting and ending with a letter or digit";
const NOT_TWICE = "a variable not already given by passphraseSecret or accessTokenSecret";

describe("renderPkoStacks: each bad option, by its whole message", () => {
  const cases: { name: string; over: Partial<PkoOptions>; message: string }[] = [
    { name: "no projectRepo", over: { projectRepo: undefined as unknown as string }, message: `projectRepo: ${REPO_URL}; got nothing` },
    {
      name: "projectRepo not text",
      over: { projectRepo: 42 as unknown as string },
      message: `projectRepo: ${REPO_URL}; got 42`,
    },
    {
      name: "projectRepo with a space",
      over: { projectRepo: "https://github.com/acme/billing infra.git" },
      message: `projectRepo: ${REPO_URL}; got "https://github.com/acme/billing infra.git"`,
    },
    // The credential that is refused is not in the refusal: it is printed, and logged by CI.
    {
      name: "projectRepo with a credential",
      over: { projectRepo: "https://x:ghp_abc@github.com/acme/r.git" },
      message: `projectRepo: ${REPO_URL}; got "https://[secret]@github.com/acme/r.git"`,
    },
    {
      name: "projectRepo with a token as its user",
      over: { projectRepo: "https://ghp_abc@github.com/acme/r.git" },
      message: `projectRepo: ${REPO_URL}; got "https://[secret]@github.com/acme/r.git"`,
    },
    {
      name: "projectRepo with a token in its query",
      over: { projectRepo: "https://gitlab.example/acme/r.git?private_token=glpat-abc&ref=main#top" },
      message: `projectRepo: ${REPO_URL}; got "https://gitlab.example/acme/r.git?private_token=[secret]&ref=main#top"`,
    },
    {
      name: "projectRepo with an encoded access_token in its query",
      over: { projectRepo: "https://h.example/r.git?ref=main&access%5Ftoken=abc" },
      message: `projectRepo: ${REPO_URL}; got "https://h.example/r.git?ref=main&access%5Ftoken=[secret]"`,
    },
    {
      name: "both branch and commit",
      over: { commit: "0123456" },
      message: `branch/commit: ${EXACTLY_ONE}; got {"branch":"main","commit":"0123456"}`,
    },
    { name: "neither branch nor commit", over: { branch: undefined }, message: `branch/commit: ${EXACTLY_ONE}; got {}` },
    { name: "branch not text", over: { branch: 3 as unknown as string }, message: "branch: a branch name, e.g. main; got 3" },
    { name: "branch with a space", over: { branch: "feature x" }, message: 'branch: a branch name, e.g. main; got "feature x"' },
    {
      name: "commit not text",
      over: { branch: undefined, commit: 1234567 as unknown as string },
      message: "commit: a commit hash; got 1234567",
    },
    { name: "commit not a hash", over: { branch: undefined, commit: "main" }, message: 'commit: a commit hash; got "main"' },
    {
      name: "commit after other text",
      over: { branch: undefined, commit: "xyz0123456" },
      message: 'commit: a commit hash; got "xyz0123456"',
    },
    {
      name: "commit before other text",
      over: { branch: undefined, commit: "0123456xyz" },
      message: 'commit: a commit hash; got "0123456xyz"',
    },
    {
      name: "no repoRoot",
      over: { repoRoot: undefined as unknown as string },
      message: "repoRoot: the local checkout of projectRepo; got nothing",
    },
    { name: "empty repoRoot", over: { repoRoot: "" }, message: 'repoRoot: the local checkout of projectRepo; got ""' },
    { name: "namespace not a DNS label", over: { namespace: "Billing" }, message: `namespace: ${DNS_LABEL}; got "Billing"` },
    {
      name: "organization starting with '-'",
      over: { organization: "-acme" },
      message: 'organization: a Pulumi organization name; got "-acme"',
    },
    {
      name: "organization with a space",
      over: { organization: "acme corp" },
      message: 'organization: a Pulumi organization name; got "acme corp"',
    },
    {
      name: "extraSecretEnv with a bad variable name",
      over: { extraSecretEnv: { "AWS-KEY": { name: "aws", key: "k" } } },
      message: 'extraSecretEnv key: the name of an environment variable, e.g. AWS_ACCESS_KEY_ID; got "AWS-KEY"',
    },
    {
      name: "gitAccessTokenSecret without key",
      over: { gitAccessTokenSecret: { name: "git" } as never },
      message: 'gitAccessTokenSecret: a Secret and its key, e.g. { name: "pulumi", key: "passphrase" }; got {"name":"git"}',
    },
    { name: "preview not a flag", over: { preview: "no" as unknown as boolean }, message: 'preview: true or false; got "no"' },
    {
      name: "destroyOnFinalize not a flag",
      over: { destroyOnFinalize: 1 as unknown as boolean },
      message: "destroyOnFinalize: true or false; got 1",
    },
    {
      name: "resync over int32",
      over: { resyncFrequencySeconds: 2 ** 31 },
      message: "resyncFrequencySeconds: a whole number from 60 to 2147483647 (the operator treats less as 60); got 2147483648",
    },
    {
      name: "resync under a minute",
      over: { resyncFrequencySeconds: 59 },
      message: "resyncFrequencySeconds: a whole number from 60 to 2147483647 (the operator treats less as 60); got 59",
    },
    {
      name: "unknown reclaim policy",
      over: { workspaceReclaimPolicy: "Keep" as "Delete" },
      message: 'workspaceReclaimPolicy: Delete or Retain; got "Keep"',
    },
    {
      name: "workspaceImage with a space",
      over: { workspaceImage: "pulumi/pulumi latest" },
      message: 'workspaceImage: an image reference; got "pulumi/pulumi latest"',
    },
    {
      name: "namePrefix upper-case",
      over: { namePrefix: "Prod" },
      message: `namePrefix: at most 20 lower-case letters, digits and '-'; got "Prod"`,
    },
    {
      name: "namePrefix too long",
      over: { namePrefix: "p".repeat(21) },
      message: `namePrefix: at most 20 lower-case letters, digits and '-'; got "${"p".repeat(21)}"`,
    },
    {
      name: "bad label value",
      over: { labels: { team: "billing team" } },
      message:
        "labels.team: a label value: at most 63 letters, digits, '-', '_' and '.', starting and ending with a letter or digit; got \"billing team\"",
    },
    {
      name: "extraSecretEnv giving the passphrase again",
      over: { extraSecretEnv: { PULUMI_CONFIG_PASSPHRASE: { name: "other", key: "p" } } },
      message: `extraSecretEnv.PULUMI_CONFIG_PASSPHRASE: ${NOT_TWICE}; got "PULUMI_CONFIG_PASSPHRASE"`,
    },
    {
      name: "extraSecretEnv giving the access token again",
      over: {
        accessTokenSecret: { name: "pulumi", key: "token" },
        extraSecretEnv: { AWS_REGION: { name: "aws", key: "region" }, PULUMI_ACCESS_TOKEN: { name: "other", key: "t" } },
      },
      message: `extraSecretEnv.PULUMI_ACCESS_TOKEN: ${NOT_TWICE}; got "PULUMI_ACCESS_TOKEN"`,
    },
  ];

  it.each(cases)("$name", ({ over, message }) => {
    expect(messageOf(() => renderPkoStacks(fleetOf(), options(over)))).toBe(message);
  });
});

describe("renderPkoStacks: sites the operator cannot run or cannot tell apart", () => {
  const INLINE =
    "is a module file (an inline program), and the Pulumi Kubernetes Operator runs only a Pulumi project directory " +
    "(a folder holding Pulumi.yaml) from your repository. Give the site a project directory as its program " +
    "(program: ./site-project), or run this fleet on Kubernetes with `billing-fleet render k8s`";
  const MODULE = path.join(REPO, "examples/demo/index.ts");

  it("a module program, shown relative to repoRoot", () => {
    const fleet = fleetOf(site("us-store"), site("eu-store", { program: MODULE, programKind: "module" }));
    expect(messageOf(() => renderPkoStacks(fleet, options()))).toBe(`site "eu-store": its program examples/demo/index.ts ${INLINE}`);
  });

  it("a module program that is repoRoot itself, shown by its whole path", () => {
    const fleet = fleetOf(site("eu-store", { program: MODULE, programKind: "module" }));
    expect(messageOf(() => renderPkoStacks(fleet, options({ repoRoot: MODULE })))).toBe(`site "eu-store": its program ${MODULE} ${INLINE}`);
  });

  it("two sites whose Kubernetes names would be one", () => {
    const clash = kubeName("X", 42); // "x-" and a hash of "X": also a name of its own
    const fleet = fleetOf(site("X"), site("us-store"), site(clash));
    expect(messageOf(() => renderPkoStacks(fleet, options()))).toBe(
      `namePrefix: a prefix under which sites "X" and "${clash}" get names of their own; got nothing`,
    );
  });

  it("two sites whose names under the prefix would be one", () => {
    const clash = kubeName("p-X", 42).slice("p-".length);
    const fleet = fleetOf(site("X"), site(clash));
    expect(messageOf(() => renderPkoStacks(fleet, options({ namePrefix: "p" })))).toBe(
      `namePrefix: a prefix under which sites "X" and "${clash}" get names of their own; got "p"`,
    );
  });
});

describe("renderPkoServiceAccount: each bad option, by its whole message", () => {
  it.each([
    {
      name: "no service account",
      opts: { serviceAccountName: undefined as unknown as string, namespace: "billing" },
      message: "serviceAccountName: a Kubernetes name of at most 253 characters: lower-case letters, digits, '-' and '.'; got nothing",
    },
    {
      name: "no namespace",
      opts: { serviceAccountName: "ws", namespace: undefined as unknown as string },
      message: `namespace: ${DNS_LABEL}; got nothing`,
    },
    {
      name: "a bad label key",
      opts: { serviceAccountName: "ws", namespace: "billing", labels: { "-team": "billing" } },
      message:
        "labels key: a label key: [prefix/]name, the prefix a DNS name, the name at most 63 letters, digits, '-', '_' and '.'; got \"-team\"",
    },
  ])("$name", ({ opts, message }) => {
    expect(messageOf(() => renderPkoServiceAccount(opts))).toBe(message);
  });
});

describe("withoutCredential: a repository URL as a refusal may show it", () => {
  it.each([
    ["https://github.com/acme/r.git", "https://github.com/acme/r.git"],
    ["git@github.com:acme/r.git", "git@github.com:acme/r.git"],
    ["ssh://git:pw@github.com/acme/r.git", "ssh://[secret]@github.com/acme/r.git"],
    ["https://github.com/acme/r.git?mirror=ssh://git@mirror.example", "https://github.com/acme/r.git?mirror=ssh://git@mirror.example"],
    ["https://h/r.git?token=a&password=b&x=1", "https://h/r.git?token=[secret]&password=[secret]&x=1"],
    ["https://h/r.git?bad%zz=1&token=a", "https://h/r.git?bad%zz=1&token=[secret]"],
    ["https://h/r.git#token=a", "https://h/r.git#token=a"],
    // Only a query's parameters are read as such: a path that looks like one is the path.
    ["https://h/a&token=x/r.git", "https://h/a&token=x/r.git"],
  ])("%s → %s", (url, shown) => {
    expect(withoutCredential(url)).toBe(shown);
  });
});
