import { z } from "zod";
import { valueText } from "../../sdk/inputs";

/**
 * Input fields every kind shares. A field whose SDK schema takes `unknown` (and
 * says what it accepts in its own message) is given its TypeScript input type
 * here, so a resource's args are typed from the same schema that checks them.
 */
export const accepting =
  <In>() =>
  <S extends z.ZodType>(schema: S): z.ZodType<z.output<S>, In> =>
    schema as z.ZodType<z.output<S>, In>;

/** `site`: an entry of the stack config `billing:sites`. */
export const siteInput = z
  .string({
    error: (i) => `must be the name of an entry of the stack config billing:sites (a non-empty string), got ${valueText(i.input)}`,
  })
  .min(1, "must be the name of an entry of the stack config billing:sites (a non-empty string)")
  .optional()
  .describe("An entry of the stack config `billing:sites`; without it the top-level `billing:*` keys (or BILLING_* variables) apply.");
