import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * The code examples of the docs: every fenced block of a language the docs' readers compile (TypeScript, Go,
 * Python) in README.md and docs/*.md. Each such block is a whole program as a reader would paste it, imports
 * included: none is a fragment the test completes.
 */

export const ROOT = path.resolve(__dirname, "../..");

export type Language = "typescript" | "go" | "python";

/** The info strings a fence may carry for each language. */
const LANGUAGES: Record<string, Language> = { ts: "typescript", typescript: "typescript", go: "go", python: "python", py: "python" };

export interface Example {
  readonly language: Language;
  /** The page, relative to the repository root. */
  readonly file: string;
  /** The line of the opening fence (1-based). */
  readonly line: number;
  readonly code: string;
  /** "docs/_index.md:42", to name it in a failure. */
  readonly name: string;
}

/** The pages whose examples are checked: the README and every page under docs/. */
export function docPages(): string[] {
  const docs = readdirSync(path.join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f) => `docs/${f}`);
  return ["README.md", ...docs];
}

/** The fenced blocks of a Markdown text (indented ones too, as inside a list item), in order, with their info string. */
export function fencedBlocks(text: string): { info: string; line: number; code: string }[] {
  const lines = text.split("\n");
  const blocks: { info: string; line: number; code: string }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^( *)(`{3,}|~{3,})\s*([^\s`]*)/.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, info] = open;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !new RegExp(`^ *${fence[0]}{${fence.length},}\\s*$`).test(lines[j])) {
      body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j]);
      j++;
    }
    if (j === lines.length) throw new Error(`unclosed fence at line ${i + 1}`);
    blocks.push({ info: info.toLowerCase(), line: i + 1, code: `${body.join("\n")}\n` });
    i = j;
  }
  return blocks;
}

/** Every example of the docs, by language. */
export function examples(pages: readonly string[] = docPages()): Example[] {
  return pages.flatMap((file) =>
    fencedBlocks(readFileSync(path.join(ROOT, file), "utf8")).flatMap((b) => {
      const language = LANGUAGES[b.info];
      return language ? [{ language, file, line: b.line, code: b.code, name: `${file}:${b.line}` }] : [];
    }),
  );
}
