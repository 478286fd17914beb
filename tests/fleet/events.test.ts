import { readFileSync } from "node:fs";
import path from "node:path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import { EventLog } from "../../fleet/events";

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
