import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { FleetReport } from "../../fleet/report";

/**
 * `billing-fleet` as a user runs it: the installed package's bin under this Node, in the fleet file's
 * folder, its JSON report read back. What the fleet suites share (catalog-fleet.test.ts; fleet.test.ts,
 * fleet-policy.test.ts and newcomer.test.ts still hold their own copies of this).
 */
export interface FleetRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly report: FleetReport;
}

export interface FleetInvocation {
  /** The folder holding node_modules/pulumi-subscription-billing (the consumer). */
  readonly consumerDir: string;
  /** The fleet file; the run's working directory is its folder. */
  readonly fleetFile: string;
  /** The whole environment of the run (a workspace's, with the sites' credential variables). */
  readonly env: NodeJS.ProcessEnv;
  /** Where the report goes (`--json`). */
  readonly reportFile: string;
}

/** `billing-fleet <args…> <fleet file> --json <report>`: never rejects on a failing exit, the report says what failed. */
export async function runFleet(args: readonly string[], o: FleetInvocation): Promise<FleetRun> {
  const bin = path.join(o.consumerDir, "node_modules/pulumi-subscription-billing/dist/fleet/bin.js");
  const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args, o.fleetFile, "--json", o.reportFile],
      { cwd: path.dirname(o.fleetFile), env: o.env, maxBuffer: 64 << 20 },
      (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
  const report = JSON.parse(await readFile(o.reportFile, "utf8").catch(() => "null")) as FleetReport;
  if (!report) throw new Error(`billing-fleet ${args.join(" ")} wrote no report (exit ${code}):\n${stdout}\n${stderr}`);
  return { code, stdout, stderr, report };
}

/** Site names by result ("succeeded", "failed", "skipped"). */
export function byResult(r: FleetReport): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const s of r.sites) out[s.result] = [...(out[s.result] ?? []), s.name];
  return out;
}
