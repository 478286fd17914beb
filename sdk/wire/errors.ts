import { z } from "zod";

/**
 * Error bodies, as the vendor publishes them: `{"errors": ["…"]}` (most 4xx),
 * `{"errors": {"field": ["…"]}}` (price points), `{"error": "…"}` (cancel),
 * a bare JSON string, and plain text (the 429 of the rate limiter, gateway 5xx pages). A bulk
 * create's indexed keys at the top level are read in the caller's words by `catalog/refusals.ts`.
 */
export const errorListResponse = z.object({ errors: z.array(z.string()) });
/** The common error body {@link errorListResponse} reads: `{ errors: string[] }`. */
export type ErrorListResponse = z.infer<typeof errorListResponse>;

/** The service's messages in any of its error shapes; empty when it sent none. */
export function errorMessages(body: unknown): string[] {
  // A bare JSON string: the vendor's 404 of a family's product list ("A valid product_family_id is required").
  if (typeof body === "string") return body.trim() ? [body.trim()] : [];
  if (typeof body !== "object" || body === null) return [];
  const b = body as { errors?: unknown; error?: unknown };
  if (Array.isArray(b.errors)) return b.errors.filter((e): e is string => typeof e === "string");
  if (typeof b.errors === "object" && b.errors !== null) {
    return Object.entries(b.errors).flatMap(([field, v]) =>
      (Array.isArray(v) ? v : [v]).filter((m) => typeof m === "string").map((m) => `${field}: ${String(m)}`),
    );
  }
  if (typeof b.errors === "string") return [b.errors];
  if (typeof b.error === "string") return [b.error];
  return [];
}

/**
 * The 3-D Secure (Strong Customer Authentication) 422 of a migration.
 * Published shape: `{ errors, gateway_payment_id, description, action_link }`.
 */
export const authenticationRequiredResponse = z.object({
  errors: z.array(z.string()).optional(),
  action_link: z.string().min(1),
  gateway_payment_id: z.string().nullable().optional(),
  description: z.string().nullable().optional(),
});
/** The 3-D Secure refusal {@link authenticationRequiredResponse} reads; the SDK throws it as `AuthenticationRequiredError`. */
export type AuthenticationRequiredResponse = z.infer<typeof authenticationRequiredResponse>;

/** The duplicate-submission marker a repeated `uniqueness_token` gets with a 409. */
export const DUPLICATE_SUBMISSION = "DuplicatePrevention::DuplicateSubmissionError";
