import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it, vi } from "vitest";
import { BillingConnectionError } from "../../../sdk";
import { resolveConnection } from "../../../sdk/options";
import { type Exchange, Transport } from "../../../sdk/transport";
import { migrationSite, retries, site, timed } from "../helpers";
import { json, server, transportOf } from "./bare-server";

/**
 * The transport's timers and pool: an attempt abandoned at exactly its timeout, each retry with its own, at most
 * maxConcurrency requests in flight, a request's timeout counted from when a connection takes it, and a wait for
 * a connection that ends at the timeout too. Against the
 * simulator and against a bare HTTP server that holds each request.
 */

describe("timeouts are exact", () => {
  it("timeoutMs 100: the attempt waits its 100 ms, then is abandoned before any answer", async () => {
    const s = await site({}, { timeoutMs: 100, maxRetries: 0 });
    s.sim.injectFault({ kind: "delay", ms: 3000, match: { method: "GET" } });
    const { ms, error } = await timed(() => s.billing.listWebhooks());
    expect(error).toBeInstanceOf(BillingConnectionError);
    expect(error).toMatchObject({ code: "ETIMEDOUT", mayHaveApplied: true });
    expect((error as Error).message).toContain("no answer within 100 ms");
    expect(ms).toBeGreaterThanOrEqual(95);
    // Abandoned, not answered late: the request's answer (due in 3 s) was never sent. How close to 100 ms the
    // abandonment comes is a matter of speed, not of a test on a shared machine.
    expect(s.sim.requests.map((q) => q.status)).toEqual([0]);
  });

  it("each retry gets its own full timeout; every wait is reported", async () => {
    const r = retries();
    const s = await site({}, { timeoutMs: 80, maxRetries: 2, onRetry: r.onRetry });
    s.sim.injectFault({ kind: "delay", ms: 3000, match: { method: "GET" } });
    const { ms, error } = await timed(() => s.billing.readSubscription(1));
    expect(error).toMatchObject({ code: "ETIMEDOUT" });
    expect(s.sim.requests).toHaveLength(3);
    expect(r.events.map((e) => [e.method, e.attempt, e.reason])).toEqual([
      ["GET", 1, "no answer within 80 ms (ETIMEDOUT)"],
      ["GET", 2, "no answer within 80 ms (ETIMEDOUT)"],
    ]);
    expect(ms).toBeGreaterThanOrEqual(3 * 80 - 5);
    expect(s.sim.requests.map((q) => q.status)).toEqual([0, 0, 0]);
  });
});

describe("a request queued behind maxConcurrency others", () => {
  it("the answer's timeout counts from when a connection takes it: queued, then answered, past timeoutMs in all, it succeeds", async () => {
    // One connection: the second read waits for the first (1 s) and then takes 0.8 s itself, 1.8 s in all against a
    // 1.5 s timeout. Counted from the queue it would end "no answer within 1500 ms" (a replay batch unknown, a
    // migration read back), though nothing of it had been sent.
    const s = await migrationSite({}, { timeoutMs: 1500, maxRetries: 0, maxConcurrency: 1 });
    const other = s.sim.addSubscription({ productHandle: "basic", state: "active" }).id;
    s.sim.injectFault({ kind: "delay", ms: 1000, times: 1, match: { method: "GET", path: `/subscriptions/${s.id}.json` } });
    s.sim.injectFault({ kind: "delay", ms: 800, times: 1, match: { method: "GET", path: `/subscriptions/${other}.json` } });
    const [first, second] = await Promise.all([s.billing.readSubscription(s.id), s.billing.readSubscription(other)]);
    expect([first.id, second.id]).toEqual([s.id, other]);
    expect(s.sim.requests.map((q) => [q.path, q.status])).toEqual([
      [`/subscriptions/${s.id}.json`, 200],
      [`/subscriptions/${other}.json`, 200],
    ]);
  });
});

describe("a request waiting for a connection longer than its timeoutMs", () => {
  it("ends at its timeoutMs, unsent and not retried, while the requests ahead of it finish", async () => {
    // One connection and three reads of 800 ms each against a 1.2 s timeout: the first holds the connection until
    // 0.8 s, the second until 1.6 s. The third is still waiting at 1.2 s: it gives up then, before the second is
    // answered, and never reaches the service (it would otherwise be sent at 1.6 s and answered at 2.4 s).
    const r = retries();
    const s = await migrationSite({}, { timeoutMs: 1200, maxRetries: 3, maxConcurrency: 1, onRetry: r.onRetry });
    const ids = [s.id, s.sim.addSubscription({ productHandle: "basic", state: "active" }).id];
    ids.push(s.sim.addSubscription({ productHandle: "basic", state: "active" }).id);
    s.sim.injectFault({ kind: "delay", ms: 800, match: { method: "GET" } });
    const ended: string[] = [];
    const read = (n: number) =>
      timed(() => s.billing.readSubscription(ids[n])).then((t) => {
        ended.push(`read ${n}`);
        return t;
      });
    const [first, second, third] = await Promise.all([read(0), read(1), read(2)]);
    expect([first.value?.id, second.value?.id]).toEqual([ids[0], ids[1]]);
    expect(third.error).toBeInstanceOf(BillingConnectionError);
    expect(third.error).toMatchObject({ code: "QUEUE_TIMEOUT", mayHaveApplied: false });
    expect((third.error as Error).message).toContain(
      `GET /subscriptions/${ids[2]}.json: no connection free within 1200 ms: all 1 (maxConcurrency) were taken by other requests of this client; nothing was sent`,
    );
    expect(third.ms).toBeGreaterThanOrEqual(1195);
    expect(ended).toEqual(["read 0", "read 2", "read 1"]);
    expect(s.sim.requests.map((q) => [q.path, q.status])).toEqual([
      [`/subscriptions/${ids[0]}.json`, 200],
      [`/subscriptions/${ids[1]}.json`, 200],
    ]);
    expect(r.events).toEqual([]);
  });
});

// The pool's cap, close(), a timeout that fires while the request waits for a connection, the attempt's timer.
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
