import { createRequire } from "node:module";

/**
 * Which inputs a diff changes, said to the engine, so that what users read of a diff is the declared inputs only.
 *
 * Why: without a detailed diff the engine shows a resource's diff as its old inputs against its new checked inputs,
 * and those carry what check() adds for the review and the policy pack (`preview`, see Verified; the ids `stable`
 * adds): `[diff: +preview-pricePointId,productId~priceInCents]` on a plain `pulumi preview`. The policy pack reads
 * `preview` from the same inputs (the engine hands an analyzer no `__`-prefixed key), so it cannot be hidden by name.
 * A detailed diff lists the changed declared inputs, and the engine shows those alone.
 *
 * Neither the dynamic-provider host nor the SDK's provider server (@pulumi/pulumi 3.259.0) passes a diff's `diffs`
 * or `detailedDiff` on: each builds the DiffResponse, reads `result.changes` and calls `resp.setChanges(...)` right
 * after, in the same synchronous step. So a diff result's `changes` is a getter that hands its detail to the next
 * `setChanges` of a DiffResponse, patched once per process to add it (the message class of the host's own copy of
 * @pulumi/pulumi, found from the process's main module). A diff no host reads keeps the detail no longer than the
 * current task; another provider's DiffResponse (the dynamic host serves every dynamic provider of a program) gets none.
 */

/** The engine's kinds of a property's change (pulumirpc.PropertyDiff.Kind). */
export const PROPERTY_DIFF = { ADD: 0, ADD_REPLACE: 1, DELETE: 2, DELETE_REPLACE: 3, UPDATE: 4, UPDATE_REPLACE: 5 } as const;

/** A diff's detail: the changed declared inputs, and how each changes (against the recorded inputs). */
export interface DiffDetail {
  readonly diffs: readonly string[];
  readonly detailedDiff: Readonly<Record<string, number>>;
}

/** The detail of `changed` declared inputs: added, deleted or updated against `recorded`, a replacing one so marked. */
export function diffDetail(
  recorded: Readonly<Record<string, unknown>>,
  now: Readonly<Record<string, unknown>>,
  changed: readonly string[],
  replaces: readonly string[],
): DiffDetail {
  const detailedDiff: Record<string, number> = {};
  for (const k of changed) {
    const replacing = replaces.includes(k);
    const kind =
      recorded[k] === undefined
        ? replacing
          ? PROPERTY_DIFF.ADD_REPLACE
          : PROPERTY_DIFF.ADD
        : now[k] === undefined
          ? replacing
            ? PROPERTY_DIFF.DELETE_REPLACE
            : PROPERTY_DIFF.DELETE
          : replacing
            ? PROPERTY_DIFF.UPDATE_REPLACE
            : PROPERTY_DIFF.UPDATE;
    detailedDiff[k] = kind;
  }
  return { diffs: [...changed], detailedDiff };
}

/** The detail the last read `changes` handed over, until the next DiffResponse's setChanges (or the end of this task). */
let pending: DiffDetail | undefined;

/** A diff result whose `changes`, when the host reads it, hands `detail` to the DiffResponse it builds next. */
export function withDetail<R extends { readonly changes: boolean }>(result: R, detail: DiffDetail): R {
  installDiffDetail();
  const { changes, ...rest } = result;
  return Object.defineProperty({ ...rest }, "changes", {
    enumerable: true,
    get() {
      pending = detail;
      // Read by something other than a host (a test, a log): the detail goes no further than this task.
      queueMicrotask(() => {
        if (pending === detail) pending = undefined;
      });
      return changes;
    },
  }) as R;
}

interface DiffResponseMessage {
  setChanges(value: number): unknown;
  setDiffsList(value: string[]): unknown;
  setHasdetaileddiff(value: boolean): unknown;
  getDetaileddiffMap(): { set(key: string, value: unknown): unknown };
}
interface ProviderMessages {
  DiffResponse: { prototype: DiffResponseMessage };
  PropertyDiff: new () => { setKind(kind: number): unknown; setInputdiff(input: boolean): unknown };
}

const PATCHED = Symbol.for("pulumi-subscription-billing.diff-detail");

/** The host's protobuf messages: its own copy of @pulumi/pulumi (the main module's), else this package's. */
function hostMessages(): ProviderMessages[] {
  const found = new Set<ProviderMessages>();
  const from = [require.main?.filename, __filename].filter((f): f is string => typeof f === "string");
  for (const file of from) {
    try {
      found.add(createRequire(file)("@pulumi/pulumi/proto/provider_pb") as ProviderMessages);
    } catch {
      // Not resolvable from there: the other place, or no detail (the engine then shows its own diff).
    }
  }
  return [...found];
}

/** Patches each host copy's DiffResponse once: its setChanges adds the pending detail. */
export function installDiffDetail(): void {
  for (const messages of hostMessages()) {
    const proto = messages.DiffResponse?.prototype as (DiffResponseMessage & { [PATCHED]?: true }) | undefined;
    if (!proto || proto[PATCHED] || typeof proto.setChanges !== "function") continue;
    const setChanges = proto.setChanges;
    proto.setChanges = function (this: DiffResponseMessage, value: number) {
      const detail = pending;
      pending = undefined;
      const out = setChanges.call(this, value);
      // Only a diff that found declared inputs changed: otherwise the engine's own reading stands.
      if (detail && detail.diffs.length > 0) {
        this.setDiffsList([...detail.diffs]);
        const map = this.getDetaileddiffMap();
        for (const [key, kind] of Object.entries(detail.detailedDiff)) {
          const d = new messages.PropertyDiff();
          d.setKind(kind);
          // The change is of the declared inputs (what a program wrote), not of the outputs.
          d.setInputdiff(true);
          map.set(key, d);
        }
        this.setHasdetaileddiff(true);
      }
      return out;
    };
    Object.defineProperty(proto, PATCHED, { value: true });
  }
}
