#!/usr/bin/env node
/**
 * `pulumi-resource-billing`: the billing provider plugin the Pulumi CLI starts (from PATH, from
 * `pulumi plugin install resource billing <version> --file <tarball>`, see scripts/plugin-pack.ts, or from the
 * launcher `billing-plugin install` puts into the plugin cache, see install.ts).
 * It prints its port and serves until the engine stops it.
 */
import { installedVersionProblem } from "./install";
import { nodeVersionProblem } from "./node-version";
import { packageVersion } from "./package-info";
import { BillingProvider } from "./provider";
import { serve } from "./serve";

// A launcher `billing-plugin install` wrote says which version it was installed as (install.ts).
const problem =
  nodeVersionProblem(process.versions.node, process.execPath) ??
  installedVersionProblem(process.env.BILLING_PLUGIN_INSTALLED_VERSION, packageVersion());
if (problem !== undefined) {
  console.error(problem);
  process.exit(1);
}

serve(new BillingProvider(), process.argv.slice(2)).catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exit(1);
});
