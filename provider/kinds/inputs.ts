import { z } from "zod";
import { valueText } from "../../sdk/inputs";

/** A JSON Schema fragment: what a field accepts, for the docs and for schemas generated from the kinds. */
export type JsonSchema = { readonly [key: string]: unknown };

/**
 * Names what a field accepts, when its SDK schema takes `unknown` and says
 * what it accepts in its own messages: the TypeScript input type (`In`), and
 * the JSON Schema the docs render. So a resource's args are typed, and
 * documented, from the same schema that checks them.
 */
export const accepting =
  <In>(json: JsonSchema) =>
  <S extends z.ZodType>(schema: S): z.ZodType<z.output<S>, In> =>
    schema.meta(json) as z.ZodType<z.output<S>, In>;

/** `site`: an entry of the stack config `billing:sites`. */
export const siteInput = z
  .string({
    error: (i) => `must be the name of an entry of the stack config billing:sites (a non-empty string), got ${valueText(i.input)}`,
  })
  .min(1, "must be the name of an entry of the stack config billing:sites (a non-empty string)")
  .optional()
  .describe("An entry of the stack config `billing:sites`; without it the top-level `billing:*` keys (or BILLING_* variables) apply.");

/**
 * A rule on which fields are present, checked even when a field failed (one bad
 * field never hides it) and kept by check when a value is still unknown at
 * preview: whatever it turns out to be, it is present.
 */
export const presenceRule = <T>(path: string, broken: (raw: T) => boolean, message: string) =>
  [
    (raw: T, ctx: z.RefinementCtx<T>) => {
      if (broken(raw)) ctx.addIssue({ code: "custom", path: [path], params: { presence: true }, message });
    },
    { when: () => true },
  ] as const;
