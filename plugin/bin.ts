#!/usr/bin/env node
/**
 * `pulumi-resource-billing`: the billing provider plugin the Pulumi CLI starts (from PATH, or from
 * `pulumi plugin install resource billing <version> --file <tarball>`, see scripts/plugin-pack.ts).
 * It prints its port and serves until the engine stops it.
 */
import { BillingProvider } from "./provider";
import { serve } from "./serve";

const major = Number(process.versions.node.split(".")[0]);
if (major < 22) {
  // The package requires Node 22 (engines); say so rather than fail later in a dependency.
  console.error(
    `pulumi-resource-billing needs Node.js 22 or later; ${process.execPath} is ${process.version}. Put a Node 22 first on PATH.`,
  );
  process.exit(1);
}

serve(new BillingProvider(), process.argv.slice(2)).catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exit(1);
});
