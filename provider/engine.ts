/**
 * The engine's conventions, read by the kinds (provider/kinds/) and the runtime that serves them (provider/runtime/)
 * alike: unknown values at preview, check failures, partial failures, notices. Importing neither, it keeps both
 * folders free of a circle.
 */

/** The engine's placeholder for a value not known until apply (preview). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
export type Unknown = typeof UNKNOWN;

/** Whether `v` is, or contains, an unknown value. */
export function isUnknown(v: unknown): boolean {
  if (v === UNKNOWN) return true;
  if (Array.isArray(v)) return v.some(isUnknown);
  if (v !== null && typeof v === "object") return Object.values(v).some(isUnknown);
  return false;
}

/** A CheckFailure as the dynamic provider interface wants it. */
export interface CheckFailure {
  readonly property: string;
  readonly reason: string;
}

/**
 * A failure on a nested property (`prices.1.startingQuantity`) as one on its top-level input (`prices`), the path
 * leading the reason (`prices[1].startingQuantity: …`). The engine prints a failure as `property P value {V}`, V
 * looked up in the inputs by P in its own path syntax, where a dotted list index finds nothing: it printed
 * `value {<nil>}` for a value the user did set. `inputs` are the resource's input names: only a path under one is
 * nested (an unknown key may hold a dot of its own).
 */
export function onTopLevel(failure: CheckFailure, inputs: readonly string[]): CheckFailure {
  const [top = "", ...rest] = failure.property.split(".");
  if (rest.length === 0 || !inputs.includes(top)) return failure;
  const path = rest.reduce((at, segment) => at + pathSegment(segment), top);
  return { property: top, reason: `${path}: ${failure.reason}` };
}

/** A segment of a path as JavaScript writes it: `[1]` for an index, `.name` for a key, `["a key"]` for any other key. */
const pathSegment = (segment: string): string =>
  /^\d+$/.test(segment) ? `[${segment}]` : /^[A-Za-z_$][\w$]*$/.test(segment) ? `.${segment}` : `[${JSON.stringify(segment)}]`;

/** The checked-inputs key under which check() records what the service said at preview (see Verified). */
export const PREVIEW_KEY = "preview";

/** Inputs without the engine's own `__provider` key. */
export function userInputs(props: Record<string, unknown>): Record<string, unknown> {
  const { __provider: _, ...rest } = props;
  return rest;
}

/**
 * An error the Node dynamic-provider host turns into a partial failure: the
 * resource is kept in state with `id` and `properties`, and the next `up`
 * calls update. The dynamic host does not add `__provider` on this path, so the
 * properties carry it, or the next operation could not load the provider. A
 * provider plugin has no serialized provider (`provider` undefined): none is added.
 */
export function partialFailure(message: string, id: string, properties: Record<string, unknown>, provider: unknown): Error {
  // Without undefined values: the host's protobuf Struct refuses them, which would lose what was applied.
  const kept = JSON.parse(JSON.stringify(properties)) as Record<string, unknown>;
  const recorded = provider === undefined ? kept : { ...kept, __provider: provider };
  return Object.assign(new Error(message), { id, properties: recorded, reasons: [message] });
}

/** A failure for each input the resource does not have, saying which it accepts. */
export function unknownInputs(type: string, accepted: readonly string[], inputs: Record<string, unknown>): CheckFailure[] {
  return Object.keys(inputs)
    .filter((key) => !accepted.includes(key))
    .map((key) => ({ property: key, reason: `is not an input of ${type} (accepted: ${accepted.join(", ")})` }));
}

/** The SDK's `{ property, message }` problems as CheckFailures. */
export const failuresOf = (problems: readonly { property: string; message: string }[]): CheckFailure[] =>
  problems.map(({ property, message }) => ({ property, reason: message }));

/** Sites are named by a non-empty string. */
export function siteFailure(site: unknown): CheckFailure | undefined {
  if (site === undefined || isUnknown(site)) return undefined;
  if (typeof site !== "string" || site === "") {
    return { property: "site", reason: "must be the name of an entry of the stack config billing:sites (a non-empty string)" };
  }
  return undefined;
}

/** Where notices go when not to stderr: set by the provider plugin (see {@link setNoticeSink}). */
let sink: ((message: string) => void) | undefined;

/**
 * Sends notices to `to` instead of stderr. The dynamic-provider host shows a provider's stderr as the
 * resource's diagnostics; the engine hides a resource plugin's stderr (verbose logs only), so the plugin
 * sends them through the engine's log, attributed to the resource the operation is for.
 */
export function setNoticeSink(to: ((message: string) => void) | undefined): void {
  sink = to;
}

/** Messages for the user: on the provider's stderr, which the dynamic-provider host shows as diagnostics, or the plugin's sink. */
export function notice(message: string): void {
  if (sink) sink(message);
  else console.error(message);
}
