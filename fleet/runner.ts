import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Fleet, ResolvedSite } from "./fleet-file";
import { policyConfigsBySite } from "./policy-config";
import type { FleetReport, Operation, SiteReport } from "./report";
import { runSite } from "./run-site";
import { inShard, type Shard } from "./shard";
import { resultText } from "./summary";

/** Options of one fleet run. */
export interface FleetRunOptions {
  readonly operation: Operation;
  /** Stacks at once (default: the fleet file's, else 4). */
  readonly concurrency?: number;
  readonly shard?: Shard;
  /** Re-run only the sites that did not succeed in the last run of this operation. */
  readonly resume?: boolean;
  /** Backend URL (default: the fleet file's, else PULUMI_BACKEND_URL, else a file backend in the state folder). */
  readonly backend?: string;
  /** Inline workspaces, logs and the last report (default: `.billing-fleet` beside the fleet file). */
  readonly stateDir?: string;
  readonly policyPacks?: readonly string[];
  /**
   * Config files of the policy packs, the n-th for the n-th pack (`--policy-pack-config`): over the fleet file's
   * `policyPackConfig`, under a site's own. Throws PolicyConfigError, before any site runs, when they don't pair.
   */
  readonly policyPackConfigs?: readonly string[];
  /** "live": a task list redrawn in place (a TTY); "lines": a line per event (CI logs); "none": quiet. Default: live on a TTY. */
  readonly display?: "live" | "lines" | "none";
  readonly env?: NodeJS.ProcessEnv;
  /** Stops the run: sites not started are reported as not run, running ones stop gracefully (see SiteRunOptions.signal). */
  readonly signal?: AbortSignal;
}

export const DEFAULT_CONCURRENCY = 4;

export const stateDirOf = (fleet: Fleet, o: Pick<FleetRunOptions, "stateDir">): string =>
  path.resolve(o.stateDir ?? path.join(path.dirname(fleet.file), ".billing-fleet"));

/** The record `--resume` reads: the last report of each operation (and of each shard). */
const lastReportFile = (stateDir: string, operation: Operation, shard: Shard | undefined) =>
  path.join(stateDir, `last-${operation}${shard ? `.shard-${shard.index}-of-${shard.count}` : ""}.json`);

export function backendOf(fleet: Fleet, o: FleetRunOptions, stateDir: string): string {
  const env = o.env ?? process.env;
  return o.backend ?? fleet.backend ?? env.PULUMI_BACKEND_URL ?? `file://${path.join(stateDir, "state")}`;
}

async function lastSucceeded(file: string): Promise<Set<string>> {
  const text = await readFile(file, "utf8").catch(() => undefined);
  if (text === undefined) return new Set();
  const last = JSON.parse(text) as FleetReport;
  return new Set(last.sites.filter((s) => s.result !== "failed").map((s) => s.stack));
}

/**
 * Runs an operation on every site of the fleet (of this shard), `concurrency` stacks at once.
 * A failed site never stops the others; the report says what happened to each.
 */
export async function runFleet(fleet: Fleet, o: FleetRunOptions): Promise<FleetReport> {
  const env = o.env ?? process.env;
  // Before anything is created: configs that don't pair with the packs are a usage error.
  const policyConfigs = policyConfigsBySite(fleet.sites, {
    operation: o.operation,
    policyPacks: o.policyPacks,
    cli: o.policyPackConfigs,
    fleet: fleet.policyPackConfig,
  });
  const stateDir = stateDirOf(fleet, o);
  const backend = backendOf(fleet, o, stateDir);
  // A refused run leaves nothing behind: the check comes before the backend's folder is made.
  if (!/^https?:\/\//.test(backend) && !env.PULUMI_CONFIG_PASSPHRASE && !env.PULUMI_CONFIG_PASSPHRASE_FILE) {
    throw new Error(
      `the stacks on ${backend} keep their secrets with a passphrase: set PULUMI_CONFIG_PASSPHRASE (or PULUMI_CONFIG_PASSPHRASE_FILE) before running the fleet`,
    );
  }
  if (backend.startsWith("file://")) await mkdir(backend.slice("file://".length), { recursive: true });
  const concurrency = o.concurrency ?? fleet.concurrency ?? DEFAULT_CONCURRENCY;
  const startedAt = new Date().toISOString();
  const mine = fleet.sites.filter((s) => inShard(s.stack, o.shard));
  const recordFile = lastReportFile(stateDir, o.operation, o.shard);
  const done = o.resume ? await lastSucceeded(recordFile) : new Set<string>();
  const results = new Map<string, SiteReport>();
  for (const s of mine) {
    if (done.has(s.stack))
      results.set(s.stack, { name: s.name, stack: s.stack, result: "skipped", changes: {}, changed: 0, durationMs: 0 });
  }
  const todo = mine.filter((s) => !done.has(s.stack));
  const run = (site: ResolvedSite, onProgress?: (detail: string) => void) =>
    runSite(site, {
      operation: o.operation,
      project: fleet.project,
      backend,
      stateDir,
      policyPacks: o.policyPacks,
      policyPackConfigs: policyConfigs.get(site.stack),
      env,
      signal: o.signal,
      onProgress,
    });

  const display = o.display ?? (process.stdout.isTTY ? "live" : "lines");
  // listr2 bounds the concurrency and draws the progress; "silent" keeps that one path when quiet.
  const { Listr } = await import("listr2");
  const tasks = new Listr(
    todo.map((site) => ({
      title: `${site.name} (${o.operation})`,
      task: async (_: unknown, task: { output: string; title: string }) => {
        const r = await run(site, (detail) => {
          // Plain lines interleave the sites: each says whose it is.
          task.output = display === "lines" ? `${site.name}: ${detail}` : detail;
        });
        results.set(site.stack, r);
        task.title = `${site.name}: ${resultText(r)} in ${(r.durationMs / 1000).toFixed(1)} s`;
        if (r.result === "failed") throw new Error(`${site.name}: ${r.error}`);
      },
    })),
    {
      concurrent: concurrency,
      exitOnError: false,
      renderer: display === "live" ? "default" : display === "lines" ? "simple" : "silent",
      collectErrors: false,
      // Ctrl-C is the CLI's to handle (a graceful stop, then the report): listr2's own handler would exit 127 without either.
      registerSignalListeners: false,
    },
  );
  await tasks.run().catch(() => undefined);
  const report: FleetReport = {
    kind: "billing-fleet-report",
    version: 1,
    operation: o.operation,
    fleetFile: fleet.file,
    ...(o.shard ? { shard: o.shard } : {}),
    startedAt,
    finishedAt: new Date().toISOString(),
    // In the fleet file's order, whatever order they finished in.
    sites: mine.map((s) => results.get(s.stack) as SiteReport),
  };
  await mkdir(stateDir, { recursive: true });
  await writeFile(recordFile, `${JSON.stringify(report, null, 2)}\n`);
  return report;
}
