import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import { z } from "zod";
import { BillingApiError, BillingConnectionError } from "../../sdk";
import { resolveConnection } from "../../sdk/options";
import { type Exchange, exactIds, failureOf, parseBody, parseJsonExact, Transport } from "../../sdk/transport";

// The transport's pieces a simulator cannot show (found by `npm run mutate`, issue 24): what exactly goes
// on the wire (query, headers, body), how an answer's text becomes a body, and the typed errors built
// from an exchange. A bare HTTP server answers whatever a test says, and records what it was sent.

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage["headers"];
  readonly text: string;
}

async function server(answer: (req: IncomingMessage, res: ServerResponse, text: string) => void) {
  const seen: Seen[] = [];
  const s = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, text });
      answer(req, res, text);
    });
  });
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        s.closeAllConnections();
        s.close(() => resolve());
      }),
  );
  return { url, seen };
}

function transportOf(baseUrl: string, extra: Record<string, unknown> = {}) {
  const t = new Transport(resolveConnection({ baseUrl, apiKey: "k", retryBaseDelayMs: 1, ...extra }));
  onTestFinished(() => t.close());
  return t;
}

const json =
  (status: number, body: unknown, headers: Record<string, string | string[]> = {}) =>
  (_q: IncomingMessage, res: ServerResponse) => {
    res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
  };

describe("Transport: what goes on the wire", () => {
  it("a query's defined values, URL-encoded after the base path; undefined ones left out", async () => {
    const s = await server(json(200, {}));
    const t = transportOf(`${s.url}/api/v1`);
    await t.send({ method: "GET", path: "/x.json", query: { a: "1 2", b: undefined, c: 3 }, repeatable: true });
    expect(s.seen.map((q) => q.url)).toEqual(["/api/v1/x.json?a=1+2&c=3"]);
  });

  it("a path undici cannot send (a space in it): not sent, so nothing may have applied, and nothing reached the server", async () => {
    const s = await server(json(200, {}));
    const t = transportOf(s.url);
    const x = await t.send({ method: "POST", path: "/a b.json", body: {}, repeatable: false });
    expect(x.outcome).toMatchObject({ kind: "not-sent", code: "UND_ERR_INVALID_ARG" });
    // Not repeated: it would fail the same way, and each attempt keeps one of undici's connections (sdk/retry.ts).
    expect({ attempts: x.attempts, mayHaveApplied: x.mayHaveApplied }).toEqual({ attempts: 1, mayHaveApplied: false });
    expect(s.seen).toEqual([]);
  });

  it("no query, or one with only undefined values: no '?' at all", async () => {
    const s = await server(json(200, {}));
    const t = transportOf(s.url);
    await t.send({ method: "GET", path: "/x.json", repeatable: true });
    await t.send({ method: "GET", path: "/y.json", query: { b: undefined }, repeatable: true });
    expect(s.seen.map((q) => q.url)).toEqual(["/x.json", "/y.json"]);
  });

  it("a body is sent as JSON with its content-type; a request without one has neither", async () => {
    const s = await server(json(200, {}));
    const t = transportOf(s.url);
    await t.send({ method: "PUT", path: "/a.json", body: { x: [1, "two"] }, repeatable: true });
    await t.send({ method: "GET", path: "/b.json", repeatable: true });
    const [put, get] = s.seen;
    expect([put.method, put.text, put.headers["content-type"], put.headers.accept]).toEqual([
      "PUT",
      '{"x":[1,"two"]}',
      "application/json",
      "application/json",
    ]);
    expect(put.headers.authorization).toBe(`Basic ${Buffer.from("k:x").toString("base64")}`);
    expect([get.method, get.text, get.headers["content-type"], get.headers.accept]).toEqual(["GET", "", undefined, "application/json"]);
  });
});

describe("Transport: an answer as the operations read it", () => {
  it("status, parsed body and the raw text of a refusal; an empty 2xx body is undefined", async () => {
    const s = await server((req, res) => {
      if (req.url === "/empty") res.writeHead(204).end();
      else res.writeHead(422, { "content-type": "text/plain" }).end("<html><title> Bad\n gateway </title></html>");
    });
    const t = transportOf(s.url);
    expect((await t.send({ method: "DELETE", path: "/empty", repeatable: true })).outcome).toEqual({
      kind: "success",
      status: 204,
      body: undefined,
    });
    const x = await t.send({ method: "GET", path: "/refused", repeatable: true });
    expect(x).toEqual({
      outcome: { kind: "refused", status: 422, body: undefined, text: "<html><title> Bad\n gateway </title></html>" },
      mayHaveApplied: false,
      attempts: 1,
    });
    // The gateway's page by its title, on one line.
    expect(failureOf({ method: "GET", path: "/refused" }, x)).toMatchObject({ status: 422, errors: ["Bad gateway"] });
  });

  it("two Retry-After headers: the first one is the wait", async () => {
    let n = 0;
    const s = await server((_q, res) => {
      n++;
      if (n === 1)
        res
          .writeHead(429, [
            ["retry-after", "0"],
            ["retry-after", "7"],
          ])
          .end("slow down");
      else res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
    const events: unknown[] = [];
    const t = transportOf(s.url, { onRetry: (e: { delayMs: number; reason: string }) => events.push([e.delayMs, e.reason]) });
    const x = await t.send({ method: "GET", path: "/r", repeatable: true });
    expect([x.outcome.kind, x.attempts]).toEqual(["success", 2]);
    expect(events).toEqual([[0, "429 rate limited (Retry-After: 0)"]]);
  });

  it("an onRetry that throws does not turn the retry into a failure", async () => {
    let n = 0;
    const s = await server((_q, res) => {
      n++;
      res.writeHead(n === 1 ? 503 : 200, { "content-type": "application/json" }).end("{}");
    });
    const t = transportOf(s.url, {
      onRetry: () => {
        throw new Error("logger down");
      },
    });
    const x = await t.send({ method: "GET", path: "/r", repeatable: true });
    expect(x).toEqual({ outcome: { kind: "success", status: 200, body: {} }, mayHaveApplied: true, attempts: 2 });
  });

  it("call(): a 2xx body parsed by the schema; another status a typed error", async () => {
    const s = await server((req, res) => {
      if (req.url === "/ok") json(200, { n: 1 })(req, res);
      else json(404, { errors: ["Not found"] })(req, res);
    });
    const t = transportOf(s.url);
    expect(await t.call({ method: "GET", path: "/ok", repeatable: true }, z.object({ n: z.number() }))).toEqual({ n: 1 });
    const err = await t.call({ method: "GET", path: "/no", repeatable: true }, z.object({})).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BillingApiError);
    expect(err).toMatchObject({ status: 404, errors: ["Not found"], method: "GET", path: "/no", mayHaveApplied: false });
  });
});

describe("parseJsonExact", () => {
  it("empty text or text that is not JSON: undefined", () => {
    expect(parseJsonExact("")).toBeUndefined();
    expect(parseJsonExact("not json")).toBeUndefined();
    expect(parseJsonExact('{"id": 12345678901234567890')).toBeUndefined(); // a long digit run, cut short
  });

  it("integers past 2^53 kept as their decimal text; safe numbers, fractions and exponents stay numbers", () => {
    expect(
      parseJsonExact('{"a": 9007199254740993, "b": -9007199254740993, "c": 9007199254740991, "d": 1234567890123456.5, "e": 1e300}'),
    ).toEqual({
      a: "9007199254740993",
      b: "-9007199254740993",
      c: 9007199254740991,
      d: 1234567890123456.5,
      e: 1e300,
    });
  });

  it("text without a 16-digit run is parsed as plain JSON", () => {
    expect(parseJsonExact('{"a": [1, 2.5, "x"], "b": null}')).toEqual({ a: [1, 2.5, "x"], b: null });
  });
});

describe("exactIds", () => {
  it("numbers only: the same list; with decimal text: each text written as a JSON number, digit for digit", () => {
    const nums = [1, 2, 3];
    expect(exactIds(nums)).toBe(nums);
    expect(JSON.stringify(exactIds([1, "9007199254740993", 3]))).toBe("[1,9007199254740993,3]");
  });
});

describe("failureOf and parseBody", () => {
  const req = { method: "POST", path: "/p.json" } as const;
  const of = (outcome: Exchange["outcome"], mayHaveApplied = false): Exchange => ({ outcome, mayHaveApplied, attempts: 1 });

  it("never sent, or no answer: a connection error with the code, the message and whether it may have applied", () => {
    const notSent = failureOf(req, of({ kind: "not-sent", code: "ECONNREFUSED", message: "refused" }));
    expect(notSent).toBeInstanceOf(BillingConnectionError);
    expect(notSent).toMatchObject({ code: "ECONNREFUSED", method: "POST", path: "/p.json", mayHaveApplied: false });
    expect(notSent.message).toContain("refused");
    const lost = failureOf(req, of({ kind: "ambiguous", status: undefined, code: "ECONNRESET", message: "reset" }, true));
    expect(lost).toBeInstanceOf(BillingConnectionError);
    expect(lost).toMatchObject({ code: "ECONNRESET", mayHaveApplied: true });
  });

  it("an answer: an API error with its status and the service's messages", () => {
    const e = failureOf(req, of({ kind: "ambiguous", status: 503, body: { errors: ["down"] }, text: "", message: "answered 503" }, true));
    expect(e).toBeInstanceOf(BillingApiError);
    expect(e).toMatchObject({ status: 503, errors: ["down"], mayHaveApplied: true });
    expect(failureOf(req, of({ kind: "refused", status: 404, body: undefined, text: "" }))).toMatchObject({ status: 404, errors: [] });
  });

  it("parseBody: a body the schema refuses names at most three fields, '(body)' for the body itself", () => {
    const schema = z.object({ a: z.string(), b: z.string(), c: z.string(), d: z.string() });
    const e = (() => {
      try {
        parseBody(req, 201, {}, schema);
      } catch (err) {
        return err as BillingApiError;
      }
    })();
    expect(e).toBeInstanceOf(BillingApiError);
    expect(e).toMatchObject({ status: 201, errors: [], mayHaveApplied: false, method: "POST", path: "/p.json" });
    expect(e?.message).toMatch(/^POST \/p\.json answered 201 with a body this SDK does not understand: a: .+; b: .+; c: [^;]+$/);
    expect(() => parseBody(req, 200, "text", schema)).toThrow(/does not understand: \(body\): /);
  });
});

// The second run's survivors (mutation/survivors.md): the pool's cap, close(), a timeout that fires while the
// request waits for a connection, the attempt's timer, and the dotted path of a nested field.
describe("Transport: the pool and the attempt's timer", () => {
  /** A server that holds each request until `release()`, and counts the most in flight at once. */
  async function holding() {
    let inFlight = 0;
    let most = 0;
    const held: ServerResponse[] = [];
    const s = await server((_q, res) => {
      inFlight++;
      most = Math.max(most, inFlight);
      held.push(res);
    });
    const release = () => {
      for (const res of held.splice(0)) {
        inFlight--;
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      }
    };
    return { ...s, release, most: () => most, waiting: () => held.length };
  }

  it("at most maxConcurrency requests in flight; the others wait for a connection", async () => {
    const s = await holding();
    const t = transportOf(s.url, { maxConcurrency: 2 });
    const all = Promise.all([1, 2, 3, 4, 5].map((n) => t.send({ method: "GET", path: `/${n}`, repeatable: true })));
    // Release whatever is held until every request is answered.
    while (s.seen.length < 5 || s.waiting() > 0) {
      await new Promise((r) => setTimeout(r, 20));
      if (s.waiting() === 2 || s.seen.length === 5) s.release();
    }
    const xs = await all;
    expect(xs.map((x) => x.outcome.kind)).toEqual(["success", "success", "success", "success", "success"]);
    expect(s.most()).toBe(2);
  });

  // The attempt's time counts from when a connection takes the request: time before that (queued, or the loop busy)
  // is not the service's, and nothing was sent. Deterministic: the send starts in the check phase and the loop is
  // then held past the timeout, before the poll phase reports the connection. Counted from the send, the request
  // would be aborted unsent and reported "no answer within 20 ms" (may have been applied).
  it("a request whose connection comes later than its timeout: sent when it gets one, its time counted from there", async () => {
    const s = await server(json(200, {}));
    const t = transportOf(s.url, { maxRetries: 0, timeoutMs: 20 });
    const sent = await new Promise<Promise<Exchange>>((resolve) =>
      setImmediate(() => {
        const x = t.send({ method: "GET", path: "/late", repeatable: true });
        const until = performance.now() + 60;
        while (performance.now() < until) {
          // hold the loop past the attempt's 20 ms before the connection is reported
        }
        resolve(x);
      }),
    );
    await sent;
    // Seen by the server whatever the answer's own timing: the request was not abandoned before it was sent.
    expect(s.seen.map((q) => q.url)).toEqual(["/late"]);
  });

  it("close(): the pool is closed; a request after it is not sent", async () => {
    const s = await server(json(200, {}));
    // Not transportOf: it closes the transport again when the test ends.
    const t = new Transport(resolveConnection({ baseUrl: s.url, apiKey: "k", retryBaseDelayMs: 1, maxRetries: 0 }));
    expect((await t.send({ method: "GET", path: "/before", repeatable: true })).outcome.kind).toBe("success");
    await t.close();
    const x = await t.send({ method: "GET", path: "/after", repeatable: true });
    expect(x.outcome.kind).not.toBe("success");
    expect(s.seen.map((q) => q.url)).toEqual(["/before"]);
    // A second close (a finally after an explicit close) resolves, as the first did (it was undici's ClientDestroyedError).
    await t.close();
  });

  // The timer is a setTimeout of the attempt's timeoutMs (an unusual value here, to tell it from any other
  // timer); left pending, it would keep a finished client's process alive for up to the timeout (125 s by default).
  it.each([
    ["answered", "success", json(200, {})],
    ["reset", "ambiguous", (q: IncomingMessage) => void q.socket.resetAndDestroy()],
  ] as const)("the attempt's timer is cleared as soon as the attempt ends (%s)", async (_, kind, answer) => {
    const s = await server(answer);
    const t = transportOf(s.url, { maxRetries: 0, timeoutMs: 98_765 });
    const timers = new Set<unknown>();
    const realSet = globalThis.setTimeout;
    const realClear = globalThis.clearTimeout;
    const set = vi.spyOn(globalThis, "setTimeout").mockImplementation(((fn: () => void, ms?: number, ...rest: unknown[]) => {
      const handle: ReturnType<typeof setTimeout> = Reflect.apply(realSet, globalThis, [fn, ms, ...rest]);
      if (ms === 98_765) timers.add(handle);
      return handle;
    }) as typeof setTimeout);
    const clear = vi.spyOn(globalThis, "clearTimeout").mockImplementation(((h?: Parameters<typeof clearTimeout>[0]) => {
      timers.delete(h);
      realClear(h);
    }) as typeof clearTimeout);
    let x: Exchange;
    try {
      x = await t.send({ method: "GET", path: "/t", repeatable: true });
    } finally {
      set.mockRestore();
      clear.mockRestore();
    }
    expect(x.outcome.kind).toBe(kind);
    expect(x.attempts).toBe(1);
    expect(timers.size).toBe(0);
  });
});

describe("parseBody: a nested field", () => {
  it("is named by its dotted path", () => {
    const schema = z.object({ subscription: z.object({ product: z.object({ id: z.number() }) }) });
    expect(() => parseBody({ method: "GET", path: "/s.json" }, 200, { subscription: { product: {} } }, schema)).toThrow(
      /does not understand: subscription\.product\.id: /,
    );
  });
});
