import type { PolicyViolation, PreviewDiagnostic, PreviewJson, PreviewStep } from "../fleet/report";
import { urnParts } from "./markdown";

/** The type tokens of this package's resources, as the engine names dynamic resources. */
export const TYPES = {
  migration: "pulumi-nodejs:dynamic/billing:SubscriptionMigration",
  settings: "pulumi-nodejs:dynamic/billing:WebhookSettings",
  endpoint: "pulumi-nodejs:dynamic/billing:WebhookEndpoint",
  replay: "pulumi-nodejs:dynamic/billing:WebhookReplay",
} as const;

/**
 * A step's type: as read (a digest has it in the step's states), else from its urn. A kind served by the
 * provider plugin (`billing:index:WebhookSettings`) reads as its dynamic resource's type: the two take the
 * same inputs, and a review reviews them alike.
 */
export const typeOfStep = (s: PreviewStep): string => declaredTypeOf(s).replace(/^billing:index:/, "pulumi-nodejs:dynamic/billing:");

/** A step's type as the program declared it (`billing:index:WebhookReplay` for the plugin's): what a reviewer reads. */
export const declaredTypeOf = (s: PreviewStep): string => s.type ?? urnParts(s.urn).type;

// The engine's own bookkeeping: the stack and its providers are no change a reviewer reviews.
const isEngineOwn = (type: string) => type === "pulumi:pulumi:Stack" || type.startsWith("pulumi:providers:");

/**
 * The steps a review lists: one per resource, what it will do. `same` steps are
 * left out (counted in the change summary), and so are the engine's own. A
 * replacement is one `replace`: `pulumi preview --json` shows only that, but an
 * event stream (and so a fleet report) also has its create-replacement and
 * delete-replaced halves.
 */
export function changedSteps(preview: PreviewJson): PreviewStep[] {
  const steps = (preview.steps ?? []).filter((s) => s.op !== "same" && !isEngineOwn(typeOfStep(s)));
  const replaced = new Set(steps.filter((s) => s.op === "replace").map((s) => s.urn));
  const out: PreviewStep[] = [];
  const seen = new Set<string>();
  for (const s of steps) {
    if (s.op === "delete-replaced" || s.op === "discard-replaced") continue;
    if (s.op === "create-replacement" && replaced.has(s.urn)) continue;
    const step = s.op === "create-replacement" ? { ...s, op: "replace" } : s;
    const key = `${step.op}\u0000${step.urn}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(step);
  }
  return out.sort((a, b) => compare(a.urn, b.urn) || compare(a.op, b.op));
}

/** Code-unit order: the same on every machine and locale. */
export const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The order of ops in a change summary: what a reviewer looks for first. */
const OP_ORDER = ["create", "update", "replace", "delete"];
const OP_LABEL: Record<string, string> = {
  create: "to create",
  update: "to update",
  replace: "to replace",
  delete: "to delete",
  read: "to read",
  import: "to import",
  same: "unchanged",
};

/**
 * Counts by op as the engine summed them up. Undefined when it did not (a preview that
 * stopped early): counting the steps instead would pass a half-planned preview off as whole.
 */
export function changeCounts(preview: PreviewJson): Record<string, number> | undefined {
  return preview.changeSummary && Object.keys(preview.changeSummary).length > 0 ? preview.changeSummary : undefined;
}

/** "2 to create, 1 to update, 3 unchanged": ops in review order, `same` last, zero counts left out. */
export function countsText(counts: Readonly<Record<string, number>>): string {
  const rank = (op: string) => (op === "same" ? OP_ORDER.length + 1 : OP_ORDER.includes(op) ? OP_ORDER.indexOf(op) : OP_ORDER.length);
  const parts = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .sort(([a], [b]) => rank(a) - rank(b) || compare(a, b))
    .map(([op, n]) => `${n} ${OP_LABEL[op] ?? op}`);
  return parts.length ? parts.join(", ") : "no changes";
}

/** A diagnostic as the review shows it: a warning or an error, its `warning: ` / `error: ` prefix removed. */
export interface Note {
  readonly severity: "error" | "warning";
  readonly urn?: string;
  readonly message: string;
}

/**
 * The warnings and errors of a preview, deduplicated and sorted. Left out: `debug` (engine
 * chatter, some of it quoting the serialized provider), `info` (the program's own log, e.g. the
 * charge line of previewSubscriptionMigration, which the migration table shows), and the
 * provider's stderr (`info#err`: stack traces that repeat an error already reported) except
 * its lines that start with `warning:`, which is how a provider's warnings arrive (no urn).
 */
export function notesOf(diagnostics: readonly PreviewDiagnostic[]): Note[] {
  const notes = new Map<string, Note>();
  for (const d of diagnostics) {
    const raw = d.message.trim();
    let severity: Note["severity"] | undefined;
    if (d.severity === "error") severity = "error";
    else if (d.severity === "warning") severity = "warning";
    else if (d.severity === "info#err" && /^warning:/i.test(raw)) severity = "warning";
    if (!severity) continue;
    const message = raw.replace(/^(warning|error):\s*/i, "");
    if (message === "") continue;
    const note: Note = { severity, ...(d.urn ? { urn: d.urn } : {}), message };
    notes.set(`${severity}\u0000${d.urn ?? ""}\u0000${message}`, note);
  }
  return [...notes.values()].sort(
    (a, b) =>
      compare(a.severity, b.severity) ||
      // A note without a resource (e.g. "preview failed") after those that name one.
      Number(a.urn === undefined) - Number(b.urn === undefined) ||
      compare(a.urn ?? "", b.urn ?? "") ||
      compare(a.message, b.message),
  );
}

/** Enforcement levels, the blocking ones first. */
const LEVELS = ["mandatory", "remediate", "advisory"];

/** Policy violations deduplicated (the engine may report one per policy pack run) and sorted. */
export function violationsOf(violations: readonly PolicyViolation[]): PolicyViolation[] {
  const byKey = new Map<string, PolicyViolation>();
  for (const v of violations) {
    byKey.set([v.urn ?? "", v.policyPackName, v.policyName, v.enforcementLevel, v.message].join("\u0000"), v);
  }
  const level = (l: string) => {
    const i = LEVELS.indexOf(l);
    return i < 0 ? LEVELS.length : i;
  };
  return [...byKey.values()].sort(
    (a, b) =>
      level(a.enforcementLevel) - level(b.enforcementLevel) ||
      compare(a.urn ?? "", b.urn ?? "") ||
      compare(a.policyPackName, b.policyPackName) ||
      compare(a.policyName, b.policyName) ||
      compare(a.message, b.message),
  );
}
