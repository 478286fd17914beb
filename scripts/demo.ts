/**
 * `npm run demo`: the package end to end, offline. Starts the simulator with
 * its demo site, runs `pulumi up` of the top-level demo stack against it,
 * prints the outputs and the site's endpoints, shows that a second `up`
 * changes nothing, and cleans up.
 */
import path from "node:path";
import { DEMO_SITE, startSimulator } from "../simulator";
import { createWorkspace, ensurePulumi } from "./lib/pulumi-cli";

const ROOT = path.resolve(__dirname, "..");
const step = (s: string) => console.log(`\n==> ${s}`);

async function main(): Promise<void> {
  step("Pulumi CLI (built from Go modules on first use; later runs reuse it)");
  const bin = await ensurePulumi();
  step("starting the billing simulator with its demo site, which sells in US dollars and euros");
  const sim = await startSimulator({ seed: "demo", nonPrimaryCurrencies: ["EUR"] });
  console.log(`    ${sim.url}`);
  const ws = await createWorkspace(bin);
  const stack = "demo";
  try {
    await ws.pulumi(["stack", "init", stack], { cwd: ROOT });
    await ws.pulumi(["config", "set", "billing:baseUrl", sim.url], { cwd: ROOT });
    await ws.pulumi(["config", "set", "--secret", "billing:apiKey", DEMO_SITE.apiKey], { cwd: ROOT });

    step("pulumi preview (the migration's charge is logged by previewSubscriptionMigration)");
    await ws.pulumi(["preview"], { cwd: ROOT, stream: true });
    step("pulumi up");
    await ws.pulumi(["up", "--yes", "--skip-preview"], { cwd: ROOT, stream: true });

    step("stack outputs");
    const outputs = JSON.parse((await ws.pulumi(["stack", "output", "--json"], { cwd: ROOT })).stdout);
    console.log(JSON.stringify(outputs, null, 2));
    console.log(
      `    the service now has webhooks ${sim.webhooksEnabled ? "enabled" : "disabled"}, ${sim.replayQueue.length} webhook(s) queued for replay`,
    );
    for (const e of sim.endpoints()) console.log(`    endpoint ${e.id} ${e.url}: ${e.events.join(", ")}`);

    step("a second pulumi up: expect no changes");
    await ws.pulumi(["up", "--yes", "--skip-preview", "--expect-no-changes"], { cwd: ROOT, stream: true });
    console.log("    no changes, as expected");

    step(
      "cleaning up (destroy unsubscribes the endpoint and archives the product, which the service cannot delete; the family stays; nothing for the one-shot migration and replay)",
    );
    await ws.pulumi(["destroy", "--yes", "--skip-preview"], { cwd: ROOT });
    for (const e of sim.endpoints()) console.log(`    endpoint ${e.id} ${e.url}: ${e.events.length ? e.events.join(", ") : "no events"}`);
    await ws.pulumi(["stack", "rm", "--yes", stack], { cwd: ROOT });
  } finally {
    await ws.dispose();
    await sim.close();
  }
  step("demo complete");
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
