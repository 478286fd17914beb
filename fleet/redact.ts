import { stringify as yamlStringify } from "yaml";
import { isCredentialKey, structuredString, visitCredentials } from "./credentials";

/**
 * What the runner writes (logs, reports, the record `--resume` reads, preview steps, progress) passes
 * through here first. Three layers, each enough on its own for what it covers:
 * - values the engine marks secret (its signature object, a ciphertext, "[secret]") become "[secret]";
 * - every value under a credential-named key becomes "[secret]", also inside JSON and YAML strings
 *   (the default provider's inputs hold `billing:sites` as one);
 * - the literal values of the site's secret config, wherever they appear in text.
 */

export const REDACTED = "[secret]";

/** The engine's marker of a secret value (`KeepSecrets`), as its Go and Node SDKs spell it. */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";

/** Literals shorter than this are not searched for in text: they would blank ordinary words and numbers. */
const MIN_LITERAL = 4;

export class Redactor {
  readonly #literals: string[];

  /** `secrets`: the values of the site's secret config (the environment's values it set). */
  constructor(secrets: Iterable<string> = []) {
    const all = new Set<string>();
    for (const s of secrets) {
      all.add(s);
      // A secret that holds JSON (a whole `billing:sites`) also appears piecewise: its credentials, and its text re-encoded.
      for (const leaf of credentialLeaves(s)) all.add(leaf);
      all.add(JSON.stringify(s).slice(1, -1));
    }
    // Longest first, so that a value containing another is blanked whole.
    this.#literals = [...all].filter((s) => s.length >= MIN_LITERAL).sort((a, b) => b.length - a.length);
  }

  /** Free text (CLI output, an error message): secret literals, and what follows a credential-named key. */
  text(s: string): string {
    let out = s;
    for (const lit of this.#literals) if (out.includes(lit)) out = out.split(lit).join(REDACTED);
    return out.replace(KEY_VALUE_IN_TEXT, (whole, key: string, sep: string, value: string) =>
      isCredentialKey(key) && !isRedacted(value) ? `${key}${sep}${quoteLike(value)}` : whole,
    );
  }

  /** A structured value (preview steps, diagnostics, a report): redacted copy; the original is left alone. */
  value<T>(v: T): T {
    return this.#walk(v, false, 0) as T;
  }

  #walk(v: unknown, named: boolean, depth: number): unknown {
    if (depth > 64) return REDACTED;
    if (v === null || v === undefined || typeof v === "boolean") return v;
    if (typeof v === "object") {
      if (SECRET_SIG in v || "ciphertext" in v) return REDACTED;
      if (named && !Array.isArray(v)) return REDACTED;
      if (Array.isArray(v)) return v.map((x) => this.#walk(x, named, depth + 1));
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, this.#walk(x, isCredentialKey(k), depth + 1)]));
    }
    if (named) return v === "" ? v : REDACTED;
    if (typeof v !== "string") return v;
    const inner = structuredString(v);
    // Inside JSON or YAML, and inside a JSON string encoded twice (which findCredentials reports too).
    if (inner) {
      const redacted = this.#walk(inner.value, false, depth + 1);
      // Re-encoded only when something changed: a string without credentials stays as it was.
      if (JSON.stringify(redacted) !== JSON.stringify(inner.value)) {
        return this.text(inner.form === "JSON" ? JSON.stringify(redacted) : yamlStringify(redacted).trimEnd());
      }
    }
    return this.text(v);
  }
}

/** `key: value`, `"key": "value"`, `key=value` in text; the key group is tested by isCredentialKey. */
// An unquoted value stops at "]" (a value in a flow list), so "[secret]" is its own alternative: it is
// matched whole and kept, not cut to "[secret" and blanked again before its "]".
const KEY_VALUE_IN_TEXT = /([A-Za-z_][\w.:-]*)("?\s*(?::\s+|:(?=["'])|=)\s*)("(?:[^"\\\n]|\\.)*"|'[^'\n]*'|\[secret\]|[^\s,;}\]"']+)/g;

const isRedacted = (value: string): boolean => value.replace(/^["']|["']$/g, "") === REDACTED || value === "";

/** "[secret]" in the quotes the value had. */
const quoteLike = (value: string): string => (/^["']/.test(value) ? `${value[0]}${REDACTED}${value[0]}` : REDACTED);

/** The credential-named leaves of a value that holds JSON or YAML (none for plain text). */
function credentialLeaves(s: string): string[] {
  const out: string[] = [];
  visitCredentials("", s, (_, credential) => out.push(String(credential)));
  return out;
}
