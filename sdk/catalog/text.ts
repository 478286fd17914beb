import { z } from "zod";
import { valueText } from "../input-values";

/** A text input of the catalog: a string, at most `max` characters when given. */
export const text = (what: string, max?: number) => {
  const s = z.string({ error: (i) => `must be ${what} (a string), got ${valueText(i.input)}` });
  return max === undefined ? s : s.max(max, `must be at most ${max} characters`);
};

/**
 * A catalog object's name: 1 to 255 characters, not only spaces (the service refuses such a name as blank, as it does
 * an empty one: its published refusal is "Name: cannot be blank.").
 */
export const name = () =>
  text("a name", 255)
    .min(1, "must not be empty (a name of 1 to 255 characters)")
    // An empty name has its own message above.
    .regex(/^$|\S/, "must not be only spaces (a name of 1 to 255 characters)");
