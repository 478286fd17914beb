import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(__dirname, "../..");
const PULUMI_VERSION: string = require("../../package.json").devDependencies["@pulumi/pulumi"];

/**
 * Installs this package into `dir` the way a user does: from the tarball
 * `npm pack` makes, not through a path or a link. Closure serialization
 * captures an installed package's modules through its `exports` map, and only
 * this install proves that works (and measures what users get).
 */
export function installPacked(dir: string, opts: { dependencies?: Record<string, string>; quiet?: boolean } = {}): void {
  const packed = packInto(dir);
  writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify(
      {
        name: "billing-consumer",
        private: true,
        dependencies: { "pulumi-subscription-billing": `file:./${packed}`, "@pulumi/pulumi": PULUMI_VERSION, ...opts.dependencies },
      },
      null,
      2,
    ),
  );
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], {
    cwd: dir,
    stdio: opts.quiet ? "ignore" : "inherit",
  });
}

/** `npm pack` of this package (as built in dist/) into `dir`; returns the tarball's file name. */
export function packInto(dir: string): string {
  return execFileSync("npm", ["pack", "--silent", "--ignore-scripts", "--pack-destination", dir], { cwd: ROOT, encoding: "utf8" })
    .trim()
    .split("\n")
    .pop() as string;
}
