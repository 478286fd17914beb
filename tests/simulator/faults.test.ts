import { describe, expect, it, onTestFinished } from "vitest";
import type { Simulator } from "../../simulator";
import { USAGE_VIOLATION } from "../contract/validator";
import { call, DUPLICATE, migration, start, until, withSite } from "./helpers";

const replay = (sim: Simulator, ids = [1], token?: string) =>
  call(sim, "POST", "/webhooks/replay.json", { body: token ? { ids, uniqueness_token: token } : { ids } });

describe("faults", () => {
  it("status, times N: the next N matching requests fail before processing, then normal service", async () => {
    const sim = await start();
    sim.injectFault({ kind: "status", status: 503, times: 2, match: { method: "post", path: "/webhooks/replay.json" } });
    expect((await call(sim, "GET", "/webhooks.json")).status).toBe(200); // not matched, not consumed
    const a = await replay(sim, [1], "t1");
    const b = await replay(sim, [1], "t1");
    const c = await replay(sim, [1], "t1");
    expect([a.status, b.status, c.status]).toEqual([503, 503, 200]);
    expect(a.body).toMatch(/503 Service Temporarily Unavailable/);
    expect(sim.replayQueue).toEqual([1]);
    expect(sim.requests.map((r) => r.status)).toEqual([200, 503, 503, 200]);
  });

  it.each([
    { status: 429, type: "text/plain", body: new RegExp(USAGE_VIOLATION) },
    { status: 500, type: "application/json", body: /^\{"errors":\["Internal Server Error"\]\}$/ },
    { status: 502, type: "text/html", body: /<title>502 Bad Gateway<\/title>/ },
    { status: 503, type: "text/html", body: /<title>503 Service Temporarily Unavailable<\/title>/ },
    { status: 504, type: "text/html", body: /<title>504 Gateway Time-out<\/title>/ },
  ] as const)("status $status answers $type, applies nothing, sends no Retry-After unless asked", async ({ status, type, body }) => {
    const sim = await start();
    sim.injectFault({ kind: "status", status, times: 1 });
    const res = await replay(sim);
    expect(res.status).toBe(status);
    expect(res.headers.get("content-type")).toMatch(new RegExp(`^${type}`));
    expect(res.text).toMatch(body);
    expect(res.headers.get("retry-after")).toBeNull();
    expect(sim.replayQueue).toEqual([]);
  });

  it("429 text carries a fresh hex reference each time, and Retry-After when given", async () => {
    const sim = await start();
    sim.injectFault({ kind: "status", status: 429, retryAfter: 7, times: 2 });
    const [a, b] = [await replay(sim), await replay(sim)];
    expect(a.headers.get("retry-after")).toBe("7");
    const ref = (t: string) => /referencing ([0-9a-f]+)$/.exec(t)?.[1];
    expect(ref(a.text)).toMatch(/^[0-9a-f]{16,}$/);
    expect(ref(b.text)).not.toBe(ref(a.text));
    expect(() => JSON.parse(a.text)).toThrow();
  });

  it("503 may carry Retry-After too", async () => {
    const sim = await start();
    sim.injectFault({ kind: "status", status: 503, retryAfter: 0, times: 1 });
    expect((await replay(sim)).headers.get("retry-after")).toBe("0");
  });

  it("path as a RegExp", async () => {
    const sim = await withSite();
    onTestFinished(() => sim.close());
    sim.injectFault({ kind: "status", status: 502, match: { path: /^\/subscriptions\/\d+\.json$/ } });
    const id = sim.addSubscription({ productId: 1, state: "active" }).id;
    expect((await call(sim, "GET", `/subscriptions/${id}.json`)).status).toBe(502);
    expect((await call(sim, "GET", `/subscriptions/${id}.json`)).status).toBe(502);
    expect((await replay(sim)).status).toBe(200);
    sim.clearFaults();
    expect((await call(sim, "GET", `/subscriptions/${id}.json`)).status).toBe(200);
  });

  it("rate: a seeded PRNG gives the same sequence for the same faultSeed", async () => {
    const run = async (faultSeed: number) => {
      const sim = await start({ faultSeed });
      sim.injectFault({ kind: "status", status: 500, rate: 0.5 });
      const out: number[] = [];
      for (let i = 0; i < 24; i++) out.push((await replay(sim)).status);
      return out;
    };
    const a = await run(42);
    expect(await run(42)).toEqual(a);
    expect(a.filter((s) => s === 500).length).toBeGreaterThan(4);
    expect(a.filter((s) => s === 200).length).toBeGreaterThan(4);
    expect(await run(7)).not.toEqual(a);
  });

  it("rate 0 never fires, rate 1 always does", async () => {
    const sim = await start();
    sim.injectFault({ kind: "status", status: 500, rate: 0 });
    expect((await replay(sim)).status).toBe(200);
    sim.clearFaults();
    sim.injectFault({ kind: "status", status: 500, rate: 1 });
    expect((await replay(sim)).status).toBe(500);
  });

  it("reset: the socket is destroyed without an answer; logged with status 0; nothing applied", async () => {
    const sim = await start();
    sim.injectFault({ kind: "reset", times: 1 });
    await expect(replay(sim)).rejects.toThrow();
    expect(sim.replayQueue).toEqual([]);
    expect(sim.requests[0].status).toBe(0);
    expect((await replay(sim)).status).toBe(200);
  });

  it("delay: holds the answer, counting against the cap", async () => {
    const sim = await start({ maxConcurrent: 1, overCapacity: "429" });
    sim.injectFault({ kind: "delay", ms: 300, times: 1 });
    const t0 = Date.now();
    const slow = replay(sim);
    await until(() => sim.inFlight === 1 && sim.requests[0]?.body !== undefined, "the slow request holds the only slot");
    expect((await replay(sim)).status).toBe(429);
    expect((await slow).status).toBe(200);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
  });

  it("applyAfterHandling status: the migration is applied, the client sees 503, its retry gets 409", async () => {
    const sim = await withSite();
    onTestFinished(() => sim.close());
    const id = sim.addSubscription({ productId: 1, state: "active" }).id;
    sim.injectFault({
      kind: "status",
      status: 503,
      times: 1,
      applyAfterHandling: true,
      match: { path: `/subscriptions/${id}/migrations.json` },
    });
    const body = migration({ product_id: 2 }, { uniqueness_token: "ambiguous-1" });
    expect((await call(sim, "POST", `/subscriptions/${id}/migrations.json`, { body })).status).toBe(503);
    expect(sim.getSubscription(id)).toMatchObject({ productId: 2, previousState: "active" });
    const retry = await call(sim, "POST", `/subscriptions/${id}/migrations.json`, { body });
    expect(retry).toMatchObject({ status: 409, body: { errors: [DUPLICATE] } });
  });

  it("applyAfterHandling reset: the replay is queued although the client saw the connection drop", async () => {
    const sim = await start();
    sim.injectFault({ kind: "reset", times: 1, applyAfterHandling: true });
    await expect(replay(sim, [9], "r-1")).rejects.toThrow();
    expect(sim.replayQueue).toEqual([9]);
    expect((await replay(sim, [9], "r-1")).status).toBe(409);
    expect(sim.replayQueue).toEqual([9]);
  });

  it("applyAfterHandling delay: state changes before the answer leaves", async () => {
    const sim = await start();
    sim.injectFault({ kind: "delay", ms: 300, times: 1, applyAfterHandling: true });
    let answered = false;
    const pending = replay(sim, [3]).finally(() => (answered = true));
    await until(() => sim.replayQueue.length === 1, "the replay is queued");
    expect(answered).toBe(false);
    expect(sim.replayQueue).toEqual([3]);
    expect((await pending).status).toBe(200);
  });

  it("refuses malformed fault specs", async () => {
    const sim = await start();
    expect(() => sim.injectFault({ kind: "status", status: 404 as 500 })).toThrow(/status 404/);
    expect(() => sim.injectFault({ kind: "delay", ms: -1 })).toThrow(/ms/);
    expect(() => sim.injectFault({ kind: "reset", rate: 2 })).toThrow(/rate/);
    expect(() => sim.injectFault({ kind: "reset", times: 0 })).toThrow(/times/);
    expect(() => sim.injectFault({ kind: "status", status: 500, retryAfter: 3 })).toThrow(/retryAfter goes with 429 or 503/);
    expect(() => sim.injectFault({ kind: "status", status: 429, retryAfter: 1.5 })).toThrow(/retryAfter/);
    expect(() => sim.injectFault({ kind: "processing", ms: -5 })).toThrow(/ms/);
    expect(() => sim.injectFault({ kind: "processing", ms: 5, applyAfterHandling: true })).toThrow(/applyAfterHandling/);
  });
});
