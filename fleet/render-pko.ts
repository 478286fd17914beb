import path from "node:path";
import type { Fleet, ResolvedSite } from "./fleet-file";
import {
  backendWithSecrets,
  COMMON_LABELS,
  check,
  checkDnsLabel,
  checkDnsSubdomain,
  checkInt,
  checkLabels,
  checkSecretEnv,
  checkSecretKeyRef,
  kubeName,
  type Manifest,
  programInRepo,
  RenderOptionsError,
  type SecretKeyRef,
  type SecretName,
  secretEnvRefs,
  withoutCredential,
} from "./render";
import { refusePolicyOnPko } from "./render-policy";

/**
 * `billing-fleet render pko`: the fleet as Pulumi Kubernetes Operator (v2)
 * `Stack` objects (pulumi.com/v1), one per site, so that the operator, not
 * a runner, keeps every site's stack up to date from a git repository.
 *
 * Each Stack takes its program from `projectRepo` at `branch` (followed:
 * the operator polls it) or `commit` (pinned), in `repoDir`: the site's
 * program directory relative to `repoRoot`, the local checkout of that
 * repository. A site whose program is a module file (an inline program)
 * cannot be run by the operator, which needs a Pulumi project directory.
 *
 * What the operator is given, and how:
 * - `config`: the site's plain config, as text (objects as JSON, as the
 *   runner gives them; `requireObject` reads them).
 * - `secretsRef`: each secret config key → the Secret key holding it
 *   (`credentialsSecret`, keyed by the environment variable the fleet file
 *   names, or `secretKeys`), type Secret; never a literal.
 * - `envRefs`: PULUMI_CONFIG_PASSPHRASE, PULUMI_ACCESS_TOKEN and
 *   `extraSecretEnv` (e.g. the object store's credentials), all by Secret.
 * - `backend`: the option, else the fleet file's; not file://.
 * - `destroyOnFinalize: false` unless asked: deleting a Stack object then
 *   leaves the site's resources alone.
 * - `workspaceReclaimPolicy: Delete` unless asked: a fleet's Stacks would
 *   otherwise each keep a workspace pod running between updates.
 *
 * Service account: in v2 every Stack runs in a workspace pod under
 * `serviceAccountName`, which must exist in the Stack's namespace and be
 * bound to the ClusterRole `system:auth-delegator` (the operator's
 * migration guide): renderPkoServiceAccount renders both. It also needs
 * whatever its programs use (e.g. a cloud identity for the object store).
 */
export interface PkoOptions {
  /** The git repository holding the programs (no credential in the URL: `gitAccessTokenSecret`). */
  readonly projectRepo: string;
  /** The branch to follow; give this or `commit`. */
  readonly branch?: string;
  /** The commit to deploy; give this or `branch`. */
  readonly commit?: string;
  /** The local checkout of `projectRepo`: each program's `repoDir` is its path relative to this. */
  readonly repoRoot: string;
  /** The workspace pods' service account (see above). */
  readonly serviceAccountName: string;
  readonly namespace?: string;
  /** State backend; default: the fleet file's `backend`. An object store or Pulumi Cloud, not file://. */
  readonly backend?: string;
  /** Prefixes a stack name that has no organization ("<org>/<stack>", as the operator names stacks). */
  readonly organization?: string;
  /** PULUMI_CONFIG_PASSPHRASE; required unless the backend is Pulumi Cloud. */
  readonly passphraseSecret?: SecretKeyRef;
  /** PULUMI_ACCESS_TOKEN; required when the backend is Pulumi Cloud (http/https). */
  readonly accessTokenSecret?: SecretKeyRef;
  /** The Secret whose keys are the environment variables the fleet's `secrets` name (key = variable name). */
  readonly credentialsSecret?: SecretName;
  /** Variables of the fleet's `secrets` held elsewhere than `credentialsSecret`. */
  readonly secretKeys?: Readonly<Record<string, SecretKeyRef>>;
  /** More environment of the workspace by Secret key, e.g. AWS_ACCESS_KEY_ID. */
  readonly extraSecretEnv?: Readonly<Record<string, SecretKeyRef>>;
  /** A token for a private `projectRepo` (gitAuth.accessToken). */
  readonly gitAccessTokenSecret?: SecretKeyRef;
  /** Refresh each stack before an update; default: the operator's (no). */
  readonly refresh?: boolean;
  /** Preview only, never update; default: the operator's (no). */
  readonly preview?: boolean;
  /** Destroy a site's stack when its Stack object is deleted; default false. */
  readonly destroyOnFinalize?: boolean;
  /** How often to poll `branch` (seconds, at least 60); default: the operator's (60). */
  readonly resyncFrequencySeconds?: number;
  /** Delete (default) or Retain each workspace pod after a successful update. */
  readonly workspaceReclaimPolicy?: "Delete" | "Retain";
  /** The workspace's image (Pulumi CLI and Node.js); default: the operator's (pulumi/pulumi:latest-nonroot). */
  readonly workspaceImage?: string;
  /** Prefixes each Stack object's name, which is the site's name (at most 42 characters in all). */
  readonly namePrefix?: string;
  readonly labels?: Readonly<Record<string, string>>;
  /**
   * Policy packs the fleet runs (`--policy-pack`): given (or their configs, or a fleet file with
   * `policyPackConfig`), the render is refused, since the operator cannot run them and its Stacks
   * would deploy unchecked.
   */
  readonly policyPacks?: readonly string[];
  /** Their config files (`--policy-pack-config`): refused as the packs are. */
  readonly policyPackConfigs?: readonly string[];
}

/** The operator's Stack: its apiVersion and kind (the CRD also serves v1alpha1, deprecated). */
export const PKO_STACK = { apiVersion: "pulumi.com/v1", kind: "Stack" } as const;

/** The operator refuses a Stack name over 42 characters (a CEL rule of its CRD: it names the workspace's pods after it). */
const STACK_NAME_MAX = 42;

type ResourceRef = { readonly type: "Secret"; readonly secret: SecretKeyRef };

const bySecret = (ref: SecretKeyRef): ResourceRef => ({ type: "Secret", secret: { name: ref.name, key: ref.key } });

/** What every Stack shares, checked. */
interface PkoPlan {
  readonly backend: string;
  readonly envRefs: Readonly<Record<string, ResourceRef>>;
  readonly secretRefs: ReadonlyMap<string, SecretKeyRef>;
  readonly repoDirs: ReadonlyMap<string, string>;
  readonly names: ReadonlyMap<string, string>;
}

/**
 * One operator Stack per site. Throws a RenderOptionsError, naming the
 * option, before rendering anything.
 */
export function renderPkoStacks(fleet: Fleet, opts: PkoOptions): Manifest[] {
  const plan = planPko(fleet, opts);
  return fleet.sites.map((site) => pkoStack(site, opts, plan));
}

function planPko(fleet: Fleet, opts: PkoOptions): PkoPlan {
  // The refusal is printed and logged: the credential that caused it is not.
  const shownRepo = typeof opts.projectRepo === "string" ? withoutCredential(opts.projectRepo) : opts.projectRepo;
  check(
    typeof opts.projectRepo === "string" && /^\S+$/.test(opts.projectRepo) && shownRepo === opts.projectRepo,
    "projectRepo",
    "the git repository's URL, e.g. https://github.com/acme/billing-infra.git, with no credential in it (gitAccessTokenSecret)",
    shownRepo,
  );
  check(
    (opts.branch === undefined) !== (opts.commit === undefined),
    "branch/commit",
    "exactly one: a branch to follow or a commit to deploy (the operator takes one; its schema does not check it)",
    { branch: opts.branch, commit: opts.commit },
  );
  if (opts.branch !== undefined)
    check(typeof opts.branch === "string" && /^\S+$/.test(opts.branch), "branch", "a branch name, e.g. main", opts.branch);
  if (opts.commit !== undefined)
    check(typeof opts.commit === "string" && /^[0-9a-f]{7,40}$/i.test(opts.commit), "commit", "a commit hash", opts.commit);
  check(typeof opts.repoRoot === "string" && opts.repoRoot !== "", "repoRoot", "the local checkout of projectRepo", opts.repoRoot);
  checkDnsSubdomain(opts.serviceAccountName, "serviceAccountName");
  if (opts.namespace !== undefined) checkDnsLabel(opts.namespace, "namespace");
  const backend = backendWithSecrets(fleet, opts);
  if (opts.organization !== undefined)
    check(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(opts.organization), "organization", "a Pulumi organization name", opts.organization);
  const secretRefs = secretEnvRefs(fleet, opts.credentialsSecret, opts.secretKeys);
  checkSecretEnv(opts.extraSecretEnv, "extraSecretEnv");
  if (opts.gitAccessTokenSecret !== undefined) checkSecretKeyRef(opts.gitAccessTokenSecret, "gitAccessTokenSecret");
  for (const flag of ["refresh", "preview", "destroyOnFinalize"] as const) {
    check(opts[flag] === undefined || typeof opts[flag] === "boolean", flag, "true or false", opts[flag]);
  }
  if (opts.resyncFrequencySeconds !== undefined)
    checkInt(opts.resyncFrequencySeconds, "resyncFrequencySeconds", 60, 2 ** 31 - 1, " (the operator treats less as 60)");
  check(
    opts.workspaceReclaimPolicy === undefined || opts.workspaceReclaimPolicy === "Delete" || opts.workspaceReclaimPolicy === "Retain",
    "workspaceReclaimPolicy",
    "Delete or Retain",
    opts.workspaceReclaimPolicy,
  );
  if (opts.workspaceImage !== undefined)
    check(/^\S+$/.test(opts.workspaceImage), "workspaceImage", "an image reference", opts.workspaceImage);
  if (opts.namePrefix !== undefined)
    check(
      /^[a-z0-9]([-a-z0-9]{0,19})?$/.test(opts.namePrefix),
      "namePrefix",
      "at most 20 lower-case letters, digits and '-'",
      opts.namePrefix,
    );
  checkLabels(opts.labels, "labels");
  refusePolicyOnPko(fleet, opts);

  const envRefs: Record<string, ResourceRef> = {};
  const setEnv = (name: string, ref: SecretKeyRef, source: string) => {
    check(!(name in envRefs), source, "a variable not already given by passphraseSecret or accessTokenSecret", name);
    envRefs[name] = bySecret(ref);
  };
  if (opts.passphraseSecret) setEnv("PULUMI_CONFIG_PASSPHRASE", opts.passphraseSecret, "passphraseSecret");
  if (opts.accessTokenSecret) setEnv("PULUMI_ACCESS_TOKEN", opts.accessTokenSecret, "accessTokenSecret");
  for (const [name, ref] of Object.entries(opts.extraSecretEnv ?? {})) setEnv(name, ref, `extraSecretEnv.${name}`);

  const repoDirs = new Map<string, string>();
  const names = new Map<string, string>();
  const taken = new Map<string, string>();
  for (const site of fleet.sites) {
    if (site.programKind !== "directory") {
      // The operator clones the repository and runs `pulumi up` in a project folder: it has no
      // way to call a module's exported function, which is what an inline program is.
      const shown = path.relative(path.resolve(opts.repoRoot), site.program) || site.program;
      throw new RenderOptionsError(
        `site "${site.name}": its program ${shown} is a module file (an inline program), and the Pulumi Kubernetes Operator ` +
          "runs only a Pulumi project directory (a folder holding Pulumi.yaml) from your repository. Give the site a project " +
          "directory as its program (program: ./site-project), or run this fleet on Kubernetes with `billing-fleet render k8s`",
      );
    }
    repoDirs.set(site.name, programInRepo(site, opts.repoRoot, "repoRoot"));
    const name = kubeName(`${opts.namePrefix ? `${opts.namePrefix}-` : ""}${site.name}`, STACK_NAME_MAX);
    const other = taken.get(name);
    check(
      other === undefined,
      "namePrefix",
      `a prefix under which sites "${other}" and "${site.name}" get names of their own`,
      opts.namePrefix,
    );
    taken.set(name, site.name);
    names.set(site.name, name);
  }
  return { backend: backend.url, envRefs, secretRefs, repoDirs, names };
}

/** The operator's fully qualified stack name. */
const stackName = (site: ResolvedSite, organization: string | undefined) =>
  organization !== undefined && !site.stack.includes("/") ? `${organization}/${site.stack}` : site.stack;

/** One site's Stack. */
function pkoStack(site: ResolvedSite, opts: PkoOptions, plan: PkoPlan): Manifest {
  const name = plan.names.get(site.name) as string;
  const repoDir = plan.repoDirs.get(site.name) as string;
  const secretsRef = Object.fromEntries(
    Object.entries(site.secrets).map(([key, env]) => [key, bySecret(plan.secretRefs.get(env) as SecretKeyRef)]),
  );
  return {
    ...PKO_STACK,
    metadata: {
      name,
      ...(opts.namespace !== undefined && { namespace: opts.namespace }),
      labels: { ...opts.labels, ...COMMON_LABELS, "app.kubernetes.io/instance": name, "app.kubernetes.io/component": "pko-stack" },
      // The names as the fleet file gives them (a label value could not hold every one).
      annotations: { "billing-fleet/site": site.name, "billing-fleet/stack": site.stack },
    },
    spec: {
      stack: stackName(site, opts.organization),
      projectRepo: opts.projectRepo,
      ...(opts.branch !== undefined ? { branch: opts.branch } : { commit: opts.commit }),
      ...(repoDir !== "" && { repoDir }),
      ...(opts.gitAccessTokenSecret && { gitAuth: { accessToken: bySecret(opts.gitAccessTokenSecret) } }),
      backend: plan.backend,
      ...(Object.keys(site.config).length > 0 && { config: { ...site.config } }),
      ...(Object.keys(secretsRef).length > 0 && { secretsRef }),
      ...(Object.keys(plan.envRefs).length > 0 && { envRefs: plan.envRefs }),
      serviceAccountName: opts.serviceAccountName,
      ...(opts.refresh !== undefined && { refresh: opts.refresh }),
      ...(opts.preview !== undefined && { preview: opts.preview }),
      ...(opts.resyncFrequencySeconds !== undefined && { resyncFrequencySeconds: opts.resyncFrequencySeconds }),
      destroyOnFinalize: opts.destroyOnFinalize ?? false,
      workspaceReclaimPolicy: opts.workspaceReclaimPolicy ?? "Delete",
      ...(opts.workspaceImage !== undefined && { workspaceTemplate: { spec: { image: opts.workspaceImage } } }),
    },
  };
}

/** Options of the workspace pods' service account. */
export interface PkoServiceAccountOptions {
  readonly serviceAccountName: string;
  /** Where the Stacks are: the binding's subject needs it. */
  readonly namespace: string;
  readonly labels?: Readonly<Record<string, string>>;
}

/**
 * The workspace pods' ServiceAccount and its ClusterRoleBinding to
 * `system:auth-delegator`, which the operator's v2 migration guide requires
 * of a workspace's service account (the role grants TokenReview and
 * SubjectAccessReview, nothing else). Apply once per namespace, before the
 * Stacks; the program's own permissions (e.g. a cloud identity annotation)
 * are added to the ServiceAccount by its owner.
 */
export function renderPkoServiceAccount(opts: PkoServiceAccountOptions): Manifest[] {
  checkDnsSubdomain(opts.serviceAccountName, "serviceAccountName");
  checkDnsLabel(opts.namespace, "namespace");
  checkLabels(opts.labels, "labels");
  const labels = { ...opts.labels, ...COMMON_LABELS, "app.kubernetes.io/component": "pko-workspace" };
  return [pkoServiceAccount(opts, labels), pkoAuthDelegator(opts, labels)];
}

function pkoServiceAccount(opts: PkoServiceAccountOptions, labels: Record<string, string>): Manifest {
  return { apiVersion: "v1", kind: "ServiceAccount", metadata: { name: opts.serviceAccountName, namespace: opts.namespace, labels } };
}

function pkoAuthDelegator(opts: PkoServiceAccountOptions, labels: Record<string, string>): Manifest {
  return {
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "ClusterRoleBinding",
    // Cluster-wide: the namespace is in the name so that two namespaces' accounts never share one binding.
    metadata: { name: `${opts.namespace}:${opts.serviceAccountName}:system:auth-delegator`, labels },
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "system:auth-delegator" },
    subjects: [{ kind: "ServiceAccount", name: opts.serviceAccountName, namespace: opts.namespace }],
  };
}
