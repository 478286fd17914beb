import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseFleet } from "../../fleet/fleet-file";
import { RenderOptionsError } from "../../fleet/render";
import { type JobOptions, renderJob } from "../../fleet/render-k8s";

/**
 * `billing-fleet render k8s`: each option given wrong fails with its whole message (the option, what it
 * accepts, what it got), at the edges of what it accepts; a variable set twice names both of its sources.
 * (Issue 24: render.test.ts matches the start of most messages; these compare them whole.)
 */

const REPO = path.resolve(__dirname, "../..");
const FLEET_FILE = path.join(REPO, "fleets/prod.yaml");

const FLEET_YAML = `project: shop
backend: s3://state
program: ../examples/webhook-settings
secrets:
  billing:apiKey: SHOP_KEY
sites:
  - name: a-site
  - name: b-site
  - name: c-site
`;

const base = (over: Partial<JobOptions> = {}): JobOptions => ({
  image: "registry.example/fleet:1",
  operation: "up",
  completions: 2,
  repoRoot: REPO,
  imageRepoRoot: "/app",
  passphraseSecret: { name: "pulumi", key: "passphrase" },
  credentialsSecret: { name: "creds" },
  ...over,
});

/** The error renderJob throws, as its class name and whole message; "rendered" when it throws none. */
const outcome = async (over: Partial<JobOptions>, fleetYaml = FLEET_YAML): Promise<{ error: string; message: string } | "rendered"> => {
  const fleet = await parseFleet(fleetYaml, FLEET_FILE);
  try {
    renderJob(fleet, base(over));
    return "rendered";
  } catch (e) {
    return { error: (e as Error).constructor.name, message: (e as Error).message };
  }
};

const MAX = 2 ** 31 - 1;
const K8S_SUBDOMAIN = "a Kubernetes name of at most 253 characters: lower-case letters, digits, '-' and '.'";
const COMMAND = 'the runner\'s command line before its arguments, e.g. ["node", "/app/dist/fleet/bin.js"]';
const IMAGE_ROOT = 'an absolute path in the image, where it holds that checkout, e.g. "/app"';
const FLEET_FILE_PATH =
  "an absolute path of a file in a directory of its own (the ConfigMap is mounted over that directory), e.g. /etc/billing-fleet/fleet.yaml";

describe("renderJob: an option given wrong, its whole message", () => {
  it.each<{ name: string; over: Partial<JobOptions>; message: string }>([
    {
      name: "image empty",
      over: { image: "" },
      message: 'image: an image reference, e.g. registry.example/billing-fleet@sha256:…; got ""',
    },
    {
      name: "completions over the sites",
      over: { completions: 4 },
      message: "completions: a whole number from 1 to 3 (the number of shards; this fleet has 3 sites); got 4",
    },
    {
      name: "parallelism over completions",
      over: { parallelism: 3 },
      message: "parallelism: a whole number from 1 to 2 (shards at once, at most completions); got 3",
    },
    {
      name: "parallelism 0",
      over: { parallelism: 0 },
      message: "parallelism: a whole number from 1 to 2 (shards at once, at most completions); got 0",
    },
    { name: "repoRoot empty", over: { repoRoot: "" }, message: `repoRoot: the local checkout that holds the fleet's programs; got ""` },
    {
      name: "repoRoot missing",
      over: { repoRoot: undefined as never },
      message: "repoRoot: the local checkout that holds the fleet's programs; got nothing",
    },
    {
      name: "repoRoot not a string",
      over: { repoRoot: 42 as never },
      message: "repoRoot: the local checkout that holds the fleet's programs; got 42",
    },
    { name: "imageRepoRoot relative", over: { imageRepoRoot: "app" }, message: `imageRepoRoot: ${IMAGE_ROOT}; got "app"` },
    { name: "imageRepoRoot not a string", over: { imageRepoRoot: 42 as never }, message: `imageRepoRoot: ${IMAGE_ROOT}; got 42` },
    { name: "fleetFile relative", over: { fleetFile: "fleet.yaml" }, message: `fleetFile: ${FLEET_FILE_PATH}; got "fleet.yaml"` },
    { name: "fleetFile at /", over: { fleetFile: "/fleet.yaml" }, message: `fleetFile: ${FLEET_FILE_PATH}; got "/fleet.yaml"` },
    { name: "fleetFile a folder", over: { fleetFile: "/etc/fleet/" }, message: `fleetFile: ${FLEET_FILE_PATH}; got "/etc/fleet/"` },
    {
      name: "concurrency 65",
      over: { concurrency: 65 },
      message: "concurrency: a whole number from 1 to 64 (stacks at once in each pod); got 65",
    },
    {
      name: "second envFromSecrets",
      over: { envFromSecrets: ["cloud", "Cloud_B"] },
      message: `envFromSecrets[1]: ${K8S_SUBDOMAIN}; got "Cloud_B"`,
    },
    {
      name: "serviceAccountName",
      over: { serviceAccountName: "Fleet Runner" },
      message: `serviceAccountName: ${K8S_SUBDOMAIN}; got "Fleet Runner"`,
    },
    { name: "runAsUser 0", over: { runAsUser: 0 }, message: `runAsUser: a whole number from 1 to ${MAX} (a non-root user id); got 0` },
    {
      name: "runAsUser 2^31",
      over: { runAsUser: 2 ** 31 },
      message: `runAsUser: a whole number from 1 to ${MAX} (a non-root user id); got 2147483648`,
    },
    { name: "command empty", over: { command: [] }, message: `command: ${COMMAND}; got []` },
    { name: "command with an empty word", over: { command: ["node", ""] }, message: `command: ${COMMAND}; got ["node",""]` },
    { name: "command empty word first", over: { command: ["", "node"] }, message: `command: ${COMMAND}; got ["","node"]` },
    { name: "command with a number", over: { command: ["node", 1 as never] }, message: `command: ${COMMAND}; got ["node",1]` },
    {
      name: "imagePullPolicy unknown",
      over: { imagePullPolicy: "Sometimes" as never },
      message: 'imagePullPolicy: Always, IfNotPresent or Never; got "Sometimes"',
    },
    {
      name: "backoffLimitPerIndex 11",
      over: { backoffLimitPerIndex: 11 },
      message: "backoffLimitPerIndex: a whole number from 0 to 10 (retries of a failed shard); got 11",
    },
    {
      name: "backoffLimitPerIndex -1",
      over: { backoffLimitPerIndex: -1 },
      message: "backoffLimitPerIndex: a whole number from 0 to 10 (retries of a failed shard); got -1",
    },
    {
      name: "activeDeadlineSeconds 0",
      over: { activeDeadlineSeconds: 0 },
      message: `activeDeadlineSeconds: a whole number from 1 to ${MAX}; got 0`,
    },
    {
      name: "activeDeadlineSeconds 2^31",
      over: { activeDeadlineSeconds: 2 ** 31 },
      message: `activeDeadlineSeconds: a whole number from 1 to ${MAX}; got 2147483648`,
    },
    {
      name: "ttlSecondsAfterFinished -1",
      over: { ttlSecondsAfterFinished: -1 },
      message: `ttlSecondsAfterFinished: a whole number from 0 to ${MAX}; got -1`,
    },
    {
      name: "ttlSecondsAfterFinished 2^31",
      over: { ttlSecondsAfterFinished: 2 ** 31 },
      message: `ttlSecondsAfterFinished: a whole number from 0 to ${MAX}; got 2147483648`,
    },
    {
      name: "terminationGracePeriodSeconds -1",
      over: { terminationGracePeriodSeconds: -1 },
      message: `terminationGracePeriodSeconds: a whole number from 0 to ${MAX}; got -1`,
    },
    {
      name: "terminationGracePeriodSeconds 2^31",
      over: { terminationGracePeriodSeconds: 2 ** 31 },
      message: `terminationGracePeriodSeconds: a whole number from 0 to ${MAX}; got 2147483648`,
    },
  ])("$name", async ({ over, message }) => {
    expect(await outcome(over)).toStrictEqual({ error: "RenderOptionsError", message });
  });

  it("a fleet of one site counts it in the singular", async () => {
    const one = FLEET_YAML.replace("  - name: b-site\n  - name: c-site\n", "");
    expect(await outcome({ completions: 2 }, one)).toStrictEqual({
      error: "RenderOptionsError",
      message: "completions: a whole number from 1 to 1 (the number of shards; this fleet has 1 site); got 2",
    });
  });

  it("the error is a RenderOptionsError by its class and name", async () => {
    const fleet = await parseFleet(FLEET_YAML, FLEET_FILE);
    let thrown: unknown;
    try {
      renderJob(fleet, base({ backoffLimitPerIndex: 11 }));
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(RenderOptionsError);
    expect((thrown as Error).name).toBe("RenderOptionsError");
  });
});

describe("renderJob: the edges of what each option accepts render", () => {
  it.each<{ name: string; over: Partial<JobOptions> }>([
    { name: "runAsUser 2^31 - 1", over: { runAsUser: MAX } },
    { name: "activeDeadlineSeconds 2^31 - 1", over: { activeDeadlineSeconds: MAX } },
    { name: "ttlSecondsAfterFinished 0 and 2^31 - 1", over: { ttlSecondsAfterFinished: 0, terminationGracePeriodSeconds: MAX } },
    {
      name: "backoffLimitPerIndex 10, terminationGracePeriodSeconds 0",
      over: { backoffLimitPerIndex: 10, terminationGracePeriodSeconds: 0 },
    },
    { name: "every imagePullPolicy", over: { imagePullPolicy: "Never" } },
    { name: "a command of one word", over: { command: ["fleet"] } },
    { name: "parallelism 1, concurrency 64", over: { parallelism: 1, concurrency: 64 } },
    { name: "a dotted service account and Secrets", over: { serviceAccountName: "fleet.runner", envFromSecrets: ["a.b", "c"] } },
  ])("$name", async ({ over }) => {
    expect(await outcome(over)).toBe("rendered");
  });
});

describe("renderJob: each variable set once, a second source named with the first", () => {
  it.each<{ name: string; over: Partial<JobOptions>; fleet?: string; message: string }>([
    {
      name: "an extra variable over the passphrase",
      over: { extraSecretEnv: { PULUMI_CONFIG_PASSPHRASE: { name: "other", key: "p" } } },
      message: 'extraSecretEnv.PULUMI_CONFIG_PASSPHRASE: a variable not already set by passphraseSecret; got "PULUMI_CONFIG_PASSPHRASE"',
    },
    {
      name: "an extra variable over the access token",
      over: {
        backend: "https://api.pulumi.com",
        accessTokenSecret: { name: "pulumi", key: "token" },
        extraSecretEnv: { PULUMI_ACCESS_TOKEN: { name: "other", key: "t" } },
      },
      message: 'extraSecretEnv.PULUMI_ACCESS_TOKEN: a variable not already set by accessTokenSecret; got "PULUMI_ACCESS_TOKEN"',
    },
    {
      name: "an extra variable over the Job's count",
      over: { extraSecretEnv: { JOB_COMPLETIONS: { name: "other", key: "n" } } },
      message: 'extraSecretEnv.JOB_COMPLETIONS: a variable not already set by the Job; got "JOB_COMPLETIONS"',
    },
    {
      name: "an extra variable over the backend",
      over: { extraSecretEnv: { PULUMI_BACKEND_URL: { name: "other", key: "u" } } },
      message: 'extraSecretEnv.PULUMI_BACKEND_URL: a variable not already set by backend; got "PULUMI_BACKEND_URL"',
    },
    {
      name: "an extra variable over the update check",
      over: { extraSecretEnv: { PULUMI_SKIP_UPDATE_CHECK: { name: "other", key: "s" } } },
      message: 'extraSecretEnv.PULUMI_SKIP_UPDATE_CHECK: a variable not already set by the Job; got "PULUMI_SKIP_UPDATE_CHECK"',
    },
    {
      name: "a fleet secret over an extra variable",
      over: { extraSecretEnv: { SHOP_KEY: { name: "other", key: "k" } } },
      message: `the fleet's secrets (SHOP_KEY): a variable not already set by extraSecretEnv.SHOP_KEY; got "SHOP_KEY"`,
    },
    {
      name: "a fleet secret over the passphrase",
      over: {},
      fleet: FLEET_YAML.replace("SHOP_KEY", "PULUMI_CONFIG_PASSPHRASE"),
      message: `the fleet's secrets (PULUMI_CONFIG_PASSPHRASE): a variable not already set by passphraseSecret; got "PULUMI_CONFIG_PASSPHRASE"`,
    },
  ])("$name", async ({ over, fleet, message }) => {
    expect(await outcome(over, fleet)).toStrictEqual({ error: "RenderOptionsError", message });
  });
});
