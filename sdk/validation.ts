import type { z } from "zod";

/**
 * Turns zod issues into `{ property, message }` pairs with dotted property
 * paths, the form every error and every Pulumi CheckFailure of this package
 * uses. `accepted` lists, per object path ("" for the top; "*" for any list
 * index or record key), the keys that object takes, so an unknown key's
 * message says what would be accepted.
 */
export function problemsOf(
  error: z.ZodError,
  prefix?: string,
  accepted: Readonly<Record<string, readonly string[]>> = {},
): {
  /** The dotted path, led by `prefix`: "migration.productId", "[1].handle"; the prefix alone (or "(input)") for the value as a whole. */
  property: string;
  /** The issue's message; zod's "received undefined" reads "is required". */
  message: string;
}[] {
  return error.issues.flatMap((issue) => {
    const path = issue.path.map(String);
    if (issue.code === "unrecognized_keys") {
      // One problem per key, each named by its own path.
      const keys = keysAt(accepted, path);
      return issue.keys.map((key) => ({
        property: [prefix, ...path, key === "" ? "(empty key)" : key].filter(Boolean).join("."),
        message: `is not a known property${keys ? ` (accepted: ${keys.join(", ")})` : ""}`,
      }));
    }
    const property = [prefix, path.join(".")].filter(Boolean).join(".") || (prefix ?? "(input)");
    let message = issue.message;
    if (issue.code === "invalid_type" && /received undefined/.test(message)) message = "is required";
    return [{ property, message }];
  });
}

/** The keys accepted at `path`: its own entry, else one whose "*" segments stand for any list index or record key. */
function keysAt(accepted: Readonly<Record<string, readonly string[]>>, path: readonly string[]): readonly string[] | undefined {
  const exact = accepted[path.join(".")];
  if (exact) return exact;
  for (const [pattern, keys] of Object.entries(accepted)) {
    const segments = pattern === "" ? [] : pattern.split(".");
    if (segments.length === path.length && segments.every((s, i) => s === "*" || s === path[i])) return keys;
  }
  return undefined;
}

/** The keys an object schema accepts, for {@link problemsOf}'s `accepted`. */
export const keysOf = (schema: {
  /** A zod object schema's shape: its keys are the accepted ones. */
  shape: Record<string, unknown>;
}): readonly string[] => Object.keys(schema.shape);
