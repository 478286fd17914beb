import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Simulator } from "../../simulator";
import { contractCheck } from "../contract/validator";
import { call, DUPLICATE, migration, until, withSite } from "./helpers";

// `processing`: the site accepts the request at once (its uniqueness_token is
// taken) and applies it only after `ms`. With a client timeout shorter than
// that, the client gives up on a request that still lands. Each window a test must act within (a duplicate, a
// read, a second request while the first is processed) is a second or more: a loaded 2-core machine can stall a
// test process for a few hundred milliseconds.

let sim: Simulator;
let id: number;
beforeAll(async () => {
  // Checking an answer must not eat the processing window the test reads in.
  (await contractCheck()).warm("readSubscription", "migrateSubscriptionProduct", "replayWebhooks", "readSite");
});
beforeEach(async () => {
  sim = await withSite();
  id = sim.addSubscription({ productHandle: "basic", state: "active" }).id;
});
afterEach(async () => {
  await sim.close();
});

const path = () => `/subscriptions/${id}/migrations.json`;
const slow = (ms: number) => sim.injectFault({ kind: "processing", ms, times: 1, match: { path: path() } });

describe("processing fault", () => {
  it("a duplicate arriving mid-flight gets 409, a read in the window shows the old state, then the first is applied once", async () => {
    slow(800);
    const body = migration({ product_handle: "pro" }, { uniqueness_token: "slow-1" });
    let firstDone = false;
    const first = call(sim, "POST", path(), { body }).finally(() => (firstDone = true));
    await until(() => sim.tokenStatus("slow-1") === "in_progress", "the first request is being processed");

    const duplicate = await call(sim, "POST", path(), { body });
    expect(duplicate).toMatchObject({ status: 409, body: { errors: [DUPLICATE] } });
    const read = await call(sim, "GET", `/subscriptions/${id}.json`);
    expect(read.body.subscription.product.handle).toBe("basic");
    expect(sim.migrationsApplied(id)).toBe(0);
    expect(firstDone).toBe(false);

    const answer = await first;
    expect(answer.status).toBe(200);
    expect(answer.body.subscription.product.handle).toBe("pro");
    expect(sim.migrationsApplied(id)).toBe(1);
    expect(sim.tokenStatus("slow-1")).toBe("applied");
    expect((await call(sim, "POST", path(), { body })).status).toBe(409);
    expect(sim.migrationsApplied(id)).toBe(1);
  });

  it("answers slower than the client's timeout: the client gives up, the migration lands anyway", async () => {
    slow(1000);
    const body = migration({ product_handle: "pro" }, { uniqueness_token: "timeout-1" });
    // The client gives up once the site holds the request (a 50 ms timer could fire, on a loaded machine, before
    // the request arrived at all, and then nothing would land).
    const giveUp = new AbortController();
    const sent = call(sim, "POST", path(), { body, signal: giveUp.signal });
    await until(() => sim.tokenStatus("timeout-1") === "in_progress", "the request is being processed");
    giveUp.abort();
    await expect(sent).rejects.toThrow();
    expect(sim.migrationsApplied(id)).toBe(0);
    await until(() => sim.migrationsApplied(id) === 1, "the abandoned request is applied");
    expect(sim.getSubscription(id)?.productId).toBe(2);
    // The client's retry with the same token cannot apply it twice.
    expect((await call(sim, "POST", path(), { body })).status).toBe(409);
    expect(sim.migrationsApplied(id)).toBe(1);
  });

  it("a request finally refused forgets its token: 409 while it runs, judged afresh afterwards", async () => {
    slow(1000);
    const refused = migration({ product_handle: "basic" }, { uniqueness_token: "same-product" });
    const first = call(sim, "POST", path(), { body: refused });
    await until(() => sim.tokenStatus("same-product") === "in_progress", "the first request is being processed");
    expect((await call(sim, "POST", path(), { body: refused })).status).toBe(409);
    expect((await first).status).toBe(422);
    expect(sim.tokenStatus("same-product")).toBeUndefined();
    const fixed = await call(sim, "POST", path(), { body: migration({ product_handle: "pro" }, { uniqueness_token: "same-product" }) });
    expect(fixed.status).toBe(200);
    expect(sim.migrationsApplied(id)).toBe(1);
  });

  it("a replay is queued only when processing ends", async () => {
    sim.injectFault({ kind: "processing", ms: 1000, times: 1, match: { path: "/webhooks/replay.json" } });
    const pending = call(sim, "POST", "/webhooks/replay.json", { body: { ids: [5], uniqueness_token: "r-slow" } });
    await until(() => sim.tokenStatus("r-slow") === "in_progress", "the replay is being processed");
    expect(sim.replayLog).toEqual([]);
    expect((await pending).status).toBe(200);
    expect(sim.replayLog).toEqual(["5"]);
  });

  it("holds its concurrency slot while it runs", async () => {
    await sim.close();
    sim = await withSite({ maxConcurrent: 1, overCapacity: "429" });
    sim.injectFault({ kind: "processing", ms: 1000, times: 1 });
    const first = call(sim, "POST", "/webhooks/replay.json", { body: { ids: [1], uniqueness_token: "holder" } });
    await until(() => sim.tokenStatus("holder") === "in_progress", "the first request is being processed");
    expect((await call(sim, "GET", "/site.json")).status).toBe(429);
    expect((await first).status).toBe(200);
  });
});
