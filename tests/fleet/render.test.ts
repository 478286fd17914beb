import { readFileSync } from "node:fs";
import path from "node:path";
import Ajv from "ajv";
import { Job } from "kubernetes-models/batch/v1/Job";
import { ClusterRoleBinding } from "kubernetes-models/rbac.authorization.k8s.io/v1/ClusterRoleBinding";
import { ConfigMap } from "kubernetes-models/v1/ConfigMap";
import { ServiceAccount } from "kubernetes-models/v1/ServiceAccount";
import { afterEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { type Fleet, parseFleet } from "../../fleet/fleet-file";
import { kubeName, type Manifest, RenderOptionsError, toYaml } from "../../fleet/render";
import { type JobOptions, renderJob } from "../../fleet/render-k8s";
import { PKO_STACK, type PkoOptions, renderPkoServiceAccount, renderPkoStacks } from "../../fleet/render-pko";
import { inShard, shardOf } from "../../fleet/shard";

/**
 * `billing-fleet render k8s|pko`: the manifests validate against the
 * Kubernetes API's schemas (kubernetes-models) and the Pulumi Kubernetes
 * Operator's vendored CRD (ajv), the Job's shards cover every stack once
 * as the runner computes them, no credential is ever written out, and bad
 * options fail by name before anything is rendered.
 */

const REPO = path.resolve(__dirname, "../..");
const FLEET_FILE = path.join(REPO, "fleets/prod.yaml");
// Vendored (unmodified, see its README): a clean clone has no ../shared.
const CRD_FILE = path.resolve(REPO, "tests/fixtures/k8s/pulumi.com_stacks.yaml");

/** A fleet whose values test the edges: an object value, YAML 1.1 booleans and octals as text, odd site names, fleet- and site-level secrets. */
const FLEET_YAML = `
project: billing-fleet
backend: s3://billing-pulumi-state?region=eu-west-1
program: ../examples/webhook-settings
config:
  billing:baseUrl: https://billing.example
  webhooks:enabled: { us-store: true }
secrets:
  billing:sites: FLEET_BILLING_SITES
sites:
  - name: us-store
    config:
      webhooks:mode: "on"
      webhooks:retries: "010"
  - name: eu_Store.Main-with-a-rather-long-name-for-a-kubernetes-object
    stack: acme/eu-store
    program: ../examples/reviewed-migration
    secrets:
      billing:apiKey: EU_STORE_BILLING_API_KEY
  - name: apac-store
    config:
      webhooks:window: "12:30"
`;

const fleetOf = (text = FLEET_YAML) => parseFleet(text, FLEET_FILE);

/** A fleet of `n` sites, all on one program. */
const fleetOfSize = (n: number) =>
  parseFleet(
    `program: ../examples/webhook-settings\nbackend: s3://state\nsites:\n${Array.from({ length: n }, (_, i) => `  - name: site-${i}\n`).join("")}`,
    FLEET_FILE,
  );

const jobOptions = (over: Partial<JobOptions> = {}): JobOptions => ({
  image: "registry.example/billing-fleet@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
  operation: "up",
  completions: 2,
  repoRoot: REPO,
  imageRepoRoot: "/app",
  namespace: "billing",
  passphraseSecret: { name: "pulumi", key: "passphrase" },
  credentialsSecret: { name: "billing-credentials" },
  ...over,
});

const pkoOptions = (over: Partial<PkoOptions> = {}): PkoOptions => ({
  projectRepo: "https://github.com/acme/billing-infra.git",
  branch: "main",
  repoRoot: REPO,
  serviceAccountName: "billing-fleet-workspace",
  namespace: "billing",
  passphraseSecret: { name: "pulumi", key: "passphrase" },
  credentialsSecret: { name: "billing-credentials" },
  ...over,
});

const jobOf = (docs: Manifest[]) => docs.find((d) => d.kind === "Job") as any;
const configMapOf = (docs: Manifest[]) => docs.find((d) => d.kind === "ConfigMap") as any;
const containerOf = (docs: Manifest[]) => jobOf(docs).spec.template.spec.containers[0];
const plain = (o: unknown) => JSON.parse(JSON.stringify(o));

/**
 * A kubernetes-models object's validate(), which throws with every schema error. Typed here because
 * this tsconfig's node10 resolution cannot see the types of @kubernetes-models/base (exports only).
 */
const validation = (model: object) => () => (model as { validate(): void }).validate();

describe("renderJob: an Indexed Job and its fleet ConfigMap", () => {
  const cases: { name: string; over: Partial<JobOptions> }[] = [
    { name: "object store, passphrase", over: {} },
    {
      name: "Pulumi Cloud, access token, no passphrase",
      over: { backend: "https://api.pulumi.com", passphraseSecret: undefined, accessTokenSecret: { name: "pulumi", key: "token" } },
    },
    {
      name: "everything given",
      over: {
        operation: "preview",
        completions: 3,
        parallelism: 1,
        name: "billing-preview-42",
        namespace: undefined,
        fleetFile: "/config/fleet/prod.yaml",
        concurrency: 8,
        extraSecretEnv: {
          AWS_ACCESS_KEY_ID: { name: "state-bucket", key: "id" },
          AWS_SECRET_ACCESS_KEY: { name: "state-bucket", key: "key" },
        },
        envFromSecrets: ["cloud-credentials"],
        secretKeys: { EU_STORE_BILLING_API_KEY: { name: "eu-store", key: "api-key" } },
        serviceAccountName: "billing-fleet",
        runAsUser: 1000,
        command: ["node", "/app/dist/fleet/bin.js"],
        imagePullPolicy: "IfNotPresent",
        resources: { requests: { cpu: "2", memory: "4Gi" }, limits: { memory: "8Gi" } },
        backoffLimitPerIndex: 2,
        activeDeadlineSeconds: 3600,
        ttlSecondsAfterFinished: 0,
        terminationGracePeriodSeconds: 300,
        labels: { team: "billing", "acme.example/cost-center": "cc-42" },
      },
    },
  ];

  it.each(cases)("validates with kubernetes-models: $name", async ({ over }) => {
    const docs = renderJob(await fleetOf(), jobOptions(over));
    expect(docs.map((d) => d.kind)).toEqual(["ConfigMap", "Job"]);
    expect(validation(new Job(plain(jobOf(docs))))).not.toThrow();
    expect(validation(new ConfigMap(plain(configMapOf(docs))))).not.toThrow();
  });

  it("the validation bites: a Job with a wrong field fails", async () => {
    const bad = plain(jobOf(renderJob(await fleetOf(), jobOptions())));
    bad.spec.completionMode = "Sharded";
    bad.spec.template.spec.containers[0].env[0].value = 3;
    expect(validation(new Job(bad))).toThrow(/completionMode|value/);
  });

  it("the runner's command, one pod per shard, the fleet file from the immutable ConfigMap", async () => {
    const docs = renderJob(await fleetOf(), jobOptions({ completions: 3, concurrency: 2 }));
    const job = jobOf(docs);
    const cm = configMapOf(docs);
    expect(job.metadata).toMatchObject({ name: "billing-fleet-up", namespace: "billing" });
    expect(job.spec).toMatchObject({
      completionMode: "Indexed",
      completions: 3,
      parallelism: 3,
      backoffLimitPerIndex: 0,
      podReplacementPolicy: "Failed",
    });
    const pod = job.spec.template.spec;
    expect(pod.restartPolicy).toBe("Never");
    const c = pod.containers[0];
    expect([...c.command, ...c.args]).toEqual([
      "billing-fleet",
      "up",
      "/etc/billing-fleet/fleet.yaml",
      "--state-dir",
      "/var/run/billing-fleet",
      "--plain",
      "--concurrency",
      "2",
    ]);
    // The parsed command line is one the runner accepts (the state folder off the read-only mount).
    expect(c.args).toContain("--state-dir");
    expect(c.env).toContainEqual({ name: "JOB_COMPLETIONS", value: "3" });
    expect(c.env).toContainEqual({ name: "PULUMI_BACKEND_URL", value: "s3://billing-pulumi-state?region=eu-west-1" });
    // Sized by the stacks a pod runs at once (here 2).
    expect(c.resources).toEqual({ requests: { cpu: "500m", memory: "1Gi" }, limits: { memory: "2Gi" } });
    expect(c.volumeMounts).toEqual([
      { name: "fleet", mountPath: "/etc/billing-fleet", readOnly: true },
      { name: "state", mountPath: "/var/run/billing-fleet" },
    ]);
    expect(pod.volumes).toEqual([
      { name: "fleet", configMap: { name: cm.metadata.name } },
      { name: "state", emptyDir: {} },
    ]);
    expect(cm.immutable).toBe(true);
    expect(Object.keys(cm.data)).toEqual(["fleet.yaml"]);
    expect(cm.metadata.name).toMatch(/^billing-fleet-up-fleet-[0-9a-f]{10}$/);
    // Labels select the pods, and the ConfigMaps to prune.
    for (const labels of [job.metadata.labels, job.spec.template.metadata.labels, cm.metadata.labels]) {
      expect(labels).toMatchObject({ "app.kubernetes.io/name": "billing-fleet", "app.kubernetes.io/instance": "billing-fleet-up" });
    }
  });

  it("the ConfigMap's name changes with the fleet, so a running Job keeps reading its own", async () => {
    const a = configMapOf(renderJob(await fleetOf(), jobOptions())).metadata.name;
    const b = configMapOf(renderJob(await fleetOf(FLEET_YAML.replace("12:30", "13:30")), jobOptions())).metadata.name;
    const again = configMapOf(renderJob(await fleetOf(), jobOptions())).metadata.name;
    expect(a).toBe(again);
    expect(a).not.toBe(b);
  });

  it("the pods' fleet file is the same fleet, programs where the image holds them", async () => {
    const fleet = await fleetOf();
    const text = configMapOf(renderJob(fleet, jobOptions({ imageRepoRoot: "/app" }))).data["fleet.yaml"];
    expect(parse(text).sites.map((s: any) => s.program)).toEqual([
      "/app/examples/webhook-settings",
      "/app/examples/reviewed-migration",
      "/app/examples/webhook-settings",
    ]);
    // Read back as the runner reads it (the checkout standing in for the image, so that its programs exist).
    const inPod = await parseFleet(
      configMapOf(renderJob(fleet, jobOptions({ imageRepoRoot: REPO }))).data["fleet.yaml"],
      "/etc/billing-fleet/fleet.yaml",
    );
    expect(inPod.sites).toEqual(fleet.sites);
    expect(inPod.project).toBe(fleet.project);
    expect(inPod.backend).toBeUndefined(); // PULUMI_BACKEND_URL, from the Job
  });
});

describe("shards: every stack in exactly one pod of the Job", () => {
  const table = [
    { sites: 1, completions: 1 },
    { sites: 5, completions: 2 },
    { sites: 7, completions: 7 },
    { sites: 40, completions: 3 },
    { sites: 100, completions: 8 },
  ];
  it.each(table)("$sites sites in $completions shards", async ({ sites, completions }) => {
    const docs = renderJob(await fleetOfSize(sites), jobOptions({ completions, credentialsSecret: undefined }));
    const job = jobOf(docs);
    const count = containerOf(docs).env.find((e: any) => e.name === "JOB_COMPLETIONS").value;
    // The stacks as the pods read them: the ConfigMap's fleet file.
    const stacks = parse(configMapOf(docs).data["fleet.yaml"]).sites.map((s: any) => s.stack as string);
    expect(stacks).toHaveLength(sites);
    const runs = new Map<string, number>();
    for (let index = 0; index < job.spec.completions; index++) {
      // As Kubernetes starts pod `index`: it sets JOB_COMPLETION_INDEX, the Job sets JOB_COMPLETIONS.
      const shard = shardOf(undefined, { JOB_COMPLETION_INDEX: String(index), JOB_COMPLETIONS: count });
      expect(shard).toEqual({ index, count: completions });
      for (const stack of stacks.filter((s: string) => inShard(s, shard))) runs.set(stack, (runs.get(stack) ?? 0) + 1);
    }
    expect([...runs.keys()].sort()).toEqual([...stacks].sort());
    expect([...runs.values()].every((n) => n === 1)).toBe(true);
  });
});

/**
 * The CRD's v1 schema, compiled by ajv in strict mode, so that a keyword or
 * format it does not know fails loudly rather than being skipped: the
 * Kubernetes extensions are declared (int-or-string checked, the others are
 * annotations for the API server), the formats defined. Only strictTypes is
 * off: Kubernetes' int-or-string fields carry `pattern` without `type`.
 */
function stackValidator() {
  const crd = parse(readFileSync(CRD_FILE, "utf8"));
  const v1 = crd.spec.versions.find((v: any) => v.name === "v1");
  const ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false });
  for (const keyword of [
    "x-kubernetes-preserve-unknown-fields",
    "x-kubernetes-list-type",
    "x-kubernetes-list-map-keys",
    "x-kubernetes-map-type",
    "x-kubernetes-validations",
  ]) {
    ajv.addKeyword({ keyword });
  }
  ajv.addKeyword({
    keyword: "x-kubernetes-int-or-string",
    validate: (on: boolean, data: unknown) => !on || typeof data === "string" || Number.isInteger(data),
  });
  ajv.addFormat("int32", { type: "number", validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 });
  ajv.addFormat("int64", { type: "number", validate: (n: number) => Number.isInteger(n) });
  ajv.addFormat("date-time", /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/i);
  const served = crd.spec.versions.filter((v: any) => v.served).map((v: any) => `${crd.spec.group}/${v.name}`);
  return {
    validate: ajv.compile(v1.schema.openAPIV3Schema),
    served,
    kind: crd.spec.names.kind,
    rules: v1.schema.openAPIV3Schema["x-kubernetes-validations"],
  };
}

describe("renderPkoStacks: one operator Stack per site", () => {
  const crd = stackValidator();

  const cases: { name: string; over: Partial<PkoOptions> }[] = [
    { name: "branch, object store", over: {} },
    {
      name: "commit, Pulumi Cloud, everything given",
      over: {
        branch: undefined,
        commit: "0123456789abcdef0123456789abcdef01234567",
        backend: "https://api.pulumi.com",
        organization: "acme",
        passphraseSecret: undefined,
        accessTokenSecret: { name: "pulumi", key: "token" },
        extraSecretEnv: { AWS_REGION_SECRET: { name: "aws", key: "region" } },
        gitAccessTokenSecret: { name: "git", key: "token" },
        secretKeys: { EU_STORE_BILLING_API_KEY: { name: "eu-store", key: "api-key" } },
        refresh: true,
        preview: true,
        destroyOnFinalize: true,
        resyncFrequencySeconds: 600,
        workspaceReclaimPolicy: "Retain",
        workspaceImage: "pulumi/pulumi:3.200.0-nonroot",
        namePrefix: "prod",
        labels: { team: "billing" },
      },
    },
  ];

  it.each(cases)("validates against the vendored CRD: $name", async ({ over }) => {
    const stacks = renderPkoStacks(await fleetOf(), pkoOptions(over));
    expect(stacks).toHaveLength(3);
    for (const stack of stacks) {
      expect(crd.validate(plain(stack)), JSON.stringify(crd.validate.errors)).toBe(true);
      expect(crd.served).toContain(stack.apiVersion);
      expect(stack.kind).toBe(crd.kind);
      // The CRD's one CEL rule, which JSON Schema cannot run.
      expect(crd.rules).toEqual([expect.objectContaining({ rule: "size(self.metadata.name) <= 42" })]);
      expect(stack.metadata.name.length).toBeLessThanOrEqual(42);
      expect(stack.metadata.name).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
    }
  });

  it("the CRD validation bites: a Stack with a wrong field type fails", async () => {
    const [stack] = renderPkoStacks(await fleetOf(), pkoOptions());
    const bad = plain(stack);
    bad.spec.destroyOnFinalize = "no";
    bad.spec.envRefs.PULUMI_CONFIG_PASSPHRASE = { secret: { name: "pulumi" } };
    expect(crd.validate(bad)).toBe(false);
    expect(crd.validate.errors?.map((e) => e.instancePath)).toEqual(
      expect.arrayContaining(["/spec/destroyOnFinalize", "/spec/envRefs/PULUMI_CONFIG_PASSPHRASE"]),
    );
  });

  it("each site's stack, program directory, config and secret references", async () => {
    const [us, eu, apac] = renderPkoStacks(await fleetOf(), pkoOptions({ organization: "acme" })) as any[];
    expect(us).toMatchObject({
      ...PKO_STACK,
      metadata: {
        name: "us-store",
        namespace: "billing",
        annotations: { "billing-fleet/site": "us-store", "billing-fleet/stack": "us-store" },
      },
      spec: {
        stack: "acme/us-store",
        projectRepo: "https://github.com/acme/billing-infra.git",
        branch: "main",
        repoDir: "examples/webhook-settings",
        backend: "s3://billing-pulumi-state?region=eu-west-1",
        config: {
          "billing:baseUrl": "https://billing.example",
          "webhooks:enabled": '{"us-store":true}',
          "webhooks:mode": "on",
          "webhooks:retries": "010",
        },
        secretsRef: { "billing:sites": { type: "Secret", secret: { name: "billing-credentials", key: "FLEET_BILLING_SITES" } } },
        envRefs: { PULUMI_CONFIG_PASSPHRASE: { type: "Secret", secret: { name: "pulumi", key: "passphrase" } } },
        serviceAccountName: "billing-fleet-workspace",
        destroyOnFinalize: false,
        workspaceReclaimPolicy: "Delete",
      },
    });
    expect(us.spec.commit).toBeUndefined();
    // A stack already qualified keeps its organization; the odd name becomes a Kubernetes name of its own.
    expect(eu.spec.stack).toBe("acme/eu-store");
    expect(eu.spec.repoDir).toBe("examples/reviewed-migration");
    expect(eu.metadata.name).toMatch(/^eu-store-main-with-a-rather-long-[0-9a-f]{8}$/);
    expect(eu.spec.secretsRef["billing:apiKey"]).toEqual({
      type: "Secret",
      secret: { name: "billing-credentials", key: "EU_STORE_BILLING_API_KEY" },
    });
    expect(apac.spec.secretsRef["billing:apiKey"]).toBeUndefined();
  });

  it("the workspace's ServiceAccount and its auth-delegator binding validate with kubernetes-models", () => {
    const [sa, binding] = renderPkoServiceAccount({ serviceAccountName: "billing-fleet-workspace", namespace: "billing" });
    expect(validation(new ServiceAccount(plain(sa)))).not.toThrow();
    expect(validation(new ClusterRoleBinding(plain(binding)))).not.toThrow();
    expect(binding).toMatchObject({
      roleRef: { kind: "ClusterRole", name: "system:auth-delegator" },
      subjects: [{ kind: "ServiceAccount", name: "billing-fleet-workspace", namespace: "billing" }],
    });
  });
});

describe("no credential is ever written out", () => {
  const SECRET_VALUES: Record<string, string> = {
    FLEET_BILLING_SITES: '{"us-store":{"apiKey":"sk_live_fleet_5f1c"}}',
    EU_STORE_BILLING_API_KEY: "sk_live_eu_9a7d3b",
    PULUMI_CONFIG_PASSPHRASE: "correct horse battery staple",
    PULUMI_ACCESS_TOKEN: "pul-0123456789abcdef",
    AWS_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
  };
  const saved = new Map<string, string | undefined>();
  afterEach(() => {
    for (const [k, v] of saved) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    saved.clear();
  });

  it("with the secrets' values in the environment, none appears in any manifest; each is a Secret reference", async () => {
    for (const [k, v] of Object.entries(SECRET_VALUES)) {
      saved.set(k, process.env[k]);
      process.env[k] = v;
    }
    const fleet = await fleetOf();
    const all = [
      ...renderJob(fleet, jobOptions({ extraSecretEnv: { AWS_SECRET_ACCESS_KEY: { name: "state", key: "AWS_SECRET_ACCESS_KEY" } } })),
      ...renderJob(fleet, jobOptions({ backend: "https://api.pulumi.com", accessTokenSecret: { name: "pulumi", key: "token" } })),
      ...renderPkoStacks(fleet, pkoOptions({ extraSecretEnv: { AWS_SECRET_ACCESS_KEY: { name: "state", key: "AWS_SECRET_ACCESS_KEY" } } })),
      ...renderPkoStacks(fleet, pkoOptions({ backend: "https://api.pulumi.com", accessTokenSecret: { name: "pulumi", key: "token" } })),
    ];
    const out = toYaml(all) + JSON.stringify(all);
    expect(out).not.toMatch(/sk_live|battery|pul-0123|wJalrXUtn/);
    for (const value of Object.values(SECRET_VALUES)) {
      expect(out).not.toContain(value);
    }

    const secretEnv = new Set(Object.keys(SECRET_VALUES));
    for (const doc of all as any[]) {
      if (doc.kind === "Job") {
        const c = doc.spec.template.spec.containers[0];
        for (const e of c.env) {
          if ("value" in e) expect(["JOB_COMPLETIONS", "PULUMI_BACKEND_URL", "PULUMI_SKIP_UPDATE_CHECK"]).toContain(e.name);
          else expect(Object.keys(e.valueFrom)).toEqual(["secretKeyRef"]);
        }
        const byRef = c.env.filter((e: any) => e.valueFrom).map((e: any) => e.name);
        expect(byRef).toEqual(expect.arrayContaining(["FLEET_BILLING_SITES", "EU_STORE_BILLING_API_KEY"]));
        expect([...secretEnv].filter((n) => byRef.includes(n)).length).toBeGreaterThanOrEqual(4);
      } else if (doc.kind === "Stack") {
        expect(doc.spec.secrets).toBeUndefined(); // the deprecated inline secrets
        for (const ref of [...Object.values(doc.spec.secretsRef ?? {}), ...Object.values(doc.spec.envRefs)] as any[]) {
          expect(Object.keys(ref).sort()).toEqual(["secret", "type"]);
          expect(ref.type).toBe("Secret");
        }
        for (const key of Object.keys(doc.spec.secretsRef ?? {})) expect(doc.spec.config?.[key]).toBeUndefined();
      }
    }
  });

  it("the renderers read no environment: the same manifests with it empty", async () => {
    const fleet = await fleetOf();
    const before = toYaml([...renderJob(fleet, jobOptions()), ...renderPkoStacks(fleet, pkoOptions())]);
    for (const [k, v] of Object.entries(SECRET_VALUES)) {
      saved.set(k, process.env[k]);
      process.env[k] = v;
    }
    saved.set("PULUMI_BACKEND_URL", process.env.PULUMI_BACKEND_URL);
    process.env.PULUMI_BACKEND_URL = "gs://from-the-environment";
    expect(toYaml([...renderJob(fleet, jobOptions()), ...renderPkoStacks(fleet, pkoOptions())])).toBe(before);
  });
});

describe("bad options: a clear error naming the option, before anything is rendered", () => {
  const jobCases: { name: string; over: Partial<JobOptions>; fleet?: string; error: RegExp }[] = [
    { name: "completions 0", over: { completions: 0 }, error: /^completions: a whole number from 1 to 3 .*got 0$/ },
    { name: "more shards than sites", over: { completions: 4 }, error: /^completions: .*this fleet has 3 sites.*got 4/ },
    { name: "completions not whole", over: { completions: 1.5 }, error: /^completions: a whole number/ },
    { name: "missing image", over: { image: undefined as unknown as string }, error: /^image: an image reference.*got nothing$/ },
    { name: "image with a space", over: { image: "billing fleet" }, error: /^image: / },
    {
      name: "unknown operation",
      over: { operation: "deploy" as JobOptions["operation"] },
      error: /^operation: one of preview, up, refresh, destroy; got "deploy"/,
    },
    { name: "parallelism over completions", over: { parallelism: 3 }, error: /^parallelism: a whole number from 1 to 2/ },
    { name: "relative imageRepoRoot", over: { imageRepoRoot: "app" }, error: /^imageRepoRoot: an absolute path/ },
    {
      name: "fleet file at /",
      over: { fleetFile: "/fleet.yaml" },
      error: /^fleetFile: an absolute path of a file in a directory of its own/,
    },
    { name: "namespace not a DNS label", over: { namespace: "Billing_Prod" }, error: /^namespace: a Kubernetes name of at most 63/ },
    { name: "name too long", over: { name: "x".repeat(64) }, error: /^name: a Kubernetes name of at most 63/ },
    { name: "concurrency 0", over: { concurrency: 0 }, error: /^concurrency: a whole number from 1 to 64/ },
    { name: "file backend", over: { backend: "file:///var/state" }, error: /^backend: .*a file:\/\/ backend lives on one pod's disk/ },
    {
      name: "no backend at all",
      over: {},
      fleet: FLEET_YAML.replace(/^backend: .*$/m, ""),
      error: /^backend: a backend shared by every pod.*got nothing$/,
    },
    { name: "unknown backend scheme", over: { backend: "postgres://db/state" }, error: /^backend: / },
    {
      name: "credential in the backend URL",
      over: { backend: "https://user:pw@pulumi.example" },
      error: /^backend: .*no credential in the URL.*got "https:\/\/\[secret\]@pulumi\.example"$/,
    },
    {
      name: "object store without passphrase",
      over: { passphraseSecret: undefined },
      error: /^passphraseSecret: the Secret key holding PULUMI_CONFIG_PASSPHRASE/,
    },
    {
      name: "Pulumi Cloud without token",
      over: { backend: "https://api.pulumi.com" },
      error: /^accessTokenSecret: the Secret key holding PULUMI_ACCESS_TOKEN/,
    },
    {
      name: "fleet secrets without a Secret",
      over: { credentialsSecret: undefined },
      error: /^credentialsSecret: .*\(FLEET_BILLING_SITES, EU_STORE_BILLING_API_KEY\)/,
    },
    {
      name: "passphrase without key",
      over: { passphraseSecret: { name: "pulumi" } as never },
      error: /^passphraseSecret: a Secret and its key/,
    },
    {
      name: "bad extra env name",
      over: { extraSecretEnv: { "AWS-KEY": { name: "aws", key: "k" } } },
      error: /^extraSecretEnv key: the name of an environment variable/,
    },
    {
      name: "a variable given twice",
      over: { extraSecretEnv: { PULUMI_CONFIG_PASSPHRASE: { name: "other", key: "p" } } },
      error: /^extraSecretEnv.PULUMI_CONFIG_PASSPHRASE: a variable not already set by passphraseSecret/,
    },
    {
      name: "program outside repoRoot",
      over: { repoRoot: path.join(REPO, "fleet") },
      error: /^repoRoot: the local checkout that holds every site's program/,
    },
    { name: "bad label", over: { labels: { team: "billing team" } }, error: /^labels.team: a label value/ },
    { name: "root user", over: { runAsUser: 0 }, error: /^runAsUser: a whole number from 1/ },
    { name: "empty command", over: { command: [] }, error: /^command: / },
  ];
  it.each(jobCases)("render k8s: $name", async ({ over, fleet, error }) => {
    const f = await fleetOf(fleet);
    let rendered: unknown;
    const attempt = () => {
      rendered = renderJob(f, jobOptions(over));
    };
    expect(attempt).toThrow(RenderOptionsError);
    expect(attempt).toThrow(error);
    expect(rendered).toBeUndefined();
  });

  const pkoCases: { name: string; over: Partial<PkoOptions>; fleet?: string; error: RegExp }[] = [
    { name: "both branch and commit", over: { commit: "0123456" }, error: /^branch\/commit: exactly one/ },
    { name: "neither branch nor commit", over: { branch: undefined }, error: /^branch\/commit: exactly one/ },
    {
      name: "no service account",
      over: { serviceAccountName: undefined as unknown as string },
      error: /^serviceAccountName: a Kubernetes name.*got nothing$/,
    },
    {
      name: "credential in the repo URL",
      over: { projectRepo: "https://x:ghp_abc@github.com/acme/r.git" },
      error: /^projectRepo: .*no credential in it/,
    },
    { name: "commit not a hash", over: { branch: undefined, commit: "main" }, error: /^commit: a commit hash/ },
    { name: "resync under a minute", over: { resyncFrequencySeconds: 30 }, error: /^resyncFrequencySeconds: a whole number from 60/ },
    {
      name: "a module program",
      over: {},
      fleet: FLEET_YAML.replace("program: ../examples/reviewed-migration", "program: ../examples/demo/index.ts"),
      error:
        /^site "eu_Store.Main.*": its program (\.\.\/)*examples\/demo\/index\.ts is a module file \(an inline program\), and the Pulumi Kubernetes Operator runs only a Pulumi project directory \(a folder holding Pulumi\.yaml\) from your repository\. Give the site a project directory as its program \(program: \.\/site-project\), or run this fleet on Kubernetes with `billing-fleet render k8s`$/,
    },
    { name: "prefix too long", over: { namePrefix: "p".repeat(21) }, error: /^namePrefix: at most 20/ },
    { name: "Pulumi Cloud without token", over: { backend: "https://api.pulumi.com" }, error: /^accessTokenSecret: / },
    { name: "refresh not a flag", over: { refresh: "yes" as unknown as boolean }, error: /^refresh: true or false; got "yes"/ },
  ];
  it.each(pkoCases)("render pko: $name", async ({ over, fleet, error }) => {
    const f = await fleetOf(fleet);
    expect(() => renderPkoStacks(f, pkoOptions(over))).toThrow(error);
  });

  it("render pko: the ServiceAccount needs a namespace", () => {
    expect(() => renderPkoServiceAccount({ serviceAccountName: "ws", namespace: undefined as unknown as string })).toThrow(
      /^namespace: a Kubernetes name/,
    );
  });
});

describe("toYaml and Kubernetes names", () => {
  it("several documents that read back the same under YAML 1.1 (kubectl) and 1.2", async () => {
    const fleet: Fleet = await fleetOf();
    const docs = [...renderJob(fleet, jobOptions()), ...renderPkoStacks(fleet, pkoOptions())];
    const text = toYaml(docs);
    const parts = text.split(/^---$/m);
    expect(parts).toHaveLength(docs.length);
    for (const version of ["1.1", "1.2"] as const) {
      expect(parts.map((p) => parse(p, { version }))).toEqual(plain(docs));
    }
    // The values a YAML 1.1 reader would take for a flag, a number or a time are quoted.
    expect(text).toContain('webhooks:mode: "on"');
    expect(text).toContain('webhooks:retries: "010"');
    expect(text).toContain('webhooks:window: "12:30"');
    expect(text).toContain('value: "true"');
  });

  it.each([
    ["us-store", 63, "us-store"],
    ["US-Store", 63, /^us-store-[0-9a-f]{8}$/],
    ["a_b", 63, /^a-b-[0-9a-f]{8}$/],
    ["___", 63, /^[0-9a-f]{8}$/],
    ["x".repeat(80), 42, /^x{33}-[0-9a-f]{8}$/],
  ] as const)("kubeName(%j, %i)", (text, max, expected) => {
    const name = kubeName(text, max);
    if (typeof expected === "string") expect(name).toBe(expected);
    else expect(name).toMatch(expected);
    expect(name.length).toBeLessThanOrEqual(max);
    expect(kubeName(text, max)).toBe(name);
  });

  it("names that differ only by punctuation stay apart", () => {
    expect(kubeName("a_b")).not.toBe(kubeName("a.b"));
  });
});
