/**
 * The production marker: `BILLING_PRODUCTION`, beside the `BILLING_*` variables that name the site and
 * hold its key, so that a CI environment (a GitHub environment, a Pulumi ESC environment) that points
 * at production says so in the same place. Any value but a clear "no" counts as production: a marker
 * mistyped must not let a reset through.
 */
export const PRODUCTION_ENV = "BILLING_PRODUCTION";

const YES = new Set(["true", "1", "yes"]);
const NO = new Set(["", "false", "0", "no"]);

/** Why the environment forbids a reset, or undefined when it does not mark the site production. */
export function productionRefusal(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env[PRODUCTION_ENV];
  if (raw === undefined) return undefined;
  const v = raw.trim().toLowerCase();
  if (NO.has(v)) return undefined;
  if (YES.has(v)) return `${PRODUCTION_ENV}=${raw.trim()} marks this site production: refusing to clear it; nothing was sent`;
  return (
    `${PRODUCTION_ENV} is ${JSON.stringify(raw)}, which is neither true nor false (accepted: true, 1, yes; false, 0, no): ` +
    "taken as production, refusing to clear the site; nothing was sent"
  );
}
