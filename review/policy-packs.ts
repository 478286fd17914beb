import type { PreviewDiagnostic, PreviewJson } from "../fleet/report";
import type { ReviewInput, StackInput } from "./read";

/**
 * Whether the policy packs a preview was given ran, and what the CLI said when one did not. A pack that
 * fails to start (its `@pulumi/policy` missing, say) cancels the preview before the engine plans anything;
 * the CLI prints its own error ("policy pack … failed to start") on stderr only, but what the pack wrote on
 * its stderr reaches the JSON as a diagnostic without a resource (severity `info#err`), in the document
 * and in the event stream alike. tests/fixtures/preview/pack-without-policy.* are such previews, captured.
 */

/** How this package's launcher (policy/pack) starts every message of a pack that cannot start. */
export const LAUNCHER_FAILURE = "pulumi-subscription-billing policy pack:";

/** One stack's (or fleet site's) policy packs that did not run. */
export interface PolicyPacksNotRun {
  /** The fleet site, for a fleet report; absent for one stack's preview. */
  readonly site?: string;
  /** How many packs the CLI was given, when the input says (an event stream does; the document does not). */
  readonly requested?: number;
  /** How many ran to the end of the preview (the engine's summary names them). */
  readonly ran: number;
  /** What was said about it before the preview stopped, as written (the pack's own error among it, when it wrote one). */
  readonly said: readonly string[];
}

const MAX_SAID = 2000;

/**
 * What the CLI and its plugins said that is about no resource, when nothing was planned: the reason the
 * preview stopped before the engine ran, if it is in this input at all. The program's own log and a
 * provider's stderr are left out otherwise (steps.ts, notesOf), as noise beside a plan.
 */
export function stoppedEarlyBecause(preview: PreviewJson): string[] {
  if ((preview.steps ?? []).length > 0) return [];
  const said = (preview.diagnostics ?? [])
    .filter((d: PreviewDiagnostic) => !d.urn && (d.severity === "info#err" || d.severity === "info"))
    .map((d) => d.message.trim())
    .filter((m) => m !== "")
    .map((m) => (m.length > MAX_SAID ? `${m.slice(0, MAX_SAID)} …` : m));
  return [...new Set(said)];
}

function ofStack(input: Pick<StackInput, "preview" | "policyPacks" | "policyPacksRequested">, site?: string): PolicyPacksNotRun[] {
  const ran = input.policyPacks?.length ?? 0;
  const launcher = (input.preview.diagnostics ?? []).some((d) => d.message.trimStart().startsWith(LAUNCHER_FAILURE));
  const requested = input.policyPacksRequested;
  if (!launcher && (requested === undefined || requested <= ran)) return [];
  return [
    {
      ...(site === undefined ? {} : { site }),
      ...(requested === undefined ? {} : { requested }),
      ran,
      said: stoppedEarlyBecause(input.preview),
    },
  ];
}

/**
 * The policy packs a preview was given that did not run, per stack (a fleet report: per site); empty when
 * every pack the input says was requested ran. An event stream says how many were requested and how many
 * ran; a document (and a fleet site's preview) says it only through the error of this package's own launcher.
 * `billing-review` exits 3 when this is not empty: a review without the policies it was meant to carry must
 * not pass for a reviewed change.
 */
export function policyPacksNotRun(input: ReviewInput): PolicyPacksNotRun[] {
  if (input.kind === "fleet") return input.fleet.sites.flatMap((s) => (s.preview ? ofStack({ preview: s.preview }, s.name) : []));
  return ofStack(input);
}
