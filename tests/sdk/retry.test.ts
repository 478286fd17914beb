import { describe, expect, it } from "vitest";
import { type Answer, classifyAnswer, classifyFailure, type Outcome } from "../../sdk/outcome";
import { backoffDelay, MAX_BACKOFF_MS, nextWait, type RetryPolicy, readBack, retryAfterMs, retryReason } from "../../sdk/retry";
import { DUPLICATE_SUBMISSION } from "../../sdk/wire";

/**
 * The retry policy (sdk/retry.ts) as pure functions, no socket and no clock: Retry-After, the backoff, which outcome
 * is tried again after how long, what onRetry reports; and readBack, the loop that settles an ambiguous write.
 */

const USAGE_VIOLATION = "Your request was denied due to a usage violation. You can track this request with support by referencing 0123abcd";

const answer = (status: number, body?: unknown, extra: Partial<Answer> = {}): Answer => ({
  status,
  body,
  text: body === undefined ? "" : JSON.stringify(body),
  retryAfter: undefined,
  ...extra,
});

describe("retryAfterMs", () => {
  const NOW = Date.parse("2026-10-21T07:28:00Z");

  it.each([
    ["0", 0],
    ["1", 1000],
    ["30", 30_000],
    ["120", 120_000],
    [" 5 ", 5000],
    ["3600", 3_600_000],
  ])("seconds: %j → %i ms", (header, ms) => {
    expect(retryAfterMs(header, NOW)).toBe(ms);
  });

  it.each([
    ["IMF-fixdate 30 s ahead", "Wed, 21 Oct 2026 07:28:30 GMT", 30_000],
    ["IMF-fixdate 1 h ahead", "Wed, 21 Oct 2026 08:28:00 GMT", 3_600_000],
    ["obsolete RFC 850 form", "Wednesday, 21-Oct-26 07:28:05 GMT", 5000],
    ["exactly now", "Wed, 21 Oct 2026 07:28:00 GMT", 0],
    ["in the past: no wait, never negative", "Wed, 21 Oct 2026 07:00:00 GMT", 0],
    // Names in their usual case and nothing else capitalised: the day or month name is what marks a date.
    ["a numeric zone", "Wed, 21 Oct 2026 07:28:30 +0000", 30_000],
  ])("HTTP date, %s → %i ms", (_, header, ms) => {
    expect(retryAfterMs(header, NOW)).toBe(ms);
  });

  it.each([
    ["absent", undefined],
    ["empty", ""],
    ["blank", "   "],
    ["a word", "soon"],
    ["a unit", "1s"],
    ["a phrase", "5 minutes"],
    ["Infinity", "Infinity"],
    ["NaN", "NaN"],
  ])("junk (%s) → undefined: the caller falls back to its own backoff", (_, header) => {
    expect(retryAfterMs(header, NOW)).toBeUndefined();
  });

  // RFC 9110 §10.2.3: Retry-After = HTTP-date / delay-seconds, delay-seconds = 1*DIGIT. These are neither, but
  // Number() reads hex and exponents, and V8's lenient Date.parse reads a stray digit in text as a year (2001):
  // "later 1" became a wait of 0 ms, i.e. a 429 retried at once, again and again, for the whole retry budget.
  it.each([
    ["text with a digit, which V8's Date.parse reads as the year 2001", "later 1"],
    ["hexadecimal, which Number() reads", "0x10"],
    ["a negative number", "-5"],
    // Date.parse reads these, but no HTTP-date form lacks a day or month name, nor an hh:mm:ss time.
    ["an ISO date and time", "2026-10-21 07:28:30"],
    ["a month and year without a time", "Oct 2026"],
    // V8 reads this one (the word is skipped); an HTTP date's names have three letters at least.
    ["a two-letter word before a numeric date", "Xy 10/21/2026 07:28:30"],
  ])("not an RFC 9110 value (%s: %j) → undefined", (_, header) => {
    expect(retryAfterMs(header, NOW)).toBeUndefined();
  });
});

describe("backoffDelay: full jitter, capped", () => {
  it.each([
    [0, 100, 0, 0],
    [0, 100, 0.5, 50],
    [0, 100, 0.999, 99],
    [1, 100, 0.5, 100],
    [3, 100, 0.5, 400],
    [3, 100, 0.999, 799],
    [20, 100, 0.999, Math.floor(0.999 * MAX_BACKOFF_MS)],
    [60, 250, 0.5, MAX_BACKOFF_MS / 2],
    [0, 0, 0.999, 0],
  ])("attempt %i, base %i ms, random %d → %i ms", (attempt, base, r, ms) => {
    expect(backoffDelay(attempt, base, () => r)).toBe(ms);
  });

  it("whole ms from 0 (random 0) rising with random to just under base·2^attempt or the cap, whichever is lower", () => {
    for (let attempt = 0; attempt < 40; attempt++) {
      const ceiling = Math.min(MAX_BACKOFF_MS, 250 * 2 ** attempt);
      const delays = [0, 0.25, 0.5, 0.75, 0.999999].map((r) => backoffDelay(attempt, 250, () => r));
      expect(delays[0]).toBe(0);
      expect(delays.at(-1)).toBe(ceiling - 1);
      for (let i = 1; i < delays.length; i++) expect(delays[i]).toBeGreaterThan(delays[i - 1]);
      expect(delays.every(Number.isInteger)).toBe(true);
    }
  });
});

describe("nextWait: which outcome is tried again, after how long", () => {
  // maxRetries 2: attempts 1 and 2 may be followed by another, attempt 3 may not. Budget 1 s for 429s.
  const POLICY: RetryPolicy = { maxRetries: 2, baseDelayMs: 100, budgetMs: 1000 };
  const half = () => 0.5;
  /** Backoff with random 0.5 after attempt n: 50, 100, 200, 400 ms. */
  const B = { 1: 50, 2: 100, 3: 200, 4: 400 } as const;

  const OUTCOMES: Record<string, Outcome> = {
    success: classifyAnswer(answer(200, {})),
    duplicate: classifyAnswer(answer(409, { errors: [DUPLICATE_SUBMISSION] })),
    refused: classifyAnswer(answer(422, { errors: ["no"] })),
    "rate-limited": classifyAnswer({ status: 429, body: undefined, text: USAGE_VIOLATION, retryAfter: undefined }),
    "rate-limited, Retry-After: 0": classifyAnswer({ status: 429, body: undefined, text: USAGE_VIOLATION, retryAfter: "0" }),
    "rate-limited, Retry-After: 1": classifyAnswer({ status: 429, body: undefined, text: USAGE_VIOLATION, retryAfter: "1" }),
    "rate-limited, Retry-After: 2": classifyAnswer({ status: 429, body: undefined, text: USAGE_VIOLATION, retryAfter: "2" }),
    "ambiguous 500": classifyAnswer(answer(500, { errors: ["Internal Server Error"] })),
    "ambiguous 503": classifyAnswer(answer(503)),
    "ambiguous reset": classifyFailure("ECONNRESET", "read ECONNRESET"),
    "ambiguous timeout": classifyFailure("ETIMEDOUT", "no answer within 100 ms"),
    "not-sent": classifyFailure("ECONNREFUSED", "connect ECONNREFUSED 127.0.0.1:9"),
    "not-sent, refused by undici": classifyFailure("UND_ERR_INVALID_ARG", "invalid request path"),
  };

  // [outcome, repeatable, attempt, elapsed ms, expected wait or undefined]
  type Row = [keyof typeof OUTCOMES, boolean, number, number, number | undefined];
  const rows: Row[] = [];
  const bothWays = (o: keyof typeof OUTCOMES, attempt: number, elapsed: number, wait: number | undefined) => {
    rows.push([o, true, attempt, elapsed, wait], [o, false, attempt, elapsed, wait]);
  };

  // Final outcomes: never repeated, whatever the request, count or clock.
  for (const o of ["success", "duplicate", "refused"] as const) {
    for (const attempt of [1, 2, 3]) for (const elapsed of [0, 999, 5000]) bothWays(o, attempt, elapsed, undefined);
  }
  // 429: nothing applied, so repeatable or not alike; on the time budget, not on maxRetries (attempt 3 and 4 still wait).
  bothWays("rate-limited", 1, 0, B[1]);
  bothWays("rate-limited", 2, 0, B[2]);
  bothWays("rate-limited", 3, 0, B[3]);
  bothWays("rate-limited", 4, 500, B[4]);
  bothWays("rate-limited", 3, 800, B[3]); // 800 + 200 = 1000: exactly the budget
  bothWays("rate-limited", 3, 801, undefined); // 1001 > 1000
  bothWays("rate-limited", 1, 999, undefined);
  bothWays("rate-limited", 1, 5000, undefined);
  bothWays("rate-limited, Retry-After: 0", 7, 999, 0);
  bothWays("rate-limited, Retry-After: 1", 1, 0, 1000); // honoured instead of the 50 ms backoff
  bothWays("rate-limited, Retry-After: 1", 9, 0, 1000);
  bothWays("rate-limited, Retry-After: 1", 1, 1, undefined); // 1 + 1000 > budget
  bothWays("rate-limited, Retry-After: 2", 1, 0, undefined); // asks for more than the whole budget
  // Ambiguous (may have been applied): only a repeatable request, up to maxRetries, whatever the clock.
  for (const o of ["ambiguous 500", "ambiguous 503", "ambiguous reset", "ambiguous timeout"] as const) {
    rows.push(
      [o, true, 1, 0, B[1]],
      [o, true, 2, 0, B[2]],
      [o, true, 2, 5000, B[2]],
      [o, true, 3, 0, undefined],
      [o, true, 4, 0, undefined],
      [o, false, 1, 0, undefined],
      [o, false, 2, 0, undefined],
      [o, false, 3, 0, undefined],
    );
  }
  // Never sent: any request, up to maxRetries, whatever the clock.
  bothWays("not-sent", 1, 0, B[1]);
  bothWays("not-sent", 2, 5000, B[2]);
  bothWays("not-sent", 3, 0, undefined);
  // A request undici would not build: it fails the same way every time.
  bothWays("not-sent, refused by undici", 1, 0, undefined);

  it.each(rows)("%s, repeatable %s, after attempt %i, %i ms elapsed → %s", (o, repeatable, attempt, elapsed, wait) => {
    expect(nextWait(OUTCOMES[o], attempt, elapsed, POLICY, repeatable, half)).toBe(wait);
  });

  it("the table covers every outcome kind, repeatable and not, below, at and past maxRetries", () => {
    const kinds = new Set(rows.map(([o]) => OUTCOMES[o].kind));
    expect([...kinds].sort()).toEqual(["ambiguous", "duplicate", "not-sent", "rate-limited", "refused", "success"]);
    for (const kind of kinds) {
      for (const repeatable of [true, false]) {
        const attempts = new Set(rows.filter(([o, r]) => OUTCOMES[o].kind === kind && r === repeatable).map(([, , a]) => a));
        expect([...attempts].filter((a) => a <= POLICY.maxRetries).length).toBeGreaterThan(0);
        expect(attempts.has(POLICY.maxRetries + 1)).toBe(true);
      }
    }
  });

  it("maxRetries 0: an ambiguous or never-sent request is not repeated, a 429 still is (within the budget)", () => {
    const p = { ...POLICY, maxRetries: 0 };
    expect(nextWait(OUTCOMES["ambiguous 503"], 1, 0, p, true, half)).toBeUndefined();
    expect(nextWait(OUTCOMES["not-sent"], 1, 0, p, true, half)).toBeUndefined();
    expect(nextWait(OUTCOMES["rate-limited"], 1, 0, p, true, half)).toBe(B[1]);
  });

  it("a budget of 0 never waits on a 429, even when the wait would be 0 ms", () => {
    const p = { ...POLICY, budgetMs: 0 };
    expect(nextWait(OUTCOMES["rate-limited, Retry-After: 0"], 1, 0, p, true, half)).toBeUndefined();
    expect(nextWait(OUTCOMES["rate-limited"], 1, 0, p, true, () => 0)).toBeUndefined();
    // The budget is for 429s only.
    expect(nextWait(OUTCOMES["ambiguous 503"], 1, 0, p, true, half)).toBe(B[1]);
  });

  it("Retry-After as an HTTP date: honoured within the budget", () => {
    const p = { ...POLICY, budgetMs: 300_000 };
    const past = classifyAnswer({ status: 429, body: undefined, text: "", retryAfter: "Wed, 21 Oct 2015 07:28:00 GMT" });
    expect(nextWait(past, 1, 0, p, false, half)).toBe(0);
    const far = classifyAnswer({ status: 429, body: undefined, text: "", retryAfter: new Date(Date.now() + 3_600_000).toUTCString() });
    expect(nextWait(far, 1, 0, p, false, half)).toBeUndefined(); // an hour is past a 5-minute budget
    const soon = classifyAnswer({ status: 429, body: undefined, text: "", retryAfter: new Date(Date.now() + 60_000).toUTCString() });
    const wait = nextWait(soon, 1, 0, p, false, half)!;
    expect(wait).toBeGreaterThan(58_000); // whole seconds on the wire, and the clock moved on
    expect(wait).toBeLessThanOrEqual(60_000);
  });

  it("a Retry-After above the backoff cap is honoured", () => {
    const o = classifyAnswer({ status: 429, body: undefined, text: "", retryAfter: "120" });
    expect(nextWait(o, 1, 0, { ...POLICY, budgetMs: 300_000 }, true, half)).toBe(120_000);
  });
});

describe("retryReason: what onRetry reports", () => {
  it.each([
    [
      "429 with Retry-After",
      classifyAnswer({ status: 429, body: undefined, text: USAGE_VIOLATION, retryAfter: "30" }),
      "429 rate limited (Retry-After: 30)",
    ],
    ["429", classifyAnswer({ status: 429, body: undefined, text: USAGE_VIOLATION, retryAfter: undefined }), "429 rate limited"],
    ["503", classifyAnswer(answer(503)), "answered 503"],
    ["500", classifyAnswer(answer(500, { errors: ["Internal Server Error"] })), "answered 500"],
    ["a reset", classifyFailure("ECONNRESET", "read ECONNRESET"), "read ECONNRESET (ECONNRESET)"],
    ["a timeout", classifyFailure("ETIMEDOUT", "no answer within 100 ms"), "no answer within 100 ms (ETIMEDOUT)"],
    ["a failure without a code", classifyFailure(undefined, "socket hang up"), "socket hang up"],
    [
      "connection refused",
      classifyFailure("ECONNREFUSED", "connect ECONNREFUSED 127.0.0.1:9"),
      "connect ECONNREFUSED 127.0.0.1:9 (ECONNREFUSED)",
    ],
  ])("%s → %j", (_, o, reason) => {
    expect(retryReason(o)).toBe(reason);
  });
});

/** A probe that answers `seen` until its `n`th call, which finds `n`; it may throw on some calls. */
function probeFinding(n: number, fail: (call: number) => unknown = () => undefined) {
  let calls = 0;
  const probe = async (): Promise<{ found: number } | { seen: string }> => {
    calls++;
    const err = fail(calls);
    if (err !== undefined) throw err;
    return calls >= n ? { found: calls } : { seen: `call ${calls}` };
  };
  return { probe, calls: () => calls };
}

describe("readBack", () => {
  it("reads until the probe finds it, and returns what it found", async () => {
    const p = probeFinding(3);
    expect(await readBack(60_000, 1, p.probe)).toEqual({ found: 3 });
    expect(p.calls()).toBe(3);
  });

  it("a base delay of 0 still waits and reads again (at least 1 ms between reads), not giving up after one read", async () => {
    const p = probeFinding(4);
    expect(await readBack(60_000, 0, p.probe)).toEqual({ found: 4 });
  });

  it("a failed read counts as not found yet, and is what the last read saw when time runs out", async () => {
    const p = probeFinding(3, (call) => (call === 1 ? new Error("socket hang up") : undefined));
    expect(await readBack(60_000, 1, p.probe)).toEqual({ found: 3 });
    const always = probeFinding(Number.POSITIVE_INFINITY, () => new Error("socket hang up"));
    expect(await readBack(5, 1, always.probe)).toEqual({ last: "unreadable (socket hang up)" });
    const text = probeFinding(Number.POSITIVE_INFINITY, () => "plain text");
    expect(await readBack(5, 1, text.probe)).toEqual({ last: "unreadable (plain text)" });
  });

  it("time up: the last read's words, after more than one read", async () => {
    const p = probeFinding(Number.POSITIVE_INFINITY);
    const r = await readBack(500, 1, p.probe);
    expect(r).toEqual({ last: `call ${p.calls()}` });
    expect(p.calls()).toBeGreaterThan(1);
  });
});
