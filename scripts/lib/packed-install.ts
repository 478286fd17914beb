import { execFileSync } from "node:child_process";
import path from "node:path";

const ROOT = path.resolve(__dirname, "../..");
const PULUMI_VERSION: string = require("../../package.json").devDependencies["@pulumi/pulumi"];

/**
 * Installs this package into `dir` the way a user does: in a project made by `npm init -y` (with
 * today's npm: "main": "index.js", "type": "commonjs"), its "main" deleted as the README's Install
 * says, from the tarball `npm pack` makes, not through a path or a link. Closure serialization
 * captures an installed package's modules through its `exports` map, and only this install proves
 * that works (and measures what users get).
 */
export function installPacked(dir: string, opts: { dependencies?: Record<string, string>; quiet?: boolean } = {}): void {
  const packed = packInto(dir);
  const npm = (args: string[], stdio: "pipe" | "inherit" | "ignore") => execFileSync("npm", args, { cwd: dir, stdio });
  npm(["init", "-y"], "pipe");
  npm(["pkg", "delete", "main"], "pipe");
  const wanted = { "@pulumi/pulumi": PULUMI_VERSION, ...opts.dependencies };
  npm(
    [
      "install",
      `./${packed}`,
      ...Object.entries(wanted).map(([name, version]) => `${name}@${version}`),
      "--no-audit",
      "--no-fund",
      "--prefer-offline",
      "--loglevel=error",
    ],
    opts.quiet ? "ignore" : "inherit",
  );
}

/** `npm pack` of this package (as built in dist/) into `dir`; returns the tarball's file name. */
export function packInto(dir: string): string {
  return execFileSync("npm", ["pack", "--silent", "--ignore-scripts", "--pack-destination", dir], { cwd: ROOT, encoding: "utf8" })
    .trim()
    .split("\n")
    .pop() as string;
}
