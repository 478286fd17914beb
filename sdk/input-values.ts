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
