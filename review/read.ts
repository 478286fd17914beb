import type { EngineEvent } from "@pulumi/pulumi/automation";
import { z } from "zod";
import { EventLog } from "../fleet/events";
import type { FleetReport, PolicyViolation, PreviewDiagnostic, PreviewJson, PreviewStep, SiteReport } from "../fleet/report";

/**
 * Reads what a review summarizes: the JSON `pulumi preview --json` prints, the
 * same preview as a stream of engine events (PULUMI_ENABLE_STREAMING_JSON_PREVIEW:
 * the one JSON form with policy results), or a fleet report (`billing-fleet
 * preview --json`). The schemas refuse only what would make a summary wrong
 * (a step without an op or urn, a site without a name); real payloads carry
 * nulls (Go's `detailedDiff` has no omitempty) and omit empty fields, and
 * both are read as absent.
 */

/** A site of a fleet report as a review reads it; `result` is kept as written, so a newer runner's result still shows. */
export type FleetSite = Pick<SiteReport, "name" | "stack" | "changes" | "error" | "preview" | "policyViolations"> & {
  readonly result: string;
};

/** A fleet report as a review reads it. */
export type FleetInput = Pick<FleetReport, "kind" | "fleetFile" | "shard"> & {
  readonly operation: string;
  readonly sites: readonly FleetSite[];
};

/** One stack's preview, and what the form it came in tells about it. */
export interface StackInput {
  readonly kind: "preview";
  /** "document": `pulumi preview --json` (which leaves policy results out); "events": its event stream; "report": a fleet report's site. */
  readonly source: "document" | "events" | "report";
  readonly preview: PreviewJson;
  /** The policy packs that ran, when the input says (an event stream's summary does). */
  readonly policyPacks?: readonly { readonly name: string; readonly version: string }[];
  /** How many policy packs the CLI was asked to run, when the input says (an event stream's `policyLoadEvent`s do). */
  readonly policyPacksRequested?: number;
  /** false when an event stream ends before the engine's summary: the preview did not finish. */
  readonly complete?: boolean;
}

/** What {@link readInput} found: one stack's preview, or a fleet report. */
export type ReviewInput = StackInput | { readonly kind: "fleet"; readonly fleet: FleetInput };

/** Input that cannot be summarized; the message says what was expected and what was found. */
export class ReviewInputError extends Error {
  override name = "ReviewInputError";
}

const props = z.record(z.string(), z.unknown()).nullish();

// `__provider` is dropped here, at the door: it is the whole serialized provider, never for a reader.
const withoutProvider = (p: Record<string, unknown> | null | undefined) => {
  if (!p) return undefined;
  const { __provider: _, ...rest } = p;
  return rest;
};

const resourceState = z
  .looseObject({ type: z.string().nullish(), inputs: props, outputs: props })
  .nullish()
  .transform((s) =>
    s ? { type: s.type ?? undefined, inputs: withoutProvider(s.inputs), outputs: withoutProvider(s.outputs) } : undefined,
  );

const names = z
  .array(z.string())
  .nullish()
  .transform((a) => a ?? undefined);

const step = z
  .looseObject({
    op: z.string().min(1, "a step's op is what the step does: create, update, …"),
    urn: z.string().min(1, "a step's urn names the resource it changes"),
    type: z.string().nullish(),
    oldState: resourceState,
    newState: resourceState,
    diffReasons: names,
    replaceReasons: names,
    detailedDiff: z.record(z.string(), z.looseObject({ kind: z.string(), inputDiff: z.boolean().nullish() })).nullish(),
  })
  .transform(
    (s): PreviewStep => ({
      op: s.op,
      urn: s.urn,
      type: s.type ?? s.newState?.type ?? s.oldState?.type,
      oldState: s.oldState && { inputs: s.oldState.inputs, outputs: s.oldState.outputs },
      newState: s.newState && { inputs: s.newState.inputs, outputs: s.newState.outputs },
      diffReasons: s.diffReasons,
      replaceReasons: s.replaceReasons,
      detailedDiff: s.detailedDiff
        ? Object.fromEntries(
            Object.entries(s.detailedDiff).map(([k, d]) => [
              k,
              { kind: d.kind, ...(d.inputDiff != null ? { inputDiff: d.inputDiff } : {}) },
            ]),
          )
        : undefined,
    }),
  );

// Go omits an empty message and severity; "info" is what an engine diagnostic without a severity is.
const diagnostic = z.looseObject({ urn: z.string().nullish(), message: z.string().nullish(), severity: z.string().nullish() }).transform(
  (d): PreviewDiagnostic => ({
    ...(d.urn ? { urn: d.urn } : {}),
    message: d.message ?? "",
    severity: d.severity || "info",
  }),
);

const violation = z
  .looseObject({
    urn: z.string().nullish(),
    policyPackName: z.string(),
    policyName: z.string(),
    enforcementLevel: z.string(),
    message: z.string().nullish(),
  })
  .transform(
    (v): PolicyViolation => ({
      ...(v.urn ? { urn: v.urn } : {}),
      policyPackName: v.policyPackName,
      policyName: v.policyName,
      enforcementLevel: v.enforcementLevel,
      message: v.message ?? "",
    }),
  );

const list = <T extends z.ZodType>(item: T) =>
  z
    .array(item)
    .nullish()
    .transform((a) => a ?? undefined);

const preview = z
  .looseObject({
    steps: list(step),
    diagnostics: list(diagnostic),
    policyViolations: list(violation),
    changeSummary: z.record(z.string(), z.number()).nullish(),
  })
  .transform(
    (p): PreviewJson => ({
      steps: p.steps ?? [],
      diagnostics: p.diagnostics ?? [],
      policyViolations: p.policyViolations ?? [],
      ...(p.changeSummary ? { changeSummary: p.changeSummary } : {}),
    }),
  );

const site = z
  .looseObject({
    name: z.string().min(1),
    stack: z.string().nullish(),
    result: z.string().nullish(),
    changes: z.record(z.string(), z.number()).nullish(),
    error: z.string().nullish(),
    preview: preview.nullish(),
    policyViolations: list(violation),
  })
  .transform(
    (s): FleetSite => ({
      name: s.name,
      stack: s.stack ?? s.name,
      result: s.result ?? "unknown",
      changes: s.changes ?? {},
      ...(s.error ? { error: s.error } : {}),
      ...(s.preview ? { preview: s.preview } : {}),
      ...(s.policyViolations?.length ? { policyViolations: s.policyViolations } : {}),
    }),
  );

const fleet = z
  .looseObject({
    kind: z.literal("billing-fleet-report"),
    version: z.literal(1, {
      error: "this fleet report's version is not 1: it was written by a newer billing-fleet than this billing-review",
    }),
    operation: z.string(),
    fleetFile: z.string().nullish(),
    shard: z.object({ index: z.number(), count: z.number() }).nullish(),
    sites: z.array(site),
  })
  .transform(
    (f): FleetInput => ({
      kind: f.kind,
      operation: f.operation,
      fleetFile: f.fleetFile ?? "",
      ...(f.shard ? { shard: f.shard } : {}),
      sites: f.sites,
    }),
  );

function issuesText(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map(
      (i) =>
        `${i.path.length ? `${i.path.map((p, n) => (typeof p === "number" ? `[${p}]` : `${n ? "." : ""}${String(p)}`)).join("")}: ` : ""}${i.message}`,
    )
    .join("; ");
}

/** Where a JSON document stopped parsing, told for a person (a truncated preview is the usual case). */
function notJson(text: string, source: string, err: unknown): ReviewInputError {
  const trimmed = text.trim();
  if (trimmed === "")
    return new ReviewInputError(
      `${source} is empty: expected the JSON that \`pulumi preview --json\` prints (a preview that failed before the engine ran prints nothing on stdout; see its stderr)`,
    );
  const firstLine = trimmed.split("\n", 1)[0].slice(0, 80);
  if (!trimmed.startsWith("{")) {
    return new ReviewInputError(
      `${source} is not JSON (it starts with ${JSON.stringify(firstLine)}): run \`pulumi preview --json\`, whose stdout is the JSON document`,
    );
  }
  const why = err instanceof Error ? err.message : String(err);
  if (/end of (JSON )?input|Unterminated|Expected .* after/i.test(why) && !trimmed.endsWith("}")) {
    return new ReviewInputError(`${source} ends before its JSON does (${why}): the preview's output was cut off`);
  }
  return new ReviewInputError(`${source} is not valid JSON: ${why}`);
}

/**
 * Checks a value already parsed from JSON: a fleet report (`kind: "billing-fleet-report"`) or
 * the document of `pulumi preview --json`. Throws {@link ReviewInputError} for anything else.
 */
export function parseInput(json: unknown, source = "the input"): ReviewInput {
  if (isEvent(json)) return readEvents([JSON.stringify(json)], source);
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw new ReviewInputError(`${source} is JSON but not an object: expected the document of \`pulumi preview --json\` or a fleet report`);
  }
  if ("kind" in json) {
    if (json.kind !== "billing-fleet-report") {
      throw new ReviewInputError(
        `${source} has kind ${JSON.stringify(json.kind)}: billing-review reads "billing-fleet-report" or a preview`,
      );
    }
    const parsed = fleet.safeParse(json);
    if (!parsed.success) throw new ReviewInputError(`${source} is not a fleet report it can read: ${issuesText(parsed.error)}`);
    return { kind: "fleet", fleet: parsed.data };
  }
  // `{}` is what the CLI prints when the preview stops before the engine runs: a preview of nothing, said as such.
  const known = ["config", "steps", "diagnostics", "duration", "changeSummary", "maybeCorrupt"];
  const keys = Object.keys(json);
  if (keys.length > 0 && !keys.some((k) => known.includes(k))) {
    throw new ReviewInputError(
      `${source} has none of steps, changeSummary, diagnostics: it is not the JSON of \`pulumi preview --json\` ` +
        `(\`--output json\` prints a one-line summary without the steps a review reads)`,
    );
  }
  const parsed = preview.safeParse(json);
  if (!parsed.success) throw new ReviewInputError(`${source} is not a preview it can read: ${issuesText(parsed.error)}`);
  return { kind: "preview", source: "document", preview: parsed.data };
}

const isEvent = (v: unknown): v is EngineEvent => typeof v === "object" && v !== null && "sequence" in v && "timestamp" in v;

const summaryEvent = z.looseObject({
  resourceChanges: z.record(z.string(), z.number()).nullish(),
  PolicyPacks: z.record(z.string(), z.string()).nullish(),
});

/**
 * A stream of engine events, one JSON object a line, read through the fleet
 * runner's EventLog so that a stack's stream and a fleet report's site are one
 * shape. A last line cut off is tolerated (the preview was interrupted: the
 * input says it did not finish); a bad line before it is refused.
 */
function readEvents(lines: readonly string[], source: string): StackInput {
  const log = new EventLog();
  let summary: z.output<typeof summaryEvent> | undefined;
  let complete = false;
  // The engine sends one policyLoadEvent per pack it was given, before it starts it: a pack that then fails to
  // start is in this count and not in the summary's PolicyPacks (the CLI cancels the preview, no summary at all).
  let requested = 0;
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    let event: unknown;
    try {
      event = JSON.parse(line);
    } catch (err) {
      if (lines.slice(i + 1).every((l) => l.trim() === "")) return;
      throw new ReviewInputError(`${source}, line ${i + 1}, is not JSON (${err instanceof Error ? err.message : String(err)})`);
    }
    if (!isEvent(event)) throw new ReviewInputError(`${source}, line ${i + 1}, is not an engine event (no sequence and timestamp)`);
    try {
      log.onEvent(event);
    } catch (err) {
      throw new ReviewInputError(
        `${source}, line ${i + 1}, is an engine event it cannot read (${err instanceof Error ? err.message : String(err)})`,
      );
    }
    if ((event as { policyLoadEvent?: unknown }).policyLoadEvent) requested++;
    if (event.summaryEvent) {
      const parsed = summaryEvent.safeParse(event.summaryEvent);
      if (parsed.success) summary = parsed.data;
      complete = true;
    }
  });
  const parsed = preview.safeParse(log.preview(summary?.resourceChanges ?? undefined));
  if (!parsed.success) throw new ReviewInputError(`${source} holds events it cannot read: ${issuesText(parsed.error)}`);
  // Keys are "name|local|path" (or "name|org|…") → version; the path is the runner's, not the review's business.
  const policyPacks = Object.entries(summary?.PolicyPacks ?? {})
    .map(([key, version]) => ({ name: key.split("|")[0], version }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    kind: "preview",
    source: "events",
    preview: parsed.data,
    complete,
    ...(policyPacks.length ? { policyPacks } : {}),
    ...(requested ? { policyPacksRequested: requested } : {}),
  };
}

/**
 * Parses and checks a review's input: the JSON of `pulumi preview --json`, its
 * event stream (one JSON event a line), or a fleet report. `source` names it in
 * errors ("stdin", a file). Throws {@link ReviewInputError} for anything that
 * cannot be summarized, saying what it found.
 */
export function readInput(text: string, source = "the input"): ReviewInput {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    const lines = text.split("\n");
    const first = lines.find((l) => l.trim() !== "");
    let firstEvent: unknown;
    try {
      firstEvent = first === undefined ? undefined : JSON.parse(first);
    } catch {
      firstEvent = undefined;
    }
    if (isEvent(firstEvent)) return readEvents(lines, source);
    throw notJson(text, source, err);
  }
  return parseInput(json, source);
}
