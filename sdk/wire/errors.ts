import { z } from "zod";

/** `Error List Response`: the body of 4xx answers (422 in the contract). */
export const errorListResponse = z.object({
  errors: z.array(z.string()),
});
export type ErrorListResponse = z.infer<typeof errorListResponse>;

/**
 * The 3-D Secure (Strong Customer Authentication) 422 of a migration.
 * Published shape: `{ errors, gateway_payment_id, description, action_link }`.
 */
export const authenticationRequiredResponse = z.object({
  errors: z.array(z.string()),
  action_link: z.string(),
  gateway_payment_id: z.string().optional(),
  description: z.string().optional(),
});
export type AuthenticationRequiredResponse = z.infer<typeof authenticationRequiredResponse>;

/** The duplicate-submission marker a repeated `uniqueness_token` gets with a 409. */
export const DUPLICATE_SUBMISSION = "DuplicatePrevention::DuplicateSubmissionError";
