/**
 * The retry policy, in one place. It is plugged into undici's RetryHandler
 * (for idempotent calls) and used by the migration's read-back loop, so every
 * retry in the SDK backs off the same way.
 */

/** Statuses that mean "not processed, try again": the 4-per-site cap, and gateway/upstream trouble. */
export const RETRYABLE_STATUS = [429, 502, 503, 504] as const;

/** Socket-level failures worth another attempt. Timeouts are included: the idempotent calls are safe to repeat. */
export const RETRYABLE_ERROR_CODES = [
  "ECONNRESET", "ECONNREFUSED", "EPIPE", "ENETDOWN", "ENETUNREACH", "EHOSTDOWN", "EHOSTUNREACH",
  "ENOTFOUND", "EAI_AGAIN", "UND_ERR_SOCKET", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_CONNECT_TIMEOUT",
] as const;

/** Upper bound of one backoff wait; the service documents no Retry-After. */
export const MAX_BACKOFF_MS = 10_000;

/**
 * "Full jitter" exponential backoff: a random wait in [0, base·2^attempt],
 * capped. Concurrent clients that hit the 429 cap together spread out instead
 * of retrying in lock-step. A Retry-After header, if a proxy sends one, wins.
 */
export function backoffDelay(attempt: number, baseMs: number, retryAfterHeader?: string | string[], random = Math.random): number {
  const header = Array.isArray(retryAfterHeader) ? retryAfterHeader[0] : retryAfterHeader;
  if (header) {
    const seconds = Number(header);
    const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - Date.now();
    if (ms > 0) return Math.min(ms, MAX_BACKOFF_MS);
  }
  const ceiling = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** attempt);
  return Math.floor(random() * ceiling);
}

/**
 * undici `retryOptions.retry` implementation: decides and waits. Status
 * responses that are not retryable, or a spent budget, end with the response
 * passed through (throwOnError: false), so the caller still reads the body.
 */
export function undiciRetry(maxRetries: number, baseMs: number) {
  return (
    err: Error & { statusCode?: number; code?: string; headers?: Record<string, string | string[] | undefined> },
    { state }: { state: { counter: number } },
    callback: (err?: Error | null) => void,
  ): void => {
    const retryable = err.statusCode !== undefined
      ? (RETRYABLE_STATUS as readonly number[]).includes(err.statusCode)
      : (RETRYABLE_ERROR_CODES as readonly string[]).includes(err.code ?? "");
    if (!retryable || state.counter > maxRetries) {
      callback(err);
      return;
    }
    setTimeout(() => callback(null), backoffDelay(state.counter - 1, baseMs, err.headers?.["retry-after"]));
  };
}
