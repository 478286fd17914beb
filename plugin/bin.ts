#!/usr/bin/env node
/**
 * `pulumi-resource-billing`: the billing provider plugin the Pulumi CLI starts (from PATH, or from
 * `pulumi plugin install resource billing <version> --file <tarball>`, see scripts/plugin-pack.ts).
 * It prints its port and serves until the engine stops it.
 */
import { BillingProvider } from "./provider";
import { serve } from "./serve";

const [major, minor] = process.versions.node.split(".").map(Number) as [number, number];
if (major < 22 || (major === 22 && minor < 18)) {
  // The package requires Node 22.18 (engines); say so rather than fail later in a dependency.
  console.error(
    `pulumi-resource-billing needs Node.js 22.18 or later; ${process.execPath} is ${process.version}. Put a newer Node first on PATH (or set BILLING_PLUGIN_NODE).`,
  );
  process.exit(1);
}

serve(new BillingProvider(), process.argv.slice(2)).catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exit(1);
});
