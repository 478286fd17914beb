import { beforeEach, describe, expect, it, vi } from "vitest";

// The module-level tables of sdk/outcome.ts and sdk/retry.ts, loaded afresh. Tests that re-import the SDK (the
// program client's, the inputs' module-level schemas) make Stryker run only re-importing tests against these
// modules' module-level mutants: in the run of 27 Nov 06:09 each NOT_SENT code emptied "survived" that way, though
// which failures count as never sent decides whether a create is repeated or read back.

describe("sdk's module-level tables, loaded afresh", () => {
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
