import { execFile } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { PACKAGE_NAME } from "./package-info";
import { PACKAGE } from "./schema";

/**
 * `billing-plugin install`: this installed npm package's provider plugin put into the Pulumi plugin cache as
 * `resource billing <version>`, with nothing downloaded. `pulumi package get-schema billing` and the generated SDKs'
 * resources look for the plugin there (a `pulumi-resource-billing` on PATH is not enough for them), and the CLI
 * would otherwise download it from the schema's `pluginDownloadURL`, which fails offline.
 *
 * What is installed is a launcher of this package's own plugin (dist/plugin/bin.js, what `pulumi-resource-billing`
 * on PATH runs), not a copy: its dependencies resolve where npm put them, however the package was installed
 * (globally, or in a project). It is installed by `pulumi plugin install resource billing <version> --file <folder>`,
 * so the plugin cache's layout is the CLI's own.
 */

/** Where the launcher finds this package and Node, and the version it was installed as. */
export interface LauncherTarget {
  /** The package's folder (holding its package.json and dist/). */
  readonly packageDir: string;
  /** The package's version: the plugin's. */
  readonly version: string;
  /** The Node.js that ran the install (22.18+: the package's engines), used unless BILLING_PLUGIN_NODE says otherwise. */
  readonly node: string;
}

/** A POSIX shell word holding `s` as is. */
const quoted = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`;

/**
 * The `pulumi-resource-billing` the CLI runs from the plugin cache. Node: BILLING_PLUGIN_NODE, else the one that
 * installed it, else `node` on PATH (that one may have been removed since: a version manager's). The plugin is
 * told which version it was installed as: a package upgraded in place since then refuses to serve under the old
 * version's name (bin.ts), rather than run other code than the folder's name says.
 */
export function launcherScript(t: LauncherTarget): string {
  return `#!/bin/sh
# pulumi-resource-billing ${t.version}, installed by \`billing-plugin install\` from the npm package
# ${PACKAGE_NAME} in ${t.packageDir}. It runs that package's plugin: after upgrading or moving
# the package, run \`billing-plugin install\` again.
node="\${BILLING_PLUGIN_NODE:-${quoted(t.node)}}"
if [ -z "\${BILLING_PLUGIN_NODE:-}" ] && [ ! -x "$node" ]; then node=node; fi
BILLING_PLUGIN_INSTALLED_VERSION=${quoted(t.version)} exec "$node" ${quoted(path.join(t.packageDir, "dist/plugin/bin.js"))} "$@"
`;
}

/**
 * Why a plugin installed as `installed` cannot serve as this package at `version`, or undefined when it can (or was
 * not installed by `billing-plugin install`).
 */
export function installedVersionProblem(installed: string | undefined, version: string): string | undefined {
  if (installed === undefined || installed === "" || installed === version) return undefined;
  return (
    `pulumi-resource-billing was installed into the Pulumi plugin cache as version ${installed}, but the package it runs ` +
    `(${PACKAGE_NAME}) is now ${version}: run \`billing-plugin install\` again to install ${version}`
  );
}

/** The plugin cache's folder of this plugin at `version`, as `pulumi plugin install` lays it out. */
export function pluginFolder(version: string, env: NodeJS.ProcessEnv = process.env): string {
  const home = env.PULUMI_HOME || path.join(homedir(), ".pulumi");
  return path.join(home, "plugins", `resource-${PACKAGE}-v${version}`);
}

/** What `pulumi` printed, for an error that says why the install failed. */
export class PluginInstallError extends Error {
  override name = "PluginInstallError";
}

/** Runs `pulumi args…`; its output, or a PluginInstallError with what it printed. */
function pulumi(cli: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cli, args, { env, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      if (!err) return resolve(`${stdout}${stderr}`);
      if ((err as NodeJS.ErrnoException).code === "ENOENT") {
        return reject(
          new PluginInstallError(
            `the Pulumi CLI (${cli}) was not found: billing-plugin install runs \`pulumi plugin install\`. ` +
              "Install Pulumi and put it on PATH, or give its path with --pulumi",
          ),
        );
      }
      reject(new PluginInstallError(`\`${cli} ${args.join(" ")}\` failed:\n${`${stdout}${stderr}`.trim()}`));
    });
  });
}

/**
 * Installs the launcher of `t` into the plugin cache (`$PULUMI_HOME/plugins`, default ~/.pulumi/plugins) with
 * `cli` (default `pulumi` on PATH), replacing an installed plugin of the same version. Returns the plugin's folder.
 */
export async function installPlugin(t: LauncherTarget, opts: { cli?: string; env?: NodeJS.ProcessEnv } = {}): Promise<string> {
  const env = opts.env ?? process.env;
  const stage = mkdtempSync(path.join(tmpdir(), "billing-plugin-"));
  try {
    const launcher = path.join(stage, `pulumi-resource-${PACKAGE}`);
    writeFileSync(launcher, launcherScript(t));
    chmodSync(launcher, 0o755);
    await pulumi(opts.cli ?? "pulumi", ["plugin", "install", "resource", PACKAGE, t.version, "--file", stage, "--reinstall"], env);
    return pluginFolder(t.version, env);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}
