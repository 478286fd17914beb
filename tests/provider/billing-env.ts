import { afterEach } from "vitest";

/** The BILLING_* variables the runtime reads when config leaves a setting out. */
export const BILLING_ENV_KEYS = [
  "BILLING_SUBDOMAIN",
  "BILLING_ENVIRONMENT",
  "BILLING_BASE_URL",
  "BILLING_API_KEY",
  "BILLING_ACCESS_TOKEN",
  "BILLING_RETRY_BUDGET_SECONDS",
  "BILLING_MIGRATION_SETTLE_SECONDS",
  "BILLING_TIMEOUT_MS",
] as const;

/**
 * For a test file that sets BILLING_* variables: each test ends with them as they were when the file
 * loaded (`also` runs after, for the file's own resets); returns `clearEnv`, which unsets them all, so
 * a test starts from config alone.
 */
export function billingEnvPerTest(also?: () => void): () => void {
  const saved = Object.fromEntries(BILLING_ENV_KEYS.map((k) => [k, process.env[k]]));
  afterEach(() => {
    for (const k of BILLING_ENV_KEYS) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
    also?.();
  });
  return () => {
    for (const k of BILLING_ENV_KEYS) delete process.env[k];
  };
}
