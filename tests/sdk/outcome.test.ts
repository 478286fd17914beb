import { beforeEach, describe, expect, it, vi } from "vitest";
import { type Answer, classifyAnswer, classifyFailure, mayHaveApplied, serviceMessages } from "../../sdk/outcome";
import { DUPLICATE_SUBMISSION } from "../../sdk/wire";

/**
 * How an attempt's outcome is classified (sdk/outcome.ts), as pure functions: an answer by its status (at the edges
 * of each range), a failure as never sent or maybe applied, and the service's words from a page that is not JSON.
 * The codes that count as never sent are a module-level table: those tests load the module afresh.
 */

const USAGE_VIOLATION = "Your request was denied due to a usage violation. You can track this request with support by referencing 0123abcd";

const answer = (status: number, body?: unknown, extra: Partial<Answer> = {}): Answer => ({
  status,
  body,
  text: body === undefined ? "" : JSON.stringify(body),
  retryAfter: undefined,
  ...extra,
});

describe("classifyAnswer: one kind per status", () => {
  it.each([
    [200, { subscription: {} }, "success"],
    [201, [], "success"],
    [204, undefined, "success"],
    [299, undefined, "success"],
    [409, { errors: [DUPLICATE_SUBMISSION] }, "duplicate"],
    [409, { errors: ["Some other conflict", DUPLICATE_SUBMISSION] }, "duplicate"],
    [409, { errors: ["Some other conflict"] }, "refused"],
    [409, undefined, "refused"],
    [429, undefined, "rate-limited"],
    [400, { errors: ["Malformed JSON body"] }, "refused"],
    [401, { errors: ["Unauthorized"] }, "refused"],
    [403, undefined, "refused"],
    [404, { errors: ["Subscription not found"] }, "refused"],
    [408, undefined, "refused"],
    [413, undefined, "refused"],
    [422, { errors: ["already on product 'basic'"] }, "refused"],
    [500, { errors: ["Internal Server Error"] }, "ambiguous"],
    [502, undefined, "ambiguous"],
    [503, undefined, "ambiguous"],
    [504, undefined, "ambiguous"],
    [599, undefined, "ambiguous"],
  ] as const)("%i %j → %s", (status, body, kind) => {
    const o = classifyAnswer(answer(status, body));
    expect(o.kind).toBe(kind);
    expect("status" in o && o.status).toBe(status);
    expect(mayHaveApplied(o)).toBe(kind === "ambiguous");
  });

  it("a 429 keeps the rate limiter's text and its Retry-After", () => {
    const o = classifyAnswer({ status: 429, body: undefined, text: USAGE_VIOLATION, retryAfter: "30" });
    expect(o).toStrictEqual({ kind: "rate-limited", status: 429, body: undefined, text: USAGE_VIOLATION, retryAfter: "30" });
    expect(serviceMessages(o)).toEqual([USAGE_VIOLATION]);
  });

  it("a 5xx says which status it was", () => {
    expect(classifyAnswer(answer(503))).toMatchObject({ kind: "ambiguous", status: 503, message: "answered 503" });
  });

  it.each([
    ["a JSON error list", answer(422, { errors: ["a", "b"] }), ["a", "b"]],
    ["an error string", answer(422, { error: "Subscription is already canceled" }), ["Subscription is already canceled"]],
    ["field errors", answer(422, { errors: { price_in_cents: ["must be a number"] } }), ["price_in_cents: must be a number"]],
    ["plain text (the 429)", { status: 429, body: undefined, text: USAGE_VIOLATION, retryAfter: undefined }, [USAGE_VIOLATION]],
    [
      "a gateway's HTML page",
      {
        status: 502,
        body: undefined,
        text: "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body></body></html>",
        retryAfter: undefined,
      },
      ["502 Bad Gateway"],
    ],
    ["nothing at all", answer(503), []],
  ] as const)("the service's words from %s", (_, a, messages) => {
    expect(serviceMessages(classifyAnswer(a))).toEqual(messages);
  });
});

describe("classifyFailure: not sent, or may have been applied", () => {
  it.each([
    ["ECONNREFUSED", "not-sent"],
    ["ENOTFOUND", "not-sent"],
    ["EAI_AGAIN", "not-sent"],
    ["ENETUNREACH", "not-sent"],
    ["EHOSTUNREACH", "not-sent"],
    ["ENETDOWN", "not-sent"],
    ["EHOSTDOWN", "not-sent"],
    ["UND_ERR_CONNECT_TIMEOUT", "not-sent"],
    ["UND_ERR_INVALID_ARG", "not-sent"],
    // The request may have reached the service: a reset, a broken pipe, a timeout, a socket closed mid-answer.
    ["ECONNRESET", "ambiguous"],
    ["EPIPE", "ambiguous"],
    ["ETIMEDOUT", "ambiguous"],
    ["UND_ERR_SOCKET", "ambiguous"],
    ["UND_ERR_HEADERS_TIMEOUT", "ambiguous"],
    ["UND_ERR_BODY_TIMEOUT", "ambiguous"],
    ["UND_ERR_ABORTED", "ambiguous"],
    [undefined, "ambiguous"],
  ] as const)("%s → %s", (code, kind) => {
    const o = classifyFailure(code, "request failed");
    expect(o.kind).toBe(kind);
    expect(mayHaveApplied(o)).toBe(kind === "ambiguous");
    expect(o).toMatchObject({ code, message: "request failed" });
    if (o.kind === "ambiguous") expect(o.status).toBeUndefined();
    expect(serviceMessages(o)).toEqual([]);
  });
});

const textAnswer = (status: number, body: string): Answer => ({ status, body: undefined, text: body, retryAfter: undefined });

describe("classifyAnswer at the edges of each range", () => {
  it.each([
    [199, "refused"],
    [200, "success"],
    [299, "success"],
    [300, "refused"],
    [304, "refused"],
    [428, "refused"],
    [430, "refused"],
    [499, "refused"],
    [500, "ambiguous"],
  ] as const)("%i → %s", (status, kind) => {
    expect(classifyAnswer(textAnswer(status, "")).kind).toBe(kind);
  });

  it("the duplicate-submission words make a duplicate only on a 409", () => {
    const body = { errors: [DUPLICATE_SUBMISSION] };
    expect(classifyAnswer({ status: 422, body, text: "", retryAfter: undefined }).kind).toBe("refused");
    expect(classifyAnswer({ status: 409, body, text: "", retryAfter: undefined }).kind).toBe("duplicate");
  });

  it("a refusal keeps its status, body and text", () => {
    expect(classifyAnswer({ status: 404, body: { errors: ["x"] }, text: "{}", retryAfter: "3" })).toStrictEqual({
      kind: "refused",
      status: 404,
      body: { errors: ["x"] },
      text: "{}",
    });
  });
});

describe("serviceMessages from a page that is not JSON", () => {
  it("HTML without a title: its text without the tags, on one line", () => {
    expect(serviceMessages(classifyAnswer(textAnswer(502, "<html>\n<body><h1>Bad</h1>\n\n<p>gateway  here</p></body></html>")))).toEqual([
      "Bad gateway here",
    ]);
  });

  it("a tag between two words parts them", () => {
    expect(serviceMessages(classifyAnswer(textAnswer(502, "Bad<br>gateway")))).toEqual(["Bad gateway"]);
  });

  it("a title is matched whatever its case; the page's text is not added", () => {
    expect(
      serviceMessages(classifyAnswer(textAnswer(503, "<HTML><TITLE>Down  for\tmaintenance</TITLE><body>long story</body></HTML>"))),
    ).toEqual(["Down for maintenance"]);
  });

  it("at most 1000 characters, then an ellipsis; exactly 1000 kept whole", () => {
    const [long] = serviceMessages(classifyAnswer(textAnswer(400, "x".repeat(1001))));
    expect(long).toBe(`${"x".repeat(1000)}…`);
    expect(serviceMessages(classifyAnswer(textAnswer(400, "y".repeat(1000))))).toEqual(["y".repeat(1000)]);
  });

  it("an empty text and no JSON: no words at all", () => {
    expect(serviceMessages(classifyAnswer(textAnswer(400, "")))).toEqual([]);
  });
});

describe("classifyFailure's and retryReason's module-level tables, loaded afresh", () => {
  beforeEach(() => {
    vi.resetModules();
  });

  it.each([
    "ECONNREFUSED",
    "ENOTFOUND",
    "EAI_AGAIN",
    "ENETUNREACH",
    "EHOSTUNREACH",
    "ENETDOWN",
    "EHOSTDOWN",
    "UND_ERR_CONNECT_TIMEOUT",
    "UND_ERR_INVALID_ARG",
  ])("%s: nothing left this machine, so the request was not sent and repeating it is safe", async (code) => {
    const { classifyFailure, mayHaveApplied } = await import("../../sdk/outcome");
    const o = classifyFailure(code, "boom");
    expect(o).toEqual({ kind: "not-sent", code, message: "boom" });
    expect(mayHaveApplied(o)).toBe(false);
  });

  it.each(["ECONNRESET", "EPIPE", "ETIMEDOUT", "UND_ERR_SOCKET", "", undefined])(
    "%s: the service may have read it, so its outcome is unknown",
    async (code) => {
      const { classifyFailure, mayHaveApplied } = await import("../../sdk/outcome");
      expect(mayHaveApplied(classifyFailure(code, "boom"))).toBe(true);
    },
  );

  it("a retry's reason for an answered attempt is its status; for one without an answer, what failed", async () => {
    const { classifyAnswer, classifyFailure } = await import("../../sdk/outcome");
    const { retryReason } = await import("../../sdk/retry");
    expect(retryReason(classifyAnswer({ status: 503, body: undefined, text: "down", retryAfter: undefined }))).toBe("answered 503");
    expect(retryReason(classifyFailure("ECONNRESET", "socket hang up"))).toBe("socket hang up (ECONNRESET)");
    expect(retryReason(classifyFailure("ECONNREFUSED", "connect refused"))).toBe("connect refused (ECONNREFUSED)");
  });
});
