import { readFileSync } from "node:fs";
import path from "node:path";
import type { DiagnosticEvent, DiffKind, EngineEvent, PolicyEvent, StepEventMetadata } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import { EventLog, firstLine, nameOf, policyError, violationText } from "../../fleet/events";
import type { PolicyViolation } from "../../fleet/report";

/**
 * The engine's events as the runner reads them (fleet/events.ts): EventLog's steps, diagnostics, policy violations,
 * first error and changes (the last from a recorded run), and the texts it builds (policyError, violationText,
 * nameOf, firstLine).
 */

const URN = "urn:pulumi:eu-store::billing::pulumi-nodejs:dynamic/billing:Subscription::subscription-1001";
const STACK_URN = "urn:pulumi:eu-store::billing::pulumi:pulumi:Stack::billing-eu-store";

let sequence = 0;
const event = (e: Omit<EngineEvent, "sequence" | "timestamp">): EngineEvent => ({ sequence: ++sequence, timestamp: 1, ...e });
const step = (metadata: StepEventMetadata): EngineEvent => event({ resourcePreEvent: { metadata } });
const diagnostic = (d: Omit<DiagnosticEvent, "color">): EngineEvent => event({ diagnosticEvent: { color: "never", ...d } });
const policy = (p: Pick<PolicyEvent, "policyName" | "enforcementLevel" | "message"> & { resourceUrn?: string }): EngineEvent =>
  event({ policyEvent: { color: "never", policyPackName: "billing", policyPackVersion: "1.0.0", policyPackVersionTag: "1.0.0", ...p } });
const state = (inputs: Record<string, unknown>, outputs: Record<string, unknown>) => ({
  type: "pulumi-nodejs:dynamic/billing:Subscription",
  urn: URN,
  id: "1001",
  parent: STACK_URN,
  provider: "",
  inputs,
  outputs,
});
const violation = (policyName: string, message: string, urn?: string): PolicyViolation => ({
  ...(urn ? { urn } : {}),
  policyPackName: "billing",
  policyName,
  enforcementLevel: "mandatory",
  message,
});

describe("EventLog: the steps, as `pulumi preview --json` gives them", () => {
  it("has no last step before the first one", () => {
    expect(new EventLog().last).toBe("");
  });

  it("records a step's states without the serialized provider, its diff and replace reasons and its detailed diff", () => {
    const log = new EventLog();
    log.onEvent(
      step({
        op: "replace",
        urn: URN,
        type: "pulumi-nodejs:dynamic/billing:Subscription",
        provider: "",
        old: state({ __provider: "exports.handler = …", plan: "basic" }, { __provider: "exports.handler = …", plan: "basic", id: 1001 }),
        new: state({ __provider: "exports.handler = …", plan: "growth" }, { plan: "growth" }),
        diffs: ["plan"],
        keys: ["plan"],
        detailedDiff: { plan: { diffKind: "update-replace" as DiffKind, inputDiff: true } },
      }),
    );
    expect(log.last).toBe("replace subscription-1001");
    expect(log.preview(undefined)).toEqual({
      steps: [
        {
          op: "replace",
          urn: URN,
          type: "pulumi-nodejs:dynamic/billing:Subscription",
          oldState: { inputs: { plan: "basic" }, outputs: { plan: "basic", id: 1001 } },
          newState: { inputs: { plan: "growth" }, outputs: { plan: "growth" } },
          diffReasons: ["plan"],
          replaceReasons: ["plan"],
          detailedDiff: { plan: { kind: "update-replace", inputDiff: true } },
        },
      ],
      diagnostics: [],
      policyViolations: [],
    });
  });
});

describe("EventLog: diagnostics and policy violations", () => {
  it("keeps errors, warnings and infos (trimmed, with their resource), not ephemeral or debug ones", () => {
    const log = new EventLog();
    log.onEvent(diagnostic({ message: "Found ts-node version 10.9.2\n", severity: "debug" as DiagnosticEvent["severity"] }));
    log.onEvent(diagnostic({ message: "downloading plugin\n", severity: "info", ephemeral: true }));
    log.onEvent(diagnostic({ urn: URN, message: "  the plan is deprecated\n", severity: "warning" }));
    log.onEvent(diagnostic({ message: "preview failed\n", severity: "error" }));
    log.onEvent(
      policy({ policyName: "max-charge", enforcementLevel: "warning", message: "  Charges stay low.\nno max charge\n", resourceUrn: URN }),
    );
    log.onEvent(policy({ policyName: "webhooks", enforcementLevel: "mandatory", message: "Webhooks stay on.\n" }));
    expect(log.preview({ same: 1 })).toEqual({
      steps: [],
      diagnostics: [
        { urn: URN, message: "the plan is deprecated", severity: "warning" },
        { message: "preview failed", severity: "error" },
      ],
      policyViolations: [
        {
          urn: URN,
          policyPackName: "billing",
          policyName: "max-charge",
          enforcementLevel: "warning",
          message: "Charges stay low.\nno max charge",
        },
        { policyPackName: "billing", policyName: "webhooks", enforcementLevel: "mandatory", message: "Webhooks stay on." },
      ],
      changeSummary: { same: 1 },
    });
  });
});

describe("EventLog.firstError", () => {
  it("is none while nothing failed (warnings and advisory violations are not errors)", () => {
    const log = new EventLog();
    log.onEvent(diagnostic({ urn: URN, message: "the plan is deprecated", severity: "warning" }));
    log.onEvent(policy({ policyName: "max-charge", enforcementLevel: "warning", message: "no max charge" }));
    expect(log.firstError()).toBeUndefined();
  });

  it("is a resource's error, named by its resource, before the engine's own error and any warning", () => {
    const log = new EventLog();
    log.onEvent(diagnostic({ urn: URN, message: "the plan is deprecated", severity: "warning" }));
    log.onEvent(diagnostic({ message: "preview failed", severity: "error" }));
    log.onEvent(diagnostic({ urn: URN, message: "subscription 1001 not found\n    at charge (provider.js:12)", severity: "error" }));
    expect(log.firstError()).toBe("subscription-1001: subscription 1001 not found");
  });

  it.each([
    ["an 'error:' prefix", "error: code: 404\n", "subscription-1001: code: 404"],
    ["a blank first line", "\n  the plan was removed\n", "subscription-1001: the plan was removed"],
    ["a long message, cut at 300 characters", "x".repeat(400), `subscription-1001: ${"x".repeat(300)}`.slice(0, 300)],
  ])("is a resource's error's own first line after its name: %s", (_, message, expected) => {
    const log = new EventLog();
    log.onEvent(diagnostic({ urn: URN, message, severity: "error" }));
    expect(log.firstError()).toBe(expected);
  });

  it("is the engine's error when no resource's error came", () => {
    const log = new EventLog();
    log.onEvent(diagnostic({ urn: URN, message: "the plan is deprecated", severity: "warning" }));
    log.onEvent(diagnostic({ message: "error: preview failed\n", severity: "error" }));
    expect(log.firstError()).toBe("preview failed");
  });

  it("is the mandatory violation, not the engine's 'preview failed'", () => {
    const log = new EventLog();
    log.onEvent(
      policy({
        policyName: "webhooks",
        enforcementLevel: "mandatory",
        message: "Webhooks stay on.\nthey are turned off",
        resourceUrn: URN,
      }),
    );
    log.onEvent(diagnostic({ message: "preview failed", severity: "error" }));
    expect(log.firstError()).toBe("policy webhooks (pack billing): subscription-1001: they are turned off");
  });
});

describe("policyError", () => {
  it.each([
    [
      "a message that names its resource",
      [violation("webhooks", "Webhooks stay on.\n'subscription-1001' turns them off", URN)],
      "policy webhooks (pack billing): 'subscription-1001' turns them off",
    ],
    ["a stack-wide violation", [violation("webhooks", "Webhooks stay on.\nthey are off")], "policy webhooks (pack billing): they are off"],
    [
      "one more",
      [violation("webhooks", "they are off", URN), violation("max-charge", "too high")],
      "policy webhooks (pack billing): subscription-1001: they are off (and 1 more mandatory violation)",
    ],
    [
      "two more",
      [violation("webhooks", "they are off"), violation("max-charge", "too high"), violation("trial", "too long")],
      "policy webhooks (pack billing): they are off (and 2 more mandatory violations)",
    ],
  ])("%s", (_, mandatory, line) => {
    expect(policyError(mandatory)).toBe(line);
  });
});

describe("violationText: the message after the policy's description", () => {
  it.each([
    ["a single line", "  they are off  ", "they are off"],
    ["the line after the description", "Webhooks stay on.\nthey are off\n", "they are off"],
    ["indented lines, blank ones left out", "Webhooks stay on.\n\n   they are off\n   in production  \n", "they are off in production"],
    ["at most 400 characters", `Webhooks stay on.\n${"x".repeat(450)}`, "x".repeat(400)],
  ])("%s", (_, message, text) => {
    expect(violationText(message)).toBe(text);
  });
});

describe("nameOf", () => {
  it.each([
    [URN, "subscription-1001"],
    ["urn:pulumi:eu-store::billing::billing:index:Price::growth::annual", "growth::annual"],
    ["not-a-urn", "not-a-urn"],
  ])("%s", (urn, name) => {
    expect(nameOf(urn)).toBe(name);
  });
});

describe("firstLine: the first line that says something", () => {
  it.each([
    ["nothing", "", ""],
    ["only blank lines", "\n  \n", ""],
    [
      "the CLI's prefixes and blank lines left out",
      "\n\nerror:\n  stderr:  \n  error: subscription 1001 not found\n",
      "subscription 1001 not found",
    ],
    ["'Error:' left out, the space after it too", "Error:   boom", "boom"],
    ["'error:' with no space after it", "error:boom", "boom"],
    ["a line that ends in 'error:' is one", "Update failed with error:\ndetails", "Update failed with error:"],
    ["'error:' inside a line stays", "Resource error: bad", "Resource error: bad"],
    ["not the CLI's output streams", "stdout: compiling\ncode: 1\nthe charge failed", "the charge failed"],
    ["a line that mentions a code is one", "the process exited with code: 1\nsecond", "the process exited with code: 1"],
    ["not the plan's lines", "+ create subscription-1001\nthe charge failed", "the charge failed"],
    ["a line with '+' at its end is one", "charged 5 +\nsecond", "charged 5 +"],
    ["not the 'Previewing' header", "Previewing update (eu-store):\nthe charge failed", "the charge failed"],
    ["a line that ends in 'Previewing' is one", "stopped while Previewing\nsecond", "stopped while Previewing"],
    ["the first line when none says more", "stdout: compiling\n+ create x", "stdout: compiling"],
    ["at most 300 characters", `error: ${"y".repeat(350)}`, "y".repeat(300)],
  ])("%s", (_, text, line) => {
    expect(firstLine(text)).toBe(line);
  });
});

/**
 * A site's changes come from the engine's own summary event: the runner no longer asks the CLI for the
 * stack's history after each operation (a CLI run per site, about 0.6 s of CPU), so these counts are the
 * report's only source.
 */
const ROOT = path.resolve(__dirname, "../..");
const recorded = (name: string) =>
  readFileSync(path.join(ROOT, "tests/fixtures/preview", name), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as EngineEvent);

describe("EventLog.changes", () => {
  it("is the summary event's count by operation, as a recorded run sent it", () => {
    const events = recorded("migration-create.events.jsonl");
    const summary = events.find((e) => e.summaryEvent)?.summaryEvent;
    expect(summary?.resourceChanges).toEqual({ create: 2 });
    const log = new EventLog();
    for (const e of events) log.onEvent(e);
    expect(log.changes).toEqual(summary?.resourceChanges);
  });

  it("is empty until the summary event arrives (a run that failed before its end changed nothing the report can count)", () => {
    const log = new EventLog();
    for (const e of recorded("migration-create.events.jsonl").filter((e) => !e.summaryEvent)) log.onEvent(e);
    expect(log.changes).toEqual({});
  });

  it("takes the last summary, as a copy the engine's object cannot change", () => {
    const log = new EventLog();
    const resourceChanges = { same: 3, update: 1 };
    log.onEvent({ sequence: 1, timestamp: 1, summaryEvent: { maybeCorrupt: false, durationSeconds: 1, resourceChanges, policyPacks: {} } });
    resourceChanges.update = 9;
    expect(log.changes).toEqual({ same: 3, update: 1 });
  });
});
