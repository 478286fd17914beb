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
  if (providerName && !providerName.startsWith("default")) return;
  for (const key of plainCredentials(args)) {
    if (warned.has(key)) continue;
    warned.add(key);
    warn(plainCredentialWarning(key));
  }
}
