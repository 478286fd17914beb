import { createRequire } from "node:module";
import type { FleetReport, SiteReport } from "./report";

/** Whether a mandatory policy stopped the site (its `error` then names the policy). */
export const stoppedByPolicy = (r: Pick<SiteReport, "result" | "policyViolations">): boolean =>
  r.result === "failed" && !!r.policyViolations?.some((v) => v.enforcementLevel === "mandatory");

/** How a site's result reads in the display and the table. */
export function resultText(r: SiteReport): string {
  if (r.result === "skipped") return "skipped (succeeded last time)";
  if (r.result === "failed") return stoppedByPolicy(r) ? "stopped by policy" : "failed";
  return r.changed === 0 ? "no changes" : `${r.changed} changed`;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The changes as the engine counts them, "same" left out: e.g. "create 2, update 1". */
export const changesText = (changes: Record<string, number>): string =>
  Object.entries(changes)
    .filter(([op, n]) => op !== "same" && n > 0)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([op, n]) => `${op} ${n}`)
    .join(", ") || "-";

/** The summary table printed at the end of a run (cli-table3; plain borders when colour is off). */
export async function summaryTable(report: FleetReport, opts: { color?: boolean; width?: number } = {}): Promise<string> {
  const { default: Table } = await import("cli-table3");
  const head = ["site", "stack", "result", "changes", "duration", "first error"];
  const rows = report.sites.map((r) => [
    r.name,
    r.stack,
    resultText(r),
    changesText(r.changes),
    r.result === "skipped" ? "-" : seconds(r.durationMs),
    r.error ?? "",
  ]);
  // The first error takes what the other columns (their text, a space each side) and the 7 borders leave of the width.
  const others = head.slice(0, -1).reduce((sum, h, i) => sum + Math.max(h.length, ...rows.map((row) => row[i].length)) + 2, 0);
  const errorWidth = Math.max(12, (opts.width ?? 120) - others - 7);
  const table = new Table({
    head,
    style: opts.color ? {} : { head: [], border: [] },
    wordWrap: true,
    colWidths: [null, null, null, null, null, errorWidth],
  });
  for (const row of rows) table.push(row);
  const failed = report.sites.filter((s) => s.result === "failed").length;
  const skipped = report.sites.filter((s) => s.result === "skipped").length;
  const ran = report.sites.length - skipped;
  const took = seconds(Date.parse(report.finishedAt) - Date.parse(report.startedAt));
  const shard = report.shard ? ` (shard ${report.shard.index}/${report.shard.count})` : "";
  const line =
    `${report.operation}${shard}: ${ran - failed} of ${ran} site${ran === 1 ? "" : "s"} succeeded` +
    (failed ? `, ${failed} failed (re-run them with --resume)` : "") +
    (skipped ? `, ${skipped} skipped` : "") +
    ` in ${took}`;
  return `${coloured(!!opts.color, () => table.toString())}\n${line}\n`;
}

/**
 * cli-table3 colours through @colors/colors (its optional dependency), which decides on its own from
 * process.stdout and the CI variables; the caller's decision (a terminal, no NO_COLOR) is the one that counts,
 * so the table is drawn with that library switched to it, then switched back.
 */
function coloured(color: boolean, draw: () => string): string {
  let colors: { enabled: boolean } | undefined;
  try {
    colors = createRequire(require.resolve("cli-table3"))("@colors/colors/safe");
  } catch {
    // Not installed (optional): cli-table3 draws without colour.
  }
  if (!colors) return draw();
  const was = colors.enabled;
  colors.enabled = color;
  try {
    return draw();
  } finally {
    colors.enabled = was;
  }
}
