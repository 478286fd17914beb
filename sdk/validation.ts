import type { z } from "zod";

/**
 * Turns zod issues into `{ property, message }` pairs with dotted property
 * paths, the form every error and every Pulumi CheckFailure of this package uses.
 */
export function problemsOf(error: z.ZodError, prefix?: string): { property: string; message: string }[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String).join(".");
    const property = [prefix, path].filter(Boolean).join(".") || (prefix ?? "(input)");
    let message = issue.message;
    if (issue.code === "unrecognized_keys") {
      return { property: [prefix, ...issue.keys].filter(Boolean).join("."), message: "is not a known property" };
    }
    if (issue.code === "invalid_type" && /received undefined/.test(message)) message = "is required";
    return { property, message };
  });
}
