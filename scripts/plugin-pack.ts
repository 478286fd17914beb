/**
 * `npm run plugin:pack`: the `billing` provider plugin as a tarball that
 * `pulumi plugin install resource billing <version> --file <tarball>` installs with no network:
 *
 *   pulumi-resource-billing   a shell launcher: `node` (22+, from PATH or $BILLING_PLUGIN_NODE) on the
 *                             package's compiled plugin (dist/plugin/bin.js) in the node_modules beside it
 *   node_modules/             the package as `npm pack` makes it, with its production dependencies and
 *                             @pulumi/pulumi, installed from the npm cache where it can be (--prefer-offline)
 *   package.json              what was installed, at which versions
 *
 * A launcher over an installed package rather than a bundle: the plugin runs the same files a
 * program's dynamic providers load (one runtime), and @pulumi/pulumi's provider server is used as
 * published (it loads its generated gRPC modules at run time, which bundlers handle poorly). Node
 * itself is not included (it is per platform and ~100 MB): the tarball is the same on every platform.
 *
 * Writes .cache/plugin/pulumi-resource-billing-v<version>.tar.gz and prints its path last on stdout.
 * Run after `npm run build` (the script `plugin:pack` does both).
 */
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(__dirname, "..");
const pkg: { version: string; devDependencies: Record<string, string> } = require("../package.json");
const OUT = path.join(ROOT, ".cache/plugin");

/** The launcher the CLI executes. POSIX sh: the plugin runs where the CLI runs (Linux, macOS). */
const LAUNCHER = `#!/bin/sh
# pulumi-resource-billing: the billing provider plugin. Node.js 22.18+ runs the plugin of the
# pulumi-subscription-billing package installed beside this file; set BILLING_PLUGIN_NODE to
# choose the node binary (default: node on PATH).
here=$(dirname "$0")
exec "\${BILLING_PLUGIN_NODE:-node}" "$here/node_modules/pulumi-subscription-billing/dist/plugin/bin.js" "$@"
`;

function sh(cmd: string, args: string[], cwd: string): string {
  return execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
}

/** Symlinks (node_modules/.bin) are not needed at run time, and plugin install's extraction need not keep them. */
function dropLinks(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isSymbolicLink() || (entry.isDirectory() && entry.name === ".bin")) rmSync(p, { recursive: true, force: true });
    else if (entry.isDirectory()) dropLinks(p);
  }
}

export function pack(): string {
  if (!existsSync(path.join(ROOT, "dist/plugin/bin.js"))) throw new Error("dist/plugin/bin.js is missing: run `npm run build` first");
  // A stage of its own, and the tarball renamed into place whole: packs may run at once (the e2e files run in
  // parallel, each packing once), and a reader of the tarball must never see another pack's half-written file.
  mkdirSync(OUT, { recursive: true });
  const STAGE = mkdtempSync(path.join(OUT, "stage-"));
  const tgz = sh("npm", ["pack", "--silent", "--ignore-scripts", "--pack-destination", STAGE], ROOT).trim().split("\n").pop() as string;
  writeFileSync(
    path.join(STAGE, "package.json"),
    `${JSON.stringify(
      {
        name: "pulumi-resource-billing",
        version: pkg.version,
        private: true,
        description: "The billing provider plugin: a launcher and the package it runs.",
        dependencies: { "pulumi-subscription-billing": `file:./${tgz}`, "@pulumi/pulumi": pkg.devDependencies["@pulumi/pulumi"] },
      },
      null,
      2,
    )}\n`,
  );
  sh("npm", ["install", "--omit=dev", "--no-audit", "--no-fund", "--no-package-lock", "--prefer-offline", "--loglevel=error"], STAGE);
  rmSync(path.join(STAGE, tgz));
  dropLinks(path.join(STAGE, "node_modules"));
  const launcher = path.join(STAGE, "pulumi-resource-billing");
  writeFileSync(launcher, LAUNCHER);
  chmodSync(launcher, 0o755);
  const tarball = path.join(OUT, `pulumi-resource-billing-v${pkg.version}.tar.gz`);
  const partial = `${STAGE}.tar.gz`;
  sh("tar", ["-czf", partial, "-C", STAGE, "pulumi-resource-billing", "package.json", "node_modules"], ROOT);
  renameSync(partial, tarball);
  rmSync(STAGE, { recursive: true, force: true });
  console.error(`plugin-pack: ${path.relative(ROOT, tarball)} (${(statSync(tarball).size / 1e6).toFixed(1)} MB)`);
  return tarball;
}

if (require.main === module) console.log(pack());
