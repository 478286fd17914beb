import { UNKNOWN } from "../provider/runtime/common";
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
