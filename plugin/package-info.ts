import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/** The package this file ships in: its version is the plugin's. */
export const PACKAGE_NAME = "pulumi-subscription-billing";

/**
 * The folder of the package this file ships in: the one above it whose package.json names it. Looked up rather
 * than imported: an import would make tsc copy package.json into dist/, where it would shadow the real one.
 */
export function packageDir(from: string = __dirname): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const file = path.join(dir, "package.json");
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version?: string };
      if (pkg.name === PACKAGE_NAME && pkg.version) return dir;
    }
    if (path.dirname(dir) === dir) throw new Error(`no package.json of ${PACKAGE_NAME} above ${from}`);
  }
}

/** The package's version, from its package.json (see {@link packageDir}). */
export function packageVersion(from: string = __dirname): string {
  return (JSON.parse(readFileSync(path.join(packageDir(from), "package.json"), "utf8")) as { version: string }).version;
}
