import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fencedBlocks } from "../docs/examples";
import { ROOT } from "./support";

/** A README section: its text from its `## ` heading to the next one. */
export async function readmeSection(heading: string): Promise<string> {
  const readme = await readFile(path.join(ROOT, "README.md"), "utf8");
  const start = readme.indexOf(`\n## ${heading}\n`);
  assert.ok(start >= 0, `the README has a "${heading}" section`);
  const end = readme.indexOf("\n## ", start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

/** The first fenced block of a language (`sh`, `ts`, `yaml`…) in a section. */
export function blockOf(section: string, info: string): string {
  const found = fencedBlocks(section).find((b) => b.info === info);
  assert.ok(found, `a ${info} block`);
  return found.code;
}

/** A `sh` block's commands, one per line, as a shell runs them (comments after a command included). */
export function commandLines(sh: string): string[] {
  return sh.split("\n").filter((l) => l.trim() !== "" && !l.trim().startsWith("#"));
}

/**
 * The Install section's commands, word for word, but for the packed tarball (a file in the project's folder)
 * standing for the registry's package. They start a project from `npm init -y`.
 */
export async function installLines(tarball: string): Promise<string[]> {
  const lines = commandLines(blockOf(await readmeSection("Install"), "sh"));
  assert.equal(lines[0]?.replace(/\s+#.*$/, ""), "npm init -y", "Install starts a project from npm init -y");
  const install = lines.findIndex((l) => l.startsWith("npm install pulumi-subscription-billing "));
  assert.ok(install > 0, "Install installs the package");
  return lines.map((l, i) => (i === install ? l.replace("pulumi-subscription-billing", `./${tarball}`) : l));
}
