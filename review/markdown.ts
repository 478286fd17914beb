/**
 * Markdown building blocks. Every value that comes from a preview (a product
 * handle, a url, a diagnostic) goes through {@link text} or {@link cell}: a
 * handle holding `|` or `*` must neither break a table nor turn into emphasis.
 */

/** What the engine writes for a value not known until `up` (resource.UnknownStringValue). */
export const ENGINE_UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** How an unknown value reads in the summary. */
export const UNKNOWN_TEXT = "unknown until up";

// C0/C1 controls (but tab and newline) are dropped: a terminal escape in a diagnostic must not reach a PR comment.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

// The characters that start inline markup anywhere in a line; `&` for entities, `|` for tables, `$` for
// GitHub's math ("$49.00 → $59.00" would otherwise render as a formula).
const INLINE = /[\\`*_[\]<>|~&$]/g;

/** Plain text made inert in Markdown, on one line. */
export function text(value: string): string {
  return value
    .replace(CONTROLS, "")
    .replace(/\s*\r?\n\s*/g, " ")
    .replace(INLINE, (c) => `\\${c}`);
}

/** A table cell: {@link text}, and never empty (an empty cell collapses in some renderers). */
export function cell(value: string): string {
  const t = text(value).trim();
  return t === "" ? " " : t;
}

/** Inline code that survives any backticks in the value (CommonMark: a longer fence, padded). Not for table cells: see {@link cellCode}. */
export function code(value: string): string {
  const clean = value.replace(CONTROLS, "").replace(/\r?\n/g, " ");
  if (clean.trim() === "") return JSON.stringify(clean);
  const longest = Math.max(0, ...[...clean.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  const pad = clean.startsWith("`") || clean.endsWith("`") ? " " : "";
  return `${fence}${pad}${clean}${pad}${fence}`;
}

/**
 * Text kept as written, in a fenced block: a message of the CLI's whose lines and paths matter. Its fence is
 * longer than any run of backticks in it, so nothing in the text ends the block.
 */
export function codeBlock(value: string): string[] {
  const clean = value.replace(CONTROLS, "").replace(/\r\n/g, "\n");
  const longest = Math.max(0, ...[...clean.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return [`${fence}text`, ...clean.split("\n"), fence];
}

/**
 * {@link code} for a table cell: GFM splits a row at `|` even inside a code span, unless it is
 * written `\|` (which the table then shows as `|`). Outside a table that `\` would show.
 */
export function cellCode(value: string): string {
  return code(value).replace(/\|/g, "\\|");
}

/**
 * Markdown cut to at most `max` characters at a line boundary, saying so: GitHub refuses a
 * comment over 65,536 characters, and a fleet's summary can be longer.
 */
export function truncate(markdown: string, max: number): string {
  if (markdown.length <= max) return markdown;
  const notice = (cut: number) => `\n_… ${cut} more characters cut here (--max-chars ${max})._\n`;
  const room = Math.max(0, max - notice(markdown.length).length);
  const end = markdown.lastIndexOf("\n", room);
  const kept = markdown.slice(0, end < 0 ? 0 : end + 1);
  return `${kept}${notice(markdown.length - kept.length)}`;
}

/** A GFM table; `align` per column, "r" for amounts. */
export function table(header: readonly string[], rows: readonly (readonly string[])[], align: readonly ("l" | "r")[] = []): string[] {
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  const rule = header.map((_, i) => (align[i] === "r" ? "--:" : "---"));
  return [line(header), line(rule), ...rows.map(line)];
}

/** Cents as an amount with two decimals, the sign in front: -1234 → "-12.34". */
export function money(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(Math.trunc(cents));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** A preview value as a reader should see it: unknowns named, secrets as the engine masks them, objects as JSON. */
export function valueText(value: unknown): string {
  if (value === ENGINE_UNKNOWN) return UNKNOWN_TEXT;
  if (value === undefined) return "not set";
  if (value === null) return "null";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value, (_, v) => (v === ENGINE_UNKNOWN ? UNKNOWN_TEXT : v));
}

/**
 * The parts of a URN, `urn:pulumi:STACK::PROJECT::QUALIFIED-TYPE::NAME`: the name is what a program calls
 * the resource (it may itself hold `::`), the type a child's own (after the last `$` of its parents' types).
 */
export function urnParts(urn: string): { stack: string; project: string; type: string; name: string } {
  const parts = urn.split("::");
  if (parts.length < 4 || !parts[0].startsWith("urn:pulumi:")) return { stack: "", project: "", type: "", name: urn };
  const qualified = parts[2];
  return {
    stack: parts[0].slice("urn:pulumi:".length),
    project: parts[1],
    type: qualified.slice(qualified.lastIndexOf("$") + 1),
    name: parts.slice(3).join("::"),
  };
}
