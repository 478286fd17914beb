import { DUPLICATE_SUBMISSION, errorMessages } from "./wire";

/**
 * What one HTTP attempt tells about the service's state: the single
 * classification every operation and the retry policy read.
 *
 * - `success`: 2xx, applied.
 * - `duplicate`: 409 DuplicateSubmissionError: a request with this
 *   uniqueness_token was applied, or is being applied right now.
 * - `rate-limited`: 429: refused before processing, nothing applied.
 * - `refused`: any other 4xx: processed and refused, nothing applied.
 * - `ambiguous`: 5xx, a reset, or no answer in time: it may have been applied.
 * - `not-sent`: the connection was never made: nothing reached the service.
 */
export type Outcome =
  | {
      /** 2xx: applied. */
      readonly kind: "success";
      /** The 2xx status. */
      readonly status: number;
      /** The answer's parsed JSON; undefined when empty or not JSON. */
      readonly body: unknown;
    }
  | {
      /** A request with this uniqueness_token was applied, or is being applied right now: read back, never resend. */
      readonly kind: "duplicate";
      /** Always 409. */
      readonly status: 409;
      /** The answer's parsed JSON, whose `errors` say "duplicate submission". */
      readonly body: unknown;
    }
  | {
      /** 429: refused before processing, nothing applied; safe to repeat after `retryAfter`. */
      readonly kind: "rate-limited";
      /** Always 429. */
      readonly status: 429;
      /** The answer's parsed JSON, if any (the rate limiter often answers text). */
      readonly body: unknown;
      /** The raw answer, for a message when it is not JSON. */
      readonly text: string;
      /** The `Retry-After` header as sent: seconds or an HTTP date. */
      readonly retryAfter: string | undefined;
    }
  | {
      /** Any other 4xx: processed and refused, nothing applied. */
      readonly kind: "refused";
      /** The 4xx status. */
      readonly status: number;
      /** The answer's parsed JSON: the service's `errors`, when it sent them. */
      readonly body: unknown;
      /** The raw answer, for a message when it is not JSON (a gateway's HTML page). */
      readonly text: string;
    }
  | {
      /** A 5xx, a reset, or no answer in time: it may have been applied. */
      readonly kind: "ambiguous";
      /** The 5xx status; undefined when no answer came. */
      readonly status: number | undefined;
      /** A 5xx answer's parsed JSON. */
      readonly body?: unknown;
      /** A 5xx answer's raw text. */
      readonly text?: string;
      /** The connection failure's code, e.g. "ECONNRESET" or "ETIMEDOUT". */
      readonly code?: string;
      /** What happened, for an error message: "answered 503", "no answer within 125000 ms". */
      readonly message: string;
    }
  | {
      /** The connection was never made (refused, unknown host): nothing reached the service. */
      readonly kind: "not-sent";
      /** The connection failure's code, e.g. "ECONNREFUSED" or "ENOTFOUND". */
      readonly code: string | undefined;
      /** What happened, for an error message. */
      readonly message: string;
    };

/** An HTTP answer as the transport read it. */
export interface Answer {
  readonly status: number;
  /** Parsed JSON; undefined when empty or not JSON. */
  readonly body: unknown;
  /** The raw text, for answers that are not JSON (the rate limiter's 429, gateway pages). */
  readonly text: string;
  readonly retryAfter: string | undefined;
}

export function classifyAnswer(a: Answer): Outcome {
  if (a.status >= 200 && a.status < 300) return { kind: "success", status: a.status, body: a.body };
  if (a.status === 409 && errorMessages(a.body).includes(DUPLICATE_SUBMISSION)) return { kind: "duplicate", status: 409, body: a.body };
  if (a.status === 429) return { kind: "rate-limited", status: 429, body: a.body, text: a.text, retryAfter: a.retryAfter };
  if (a.status >= 500) return { kind: "ambiguous", status: a.status, body: a.body, text: a.text, message: `answered ${a.status}` };
  return { kind: "refused", status: a.status, body: a.body, text: a.text };
}

/**
 * Failures before any request left this machine. Anything else (a reset, a
 * broken pipe, a timeout) may have happened after the service read the
 * request, so it counts as ambiguous.
 */
/**
 * The code of an attempt that waited `timeoutMs` for one of the client's `maxConcurrency` connections and got
 * none: it was never sent. Not retried: another wait in the same queue would not be shorter.
 */
export const QUEUE_TIMEOUT = "QUEUE_TIMEOUT";

const NOT_SENT = new Set([
  QUEUE_TIMEOUT,
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "ENETDOWN",
  "EHOSTDOWN",
  "UND_ERR_CONNECT_TIMEOUT",
  // undici refuses a request it cannot build (a path with a space or a newline, a bad header) before it takes a
  // connection: nothing was written.
  "UND_ERR_INVALID_ARG",
]);

export function classifyFailure(code: string | undefined, message: string): Outcome {
  if (code !== undefined && NOT_SENT.has(code)) return { kind: "not-sent", code, message };
  return { kind: "ambiguous", status: undefined, code, message };
}

/** Whether this outcome leaves the request possibly applied. */
export const mayHaveApplied = (o: Outcome): boolean => o.kind === "ambiguous";

/** The service's own words for a failed answer: its `errors`, or its text when it sent no JSON. */
export function serviceMessages(o: Outcome): string[] {
  if (!("body" in o)) return [];
  const list = errorMessages(o.body);
  if (list.length > 0 || !("text" in o) || !o.text) return list;
  return [plainText(o.text)];
}

/** A text or HTML body reduced to one short line: an HTML page by its title (gateways repeat it as the heading). */
function plainText(text: string): string {
  const title = /<title>([^<]*)<\/title>/i.exec(text)?.[1];
  const flat = (title ?? text.replace(/<[^>]*>/g, " ")).replace(/\s+/g, " ").trim();
  return flat.length > 1000 ? `${flat.slice(0, 1000)}…` : flat;
}
