import { setTimeout as sleep } from "node:timers/promises";
import { type Outcome, QUEUE_TIMEOUT } from "./outcome";

/**
 * The retry policy, in one place: which outcomes are tried again, how long to
 * wait, and when to stop. The transport asks it after every attempt.
 *
 * - 429 is refused before processing, so it is always safe to repeat. The
 *   vendor asks clients to pause "a few minutes", so 429 is retried on a time
 *   budget (default 5 minutes), not a count; `Retry-After` is honoured.
 * - An ambiguous outcome (5xx, reset, timeout) is repeated only for requests
 *   that are safe to repeat (reads, the settings PUT, token-protected
 *   replays), at most `maxRetries` times.
 * - A request that never left (connection refused) is always safe to repeat.
 */
export interface RetryPolicy {
  readonly maxRetries: number;
  readonly baseDelayMs: number;
  readonly budgetMs: number;
}

/** Upper bound of one backoff wait without a Retry-After. */
export const MAX_BACKOFF_MS = 30_000;

/**
 * "Full jitter" exponential backoff: a random wait in [0, base·2^attempt],
 * capped, so concurrent clients that hit the cap together spread out.
 */
export function backoffDelay(attempt: number, baseMs: number, random = Math.random): number {
  return Math.floor(random() * Math.min(MAX_BACKOFF_MS, baseMs * 2 ** attempt));
}

/**
 * Milliseconds a `Retry-After` header asks for: whole seconds, or an HTTP
 * date (RFC 9110: IMF-fixdate "Sun, 06 Nov 1994 08:49:37 GMT", and the
 * obsolete RFC 850 and asctime forms recipients must still accept).
 * Anything else is no header at all (backoff applies): `Date.parse` reads
 * "later 1" as a date in 2001, which would mean retrying at once for the
 * whole budget.
 */
export function retryAfterMs(header: string | undefined, now = Date.now()): number | undefined {
  const v = header?.trim();
  if (!v) return undefined;
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  // Every HTTP date form has a day or month name and an hh:mm:ss time.
  if (!/\b\d{2}:\d{2}:\d{2}\b/.test(v) || !/\b[A-Z][a-z]{2}/.test(v)) return undefined;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * The wait before the next attempt, or undefined to stop. `attempt` counts
 * the attempts already made (1 after the first); `elapsedMs` is the time since
 * the first one started; `repeatable` says whether the request may be sent
 * again after an outcome that may have been applied.
 */
export function nextWait(
  o: Outcome,
  attempt: number,
  elapsedMs: number,
  policy: RetryPolicy,
  repeatable: boolean,
  random = Math.random,
): number | undefined {
  switch (o.kind) {
    case "rate-limited": {
      const wait = retryAfterMs(o.retryAfter) ?? backoffDelay(attempt - 1, policy.baseDelayMs, random);
      // A zero budget means "never wait on a 429", even when the wait would be 0 ms.
      return policy.budgetMs > 0 && elapsedMs + wait <= policy.budgetMs ? wait : undefined;
    }
    case "not-sent":
      // A request undici refused to build fails the same way every time; and each such refusal keeps one of the
      // pool's connections busy for good (undici 7.30.2, checked: a Pool of one connection hangs every request after
      // one), so repeating it would use up the pool.
      if (o.code === "UND_ERR_INVALID_ARG") return undefined;
      // Its whole timeoutMs spent waiting for a connection of this client: waiting again ends the same way, later.
      if (o.code === QUEUE_TIMEOUT) return undefined;
      return attempt <= policy.maxRetries ? backoffDelay(attempt - 1, policy.baseDelayMs, random) : undefined;
    case "ambiguous":
      return repeatable && attempt <= policy.maxRetries ? backoffDelay(attempt - 1, policy.baseDelayMs, random) : undefined;
    default:
      return undefined;
  }
}

/** Why an attempt is being repeated, in words for a log line. */
export function retryReason(o: Outcome): string {
  switch (o.kind) {
    case "rate-limited":
      return "429 rate limited" + (o.retryAfter ? ` (Retry-After: ${o.retryAfter})` : "");
    case "ambiguous":
      return o.status !== undefined ? `answered ${o.status}` : `${o.message}${o.code ? ` (${o.code})` : ""}`;
    case "not-sent":
      return `${o.message}${o.code ? ` (${o.code})` : ""}`;
    default:
      return o.kind;
  }
}

/** Longest wait between two read-backs. */
export const MAX_READ_BACK_WAIT_MS = 5_000;

/**
 * After a "duplicate submission" answer (a request with this token was
 * applied, or is still being processed), reads back until `probe` finds the
 * outcome or `settleMs` has passed, waiting base·2^round (at most 5 s)
 * between reads. A read that fails counts as not found yet. Returns what
 * `probe` found, or what the last read saw when time ran out.
 */
export async function readBack<T>(
  settleMs: number,
  baseDelayMs: number,
  probe: () => Promise<{ found: T } | { seen: string }>,
): Promise<{ found: T } | { last: string }> {
  const deadline = Date.now() + settleMs;
  for (let round = 0; ; round++) {
    let last: string;
    try {
      const r = await probe();
      if ("found" in r) return r;
      last = r.seen;
    } catch (err) {
      last = `unreadable (${err instanceof Error ? err.message : String(err)})`;
    }
    const wait = Math.min(Math.max(baseDelayMs, 1) * 2 ** round, MAX_READ_BACK_WAIT_MS, deadline - Date.now());
    if (wait <= 0) return { last };
    await sleep(wait);
  }
}
