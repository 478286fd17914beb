import { z } from "zod";

/** Pieces every input schema uses (a module of their own, so that `inputs.ts` and `catalog/inputs.ts` import them without a cycle). */

/** A short rendering of a value for a message (never the whole of a long string). */
export const valueText = (v: unknown): string => {
  if (typeof v === "string") return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (typeof v === "number" || typeof v === "boolean" || v === null) return String(v);
  return Array.isArray(v) ? "an array" : typeof v;
};

/** true or false, with a message that says so. */
export const flag = z.boolean({ error: (i) => `must be true or false, got ${valueText(i.input)}` });

/** An integer at least `min`, with a message that names what is accepted (`what`) and what was given. */
export const integer = (min: number, what: string) =>
  z
    .number({ error: (i) => `must be ${what}, got ${valueText(i.input)}` })
    // A refinement, not .int(): zod's integer check aborts the object's rules, so a fraction would hide a
    // missing field (a trial's price, a migration's product) until the fraction was fixed. The schema still says integer.
    .refine((v) => Number.isSafeInteger(v) && v >= min, {
      error: (i) =>
        `must be ${what}${Number.isInteger(i.input) ? (Number.isSafeInteger(i.input) ? "" : `, at most ${Number.MAX_SAFE_INTEGER}`) : " (no fractions)"}, got ${valueText(i.input)}`,
    })
    .meta({ type: "integer", minimum: min, maximum: Number.MAX_SAFE_INTEGER });
