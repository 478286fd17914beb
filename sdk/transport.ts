import { setTimeout as sleep } from "node:timers/promises";
import { Pool } from "undici";
import type { z } from "zod";
import { BillingApiError, BillingConnectionError, type BillingError } from "./errors";
import type { Connection, RetryEvent } from "./options";
import { type Answer, classifyAnswer, classifyFailure, mayHaveApplied, type Outcome, QUEUE_TIMEOUT, serviceMessages } from "./outcome";
import { nextWait, retryReason } from "./retry";
import { Slots } from "./slots";

/** One request as the operations describe it. */
export interface ApiRequest {
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Path below the base URL, e.g. `/webhooks/replay.json`. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string | number | undefined>>;
  readonly body?: unknown;
  /**
   * Whether an attempt that may have been applied (5xx, reset, timeout) may be
   * sent again: true for reads, the settings PUT and token-protected replays;
   * false for the migration POST, which resolves ambiguity by reading back.
   * 429 and never-sent attempts are repeated either way: nothing was applied.
   */
  readonly repeatable: boolean;
}

/** The last attempt's outcome, and whether any attempt before it may have been applied. */
export interface Exchange {
  readonly outcome: Outcome;
  readonly mayHaveApplied: boolean;
  readonly attempts: number;
}

/** The reason an attempt is aborted when its time is up. */
const TIMED_OUT = new Error("attempt timed out");

/**
 * The SDK's only request path. Its `Slots` cap requests in flight at
 * `maxConcurrency` (the service allows 4 per site), with one undici Pool
 * connection per slot; a request waiting for a slot gives up, unsent, at its
 * `timeoutMs`. Retries are a
 * loop here rather than undici's RetryHandler because the operations need
 * what it does not expose per request: whether any attempt may have been
 * applied (so a replay batch is "unknown", not "not queued"), a time budget
 * for 429s, and a report of every wait.
 */
export class Transport {
  // Private fields: never visible to JSON.stringify, util.inspect or closure capture of errors.
  readonly #authorization: string;
  readonly #pool: Pool;
  readonly #slots: Slots;
  #closing: Promise<void> | undefined;
  readonly #connection: Connection;

  constructor(connection: Connection) {
    this.#connection = connection;
    this.#authorization = connection.authorization;
    this.#pool = new Pool(connection.origin, { connections: connection.maxConcurrency, pipelining: 1, keepAliveTimeout: 4_000 });
    this.#slots = new Slots(connection.maxConcurrency);
  }

  /** Sends with the retry policy; answers (any status) come back, never thrown. */
  async send(req: ApiRequest): Promise<Exchange> {
    const started = Date.now();
    let applied = false;
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.#attempt(req);
      applied ||= mayHaveApplied(outcome);
      const wait = nextWait(outcome, attempt, Date.now() - started, this.#connection.retry, req.repeatable);
      if (wait === undefined) return { outcome, mayHaveApplied: applied, attempts: attempt };
      this.#report({ method: req.method, path: req.path, attempt, delayMs: wait, reason: retryReason(outcome) });
      await sleep(wait);
    }
  }

  /** Sends, then parses a 2xx body with `schema`, or throws a typed error. */
  async call<S extends z.ZodType>(req: ApiRequest, schema: S): Promise<z.output<S>> {
    const x = await this.send(req);
    if (x.outcome.kind !== "success") throw failureOf(req, x);
    return parseBody(req, x.outcome.status, x.outcome.body, schema);
  }

  /** Closes the pool once: a second call (a `finally` after an explicit close) gets the same promise, not undici's ClientDestroyedError. */
  close(): Promise<void> {
    this.#closing ??= this.#pool.close();
    return this.#closing;
  }

  /**
   * One attempt: up to `timeoutMs` waiting for a slot, then up to `timeoutMs` for the answer once a connection
   * takes it. Two spans, not one deadline: a request sent late in a shared one could be given up on while the
   * service still works on it (it cuts at 120 s, under the default timeout), and land after it was reported.
   */
  async #attempt(req: ApiRequest): Promise<Outcome> {
    const timeoutMs = this.#connection.timeoutMs;
    const held = this.#slots.acquire(timeoutMs);
    if (held !== true && !(await held))
      return classifyFailure(
        QUEUE_TIMEOUT,
        `no connection free within ${timeoutMs} ms: all ${this.#slots.size} (maxConcurrency) were taken by other requests of this client; nothing was sent`,
      );
    try {
      const answer = await this.#exchange(req, timeoutMs);
      return classifyAnswer(answer);
    } catch (err) {
      if (err === TIMED_OUT) return classifyFailure("ETIMEDOUT", `no answer within ${timeoutMs} ms`);
      // Rebuilt from the code and message only: undici errors can carry request details.
      const e = err as { code?: string; message?: string };
      return classifyFailure(e.code, e.message ?? "request failed");
    } finally {
      // The exchange settles only once undici is done with the request (an abort reports its error at once).
      this.#slots.release();
    }
  }

  /**
   * One request through undici's dispatch, the answer's body collected whole. Not `pool.request`: its
   * response stream and an AbortController per attempt cost 10-15 µs per call (measured), a tenth of a
   * loopback request. The timeout is a timer of ours, from when a connection takes the request until the
   * attempt ends (undici's own timers tick at 0.5-1 s), which aborts through the dispatch's controller.
   */
  #exchange(req: ApiRequest, timeoutMs: number): Promise<Answer> {
    return new Promise<Answer>((resolve, reject) => {
      let timedOut = false;
      let timer: NodeJS.Timeout | undefined;
      const fail = (err: unknown) => {
        clearTimeout(timer);
        reject(timedOut ? TIMED_OUT : err);
      };
      let status = 0;
      let retryAfter: string | undefined;
      let chunks: Buffer[] = [];
      try {
        this.#pool.dispatch(
          {
            method: req.method,
            path: this.#connection.basePath + req.path + queryString(req.query),
            headers: {
              accept: "application/json",
              authorization: this.#authorization,
              ...(req.body === undefined ? {} : { "content-type": "application/json" }),
            },
            body: req.body === undefined ? undefined : JSON.stringify(req.body),
            // Backstops only: the timer above is the timeout.
            headersTimeout: timeoutMs + 5_000,
            bodyTimeout: timeoutMs + 5_000,
          },
          {
            onRequestStart(c) {
              // The answer's time starts when a connection takes the request: time spent waiting for a slot is
              // bounded on its own (see #attempt), and a request that gave up there was never sent, so it must not
              // end "timed out, may have been applied" (a replay batch "unknown", a migration read back).
              timer = setTimeout(() => {
                timedOut = true;
                c.abort(TIMED_OUT);
              }, timeoutMs);
            },
            onResponseStart(_c, statusCode, headers) {
              // Called again after a 1xx: the last one is the answer.
              status = statusCode;
              const header = headers["retry-after"];
              retryAfter = Array.isArray(header) ? header[0] : header;
              chunks = [];
            },
            onResponseData(_c, chunk) {
              chunks.push(chunk);
            },
            onResponseEnd() {
              clearTimeout(timer);
              const text = Buffer.concat(chunks).toString("utf8");
              resolve({ status, body: parseJsonExact(text), text, retryAfter });
            },
            onResponseError(_c, err) {
              fail(err);
            },
          },
        );
      } catch (err) {
        fail(err);
      }
    });
  }

  #report(event: RetryEvent): void {
    try {
      this.#connection.onRetry?.(event);
    } catch {
      // A failing logger must not turn a retry into a failure.
    }
  }
}

/** The typed error for an exchange that did not succeed. */
export function failureOf(req: Pick<ApiRequest, "method" | "path">, x: Exchange): BillingError {
  const o = x.outcome;
  if (o.kind === "not-sent" || (o.kind === "ambiguous" && o.status === undefined)) {
    return new BillingConnectionError({
      method: req.method,
      path: req.path,
      code: o.code,
      message: o.message,
      mayHaveApplied: x.mayHaveApplied,
    });
  }
  const status = "status" in o && o.status !== undefined ? o.status : 0;
  return new BillingApiError({ status, errors: serviceMessages(o), method: req.method, path: req.path, mayHaveApplied: x.mayHaveApplied });
}

/** Parses a 2xx body with `schema`; a body it cannot read becomes a {@link BillingApiError} naming the fields. */
export function parseBody<S extends z.ZodType>(
  req: Pick<ApiRequest, "method" | "path">,
  status: number,
  body: unknown,
  schema: S,
): z.output<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  throw new BillingApiError({
    status,
    errors: [],
    method: req.method,
    path: req.path,
    mayHaveApplied: false,
    message: `${req.method} ${req.path} answered ${status} with a body this SDK does not understand: ${parsed.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`)
      .join("; ")}`,
  });
}

function queryString(query: ApiRequest["query"]): string {
  if (!query) return "";
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
  const s = params.toString();
  return s ? `?${s}` : "";
}

/**
 * JSON with integers past 2^53 kept as their exact decimal text (webhook ids
 * are int64). The reviver only runs when the text has a long digit run.
 */
export function parseJsonExact(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    if (!/\d{16}/.test(text)) return JSON.parse(text);
    return JSON.parse(text, (_key, value: unknown, context?: { source?: string }) =>
      typeof value === "number" && !Number.isSafeInteger(value) && context?.source !== undefined && /^-?\d+$/.test(context.source)
        ? context.source
        : value,
    );
  } catch {
    return undefined;
  }
}

/** Ids for a JSON body: int64 ids held as decimal text are written as JSON numbers, digit for digit. */
export function exactIds(ids: readonly (number | string)[]): readonly unknown[] {
  if (!ids.some((id) => typeof id === "string")) return ids;
  return ids.map((id) => (typeof id === "string" ? (JSON as unknown as { rawJSON(t: string): unknown }).rawJSON(id) : id));
}
