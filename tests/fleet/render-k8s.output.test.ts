import path from "node:path";
import { Job } from "kubernetes-models/batch/v1/Job";
import { ConfigMap } from "kubernetes-models/v1/ConfigMap";
import { describe, expect, it } from "vitest";
import { parseFleet } from "../../fleet/fleet-file";
import { fleetFileText, type JobOptions, renderJob } from "../../fleet/render-k8s";

/**
 * `billing-fleet render k8s`, the whole output compared: the ConfigMap and the Job as rendered, every field,
 * for the defaults and for every option given; the pods' sizing by the stacks each runs at once; the
 * environment's order. (Issue 24: render.test.ts checks parts; these fail on any other field or value.)
 */

const REPO = path.resolve(__dirname, "../..");
const FLEET_FILE = path.join(REPO, "fleets/prod.yaml");

/** Two sites, listed out of name order; secrets whose variables are out of name order too. */
const fleetYaml = (concurrency = "concurrency: 3\n") => `project: shop
backend: s3://state
${concurrency}program: ../examples/webhook-settings
secrets:
  billing:apiKey: ZED_KEY
sites:
  - name: b-site
    config:
      a:b: "1"
  - name: a-site
    stack: acme/a
    program: ../examples/reviewed-migration
    secrets:
      x:y: ALPHA_KEY
      x:z: MID_KEY
`;

const fleetOf = (concurrency?: string) => parseFleet(fleetYaml(concurrency), FLEET_FILE);

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

const FLEET_TEXT =
  "# Rendered by billing-fleet from prod.yaml: sites resolved, programs where the image holds them.\n" +
  "project: shop\n" +
  "concurrency: 3\n" +
  "sites:\n" +
  "  - name: b-site\n" +
  "    stack: b-site\n" +
  "    program: /app/examples/webhook-settings\n" +
  "    config:\n" +
  '      a:b: "1"\n' +
  "    secrets:\n" +
  "      billing:apiKey: ZED_KEY\n" +
  "  - name: a-site\n" +
  "    stack: acme/a\n" +
  "    program: /app/examples/reviewed-migration\n" +
  "    config: {}\n" +
  "    secrets:\n" +
  "      billing:apiKey: ZED_KEY\n" +
  "      x:y: ALPHA_KEY\n" +
  "      x:z: MID_KEY\n";

const COMMON = {
  "app.kubernetes.io/name": "billing-fleet",
  "app.kubernetes.io/part-of": "pulumi-subscription-billing",
};

const secretVar = (name: string, secret: string, key: string) => ({ name, valueFrom: { secretKeyRef: { name: secret, key } } });

/** kubernetes-models' validate(), typed here as render.test.ts does (node10 resolution cannot see its types). */
const validate = (model: object) => (model as { validate(): void }).validate();

const podFailurePolicy = { rules: [{ action: "Ignore", onPodConditions: [{ type: "DisruptionTarget", status: "True" }] }] };
const containerSecurity = { allowPrivilegeEscalation: false, capabilities: { drop: ["ALL"] } };

describe("renderJob: the whole ConfigMap and Job", () => {
  it("with the defaults: no namespace, the fleet file's concurrency sizing the pods, the default fleet file and state folder", async () => {
    const fleet = await fleetOf();
    const docs = renderJob(fleet, base());
    const labels = { ...COMMON, "app.kubernetes.io/instance": "shop-up", "app.kubernetes.io/component": "fleet-runner" };
    const jobLabels = { ...labels, "billing-fleet/operation": "up" };
    expect(docs).toStrictEqual([
      {
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name: "shop-up-fleet-6a8f8e9d7f", labels },
        immutable: true,
        data: { "fleet.yaml": FLEET_TEXT },
      },
      {
        apiVersion: "batch/v1",
        kind: "Job",
        metadata: {
          name: "shop-up",
          labels: jobLabels,
          annotations: { "billing-fleet/sites": "2", "billing-fleet/fleet-configmap": "shop-up-fleet-6a8f8e9d7f" },
        },
        spec: {
          completionMode: "Indexed",
          completions: 2,
          parallelism: 2,
          backoffLimitPerIndex: 0,
          podFailurePolicy,
          podReplacementPolicy: "Failed",
          ttlSecondsAfterFinished: 604800,
          template: {
            metadata: { labels: jobLabels },
            spec: {
              restartPolicy: "Never",
              automountServiceAccountToken: false,
              terminationGracePeriodSeconds: 120,
              securityContext: { runAsNonRoot: true, seccompProfile: { type: "RuntimeDefault" } },
              containers: [
                {
                  name: "billing-fleet",
                  image: "registry.example/fleet:1",
                  command: ["billing-fleet"],
                  args: ["up", "/etc/billing-fleet/fleet.yaml", "--state-dir", "/var/run/billing-fleet", "--plain"],
                  env: [
                    { name: "JOB_COMPLETIONS", value: "2" },
                    { name: "PULUMI_BACKEND_URL", value: "s3://state" },
                    { name: "PULUMI_SKIP_UPDATE_CHECK", value: "true" },
                    secretVar("PULUMI_CONFIG_PASSPHRASE", "pulumi", "passphrase"),
                    secretVar("ALPHA_KEY", "creds", "ALPHA_KEY"),
                    secretVar("MID_KEY", "creds", "MID_KEY"),
                    secretVar("ZED_KEY", "creds", "ZED_KEY"),
                  ],
                  // Three stacks at once (the fleet file's concurrency): 3 × 250m, 3 × 512Mi, 3 × 1Gi.
                  resources: { requests: { cpu: "750m", memory: "1536Mi" }, limits: { memory: "3Gi" } },
                  volumeMounts: [
                    { name: "fleet", mountPath: "/etc/billing-fleet", readOnly: true },
                    { name: "state", mountPath: "/var/run/billing-fleet" },
                  ],
                  securityContext: containerSecurity,
                },
              ],
              volumes: [
                { name: "fleet", configMap: { name: "shop-up-fleet-6a8f8e9d7f" } },
                { name: "state", emptyDir: {} },
              ],
            },
          },
        },
      },
    ]);
    expect(() => validate(new Job(JSON.parse(JSON.stringify(docs[1]))))).not.toThrow();
    expect(() => validate(new ConfigMap(JSON.parse(JSON.stringify(docs[0]))))).not.toThrow();
  });

  it("with every option given: each in its place, the extra variables and the fleet's in name order", async () => {
    const fleet = await fleetOf("");
    const docs = renderJob(
      fleet,
      base({
        operation: "refresh",
        completions: 2,
        parallelism: 1,
        name: "nightly",
        namespace: "billing",
        fleetFile: "/config/fleet/prod.yaml",
        concurrency: 5,
        backend: "https://api.pulumi.com",
        accessTokenSecret: { name: "pulumi", key: "token" },
        extraSecretEnv: {
          M_VAR: { name: "extra", key: "m" },
          A_VAR: { name: "extra", key: "a" },
          Z_VAR: { name: "extra", key: "z" },
          B_VAR: { name: "extra", key: "b" },
        },
        secretKeys: { MID_KEY: { name: "mid", key: "mid-key" } },
        envFromSecrets: ["cloud-a", "cloud-b"],
        serviceAccountName: "fleet-runner",
        runAsUser: 1000,
        command: ["node", "/app/dist/fleet/bin.js"],
        imagePullPolicy: "IfNotPresent",
        resources: { requests: { cpu: "2" }, limits: { memory: "8Gi" } },
        backoffLimitPerIndex: 2,
        activeDeadlineSeconds: 3600,
        ttlSecondsAfterFinished: 0,
        terminationGracePeriodSeconds: 0,
        labels: { team: "billing", "app.kubernetes.io/name": "hidden" },
      }),
    );
    const labels = { team: "billing", ...COMMON, "app.kubernetes.io/instance": "nightly", "app.kubernetes.io/component": "fleet-runner" };
    const jobLabels = { ...labels, "billing-fleet/operation": "refresh" };
    const text = FLEET_TEXT.replace("concurrency: 3\n", "");
    expect(fleetFileText(fleet, (p) => path.posix.join("/app", p), REPO)).toBe(text);
    expect(docs).toStrictEqual([
      {
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name: "nightly-fleet-475e1b1a55", namespace: "billing", labels },
        immutable: true,
        data: { "prod.yaml": text },
      },
      {
        apiVersion: "batch/v1",
        kind: "Job",
        metadata: {
          name: "nightly",
          namespace: "billing",
          labels: jobLabels,
          annotations: { "billing-fleet/sites": "2", "billing-fleet/fleet-configmap": "nightly-fleet-475e1b1a55" },
        },
        spec: {
          completionMode: "Indexed",
          completions: 2,
          parallelism: 1,
          backoffLimitPerIndex: 2,
          podFailurePolicy,
          podReplacementPolicy: "Failed",
          ttlSecondsAfterFinished: 0,
          activeDeadlineSeconds: 3600,
          template: {
            metadata: { labels: jobLabels },
            spec: {
              restartPolicy: "Never",
              serviceAccountName: "fleet-runner",
              automountServiceAccountToken: false,
              terminationGracePeriodSeconds: 0,
              securityContext: { runAsNonRoot: true, runAsUser: 1000, seccompProfile: { type: "RuntimeDefault" } },
              containers: [
                {
                  name: "billing-fleet",
                  image: "registry.example/fleet:1",
                  imagePullPolicy: "IfNotPresent",
                  command: ["node", "/app/dist/fleet/bin.js"],
                  args: ["refresh", "/config/fleet/prod.yaml", "--state-dir", "/var/run/billing-fleet", "--plain", "--concurrency", "5"],
                  env: [
                    { name: "JOB_COMPLETIONS", value: "2" },
                    { name: "PULUMI_BACKEND_URL", value: "https://api.pulumi.com" },
                    { name: "PULUMI_SKIP_UPDATE_CHECK", value: "true" },
                    secretVar("PULUMI_ACCESS_TOKEN", "pulumi", "token"),
                    secretVar("PULUMI_CONFIG_PASSPHRASE", "pulumi", "passphrase"),
                    secretVar("A_VAR", "extra", "a"),
                    secretVar("B_VAR", "extra", "b"),
                    secretVar("M_VAR", "extra", "m"),
                    secretVar("Z_VAR", "extra", "z"),
                    secretVar("ALPHA_KEY", "creds", "ALPHA_KEY"),
                    secretVar("MID_KEY", "mid", "mid-key"),
                    secretVar("ZED_KEY", "creds", "ZED_KEY"),
                  ],
                  envFrom: [{ secretRef: { name: "cloud-a" } }, { secretRef: { name: "cloud-b" } }],
                  resources: { requests: { cpu: "2" }, limits: { memory: "8Gi" } },
                  volumeMounts: [
                    { name: "fleet", mountPath: "/config/fleet", readOnly: true },
                    { name: "state", mountPath: "/var/run/billing-fleet" },
                  ],
                  securityContext: containerSecurity,
                },
              ],
              volumes: [
                { name: "fleet", configMap: { name: "nightly-fleet-475e1b1a55" } },
                { name: "state", emptyDir: {} },
              ],
            },
          },
        },
      },
    ]);
    expect(() => validate(new Job(JSON.parse(JSON.stringify(docs[1]))))).not.toThrow();
  });

  it("an empty envFromSecrets renders no envFrom", async () => {
    const container = (renderJob(await fleetOf(), base({ envFromSecrets: [] }))[1] as any).spec.template.spec.containers[0];
    expect(Object.keys(container)).toStrictEqual([
      "name",
      "image",
      "command",
      "args",
      "env",
      "resources",
      "volumeMounts",
      "securityContext",
    ]);
  });

  it.each(["Always", "IfNotPresent", "Never"] as const)("imagePullPolicy %s is rendered as given", async (policy) => {
    const container = (renderJob(await fleetOf(), base({ imagePullPolicy: policy }))[1] as any).spec.template.spec.containers[0];
    expect(container.imagePullPolicy).toBe(policy);
  });
});

describe("the pods' requests and limits: per stack a pod runs at once", () => {
  it.each([
    { given: { concurrency: 1 }, fleetConcurrency: "", args: ["--concurrency", "1"], cpu: "250m", memory: "512Mi", limit: "1Gi" },
    { given: { concurrency: 3 }, fleetConcurrency: "", args: ["--concurrency", "3"], cpu: "750m", memory: "1536Mi", limit: "3Gi" },
    { given: { concurrency: 6 }, fleetConcurrency: "", args: ["--concurrency", "6"], cpu: "1500m", memory: "3Gi", limit: "6Gi" },
    {
      given: { concurrency: 8 },
      fleetConcurrency: "concurrency: 3\n",
      args: ["--concurrency", "8"],
      cpu: "2",
      memory: "4Gi",
      limit: "8Gi",
    },
    // Neither the option nor the fleet file: the runner's default, 4.
    { given: {}, fleetConcurrency: "", args: [], cpu: "1", memory: "2Gi", limit: "4Gi" },
    { given: {}, fleetConcurrency: "concurrency: 5\n", args: [], cpu: "1250m", memory: "2560Mi", limit: "5Gi" },
  ])("$given, fleet file $fleetConcurrency: $cpu, $memory, limit $limit", async ({ given, fleetConcurrency, args, cpu, memory, limit }) => {
    const container = (renderJob(await fleetOf(fleetConcurrency), base(given))[1] as any).spec.template.spec.containers[0];
    expect(container.args).toStrictEqual([
      "up",
      "/etc/billing-fleet/fleet.yaml",
      "--state-dir",
      "/var/run/billing-fleet",
      "--plain",
      ...args,
    ]);
    expect(container.resources).toStrictEqual({ requests: { cpu, memory }, limits: { memory: limit } });
  });
});
