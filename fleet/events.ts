import type { EngineEvent } from "@pulumi/pulumi/automation";
import type { PolicyViolation, PreviewDiagnostic, PreviewJson, PreviewStep } from "./report";

/**
 * Collects one stack's engine events into the shape of `pulumi preview --json`, so that a
 * fleet preview can be reviewed like a single stack's (billing-review reads both).
 */
export class EventLog {
  readonly #steps: PreviewStep[] = [];
  readonly #diagnostics: PreviewDiagnostic[] = [];
  readonly #violations: PolicyViolation[] = [];
  /** The last resource step seen: the progress display's detail line. */
  last = "";
  /** The engine's count of steps by operation ("same", "create", …), from its summary event at the end. */
  changes: Readonly<Record<string, number>> = {};

  readonly onEvent = (e: EngineEvent): void => {
    const step = e.resourcePreEvent?.metadata;
    if (step) {
      this.last = `${step.op} ${nameOf(step.urn)}`;
      this.#steps.push({
        op: step.op,
        urn: step.urn,
        type: step.type,
        ...(step.old ? { oldState: { inputs: withoutProvider(step.old.inputs), outputs: withoutProvider(step.old.outputs) } } : {}),
        ...(step.new ? { newState: { inputs: withoutProvider(step.new.inputs), outputs: withoutProvider(step.new.outputs) } } : {}),
        ...(step.diffs ? { diffReasons: step.diffs } : {}),
        ...(step.keys ? { replaceReasons: step.keys } : {}),
        // As `pulumi preview --json` spells it: `kind`, where engine events say `diffKind`.
        ...(step.detailedDiff
          ? {
              detailedDiff: Object.fromEntries(
                Object.entries(step.detailedDiff).map(([k, d]) => [k, { kind: d.diffKind, inputDiff: d.inputDiff }]),
              ),
            }
          : {}),
      });
    }
    if (e.summaryEvent) this.changes = { ...e.summaryEvent.resourceChanges };
    const d = e.diagnosticEvent;
    // Ephemeral diagnostics are progress noise; debug ones (which can quote the serialized provider) are for the log
    // file. The SDK types leave "debug" out, but the engine sends it.
    if (d && !d.ephemeral && (d.severity as string) !== "debug")
      this.#diagnostics.push({ ...(d.urn ? { urn: d.urn } : {}), message: d.message.trim(), severity: d.severity });
    const p = e.policyEvent;
    if (p) {
      this.#violations.push({
        ...(p.resourceUrn ? { urn: p.resourceUrn } : {}),
        policyPackName: p.policyPackName,
        policyName: p.policyName,
        enforcementLevel: p.enforcementLevel,
        message: p.message.trim(),
      });
    }
  };

  preview(changeSummary: Record<string, number> | undefined): PreviewJson {
    return {
      steps: this.#steps,
      diagnostics: this.#diagnostics,
      policyViolations: this.#violations,
      ...(changeSummary ? { changeSummary } : {}),
    };
  }

  /** The policy violations so far (mandatory ones stop the operation; advisory ones are reported only). */
  get violations(): readonly PolicyViolation[] {
    return this.#violations;
  }

  /**
   * The first thing that went wrong, as one line: a mandatory policy's violation (the engine's own error is
   * then only "preview failed"), else a resource's error, else the engine's.
   */
  firstError(): string | undefined {
    const stopped = this.#violations.filter((v) => v.enforcementLevel === "mandatory");
    if (stopped.length) return policyError(stopped);
    const errors = this.#diagnostics.filter((d) => d.severity === "error");
    const resource = errors.find((d) => d.urn) ?? errors[0];
    if (!resource) return undefined;
    // The message's own first line, then its resource: "error:" and blank lines are the message's, not the name's.
    const line = firstLine(resource.message);
    return resource.urn ? `${nameOf(resource.urn)}: ${line}`.slice(0, 300) : line;
  }
}

/**
 * A site stopped by policy, as one line: the policy, its pack and its message (which names the resource), e.g.
 * "policy webhooks-stay-enabled-in-production (pack pulumi-subscription-billing): WebhookSettings 'webhooks' turns …".
 */
export function policyError(mandatory: readonly PolicyViolation[]): string {
  const [v, ...more] = mandatory;
  const where = v.urn && !v.message.includes(`'${nameOf(v.urn)}'`) ? `${nameOf(v.urn)}: ` : "";
  const rest = more.length ? ` (and ${more.length} more mandatory violation${more.length === 1 ? "" : "s"})` : "";
  return `policy ${v.policyName} (pack ${v.policyPackName}): ${where}${violationText(v.message)}${rest}`;
}

/** A violation's own message: the engine sends the policy's description, then the message, a line each. */
export function violationText(message: string): string {
  const lines = message
    .trim()
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  return (lines.length > 1 ? lines.slice(1) : lines).join(" ").slice(0, 400);
}

/** A resource's name from its urn (`urn:pulumi:stack::project::type::name`; the name itself may hold `::`). */
export const nameOf = (urn: string): string => urn.split("::").slice(3).join("::") || urn;

/** A dynamic resource's serialized provider is kilobytes of code, in every step: a report has no use for it. */
function withoutProvider(props: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!props || !("__provider" in props)) return props;
  const { __provider: _, ...rest } = props;
  return rest;
}

/** The first line that says something (the CLI prefixes and blank lines removed). */
export function firstLine(text: string): string {
  const lines = text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && !/^(error|stderr|stdout|code):\s*$/i.test(l));
  const line = lines.find((l) => !/^(code|stdout|stderr):/i.test(l) && !l.startsWith("+") && !l.startsWith("Previewing")) ?? lines[0] ?? "";
  return line.replace(/^(error|Error):\s*/, "").slice(0, 300);
}
