/**
 * sdk/options.ts loaded afresh (after a test's vi.resetModules()): its schema is built when it loads, before the
 * mutation run switches a mutant on. A fresh copy's errors are read by their fields, not by instanceof.
 */

export const fresh = () => import("../../../sdk/options");

export const LEAD = "invalid BillingClient options";

/**
 * What `f` throws, as plain fields: after vi.resetModules() the error's class is a fresh copy, so it is told
 * by name. A value returned instead shows up in the failed comparison.
 */
export function thrown(f: () => unknown): { name: string; message: string; problems: unknown } | { accepted: unknown } {
  let result: unknown;
  try {
    result = f();
  } catch (e) {
    const { name, message, problems } = e as { name: string; message: string; problems: unknown };
    return { name, message, problems };
  }
  return { accepted: result };
}

/** The refusal of one problem, as the error reports it. */
export const refusedWithLead = (property: string, message: string) => ({
  name: "BillingValidationError",
  message: `${LEAD}: ${property}: ${message}`,
  problems: [{ property, message }],
});
