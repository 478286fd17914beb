/**
 * Reading resource properties during preview, where some are not known yet.
 *
 * CrossGuard (@pulumi/policy 1.21) hands policies the inputs wrapped in a
 * proxy that throws when a value the engine does not know yet is read; left
 * alone, that error becomes an advisory "can't run policy … during preview"
 * note on every such resource. The policies here read through {@link read}
 * instead, and treat a value that is not known yet as "nothing to judge yet":
 * the engine runs the pack again at `pulumi up`, with the value known, before
 * the resource is created.
 */

/** What {@link read} returns for a value the engine does not know yet. */
export const NOT_KNOWN: unique symbol = Symbol("not known yet");
export type NotKnown = typeof NOT_KNOWN;

/**
 * The engine's unknown sentinels, as they arrive over gRPC (one per type of
 * the value they stand for). CrossGuard's proxy recognizes them on a read;
 * values read off its target, or props built without it, may still hold them.
 */
const SENTINELS: ReadonlySet<unknown> = new Set([
  "1c4a061d-8072-4f0a-a4cb-0ff528b18fe7", // boolean
  "3eeb2bf0-c639-47a8-9e75-3b44932eb421", // number
  "04da6b54-80e4-46f7-96ec-b56ff0331ba9", // string
  "6a19a0b0-7e62-4c92-b797-7f8e31da9cc2", // array
  "030794c1-ac77-496b-92df-f27374a8bd58", // asset
  "e48ece36-62e2-4504-bad9-02848725956a", // archive
  "dd056dcd-154b-4c76-9bd3-c8f88648b5ff", // object
]);

/** CrossGuard's UnknownValueError, recognized by its shape: its class is internal to the package. */
function isUnknownValueError(err: unknown): boolean {
  return err instanceof Error && "unknownTypeSentinel" in err && Array.isArray((err as { props?: unknown }).props);
}

/**
 * `props[key]`: its value (undefined when absent), or {@link NOT_KNOWN} when
 * the engine does not know it yet. Any other error is rethrown.
 */
export function read(props: unknown, key: string): unknown {
  if (props === NOT_KNOWN) return NOT_KNOWN;
  if (props === null || typeof props !== "object") return undefined;
  let value: unknown;
  try {
    value = (props as Record<string, unknown>)[key];
  } catch (err) {
    if (isUnknownValueError(err)) return NOT_KNOWN;
    throw err;
  }
  return SENTINELS.has(value) ? NOT_KNOWN : value;
}
