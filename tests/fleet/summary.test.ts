import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import { EventLog } from "../../fleet/events";
import type { FleetReport, PolicyViolation, SiteReport } from "../../fleet/report";
import { changesText, resultText, stoppedByPolicy, summaryTable } from "../../fleet/summary";
import { reviewSummary } from "../../review";

/**
 * How a fleet run's sites read at its end (fleet/summary.ts): stoppedByPolicy, resultText, changesText and the summary
 * table (its rows, its last line, its colour); and a site stopped by a mandatory policy, from the engine's events (a
 * real preview's, recorded in tests/fixtures) to the summary table and the review: the policy, its pack and its
 * message, not the engine's "preview failed".
 */

const policy = (enforcementLevel: string): PolicyViolation => ({
  urn: "urn:pulumi:eu-store::billing::billing:index:WebhookSettings::webhooks",
  policyPackName: "billing",
  policyName: "webhooks-stay-enabled-in-production",
  enforcementLevel,
  message: "webhooks are off",
});
const siteReport = (name: string, result: SiteReport["result"], more: Partial<SiteReport> = {}): SiteReport => ({
  name,
  stack: `prod-${name.slice(0, 2)}`,
  result,
  changes: {},
  changed: 0,
  durationMs: 1000,
  ...more,
});
const fleetReport = (sites: SiteReport[], more: Partial<FleetReport> = {}): FleetReport => ({
  kind: "billing-fleet-report",
  version: 1,
  operation: "up",
  fleetFile: "/p/fleet.yaml",
  startedAt: "2026-01-01T00:00:00.000Z",
  finishedAt: "2026-01-01T00:01:02.500Z",
  sites,
  ...more,
});

describe("stoppedByPolicy", () => {
  it.each([
    [
      "a failed site with a mandatory violation",
      siteReport("eu-store", "failed", { policyViolations: [policy("advisory"), policy("mandatory")] }),
      true,
    ],
    ["a failed site with advisory violations only", siteReport("eu-store", "failed", { policyViolations: [policy("advisory")] }), false],
    ["a failed site with no violations", siteReport("eu-store", "failed"), false],
    [
      "a site that succeeded (its mandatory violation was not enforced)",
      siteReport("eu-store", "succeeded", { policyViolations: [policy("mandatory")] }),
      false,
    ],
  ])("%s: %s", (_, r, stopped) => {
    expect(stoppedByPolicy(r)).toBe(stopped);
  });
});

describe("resultText", () => {
  it.each([
    [siteReport("ca-store", "skipped"), "skipped (succeeded last time)"],
    [siteReport("eu-store", "failed", { policyViolations: [policy("mandatory")] }), "stopped by policy"],
    [siteReport("eu-store", "failed", { policyViolations: [policy("advisory")] }), "failed"],
    [siteReport("uk-store", "succeeded"), "no changes"],
    [siteReport("us-store", "succeeded", { changed: 3 }), "3 changed"],
  ])("%o reads %s", (r, text) => {
    expect(resultText(r)).toBe(text);
  });
});

describe("changesText", () => {
  it.each([
    [{ same: 4, update: 1, create: 2, delete: 0 }, "create 2, update 1"],
    [{ same: 7 }, "-"],
    [{ delete: 0 }, "-"],
    [{}, "-"],
  ])("%o reads %s", (changes, text) => {
    expect(changesText(changes)).toBe(text);
  });
});

describe("summaryTable", () => {
  it("gives each site a row (a long first error wrapped in its column) and counts them in its last line", async () => {
    const sites = [
      siteReport("us-store", "succeeded", { changes: { same: 4, update: 1, create: 2 }, changed: 3, durationMs: 3100 }),
      siteReport("uk-store", "succeeded", { changes: { same: 7 }, durationMs: 1300 }),
      siteReport("eu-store", "failed", { durationMs: 4200, error: "subscription-1001: subscription 1001 was not found" }),
      siteReport("ca-store", "skipped", { changes: { same: 3 }, durationMs: 900 }),
    ];
    expect(await summaryTable(fleetReport(sites, { shard: { index: 2, count: 3 } }), { width: 110 })).toBe(
      [
        "┌──────────┬─────────┬───────────────────────────────┬────────────────────┬──────────┬───────────────────────┐",
        "│ site     │ stack   │ result                        │ changes            │ duration │ first error           │",
        "├──────────┼─────────┼───────────────────────────────┼────────────────────┼──────────┼───────────────────────┤",
        "│ us-store │ prod-us │ 3 changed                     │ create 2, update 1 │ 3.1 s    │                       │",
        "├──────────┼─────────┼───────────────────────────────┼────────────────────┼──────────┼───────────────────────┤",
        "│ uk-store │ prod-uk │ no changes                    │ -                  │ 1.3 s    │                       │",
        "├──────────┼─────────┼───────────────────────────────┼────────────────────┼──────────┼───────────────────────┤",
        "│ eu-store │ prod-eu │ failed                        │ -                  │ 4.2 s    │ subscription-1001:    │",
        "│          │         │                               │                    │          │ subscription 1001 was │",
        "│          │         │                               │                    │          │ not found             │",
        "├──────────┼─────────┼───────────────────────────────┼────────────────────┼──────────┼───────────────────────┤",
        "│ ca-store │ prod-ca │ skipped (succeeded last time) │ -                  │ -        │                       │",
        "└──────────┴─────────┴───────────────────────────────┴────────────────────┴──────────┴───────────────────────┘",
        "up (shard 2/3): 2 of 3 sites succeeded, 1 failed (re-run them with --resume), 1 skipped in 62.5 s",
        "",
      ].join("\n"),
    );
  });

  it("ends with the count alone when every site succeeded and the run was not sharded", async () => {
    const table = await summaryTable(
      fleetReport([siteReport("us-store", "succeeded"), siteReport("uk-store", "succeeded")], { operation: "preview" }),
    );
    expect(table.split("\n").slice(-2)).toEqual(["preview: 2 of 2 sites succeeded in 62.5 s", ""]);
  });

  it("counts one site in the singular", async () => {
    const table = await summaryTable(fleetReport([siteReport("us-store", "succeeded")], { operation: "preview" }));
    expect(table.split("\n").slice(-2)).toEqual(["preview: 1 of 1 site succeeded in 62.5 s", ""]);
  });
});

describe("summaryTable's colour is the caller's, whatever cli-table3's colour library guessed", () => {
  // The instance cli-table3 colours with (its own dependency, resolved from it).
  const library = () => createRequire(require.resolve("cli-table3"))("@colors/colors/safe") as { enabled: boolean };
  const ESC = "\u001b[";

  it.each([
    ["colour asked, the library off", true, false, true],
    ["colour asked, the library on", true, true, true],
    ["no colour, the library on", false, true, false],
    ["no colour, the library off", false, false, false],
  ])("%s: escapes %s; the library's setting is left as it was", async (_, color, enabled, escapes) => {
    const colors = library();
    const was = colors.enabled;
    colors.enabled = enabled;
    try {
      const table = await summaryTable(fleetReport([siteReport("us", "succeeded")]), { color });
      expect(table.includes(ESC)).toBe(escapes);
      expect(colors.enabled).toBe(enabled);
    } finally {
      colors.enabled = was;
    }
  });
});

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
