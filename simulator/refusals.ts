import { type Answer, json } from "./answers";
import { isObject, type Problems, problemsOf, Refusal, sorted, wrapped } from "./wire-catalog";

/**
 * A request body read, and what it is refused with: each operation answers a
 * Refusal in the shape the vendor publishes for it, so a handler runs its work
 * through the runner of its shape.
 */

/** The body's object under `key`, checked by `schema`; a Refusal naming what is wrong otherwise. */
export function parse<T>(
  schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: import("zod").ZodError } },
  body: unknown,
  key: string,
): T {
  const inner = wrapped(body, key);
  // The vendor's wording for a body without its object (subscription-delete-422.not-an-object).
  if (!isObject(inner)) throw new Refusal({ [key]: [`${key} must be an Object`] });
  const parsed = schema.safeParse(inner);
  if (!parsed.success) throw new Refusal(problemsOf(parsed.error));
  return parsed.data;
}

/** Runs `f`; a Refusal becomes the 422 `shape` makes of its problems. */
function refusedAs(shape: (problems: Problems) => unknown, f: () => Answer): Answer {
  try {
    return f();
  } catch (err) {
    if (!(err instanceof Refusal)) throw err;
    return json(422, shape(err.problems));
  }
}

/** A Refusal becomes a 422 error list (every field's messages, fields in alphabetical order). */
export const asList = (f: () => Answer): Answer => refusedAs((p) => ({ errors: Object.values(sorted(p)).flat() }), f);

/** A Refusal becomes the price point 422: `{"errors":{field:[…]}}`, fields in alphabetical order. */
export const asFields = (f: () => Answer): Answer => refusedAs((p) => ({ errors: sorted(p) }), f);

/** A Refusal becomes the bulk 422: the indexed keys at the top level, by index, then field. */
export const asIndexed = (f: () => Answer): Answer =>
  refusedAs((p) => {
    const order = (k: string) => {
      const m = /^price_points\[(\d+)\]\.(.*)$/.exec(k);
      return m ? ([Number(m[1]), m[2]] as const) : ([-1, k] as const);
    };
    const entries = Object.entries(p).sort(([a], [b]) => {
      const [ia, fa] = order(a);
      const [ib, fb] = order(b);
      return ia !== ib ? ia - ib : fa < fb ? -1 : fa > fb ? 1 : 0;
    });
    return Object.fromEntries(entries);
  }, f);

/**
 * The published examples' order (createPrepaidUsageComponent's 422: the handle, then the name; createMeteredComponent's:
 * name, unit name, brackets, scheme); other fields after, as found.
 */
const FIRST = ["handle", "name", "unit_name", "prices", "pricing_scheme"];
const rank = (key: string): number => (FIRST.includes(key) ? FIRST.indexOf(key) : FIRST.length);

/** A Refusal becomes a 422 error list, the published order first (handle, name, unit name, prices, scheme), then the rest. */
export const asOrderedList = (f: () => Answer): Answer =>
  refusedAs(
    (p) => ({
      errors: Object.keys(p)
        .sort((a, b) => rank(a) - rank(b))
        .flatMap((k) => p[k]),
    }),
    f,
  );
