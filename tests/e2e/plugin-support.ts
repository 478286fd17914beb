import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { pack } from "../../scripts/plugin-pack";
import { type Simulator, startSimulator } from "../../simulator";
import { ExampleStack, installedConsumer } from "./support";

/**
 * What the suites of the provider plugin with the real CLI share (plugin.test.ts, catalog-import.test.ts):
 * the plugin packed once and installed into each stack's PULUMI_HOME, a stack against a simulator of its own,
 * the credential check on dispose, and readers of what `pulumi import` and `pulumi preview --json` print.
 */

/** The API key of every plugin suite's simulated site: planted, so that disposeChecked can find a leak. */
export const KEY = "sk_e2e_plugin_7c41d9";
export const VERSION: string = require("../../package.json").version;

/** The plugin tarball, packed once per mocha run for every suite. */
let tarball: string | undefined;
export const packed = (): string => {
  tarball ??= pack();
  return tarball;
};

/** A stack whose CLI runs the installed plugin: folders holding a pulumi-resource-billing are kept off PATH. */
export async function pluginStack(dir: string, stack: string): Promise<ExampleStack> {
  const c = await installedConsumer();
  const s = await ExampleStack.create(c, dir, stack);
  // The engine prefers a pulumi-resource-billing on PATH (e.g. node_modules/.bin after an npm install of this repo)
  // to an installed plugin: keep such folders off PATH, so that what runs is the tarball's.
  s.ws.env.PATH = (s.ws.env.PATH ?? "")
    .split(path.delimiter)
    .filter((d) => !existsSync(path.join(d, "pulumi-resource-billing")))
    .join(path.delimiter);
  await s.ws.pulumi(["plugin", "install", "resource", "billing", VERSION, "--file", packed()], { cwd: s.cwd });
  return s;
}

/** A plugin stack against a simulator of its own, with the site's credentials as stack config (the key secret). */
export async function simulatedPluginStack(dir: string, stack: string): Promise<{ s: ExampleStack; sim: Simulator }> {
  const sim = await startSimulator({ apiKey: KEY });
  const s = await pluginStack(dir, stack);
  await s.config("billing:baseUrl", sim.url);
  await s.config("billing:apiKey", KEY, true);
  return { s, sim };
}

/** Removes the stack and stops its simulator; fails when the key appeared in anything the CLI printed. */
export async function disposeChecked(s: ExampleStack | undefined, sim: Simulator | undefined): Promise<void> {
  if (s) {
    const printed = s.outputs.join("\n");
    await s.dispose();
    assert.ok(!printed.includes(KEY), "the API key appeared in the CLI's output");
  }
  await sim?.close();
}

/** What a preview (`pulumi preview --json`) plans: its change summary, and each step that changes a billing resource, as `op name`. */
export function planOf(previewJson: string): { steps: string[]; changes: string[] } {
  const doc = JSON.parse(previewJson) as { steps?: { op: string; urn: string }[]; changeSummary?: Record<string, number> };
  const steps = (doc.steps ?? [])
    .filter((st) => st.op !== "same" && st.urn.includes("::billing:index:"))
    .map((st) => `${st.op} ${st.urn.split("::").pop()}`);
  return { steps, changes: Object.keys(doc.changeSummary ?? {}).filter((op) => op !== "same") };
}

/** The code `pulumi import` prints to paste into the program: from its first import to the end. */
export function printedCode(stdout: string): string {
  const from = stdout.indexOf("Please copy the following code");
  assert.ok(from >= 0, `pulumi import printed no code:\n${stdout}`);
  const rest = stdout.slice(from);
  const start = rest.search(/^import /m);
  assert.ok(start >= 0, `the printed code has no import:\n${rest}`);
  return rest.slice(start);
}
