import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import type { FleetReport, PolicyViolation, SiteReport } from "../../fleet/report";
import { changesText, resultText, stoppedByPolicy, summaryTable } from "../../fleet/summary";

/**
 * How a fleet run's sites read at its end (the summary table and its last line): each case here is one
 * that a changed line of fleet/summary.ts would read differently (issue 24).
 */
const policy = (enforcementLevel: string): PolicyViolation => ({
  urn: "urn:pulumi:eu-store::billing::billing:index:WebhookSettings::webhooks",
  policyPackName: "billing",
  policyName: "webhooks-stay-enabled-in-production",
  enforcementLevel,
  message: "webhooks are off",
});
const site = (name: string, result: SiteReport["result"], more: Partial<SiteReport> = {}): SiteReport => ({
  name,
  stack: `prod-${name.slice(0, 2)}`,
  result,
  changes: {},
  changed: 0,
  durationMs: 1000,
  ...more,
});
const report = (sites: SiteReport[], more: Partial<FleetReport> = {}): FleetReport => ({
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
      site("eu-store", "failed", { policyViolations: [policy("advisory"), policy("mandatory")] }),
      true,
    ],
    ["a failed site with advisory violations only", site("eu-store", "failed", { policyViolations: [policy("advisory")] }), false],
    ["a failed site with no violations", site("eu-store", "failed"), false],
    [
      "a site that succeeded (its mandatory violation was not enforced)",
      site("eu-store", "succeeded", { policyViolations: [policy("mandatory")] }),
      false,
    ],
  ])("%s: %s", (_, r, stopped) => {
    expect(stoppedByPolicy(r)).toBe(stopped);
  });
});

describe("resultText", () => {
  it.each([
    [site("ca-store", "skipped"), "skipped (succeeded last time)"],
    [site("eu-store", "failed", { policyViolations: [policy("mandatory")] }), "stopped by policy"],
    [site("eu-store", "failed", { policyViolations: [policy("advisory")] }), "failed"],
    [site("uk-store", "succeeded"), "no changes"],
    [site("us-store", "succeeded", { changed: 3 }), "3 changed"],
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
      site("us-store", "succeeded", { changes: { same: 4, update: 1, create: 2 }, changed: 3, durationMs: 3100 }),
      site("uk-store", "succeeded", { changes: { same: 7 }, durationMs: 1300 }),
      site("eu-store", "failed", { durationMs: 4200, error: "subscription-1001: subscription 1001 was not found" }),
      site("ca-store", "skipped", { changes: { same: 3 }, durationMs: 900 }),
    ];
    expect(await summaryTable(report(sites, { shard: { index: 2, count: 3 } }), { width: 110 })).toBe(
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
    const table = await summaryTable(report([site("us-store", "succeeded"), site("uk-store", "succeeded")], { operation: "preview" }));
    expect(table.split("\n").slice(-2)).toEqual(["preview: 2 of 2 sites succeeded in 62.5 s", ""]);
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
      const table = await summaryTable(report([site("us", "succeeded")]), { color });
      expect(table.includes(ESC)).toBe(escapes);
      expect(colors.enabled).toBe(enabled);
    } finally {
      colors.enabled = was;
    }
  });
});
