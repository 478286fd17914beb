import path from "node:path";
import type { Fleet } from "./fleet-file";
import {
  backendWithSecrets,
  COMMON_LABELS,
  check,
  checkDnsLabel,
  checkDnsSubdomain,
  checkInt,
  checkLabels,
  checkSecretEnv,
  kubeName,
  type Manifest,
  pathInRepo,
  programInRepo,
  type SecretKeyRef,
  type SecretName,
  secretEnvRefs,
  shortHash,
  yamlText,
} from "./render";
import { type PolicyInImage, policyInImage } from "./render-policy";
import type { Operation } from "./report";

/**
 * `billing-fleet render k8s`: the fleet as a Kubernetes Indexed Job, one pod
 * per shard, each running `billing-fleet <operation> <fleet file>` on the
 * stacks of its shard (fleet/shard.ts: the pod's JOB_COMPLETION_INDEX, which
 * Kubernetes sets, of JOB_COMPLETIONS, which this Job sets to its
 * completions; stacks go to shards by a hash of their name).
 *
 * What is rendered, in apply order:
 * - a ConfigMap holding the fleet file, with every program's path mapped
 *   from the local checkout (`repoRoot`) to where the image holds it
 *   (`imageRepoRoot`). Its name carries a hash of its content and it is
 *   immutable, so every pod of a Job reads the same fleet (a pod started
 *   later never sees an edited fleet, which would move stacks between
 *   shards mid-run). Old ones are left to prune by label.
 * - the Job: `completionMode: Indexed`, `restartPolicy: Never`, a failed
 *   shard retried `backoffLimitPerIndex` times (default 0: the runner exits
 *   non-zero when any of its sites failed, so a retry would run the
 *   shard's other sites again; rerun the failed sites with a new Job) while
 *   the other shards go on; a pod evicted or preempted (DisruptionTarget) is
 *   replaced without counting as a failure, and only once it has stopped
 *   (`podReplacementPolicy: Failed`), so two pods never run one stack at
 *   once. Needs Kubernetes 1.29 or later (backoffLimitPerIndex: beta in
 *   1.29, GA in 1.33).
 *
 * Policy: the packs (`policyPacks`) and config files (`policyPackConfigs`, and the
 * fleet file's `policyPackConfig`) come with the checkout in the image, as the
 * programs do; each pod's runner gets them as `--policy-pack` /
 * `--policy-pack-config` and in its fleet file, so a pod checks what a run from
 * a terminal checks.
 *
 * Credentials: none is ever written out, and the renderer reads no
 * environment. Each environment variable the fleet's `secrets` name comes
 * from the key of the same name in `credentialsSecret` (or where
 * `secretKeys` says) by `secretKeyRef`, so a missing key stops the pod before
 * it runs (CreateContainerConfigError) instead of failing a site midway;
 * PULUMI_CONFIG_PASSPHRASE and PULUMI_ACCESS_TOKEN likewise; the backend's own
 * credentials by `extraSecretEnv`, `envFromSecrets` or the service
 * account's workload identity. The fleet file holds no credential by design.
 */

/** Requests and limits of the runner's container (Kubernetes quantities). */
export interface Resources {
  readonly requests?: Readonly<Record<string, string>>;
  readonly limits?: Readonly<Record<string, string>>;
}

export interface JobOptions {
  /** The image holding `billing-fleet` (this package, built) and the checkout of the programs; pin it by digest. */
  readonly image: string;
  readonly operation: Operation;
  /** Shards: pods in all, each running the stacks of its index; 1 to the number of sites. */
  readonly completions: number;
  /** Shards running at once; default: all of them. */
  readonly parallelism?: number;
  /** The local checkout the fleet's programs are in (their paths are taken relative to it). */
  readonly repoRoot: string;
  /** Where the image holds that checkout (an absolute path), e.g. "/app". */
  readonly imageRepoRoot: string;
  /** Where each pod reads the fleet file: the ConfigMap is mounted in its directory. Default /etc/billing-fleet/fleet.yaml. */
  readonly fleetFile?: string;
  readonly namespace?: string;
  /** The Job's name (a DNS label); default "<project>-<operation>", e.g. billing-fleet-up. */
  readonly name?: string;
  /** Stacks at once in each pod (`--concurrency`); default: the fleet file's, else the runner's (4). */
  readonly concurrency?: number;
  /** State backend; default: the fleet file's `backend`. Shared by all pods: an object store or Pulumi Cloud, not file://. */
  readonly backend?: string;
  /** PULUMI_CONFIG_PASSPHRASE (stack secrets); required unless the backend is Pulumi Cloud. */
  readonly passphraseSecret?: SecretKeyRef;
  /** PULUMI_ACCESS_TOKEN; required when the backend is Pulumi Cloud (http/https). */
  readonly accessTokenSecret?: SecretKeyRef;
  /** The Secret whose keys are the environment variables the fleet's `secrets` name (key = variable name). */
  readonly credentialsSecret?: SecretName;
  /** Variables of the fleet's `secrets` held elsewhere than `credentialsSecret` (variable → Secret key). */
  readonly secretKeys?: Readonly<Record<string, SecretKeyRef>>;
  /** More variables by Secret key, e.g. the object store's AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY. */
  readonly extraSecretEnv?: Readonly<Record<string, SecretKeyRef>>;
  /** Secrets whose every key becomes a variable (`envFrom`), e.g. a cloud's credentials. */
  readonly envFromSecrets?: readonly string[];
  /** The pods' service account, e.g. one bound to a cloud identity for the object store; default: the namespace's. */
  readonly serviceAccountName?: string;
  /** The image's user when it names none numerically (the pods run as non-root). */
  readonly runAsUser?: number;
  /** How the image starts the runner; default ["billing-fleet"]. */
  readonly command?: readonly string[];
  readonly imagePullPolicy?: "Always" | "IfNotPresent" | "Never";
  /** Default: per stack the pod runs at once, 250m CPU and 512Mi requested, 1Gi memory limit; no CPU limit. */
  readonly resources?: Resources;
  /** Retries of a failed shard (0 to 10; default 0). */
  readonly backoffLimitPerIndex?: number;
  /** A deadline for the whole Job, in seconds; default none. */
  readonly activeDeadlineSeconds?: number;
  /** How long a finished Job (and its pods' logs) is kept; default 7 days. */
  readonly ttlSecondsAfterFinished?: number;
  /** Time a pod has to stop its stacks cleanly when evicted; default 120 s (Kubernetes' 30 s cuts a resource operation short). */
  readonly terminationGracePeriodSeconds?: number;
  /** More labels for the ConfigMap, the Job and its pods. */
  readonly labels?: Readonly<Record<string, string>>;
  /** Policy pack folders in the local checkout (`--policy-pack`), run by every pod on preview and up. */
  readonly policyPacks?: readonly string[];
  /** Their config files in the local checkout, the n-th for the n-th pack (`--policy-pack-config`); over the fleet file's. */
  readonly policyPackConfigs?: readonly string[];
}

const OPERATIONS: readonly Operation[] = ["preview", "up", "refresh", "destroy"];
const DEFAULT_FLEET_FILE = "/etc/billing-fleet/fleet.yaml";
/** Each pod's scratch folder (an emptyDir): inline workspaces, per-site logs, the last report. */
const STATE_DIR = "/var/run/billing-fleet";
const RUNNER_CONCURRENCY = 4;

/** Everything the manifests are made of, checked. */
interface JobPlan {
  readonly name: string;
  readonly namespace: string | undefined;
  readonly labels: Readonly<Record<string, string>>;
  readonly fleetFile: string;
  readonly fleetText: string;
  readonly configMapName: string;
  readonly env: readonly EnvVar[];
  readonly policy: PolicyInImage;
}

type EnvVar =
  | { readonly name: string; readonly value: string }
  | { readonly name: string; readonly valueFrom: { readonly secretKeyRef: SecretKeyRef } };

/**
 * The fleet as Kubernetes manifests: [ConfigMap (the fleet file), Job].
 * Throws a RenderOptionsError, naming the option, before rendering anything.
 */
export function renderJob(fleet: Fleet, opts: JobOptions): Manifest[] {
  const plan = planJob(fleet, opts);
  return [fleetConfigMap(plan), indexedJob(fleet, opts, plan)];
}

function planJob(fleet: Fleet, opts: JobOptions): JobPlan {
  check(
    typeof opts.image === "string" && /^\S+$/.test(opts.image),
    "image",
    "an image reference, e.g. registry.example/billing-fleet@sha256:…",
    opts.image,
  );
  check(OPERATIONS.includes(opts.operation), "operation", `one of ${OPERATIONS.join(", ")}`, opts.operation);
  checkInt(
    opts.completions,
    "completions",
    1,
    fleet.sites.length,
    ` (the number of shards; this fleet has ${fleet.sites.length} site${fleet.sites.length === 1 ? "" : "s"})`,
  );
  if (opts.parallelism !== undefined)
    checkInt(opts.parallelism, "parallelism", 1, opts.completions, " (shards at once, at most completions)");
  check(
    typeof opts.repoRoot === "string" && opts.repoRoot !== "",
    "repoRoot",
    "the local checkout that holds the fleet's programs",
    opts.repoRoot,
  );
  check(
    typeof opts.imageRepoRoot === "string" && path.posix.isAbsolute(opts.imageRepoRoot),
    "imageRepoRoot",
    'an absolute path in the image, where it holds that checkout, e.g. "/app"',
    opts.imageRepoRoot,
  );
  const fleetFile = opts.fleetFile ?? DEFAULT_FLEET_FILE;
  check(
    path.posix.isAbsolute(fleetFile) && path.posix.dirname(fleetFile) !== "/" && !fleetFile.endsWith("/"),
    "fleetFile",
    "an absolute path of a file in a directory of its own (the ConfigMap is mounted over that directory), e.g. /etc/billing-fleet/fleet.yaml",
    fleetFile,
  );
  if (opts.namespace !== undefined) checkDnsLabel(opts.namespace, "namespace");
  const name = opts.name ?? kubeName(`${fleet.project}-${opts.operation}`);
  checkDnsLabel(name, "name");
  if (opts.concurrency !== undefined) checkInt(opts.concurrency, "concurrency", 1, 64, " (stacks at once in each pod)");
  const backend = backendWithSecrets(fleet, opts);
  const fleetSecrets = secretEnvRefs(fleet, opts.credentialsSecret, opts.secretKeys);
  checkSecretEnv(opts.extraSecretEnv, "extraSecretEnv");
  for (const [i, secret] of (opts.envFromSecrets ?? []).entries()) checkDnsSubdomain(secret, `envFromSecrets[${i}]`);
  if (opts.serviceAccountName !== undefined) checkDnsSubdomain(opts.serviceAccountName, "serviceAccountName");
  if (opts.runAsUser !== undefined) checkInt(opts.runAsUser, "runAsUser", 1, 2 ** 31 - 1, " (a non-root user id)");
  check(
    opts.command === undefined || (opts.command.length > 0 && opts.command.every((a) => typeof a === "string" && a !== "")),
    "command",
    'the runner\'s command line before its arguments, e.g. ["node", "/app/dist/fleet/bin.js"]',
    opts.command,
  );
  check(
    opts.imagePullPolicy === undefined || ["Always", "IfNotPresent", "Never"].includes(opts.imagePullPolicy),
    "imagePullPolicy",
    "Always, IfNotPresent or Never",
    opts.imagePullPolicy,
  );
  if (opts.backoffLimitPerIndex !== undefined)
    checkInt(opts.backoffLimitPerIndex, "backoffLimitPerIndex", 0, 10, " (retries of a failed shard)");
  if (opts.activeDeadlineSeconds !== undefined) checkInt(opts.activeDeadlineSeconds, "activeDeadlineSeconds", 1, 2 ** 31 - 1);
  if (opts.ttlSecondsAfterFinished !== undefined) checkInt(opts.ttlSecondsAfterFinished, "ttlSecondsAfterFinished", 0, 2 ** 31 - 1);
  if (opts.terminationGracePeriodSeconds !== undefined)
    checkInt(opts.terminationGracePeriodSeconds, "terminationGracePeriodSeconds", 0, 2 ** 31 - 1);
  checkLabels(opts.labels, "labels");
  const inImage = (inRepo: string) => path.posix.join(opts.imageRepoRoot, inRepo);
  const policy = policyInImage(fleet, opts, inImage);

  // Each variable once: a name given twice would leave Kubernetes to pick one silently.
  const env: EnvVar[] = [];
  const from = new Map<string, string>();
  const add = (v: EnvVar, source: string) => {
    const first = from.get(v.name);
    check(first === undefined, source, `a variable not already set by ${first}`, v.name);
    from.set(v.name, source);
    env.push(v);
  };
  const byRef = (name: string, ref: SecretKeyRef): EnvVar => ({ name, valueFrom: { secretKeyRef: { name: ref.name, key: ref.key } } });
  // Kubernetes sets JOB_COMPLETION_INDEX only; the runner needs the count too.
  add({ name: "JOB_COMPLETIONS", value: String(opts.completions) }, "the Job");
  add({ name: "PULUMI_BACKEND_URL", value: backend.url }, "backend");
  add({ name: "PULUMI_SKIP_UPDATE_CHECK", value: "true" }, "the Job");
  if (opts.accessTokenSecret) add(byRef("PULUMI_ACCESS_TOKEN", opts.accessTokenSecret), "accessTokenSecret");
  if (opts.passphraseSecret) add(byRef("PULUMI_CONFIG_PASSPHRASE", opts.passphraseSecret), "passphraseSecret");
  for (const [name, ref] of Object.entries(opts.extraSecretEnv ?? {}).sort(byKey)) add(byRef(name, ref), `extraSecretEnv.${name}`);
  for (const [name, ref] of [...fleetSecrets].sort(byKey)) add(byRef(name, ref), `the fleet's secrets (${name})`);

  const fleetText = fleetFileText(fleet, inImage, opts.repoRoot);
  const labels = { ...opts.labels, ...COMMON_LABELS, "app.kubernetes.io/instance": name, "app.kubernetes.io/component": "fleet-runner" };
  return {
    name,
    namespace: opts.namespace,
    labels,
    fleetFile,
    fleetText,
    configMapName: `${name}-fleet-${shortHash(fleetText)}`,
    env,
    policy,
  };
}

const byKey = <T>(a: readonly [string, T], b: readonly [string, T]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/**
 * The fleet file as the pods read it: every site resolved (its stack, its
 * merged config and secrets) with its program, and the policy config files,
 * at `programAt(path in the checkout)`; no backend (the pods get PULUMI_BACKEND_URL).
 */
export function fleetFileText(fleet: Fleet, programAt: (inRepo: string) => string, repoRoot: string): string {
  const configs = (files: readonly string[] | undefined) =>
    files && {
      policyPackConfig: files.map((f) => programAt(pathInRepo(f, repoRoot, "repoRoot", `the fleet's policyPackConfig (${f})`))),
    };
  const file = {
    project: fleet.project,
    ...(fleet.concurrency !== undefined && { concurrency: fleet.concurrency }),
    ...configs(fleet.policyPackConfig),
    sites: fleet.sites.map((site) => ({
      name: site.name,
      stack: site.stack,
      program: programAt(programInRepo(site, repoRoot, "repoRoot")),
      config: { ...site.config },
      secrets: { ...site.secrets },
      ...configs(site.policyPackConfig),
    })),
  };
  return `# Rendered by billing-fleet from ${path.basename(fleet.file)}: sites resolved, programs where the image holds them.\n${yamlText(file)}`;
}

function meta(plan: JobPlan, name: string, extra: Readonly<Record<string, string>> = {}) {
  return { name, ...(plan.namespace !== undefined && { namespace: plan.namespace }), labels: { ...plan.labels, ...extra } };
}

/** The fleet file, immutable, under a name that changes with its content. */
function fleetConfigMap(plan: JobPlan): Manifest {
  return {
    apiVersion: "v1",
    kind: "ConfigMap",
    metadata: meta(plan, plan.configMapName),
    immutable: true,
    data: { [path.posix.basename(plan.fleetFile)]: plan.fleetText },
  };
}

/** Quantities as people write them: "1" rather than "1000m", "2Gi" rather than "2048Mi". */
const cpu = (millis: number) => (millis % 1000 === 0 ? String(millis / 1000) : `${millis}m`);
const memory = (mi: number) => (mi % 1024 === 0 ? `${mi / 1024}Gi` : `${mi}Mi`);

/** The Indexed Job: one pod per shard. */
function indexedJob(fleet: Fleet, opts: JobOptions, plan: JobPlan): Manifest {
  const perPod = opts.concurrency ?? fleet.concurrency ?? RUNNER_CONCURRENCY;
  const labels = { "billing-fleet/operation": opts.operation };
  // The fleet file's folder is a read-only ConfigMap mount: workspaces and logs go to a scratch volume.
  const args = [
    opts.operation,
    plan.fleetFile,
    "--state-dir",
    STATE_DIR,
    "--plain",
    ...(opts.concurrency !== undefined ? ["--concurrency", String(opts.concurrency)] : []),
    ...plan.policy.packs.flatMap((pack) => ["--policy-pack", pack]),
    ...plan.policy.configs.flatMap((config) => ["--policy-pack-config", config]),
  ];
  return {
    apiVersion: "batch/v1",
    kind: "Job",
    metadata: {
      ...meta(plan, plan.name, labels),
      annotations: { "billing-fleet/sites": String(fleet.sites.length), "billing-fleet/fleet-configmap": plan.configMapName },
    },
    spec: {
      completionMode: "Indexed",
      completions: opts.completions,
      parallelism: opts.parallelism ?? opts.completions,
      backoffLimitPerIndex: opts.backoffLimitPerIndex ?? 0,
      podFailurePolicy: { rules: [{ action: "Ignore", onPodConditions: [{ type: "DisruptionTarget", status: "True" }] }] },
      podReplacementPolicy: "Failed",
      ttlSecondsAfterFinished: opts.ttlSecondsAfterFinished ?? 7 * 24 * 3600,
      ...(opts.activeDeadlineSeconds !== undefined && { activeDeadlineSeconds: opts.activeDeadlineSeconds }),
      template: {
        metadata: { labels: { ...plan.labels, ...labels } },
        spec: {
          restartPolicy: "Never",
          ...(opts.serviceAccountName !== undefined && { serviceAccountName: opts.serviceAccountName }),
          // The runner never calls the Kubernetes API; cloud workload identities project their own tokens.
          automountServiceAccountToken: false,
          terminationGracePeriodSeconds: opts.terminationGracePeriodSeconds ?? 120,
          securityContext: {
            runAsNonRoot: true,
            ...(opts.runAsUser !== undefined && { runAsUser: opts.runAsUser }),
            seccompProfile: { type: "RuntimeDefault" },
          },
          containers: [
            {
              name: "billing-fleet",
              image: opts.image,
              ...(opts.imagePullPolicy !== undefined && { imagePullPolicy: opts.imagePullPolicy }),
              command: [...(opts.command ?? ["billing-fleet"])],
              args,
              env: plan.env,
              ...(opts.envFromSecrets?.length && { envFrom: opts.envFromSecrets.map((name) => ({ secretRef: { name } })) }),
              resources: opts.resources ?? {
                // A pod runs up to `perPod` stacks at once, each a Pulumi engine and a Node.js program.
                requests: { cpu: cpu(250 * perPod), memory: memory(512 * perPod) },
                // No CPU limit: throttling only slows a deployment; the request already reserves its share.
                limits: { memory: memory(1024 * perPod) },
              },
              volumeMounts: [
                { name: "fleet", mountPath: path.posix.dirname(plan.fleetFile), readOnly: true },
                { name: "state", mountPath: STATE_DIR },
              ],
              securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ["ALL"] } },
            },
          ],
          volumes: [
            { name: "fleet", configMap: { name: plan.configMapName } },
            { name: "state", emptyDir: {} },
          ],
        },
      },
    },
  };
}
