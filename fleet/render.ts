import { createHash } from "node:crypto";
import path from "node:path";
import { Document, parse, visit } from "yaml";
import { isCredentialKey } from "./credentials";
import type { Fleet, ResolvedSite } from "./fleet-file";
import { REDACTED } from "./redact";

/**
 * What the Kubernetes renderers (render-k8s.ts: an Indexed Job; render-pko.ts:
 * Pulumi Kubernetes Operator Stacks) share: references to Secrets, the
 * checks of their options, Kubernetes names, and the YAML they print.
 *
 * The renderers are pure: they read neither the environment nor the disk.
 * A credential never appears in what they render; it is named by the
 * Secret (and key) that holds it, and Kubernetes resolves it in the pod.
 */

/** One key of a Kubernetes Secret: what a credential is given by. */
export interface SecretKeyRef {
  readonly name: string;
  readonly key: string;
}

/** A Kubernetes Secret by name, whose keys are environment-variable names. */
export interface SecretName {
  readonly name: string;
}

/** An object's metadata, as far as the renderers set it. */
export interface ObjectMeta {
  readonly name: string;
  readonly namespace?: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
}

/** A Kubernetes object as rendered: apply it as it is, or print it with toYaml. */
export interface Manifest {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: ObjectMeta;
  readonly [field: string]: unknown;
}

/** Options given wrong: thrown before anything is rendered, naming the option and what it accepts. */
export class RenderOptionsError extends Error {
  override name = "RenderOptionsError";
}

/** Labels every rendered object carries (the recommended app.kubernetes.io set), so `kubectl get -l` finds them. */
export const COMMON_LABELS: Readonly<Record<string, string>> = {
  "app.kubernetes.io/name": "billing-fleet",
  "app.kubernetes.io/part-of": "pulumi-subscription-billing",
};

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
// A Secret's keys: https://kubernetes.io/docs/concepts/configuration/secret/ (alphanumerics, -, _ and .).
const SECRET_KEY = /^[-._a-zA-Z0-9]+$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const LABEL_KEY = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;

/** Throws a RenderOptionsError for `option` unless `ok`. */
export function check(ok: boolean, option: string, accepted: string, got: unknown): asserts ok {
  if (!ok) throw new RenderOptionsError(`${option}: ${accepted}; got ${describe(got)}`);
}

const describe = (v: unknown): string => (v === undefined ? "nothing" : JSON.stringify(v));

/** A DNS-1123 label (a namespace's or a Job's name). */
export function checkDnsLabel(value: unknown, option: string, max = 63): void {
  check(
    typeof value === "string" && value.length <= max && DNS_LABEL.test(value),
    option,
    `a Kubernetes name of at most ${max} characters: lower-case letters, digits and '-', starting and ending with a letter or digit`,
    value,
  );
}

/** A Secret's name and key. */
export function checkSecretKeyRef(ref: SecretKeyRef | undefined, option: string): void {
  check(
    typeof ref === "object" && ref !== null && typeof ref.name === "string" && typeof ref.key === "string",
    option,
    'a Secret and its key, e.g. { name: "pulumi", key: "passphrase" }',
    ref,
  );
  checkDnsSubdomain(ref.name, `${option}.name`);
  check(SECRET_KEY.test(ref.key), `${option}.key`, "a key of a Secret: letters, digits, '-', '_' and '.'", ref.key);
}

/** A Secret's or ConfigMap's name: a DNS-1123 subdomain. */
export function checkDnsSubdomain(value: unknown, option: string): void {
  check(
    typeof value === "string" && value.length <= 253 && value.split(".").every((part) => DNS_LABEL.test(part)),
    option,
    "a Kubernetes name of at most 253 characters: lower-case letters, digits, '-' and '.'",
    value,
  );
}

/** A map of environment variable → Secret key (extra credentials of the backend, e.g. AWS_ACCESS_KEY_ID). */
export function checkSecretEnv(env: Readonly<Record<string, SecretKeyRef>> | undefined, option: string): void {
  if (env === undefined) return;
  for (const [name, ref] of Object.entries(env)) {
    check(ENV_NAME.test(name), `${option} key`, "the name of an environment variable, e.g. AWS_ACCESS_KEY_ID", name);
    checkSecretKeyRef(ref, `${option}.${name}`);
  }
}

/** Extra labels: valid keys and values, and none that would hide the common ones. */
export function checkLabels(labels: Readonly<Record<string, string>> | undefined, option: string): void {
  if (labels === undefined) return;
  for (const [key, value] of Object.entries(labels)) {
    const [prefix, name] = key.includes("/") ? key.split("/", 2) : ["", key];
    check(
      LABEL_KEY.test(key) && prefix.length <= 253 && name.length <= 63,
      `${option} key`,
      "a label key: [prefix/]name, the prefix a DNS name, the name at most 63 letters, digits, '-', '_' and '.'",
      key,
    );
    check(
      typeof value === "string" && value.length <= 63 && LABEL_VALUE.test(value),
      `${option}.${key}`,
      "a label value: at most 63 letters, digits, '-', '_' and '.', starting and ending with a letter or digit",
      value,
    );
  }
}

/** A whole number within [min, max]. */
export function checkInt(value: unknown, option: string, min: number, max: number, what = ""): void {
  check(
    typeof value === "number" && Number.isInteger(value) && value >= min && value <= max,
    option,
    `a whole number from ${min} to ${max}${what}`,
    value,
  );
}

/**
 * A URL (a repository's, a backend's) with its credentials as "[secret]": the user-info of
 * `scheme://user:token@host` and the value of a credential-named query parameter (`?access_token=…`).
 * Manifests are committed and applied, and refusals are printed: neither may hold one. An scp-like
 * `git@host:org/repo` has no scheme and keeps its user, as does a URL further on in a query
 * (`?mirror=ssh://git@mirror`): neither is a credential.
 */
export function withoutCredential(url: string): string {
  const userInfo = url.replace(/^([a-z0-9+.-]+:\/\/)[^/?#]*@/i, `$1${REDACTED}@`);
  const query = userInfo.indexOf("?");
  if (query < 0) return userInfo;
  const hash = userInfo.indexOf("#", query);
  const end = hash < 0 ? userInfo.length : hash;
  const kept = userInfo
    .slice(query + 1, end)
    .split("&")
    .map((p) => {
      const eq = p.indexOf("=");
      return eq > 0 && isCredentialKey(decodeURIComponentSafe(p.slice(0, eq))) ? `${p.slice(0, eq)}=${REDACTED}` : p;
    })
    .join("&");
  return `${userInfo.slice(0, query + 1)}${kept}${userInfo.slice(end)}`;
}

const decodeURIComponentSafe = (s: string): string => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** Where the fleet's stacks keep their state, as its URL tells. */
export type BackendKind = "cloud" | "object-store";

/**
 * The state backend of pods: the option, else the fleet file's. It must be
 * shared: each pod's filesystem is its own and goes with it, so a `file://`
 * backend (the runner's default beside the fleet file) would lose the state
 * of every stack a pod ran. A URL's user-info is a credential, so it is
 * refused: the backend's credentials are given by Secret reference.
 */
export function backendOf(fleet: Fleet, option: string | undefined): { readonly url: string; readonly kind: BackendKind } {
  const url = option ?? fleet.backend;
  const accepted =
    "a backend shared by every pod: an object store (s3://bucket, gs://bucket, azblob://container) or a Pulumi Cloud URL " +
    "(https://api.pulumi.com), from this option or the fleet file's `backend`";
  check(typeof url === "string" && url.length > 0, "backend", accepted, url);
  // Refusals show the URL without its credentials: they are printed, and logged by CI.
  const shown = withoutCredential(url);
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1]?.toLowerCase();
  check(scheme !== "file", "backend", `${accepted} (a file:// backend lives on one pod's disk and goes with it)`, shown);
  check(scheme === "https" || scheme === "http" || scheme === "s3" || scheme === "gs" || scheme === "azblob", "backend", accepted, shown);
  check(shown === url, "backend", `${accepted}, with no credential in the URL (give it by Secret reference)`, shown);
  return { url, kind: scheme === "https" || scheme === "http" ? "cloud" : "object-store" };
}

/**
 * Which Secret key holds each environment variable the fleet's `secrets` name:
 * by default the key of the same name in `credentialsSecret`; `secretKeys`
 * points single variables elsewhere. Throws, naming the variables, when a
 * variable would have no Secret.
 */
export function secretEnvRefs(
  fleet: Fleet,
  credentialsSecret: SecretName | undefined,
  secretKeys: Readonly<Record<string, SecretKeyRef>> | undefined,
): ReadonlyMap<string, SecretKeyRef> {
  if (credentialsSecret !== undefined) {
    check(
      typeof credentialsSecret === "object" && credentialsSecret !== null,
      "credentialsSecret",
      '{ name: "a Secret" }',
      credentialsSecret,
    );
    checkDnsSubdomain(credentialsSecret.name, "credentialsSecret.name");
  }
  checkSecretEnv(secretKeys, "secretKeys");
  const refs = new Map<string, SecretKeyRef>();
  const missing: string[] = [];
  for (const site of fleet.sites) {
    for (const env of Object.values(site.secrets)) {
      if (refs.has(env)) continue;
      const ref = secretKeys?.[env] ?? (credentialsSecret && { name: credentialsSecret.name, key: env });
      if (ref) refs.set(env, ref);
      else if (!missing.includes(env)) missing.push(env);
    }
  }
  check(
    missing.length === 0,
    "credentialsSecret",
    `a Secret holding, under keys of the same names, the environment variables the fleet's \`secrets\` name (${missing.join(", ")}), or \`secretKeys\` for each`,
    credentialsSecret,
  );
  return refs;
}

/**
 * A program's path relative to the checkout it comes from (POSIX, as in a
 * git repository or an image); "" for the root itself. Throws when the
 * program lies outside the checkout.
 */
export function programInRepo(site: ResolvedSite, repoRoot: string, option: string): string {
  return pathInRepo(site.program, repoRoot, option, `every site's program (site "${site.name}" runs ${site.program})`);
}

/**
 * A file's or folder's path relative to the checkout (POSIX); "" for the root itself. Throws, naming `option`
 * and `what` must be in it, when it lies outside: the image holds the checkout, nothing beside it.
 */
export function pathInRepo(file: string, repoRoot: string, option: string, what: string): string {
  const rel = path.relative(path.resolve(repoRoot), path.resolve(file));
  check(
    // ".." as a whole first segment, not a folder whose name begins with two dots ("..site").
    rel === "" || (rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel)),
    option,
    `the local checkout that holds ${what}`,
    repoRoot,
  );
  return rel.split(path.sep).join("/");
}

/**
 * A Kubernetes name (DNS-1123 label, at most `max` characters) for `text`:
 * the text itself when it already is one, else its lower-cased, dashed form
 * with a short hash of the original, so that two sites whose names differ
 * only by case or punctuation never meet on one name.
 */
export function kubeName(text: string, max = 63): string {
  if (text.length <= max && DNS_LABEL.test(text)) return text;
  const hash = createHash("sha256").update(text).digest("hex").slice(0, 8);
  const base = text
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/-+/g, "-")
    .slice(0, max - hash.length - 1)
    .replace(/^-+|-+$/g, "");
  return base ? `${base}-${hash}` : hash;
}

/** A short, stable hash of a text (a ConfigMap's content), for names that change when it does. */
export const shortHash = (text: string): string => createHash("sha256").update(text).digest("hex").slice(0, 10);

/**
 * Several manifests as one multi-document YAML stream (`kubectl apply -f -`).
 *
 * Every string that a YAML 1.1 reader (kubectl's, which reads `yes`, `on`,
 * `0o17` or `12:30` as other than text) or a YAML 1.2 reader would not read
 * back as the same text is double-quoted, so a config value such as "on"
 * or "010" arrives as text whichever reader applies it.
 */
export function toYaml(docs: readonly object[]): string {
  return docs.map((manifest) => yamlText(manifest)).join("---\n");
}

/** One YAML document, its strings quoted as toYaml says (also the fleet file the pods read). */
export function yamlText(value: unknown): string {
  const doc = new Document(value);
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value === "string" && !node.value.includes("\n") && !readsBackPlain(node.value)) node.type = "QUOTE_DOUBLE";
    },
  });
  return doc.toString({ lineWidth: 0 });
}

/** Whether a string written plain reads back as itself under YAML 1.1 and 1.2. */
function readsBackPlain(text: string): boolean {
  if (text === "" || text !== text.trim()) return false;
  try {
    return (["1.1", "1.2"] as const).every((version) => parse(text, { version }) === text);
  } catch {
    return false;
  }
}

/**
 * The backend, with the Secret keys its stacks need checked: a passphrase for an object store
 * (stacks encrypt their secrets with it), an access token for Pulumi Cloud.
 */
export function backendWithSecrets(
  fleet: Fleet,
  opts: { readonly backend?: string; readonly passphraseSecret?: SecretKeyRef; readonly accessTokenSecret?: SecretKeyRef },
): { readonly url: string; readonly kind: BackendKind } {
  const backend = backendOf(fleet, opts.backend);
  if (opts.passphraseSecret !== undefined) checkSecretKeyRef(opts.passphraseSecret, "passphraseSecret");
  if (opts.accessTokenSecret !== undefined) checkSecretKeyRef(opts.accessTokenSecret, "accessTokenSecret");
  check(
    backend.kind === "cloud" || opts.passphraseSecret !== undefined,
    "passphraseSecret",
    `the Secret key holding PULUMI_CONFIG_PASSPHRASE: stacks on ${backend.url} encrypt their secrets with it`,
    opts.passphraseSecret,
  );
  check(
    backend.kind === "object-store" || opts.accessTokenSecret !== undefined,
    "accessTokenSecret",
    `the Secret key holding PULUMI_ACCESS_TOKEN, for ${backend.url}`,
    opts.accessTokenSecret,
  );
  return backend;
}
