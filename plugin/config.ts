import { notice, UNKNOWN } from "../provider/engine";
import { CREDENTIAL_KEYS, plainCredentialWarning } from "../provider/runtime/plain-credentials";
import { PACKAGE } from "./schema";
import { unwrapSecret } from "./values";

/**
 * The provider configuration of a `Configure` request, keyed as the runtime's `configure` reads it
 * (`billing:apiKey`), so the plugin and the dynamic providers share one reading of credentials.
 *
 * The engine sends each key twice: in `variables` as `billing:config:<key>` (plain text, secrets
 * unwrapped, non-strings as JSON) and in `args` as the bare `<key>` (secrets as markers). Both are
 * read, `variables` last; `billing:<key>` and bare keys are accepted too (other engines, tests).
 * Unknown values (preview, config from another resource's output) are left out: the engine does not
 * configure a plugin with unknowns anyway.
 */
export function providerConfig(
  variables: Iterable<readonly [string, string]>,
  args: Readonly<Record<string, unknown>> | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  const put = (key: string, raw: unknown) => {
    const v = unwrapSecret(raw);
    if (v === undefined || v === null || v === UNKNOWN || key === "version") return;
    out[`${PACKAGE}:${key}`] = typeof v === "string" ? v : JSON.stringify(v);
  };
  for (const [k, v] of Object.entries(args ?? {})) put(bareKey(k), v);
  for (const [k, v] of variables) put(bareKey(k), v);
  return out;
}

/**
 * The stack's configuration of this package as the command that runs holds it, or undefined outside an engine.
 *
 * The engine starts each provider plugin with `PULUMI_CONFIG`: a JSON object of the stack's `billing:` keys by bare
 * name, secrets decrypted (pkg/v3 host/host.go Provider, resource/plugin/provider_plugin.go NewProvider). A Configure
 * request's inputs are that too on `up` and `preview`, but `refresh`, `import` and `destroy` configure the default
 * provider with the inputs its state recorded at the last `up` (resource/deploy/providers/registry.go Same;
 * import.go registerProviders reuses a default provider in state): a key set since then would not be used.
 * A variable that is not such an object (a process not started by an engine) is no configuration.
 */
export function currentStackConfig(env: NodeJS.ProcessEnv = process.env): Record<string, string> | undefined {
  const raw = env.PULUMI_CONFIG;
  if (raw === undefined || raw === "") return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return undefined;
  // A language host's PULUMI_CONFIG (inherited by a CLI started from a program) keys every namespace: only ours.
  const ours = Object.entries(parsed).filter(([k]) => !bareKey(k).includes(":"));
  return providerConfig(ours as [string, string][], undefined);
}

/**
 * The configuration a Configure request's provider runs with. The default provider's is the stack's current
 * configuration ({@link currentStackConfig}) whenever the engine gave one, so that every command uses the key the
 * stack holds now, `refresh` and `import` included. An explicit provider's comes from the program, as its inputs
 * (the engine sends them as the program last gave them): the request's.
 */
export function configurationFor(
  variables: Iterable<readonly [string, string]>,
  args: Readonly<Record<string, unknown>> | undefined,
  providerName: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const current = isDefaultProvider(providerName) ? currentStackConfig(env) : undefined;
  return current ?? providerConfig(variables, args);
}

/** The engine names default providers `default` or `default_<version>`; a request without a name is taken as one (older engines). */
const isDefaultProvider = (name: string | undefined): boolean => !name || name.startsWith("default");

/** `billing:config:apiKey`, `billing:apiKey` and `apiKey` all name `apiKey`. */
const bareKey = (key: string): string => key.replace(new RegExp(`^${PACKAGE}:(config:)?`), "");

/**
 * The credential keys of a Configure request's `args` that are not secret. The engine sends the
 * default provider's configuration there with each value of a `--secret` key marked secret
 * (pkg/resource/deploy/target.go GetPackageConfig, and Configure marshals with KeepSecrets), so an
 * unmarked credential is one the stack's config file holds in plain text.
 */
export function plainCredentials(args: Readonly<Record<string, unknown>> | undefined): string[] {
  return CREDENTIAL_KEYS.filter((key) => {
    const v = args?.[bareKey(key)];
    return v !== undefined && v !== null && v !== "" && v !== UNKNOWN && unwrapSecret(v) === v;
  });
}

/**
 * Warns about each credential set without `--secret` (see {@link plainCredentials}), once per key in
 * `warned` (the served plugin's own set: one plugin process is one preview or up).
 * Only for the default provider when the engine names it: an explicit provider's inputs come from the
 * program, not from the stack's config file.
 */
export function warnPlainCredentials(
  args: Readonly<Record<string, unknown>> | undefined,
  providerName: string | undefined,
  warn: (message: string) => void = (m) => notice(`warning: ${m}`),
  warned: Set<string> = new Set(),
): void {
  if (!isDefaultProvider(providerName)) return;
  for (const key of plainCredentials(args)) {
    if (warned.has(key)) continue;
    warned.add(key);
    warn(plainCredentialWarning(key));
  }
}
