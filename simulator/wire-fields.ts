import { z } from "zod";

/**
 * The field rules every request body of the simulator shares (the catalog's,
 * the components' and the coupons'), in the vendor's "Label: what." wording.
 */

/** The contract's rule for component handles, applied to families, products and price points alike. */
export const CATALOG_HANDLE = /^[a-z0-9][a-z0-9.:_-]*$/;

// One zod issue may stand for several of the vendor's messages (a blank interval
// unit is both "cannot be blank" and "must be 'month' or 'day'"): joined by this.
export const SEP = "\n";
export const blank = (label: string) => `${label}: cannot be blank.`;
export const absent = (input: unknown) => input === undefined || input === null;

export const text = (label: string, max = 255) =>
  z
    .string({ error: (i) => (absent(i.input) ? blank(label) : `${label}: must be a string.`) })
    .max(max, { error: `${label}: is too long (maximum is ${max} characters).` });
export const requiredText = (label: string) => text(label).refine((s) => s.trim() !== "", { error: blank(label) });
export const handle = (label = "API Handle") =>
  text(label).regex(CATALOG_HANDLE, {
    error: `${label}: must start with a letter or number and may only contain lowercase letters, numbers, or the characters '.', ':', '-', or '_'.`,
  });
export const bool = (label: string) => z.boolean({ error: `${label}: must be true or false.` });
