#!/usr/bin/env node
/**
 * `pulumi-resource-billing`: the billing provider plugin the Pulumi CLI starts (from PATH, or from
 * `pulumi plugin install resource billing <version> --file <tarball>`, see scripts/plugin-pack.ts).
 * It prints its port and serves until the engine stops it.
 */
import { nodeVersionProblem } from "./node-version";
import { BillingProvider } from "./provider";
import { serve } from "./serve";

const problem = nodeVersionProblem(process.versions.node, process.execPath);
if (problem !== undefined) {
  console.error(problem);
  process.exit(1);
}

serve(new BillingProvider(), process.argv.slice(2)).catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exit(1);
});
