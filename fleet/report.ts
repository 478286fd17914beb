/**
 * The fleet runner's report (`billing-fleet … --json`, and the record
 * `--resume` reads): per site, what happened. It carries no config value and
 * no output value, so it can hold no credential.
 */

export type Operation = "preview" | "up" | "refresh" | "destroy";

/** A resource step as `pulumi preview --json` gives it (the parts a review reads). */
export interface PreviewStep {
  readonly op: string;
  readonly urn: string;
  readonly type?: string;
  readonly oldState?: { readonly inputs?: Record<string, unknown>; readonly outputs?: Record<string, unknown> };
  readonly newState?: { readonly inputs?: Record<string, unknown>; readonly outputs?: Record<string, unknown> };
  readonly diffReasons?: readonly string[];
  readonly replaceReasons?: readonly string[];
  readonly detailedDiff?: Record<string, { kind: string; inputDiff?: boolean }>;
}

export interface PreviewDiagnostic {
  readonly urn?: string;
  readonly message: string;
  readonly severity: string;
}

export interface PolicyViolation {
  readonly urn?: string;
  readonly policyPackName: string;
  readonly policyName: string;
  readonly enforcementLevel: string;
  readonly message: string;
}

/** The shape of `pulumi preview --json` that reviews read (and a fleet preview records per site). */
export interface PreviewJson {
  readonly steps?: readonly PreviewStep[];
  readonly diagnostics?: readonly PreviewDiagnostic[];
  readonly policyViolations?: readonly PolicyViolation[];
  readonly changeSummary?: Record<string, number>;
}

export interface SiteReport {
  readonly name: string;
  readonly stack: string;
  readonly result: "succeeded" | "failed" | "skipped";
  /** Resource operations by kind ("create", "update", "same", …) as the engine counts them. */
  readonly changes: Record<string, number>;
  /** Resources created, updated, replaced or deleted: all but "same". */
  readonly changed: number;
  readonly durationMs: number;
  /** The first line of the failure, for the summary table. */
  readonly error?: string;
  /**
   * On `preview`: the steps and diagnostics as `pulumi preview --json` gives them (without `__provider`
   * and debug diagnostics), and the policy violations, which that document leaves out and the engine's
   * event stream carries.
   */
  readonly preview?: PreviewJson;
  /** On `preview` and `up`: the policy violations (a mandatory one stops the site; `error` then names it). */
  readonly policyViolations?: readonly PolicyViolation[];
}

export interface FleetReport {
  readonly kind: "billing-fleet-report";
  readonly version: 1;
  readonly operation: Operation;
  readonly fleetFile: string;
  readonly shard?: { readonly index: number; readonly count: number };
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly sites: readonly SiteReport[];
}
