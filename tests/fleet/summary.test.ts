import { readFileSync } from "node:fs";
import path from "node:path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import { EventLog } from "../../fleet/events";
import type { FleetReport, SiteReport } from "../../fleet/report";
import { summaryTable } from "../../fleet/summary";
import { reviewSummary } from "../../review";

/**
 * A site stopped by a mandatory policy, from the engine's events (a real preview's, recorded in
 * tests/fixtures) to the summary table and the review: the policy, its pack and its message, not the
 * engine's "preview failed".
 */
const ROOT = path.resolve(__dirname, "../..");
const events = readFileSync(path.join(ROOT, "tests/fixtures/preview/migration-mandatory.events.jsonl"), "utf8")
  .split("\n")
  .filter(Boolean)
  .map((l) => JSON.parse(l) as EngineEvent);

// The message does not name its resource, so the error does.
const STOPPED = "policy migration-charge-limit (pack review-fixture): subscription-1001: charge 1000 cents is above 0";

function stoppedSite(): SiteReport {
  const log = new EventLog();
  for (const e of events) log.onEvent(e);
  return {
    name: "eu-store",
    stack: "eu-store",
    result: "failed",
    changes: {},
    changed: 0,
    durationMs: 4200,
    error: log.firstError(),
    preview: log.preview(undefined),
    policyViolations: [...log.violations],
  };
}

const report = (operation: "preview" | "up", sites: SiteReport[]): FleetReport => ({
  kind: "billing-fleet-report",
  version: 1,
  operation,
  fleetFile: "/p/fleet.yaml",
  startedAt: "2026-01-01T00:00:00.000Z",
  finishedAt: "2026-01-01T00:00:05.000Z",
  sites,
});

const ok: SiteReport = { name: "us-store", stack: "us-store", result: "succeeded", changes: { create: 3 }, changed: 3, durationMs: 3100 };

describe("a site stopped by a policy", () => {
  it("the first error is the mandatory policy, its pack and its own message (the engine's error is only 'preview failed')", () => {
    const site = stoppedSite();
    expect(site.preview?.diagnostics?.some((d) => d.severity === "error" && d.message === "preview failed")).toBe(true);
    expect(site.error).toBe(STOPPED);
    // The advisory violation is reported, not the reason.
    expect(site.policyViolations?.map((v) => `${v.enforcementLevel} ${v.policyName}`)).toEqual([
      "advisory migration-declares-max-charge",
      "mandatory migration-charge-limit",
    ]);
  });

  it("the table says 'stopped by policy' and gives the policy's message as the first error", async () => {
    const table = await summaryTable(report("preview", [ok, stoppedSite()]), { width: 200 });
    const row = table.split("\n").find((l) => l.includes("eu-store")) ?? "";
    expect(row).toMatch(/│ stopped by policy │ -\s+│ 4\.2 s\s+│ (.*)\s+│$/);
    expect(row).toContain(`│ ${STOPPED} `);
    expect(table).toMatch(/preview: 1 of 2 sites succeeded, 1 failed \(re-run them with --resume\) in 5\.0 s\n$/);
  });

  it.each([80, 100, 140])("the table fits a terminal %i columns wide", async (width) => {
    const table = await summaryTable(report("preview", [ok, stoppedSite()]), { width });
    for (const line of table.split("\n")) expect([...line].length).toBeLessThanOrEqual(width);
  });

  it("the review of a fleet preview report shows the policy, its pack and its message for the site", () => {
    const md = reviewSummary(JSON.parse(JSON.stringify(report("preview", [ok, stoppedSite()]))));
    expect(md).toContain("| `eu-store` | `eu-store` | stopped by policy `migration-charge-limit` |");
    expect(md).toContain(
      "**Stopped by policy**:\n\n- `review-fixture/migration-charge-limit` on `subscription-1001`: charge 1000 cents is above 0\n",
    );
    expect(md).not.toContain("**failed**: preview failed");
  });

  it("a report of an older runner (error 'preview failed', violations only in the preview) reads the same", () => {
    const { policyViolations: _, ...old } = { ...stoppedSite(), error: "preview failed" };
    const md = reviewSummary(JSON.parse(JSON.stringify(report("preview", [old]))));
    expect(md).toContain("stopped by policy `migration-charge-limit`");
    expect(md).toContain("- `review-fixture/migration-charge-limit` on `subscription-1001`: charge 1000 cents is above 0");
  });

  it("an up report, which holds no preview, still shows the violations that stopped the site", () => {
    const { preview: _, ...up } = stoppedSite();
    const md = reviewSummary(JSON.parse(JSON.stringify(report("up", [ok, up]))));
    expect(md).toContain(
      "**Stopped by policy**:\n\n- `review-fixture/migration-charge-limit` on `subscription-1001`: charge 1000 cents is above 0\n",
    );
    expect(md).toContain("A report of this operation holds no preview.");
    expect(md).toContain("#### Policy violations\n\n- Policy **mandatory** `review-fixture/migration-charge-limit` on `subscription-1001`");
    expect(md).toContain("- Policy **advisory** `review-fixture/migration-declares-max-charge` on `subscription-1001`");
  });
});
