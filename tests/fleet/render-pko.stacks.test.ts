import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Fleet, ResolvedSite } from "../../fleet/fleet-file";
import { type PkoOptions, renderPkoServiceAccount, renderPkoStacks } from "../../fleet/render-pko";

/**
 * `billing-fleet render pko`: the whole rendered objects, compared strictly (a key set to undefined,
 * missing or added fails), for the defaults, for every option given, and for a site with nothing
 * optional (issue 24: the mutants of render-pko.ts's output).
 */

const REPO = path.resolve(__dirname, "../..");
const PROGRAM = path.join(REPO, "examples/webhook-settings");
const PROJECT_REPO = "https://github.com/acme/billing-infra.git";

const site = (name: string, over: Partial<ResolvedSite> = {}): ResolvedSite => ({
  name,
  stack: name,
  program: PROGRAM,
  programKind: "directory",
  config: { "billing:baseUrl": "https://billing.example", "webhooks:enabled": '{"us-store":true}' },
  secrets: { "billing:apiKey": "US_STORE_BILLING_API_KEY" },
  ...over,
});

const fleetOf = (...sites: ResolvedSite[]): Fleet => ({
  file: path.join(REPO, "fleets/prod.yaml"),
  project: "billing-fleet",
  backend: "s3://billing-pulumi-state",
  concurrency: undefined,
  sites,
});

const options = (over: Partial<PkoOptions> = {}): PkoOptions => ({
  projectRepo: PROJECT_REPO,
  branch: "main",
  repoRoot: REPO,
  serviceAccountName: "billing-fleet-workspace",
  passphraseSecret: { name: "pulumi", key: "passphrase" },
  credentialsSecret: { name: "billing-credentials" },
  ...over,
});

const COMMON = { "app.kubernetes.io/name": "billing-fleet", "app.kubernetes.io/part-of": "pulumi-subscription-billing" };
const stackLabels = (name: string, extra: Record<string, string> = {}) => ({
  ...extra,
  ...COMMON,
  "app.kubernetes.io/instance": name,
  "app.kubernetes.io/component": "pko-stack",
});
const secret = (name: string, key: string) => ({ type: "Secret", secret: { name, key } });
const PASSPHRASE = { PULUMI_CONFIG_PASSPHRASE: secret("pulumi", "passphrase") };
const CONFIG = { "billing:baseUrl": "https://billing.example", "webhooks:enabled": '{"us-store":true}' };

describe("renderPkoStacks: the whole Stack objects", () => {
  it("the defaults: a followed branch, no namespace, destroyOnFinalize false, workspaces deleted", () => {
    expect(renderPkoStacks(fleetOf(site("us-store")), options())).toStrictEqual([
      {
        apiVersion: "pulumi.com/v1",
        kind: "Stack",
        metadata: {
          name: "us-store",
          labels: stackLabels("us-store"),
          annotations: { "billing-fleet/site": "us-store", "billing-fleet/stack": "us-store" },
        },
        spec: {
          stack: "us-store",
          projectRepo: PROJECT_REPO,
          branch: "main",
          repoDir: "examples/webhook-settings",
          backend: "s3://billing-pulumi-state",
          config: CONFIG,
          secretsRef: { "billing:apiKey": secret("billing-credentials", "US_STORE_BILLING_API_KEY") },
          envRefs: PASSPHRASE,
          serviceAccountName: "billing-fleet-workspace",
          destroyOnFinalize: false,
          workspaceReclaimPolicy: "Delete",
        },
      },
    ]);
  });

  it("every option given: a pinned commit, Pulumi Cloud, an organization, a one-letter prefix, flags set to false", () => {
    const fleet = fleetOf(
      site("us-store"),
      site("eu-store", { stack: "emea/eu-store", secrets: { "billing:apiKey": "EU_STORE_BILLING_API_KEY" } }),
    );
    const stacks = renderPkoStacks(
      fleet,
      options({
        branch: undefined,
        commit: "0123456789abcdef0123456789abcdef01234567",
        namespace: "billing",
        backend: "https://api.pulumi.com",
        organization: "acme",
        accessTokenSecret: { name: "pulumi", key: "token" },
        extraSecretEnv: { AWS_REGION: { name: "aws", key: "region" } },
        gitAccessTokenSecret: { name: "git", key: "token" },
        secretKeys: { EU_STORE_BILLING_API_KEY: { name: "eu-store", key: "api-key" } },
        refresh: false,
        preview: false,
        destroyOnFinalize: true,
        resyncFrequencySeconds: 60,
        workspaceReclaimPolicy: "Retain",
        workspaceImage: "pulumi/pulumi:3.200.0-nonroot",
        namePrefix: "p",
        labels: { team: "billing" },
      }),
    );
    const spec = (stack: string, apiKey: ReturnType<typeof secret>) => ({
      stack,
      projectRepo: PROJECT_REPO,
      commit: "0123456789abcdef0123456789abcdef01234567",
      repoDir: "examples/webhook-settings",
      gitAuth: { accessToken: secret("git", "token") },
      backend: "https://api.pulumi.com",
      config: CONFIG,
      secretsRef: { "billing:apiKey": apiKey },
      envRefs: { ...PASSPHRASE, PULUMI_ACCESS_TOKEN: secret("pulumi", "token"), AWS_REGION: secret("aws", "region") },
      serviceAccountName: "billing-fleet-workspace",
      refresh: false,
      preview: false,
      resyncFrequencySeconds: 60,
      destroyOnFinalize: true,
      workspaceReclaimPolicy: "Retain",
      workspaceTemplate: { spec: { image: "pulumi/pulumi:3.200.0-nonroot" } },
    });
    expect(stacks).toStrictEqual([
      {
        apiVersion: "pulumi.com/v1",
        kind: "Stack",
        metadata: {
          name: "p-us-store",
          namespace: "billing",
          labels: stackLabels("p-us-store", { team: "billing" }),
          annotations: { "billing-fleet/site": "us-store", "billing-fleet/stack": "us-store" },
        },
        spec: spec("acme/us-store", secret("billing-credentials", "US_STORE_BILLING_API_KEY")),
      },
      {
        apiVersion: "pulumi.com/v1",
        kind: "Stack",
        metadata: {
          name: "p-eu-store",
          namespace: "billing",
          labels: stackLabels("p-eu-store", { team: "billing" }),
          annotations: { "billing-fleet/site": "eu-store", "billing-fleet/stack": "emea/eu-store" },
        },
        // A stack that names its organization keeps it.
        spec: spec("emea/eu-store", secret("eu-store", "api-key")),
      },
    ]);
  });

  it("nothing optional: the program at repoRoot itself (no repoDir), no config, no secrets, defaults given explicitly", () => {
    const fleet = fleetOf(site("root-site", { config: {}, secrets: {} }));
    const stacks = renderPkoStacks(
      fleet,
      options({
        repoRoot: PROGRAM,
        credentialsSecret: undefined,
        namePrefix: "prod",
        workspaceReclaimPolicy: "Delete",
        destroyOnFinalize: false,
        refresh: true,
        preview: true,
      }),
    );
    expect(stacks).toStrictEqual([
      {
        apiVersion: "pulumi.com/v1",
        kind: "Stack",
        metadata: {
          name: "prod-root-site",
          labels: stackLabels("prod-root-site"),
          annotations: { "billing-fleet/site": "root-site", "billing-fleet/stack": "root-site" },
        },
        spec: {
          stack: "root-site",
          projectRepo: PROJECT_REPO,
          branch: "main",
          backend: "s3://billing-pulumi-state",
          envRefs: PASSPHRASE,
          serviceAccountName: "billing-fleet-workspace",
          refresh: true,
          preview: true,
          destroyOnFinalize: false,
          workspaceReclaimPolicy: "Delete",
        },
      },
    ]);
  });

  it("a repository URL that is not itself a credential: a user-info further on, in its query, is accepted as it is", () => {
    const projectRepo = "https://github.com/acme/billing-infra.git?mirror=ssh://git@mirror.example";
    const stacks = renderPkoStacks(fleetOf(site("us-store")), options({ projectRepo }));
    expect(stacks.map((stack) => stack.spec)).toEqual([expect.objectContaining({ projectRepo })]);
  });
});

describe("renderPkoServiceAccount: the whole ServiceAccount and binding", () => {
  it.each([
    { name: "without labels", labels: undefined, extra: {} },
    { name: "with labels", labels: { team: "billing" }, extra: { team: "billing" } },
  ])("$name", ({ labels, extra }) => {
    const expectedLabels = { ...extra, ...COMMON, "app.kubernetes.io/component": "pko-workspace" };
    expect(renderPkoServiceAccount({ serviceAccountName: "billing-fleet-workspace", namespace: "billing", labels })).toStrictEqual([
      {
        apiVersion: "v1",
        kind: "ServiceAccount",
        metadata: { name: "billing-fleet-workspace", namespace: "billing", labels: expectedLabels },
      },
      {
        apiVersion: "rbac.authorization.k8s.io/v1",
        kind: "ClusterRoleBinding",
        metadata: { name: "billing:billing-fleet-workspace:system:auth-delegator", labels: expectedLabels },
        roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "system:auth-delegator" },
        subjects: [{ kind: "ServiceAccount", name: "billing-fleet-workspace", namespace: "billing" }],
      },
    ]);
  });
});
