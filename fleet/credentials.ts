import { parse as parseYaml } from "yaml";

/**
 * Finds credentials in a config value, wherever they sit: a credential-named key at any depth of
 * an object or array, and inside strings that hold JSON or YAML (the README gives `billing:sites`
 * as a JSON string), however deeply one is wrapped in another. The fleet file refuses what it
 * finds; the redactor blanks the same keys in what the runner writes.
 */

/**
 * The words a credential's key name ends with, once case, `_`, `-`, `.` and spaces are set aside:
 * `apiKey`, `api-key`, `API_KEY`, `accessToken`, `clientSecret`, `privateKey`, `db.password`, and an
 * object store's (`AZURE_STORAGE_KEY`, `account_key` in a backend URL's query), ….
 */
const CREDENTIAL_END =
  /(apikey|accesskey|secretkey|privatekey|signingkey|accountkey|storagekey|accesstoken|refreshtoken|token|password|passwd|passphrase|secret|credentials?)$/;

/**
 * Whether a key names a credential. A key of three or more words is a sentence (a YAML string
 * such as "rotate the token: monthly" parses as a mapping), not a key name.
 */
export function isCredentialKey(key: string): boolean {
  const name = key.slice(key.lastIndexOf(":") + 1).trim();
  if (name.split(/\s+/).length > 2) return false;
  return CREDENTIAL_END.test(name.toLowerCase().replace(/[\s_.-]/g, ""));
}

/** A string that holds JSON or YAML, as what it holds, or undefined when it holds only text. */
export function structuredString(text: string): { value: object; form: "JSON" | "YAML" } | { value: string; form: "JSON" } | undefined {
  const t = text.trim();
  if (t === "") return undefined;
  if (/^[[{"]/.test(t)) {
    try {
      const value: unknown = JSON.parse(t);
      if (value !== null && typeof value === "object") return { value, form: "JSON" };
      // JSON text of a string: JSON encoded twice, which may hold JSON again.
      if (typeof value === "string") return { value, form: "JSON" };
      return undefined;
    } catch {
      // Not JSON: YAML's flow style also starts with { or [.
    }
  }
  // Only what can be a YAML mapping or sequence: a "key: value" or "- item" somewhere, or flow style.
  if (!/:(\s|$)|^\s*- |^[[{]/m.test(t)) return undefined;
  try {
    const value: unknown = parseYaml(t);
    return value !== null && typeof value === "object" ? { value, form: "YAML" } : undefined;
  } catch {
    return undefined;
  }
}

/** Where a credential was found inside one config value. */
export interface CredentialFinding {
  /** The path inside the value, e.g. `.us.apiKey` or `[1].token`; "" for the value itself. */
  readonly path: string;
  /** The strings the path goes through, outer first: ["YAML", "JSON"] is a JSON string inside a YAML string. */
  readonly forms: readonly ("JSON" | "YAML")[];
}

const MAX_DEPTH = 32;

const step = (key: string): string => (/^[A-Za-z_$][\w$-]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`);

/** A value a credential-named key may hold without holding a credential: nothing, a flag, or a structure to look into. */
const holdsNothing = (v: unknown): boolean => v === undefined || v === null || v === "" || typeof v === "boolean";

/**
 * Every credential in one config value: the config key itself when it is credential-named and the
 * value plain, then every credential-named key inside (objects, arrays, JSON and YAML strings).
 */
export function findCredentials(configKey: string, value: unknown): CredentialFinding[] {
  const out: CredentialFinding[] = [];
  visitCredentials(configKey, value, (finding) => out.push(finding));
  return out;
}

/**
 * The one walk behind {@link findCredentials} (where, for messages) and the redactor (what, to blank):
 * `visit` gets each credential's place and its plain value, which must never be printed.
 */
export function visitCredentials(
  configKey: string,
  value: unknown,
  visit: (finding: CredentialFinding, credential: string | number) => void,
): void {
  const walk = (v: unknown, at: string, forms: ("JSON" | "YAML")[], named: boolean, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    if (v !== null && typeof v === "object") {
      // A list under a credential's key is a list of credentials; an object's keys speak for themselves.
      const entries = Array.isArray(v)
        ? v.map((x, i) => [`[${i}]`, x, named] as const)
        : Object.entries(v).map(([k, x]) => [step(k), x, isCredentialKey(k)] as const);
      for (const [s, x, credential] of entries) walk(x, `${at}${s}`, forms, credential, depth + 1);
      return;
    }
    if (named) {
      // Whatever a credential's key holds as text is the credential, even text that parses as JSON.
      if (!holdsNothing(v)) visit({ path: at, forms }, typeof v === "number" ? v : String(v));
      return;
    }
    if (typeof v === "string") {
      const inner = structuredString(v);
      if (inner) walk(inner.value, at, [...forms, inner.form], false, depth + 1);
    }
  };
  walk(value, "", [], isCredentialKey(configKey), 0);
}

/** "at .us.apiKey (a JSON string)", "at .x (a JSON string inside a YAML string)", or "" for the value itself. */
export function describeFinding(f: CredentialFinding): string {
  const where = f.path ? ` at ${f.path}` : "";
  const forms = [...f.forms].reverse().map((form) => `a ${form} string`);
  return `${where}${forms.length ? ` (${forms.join(" inside ")})` : ""}`;
}
