/**
 * The package tests read the build (dist/), not the source: the API report is taken from its declarations and the
 * tarball packs it. `npm test` builds first; run by hand on an edited tree they would check the last build, so
 * they first ask that no declaration under dist/ is older than its source (dist-guard.cjs does the same for the
 * .js files a test loads, but these tests load none of them).
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

export const ROOT = path.resolve(__dirname, "../..");

/** Declarations under dist/ older than their source ("dist/a/b.d.ts" ← "a/b.ts"), as "a/b.ts" paths. */
export function staleDeclarations(): string[] {
  const dist = path.join(ROOT, "dist");
  if (!existsSync(dist)) return ["dist/ (missing)"];
  const stale: string[] = [];
  for (const rel of readdirSync(dist, { recursive: true, encoding: "utf8" })) {
    if (!rel.endsWith(".d.ts")) continue;
    const source = path.join(ROOT, rel.slice(0, -".d.ts".length) + ".ts");
    if (existsSync(source) && statSync(source).mtimeMs > statSync(path.join(dist, rel)).mtimeMs) stale.push(path.relative(ROOT, source));
  }
  return stale;
}

/** Throws, saying to build, when dist/ is missing or older than the source. */
export function assertBuilt(): void {
  const stale = staleDeclarations();
  if (stale.length) {
    throw new Error(
      `dist/ is older than the source (${stale.slice(0, 5).join(", ")}${stale.length > 5 ? `, … ${stale.length} files` : ""}): ` +
        "these tests check the build, so run `npm run build` (npm test does) first.",
    );
  }
}
