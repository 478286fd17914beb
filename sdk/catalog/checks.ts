import type { z } from "zod";
import { BillingValidationError } from "../errors";
import { positiveId } from "../inputs";
import { keysOf, problemsOf } from "../validation";

/** Checks of what callers give, before anything is sent; every problem named at once. */

export type Problem = { property: string; message: string };

/** The problems of `input` under `schema`, named under `prefix` (unknown keys with what is accepted). */
export function problemsUnder(schema: z.ZodType, input: unknown, prefix?: string): Problem[] {
  const r = schema.safeParse(input);
  if (r.success) return [];
  const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape;
  return problemsOf(r.error, prefix, shape ? { "": keysOf({ shape }) } : {});
}

/** `input` parsed by `schema`, or a {@link BillingValidationError} about `what`. */
export function parsed<S extends z.ZodType>(schema: S, input: unknown, what: string, prefix?: string, more: Problem[] = []): z.output<S> {
  const r = schema.safeParse(input);
  const problems = [...more, ...(r.success ? [] : problemsUnder(schema, input, prefix))];
  if (problems.length > 0 || !r.success) throw new BillingValidationError(what, problems);
  return r.data;
}

/** Problems of an id argument, named `property`. */
export function idProblems(value: unknown, property: string): Problem[] {
  const r = positiveId.safeParse(value);
  return r.success ? [] : problemsOf(r.error, property);
}

/** Problems of a uniqueness token option. */
export function tokenProblems(token: unknown): Problem[] {
  return token === undefined || (typeof token === "string" && token !== "")
    ? []
    : [{ property: "uniquenessToken", message: "must be a non-empty string (the token of the create being resumed)" }];
}

/** An id argument, or a {@link BillingValidationError} about `what`. */
export function idOf(value: unknown, property: string, what: string): number {
  const problems = idProblems(value, property);
  if (problems.length > 0) throw new BillingValidationError(what, problems);
  return value as number;
}
