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

  /** The first thing that went wrong, as one line: a resource's error, else a policy's, else the engine's. */
  firstError(): string | undefined {
    const errors = this.#diagnostics.filter((d) => d.severity === "error");
    const resource = errors.find((d) => d.urn) ?? errors[0];
    if (resource) return firstLine(resource.urn ? `${nameOf(resource.urn)}: ${resource.message}` : resource.message);
    const policy = this.#violations.find((v) => v.enforcementLevel === "mandatory");
    if (policy) return firstLine(`${policy.urn ? `${nameOf(policy.urn)}: ` : ""}[${policy.policyName}] ${policy.message}`);
    return undefined;
  }
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
