/**
 * The Node.js check of `pulumi-resource-billing` (bin.ts): the package requires Node 22.18 (engines),
 * and the plugin says so rather than fail later in a dependency.
 */

/** Why Node `version` (`process.versions.node`, e.g. `22.18.0`) at `execPath` cannot run the plugin, or undefined when it can. */
export function nodeVersionProblem(version: string, execPath: string): string | undefined {
  const [major, minor] = version.split(".").map(Number) as [number, number];
  if (major < 22 || (major === 22 && minor < 18)) {
    return `pulumi-resource-billing needs Node.js 22.18 or later; ${execPath} is v${version}. Put a newer Node first on PATH (or set BILLING_PLUGIN_NODE).`;
  }
  return undefined;
}
