import { afterEach, describe, expect, it, vi } from "vitest";
import type { Simulator } from "../../../simulator";
import { captureOutput } from "../support";
import { RECORDED, REFUSED, REPLAY, record, replaySite, TOKEN } from "./site";

/**
 * WebhookReplay under the service's failures: a run that fails part-way records what was queued, what was not and the
 * batches of unknown outcome (with their tokens), and the next up sends only the rest, re-sending an unknown batch
 * with its token while the service's 60-minute duplicate window holds; past it (55 minutes is past the tokens'
 * window), the batch is not re-sent and the finished run warns, listing at most ten ids.
 */

describe("WebhookReplay under the service's failures", () => {
  let sim: Simulator;
  const { setup, refusingAfter } = replaySite((started) => {
    sim = started;
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it("a failure part-way records what was queued; the re-run sends only the rest", async () => {
    const p = await setup();
    const ids = Array.from({ length: 5000 }, (_, i) => 1 + i);
    // Every replay request fails after the first two have gone through.
    let seen = 0;
    const push = sim.requests.push.bind(sim.requests);
    sim.requests.push = (...e) => {
      if (e[0].path === REPLAY && ++seen === 3) sim.injectFault({ kind: "status", status: 500, match: { path: REPLAY } });
      return push(...e);
    };
    const err = await p.create({ ids, __provider: "TEXT" }).catch((e) => e);
    expect(err.message).toMatch(/queued/);
    const queuedFirst = [...sim.replayQueue];
    expect(err.properties.queuedCount).toBe(queuedFirst.length);
    // A 500 may come after the service applied the batch: its ids are unknown, kept with the batch's token;
    // the batches never started are not queued. Together: everything that was not queued.
    const { notQueuedIds, unknownIds, unknownBatches } = err.properties;
    // Every batch in flight when the 500s began is unknown (up to 4 at once); each is whole, with its own token.
    expect(unknownBatches.length).toBeGreaterThanOrEqual(1);
    expect(unknownBatches.flatMap((b: { ids: number[] }) => b.ids)).toEqual(unknownIds);
    expect(unknownBatches.every((b: { ids: number[] }) => b.ids.length === 1000)).toBe(true);
    expect(new Set(unknownBatches.map((b: { uniquenessToken: string }) => b.uniquenessToken)).size).toBe(unknownBatches.length);
    expect([...notQueuedIds, ...unknownIds, ...queuedFirst].sort((a, b) => a - b)).toEqual(ids);
    expect(err.properties.__provider).toBe("TEXT");
    expect(queuedFirst.length).toBeGreaterThan(0);

    sim.clearFaults();
    sim.requests.push = push;
    const { outs } = await p.update!(err.id, err.properties, { ids });
    expect(outs).toMatchObject({ queuedCount: 5000, notQueuedIds: [], unknownIds: [] });
    // The unknown batch went again with its first token.
    for (const b of unknownBatches) {
      expect(sim.requests.filter((r) => r.path === REPLAY && r.uniquenessToken === b.uniquenessToken).length).toBeGreaterThan(1);
    }
    expect(sim.replayQueue).toHaveLength(5000);
    expect(new Set(sim.replayQueue).size).toBe(5000);
  });

  it("a replay refused outright records every id as not queued, with the counts in the message", async () => {
    await setup();
    const p = await refusingAfter(0);
    const { error } = await captureOutput(() => p.create({ ids: [5, 6] }));
    const e = error as Error & { properties: unknown };
    expect(e.message).toBe(`webhook replay: 0 id(s) queued, 2 not queued, 0 unknown (${REFUSED}). ${RECORDED}`);
    expect(e.properties).toEqual({ ...record({ notQueuedIds: [5, 6] }), args: { ids: [5, 6] }, queuedCount: 0, batchCount: 0 });
  });

  it("a resumed replay refused after its first batch adds what was queued to the earlier count and keeps the rest", async () => {
    await setup();
    const p = await refusingAfter(1);
    const ids = Array.from({ length: 1500 }, (_, i) => 100 + i);
    const s = record({ args: { ids }, queuedCount: 7, notQueuedIds: ids });
    const { error } = await captureOutput(() => p.update!("replay-1", s, s.args));
    const e = error as Error & { properties: { queuedCount: number; notQueuedIds: number[] } };
    expect(e.message).toBe(
      "webhook replay: 1007 id(s) queued, 500 not queued, 0 unknown (webhook replay partly failed: 1000 id(s) queued, 500 not queued " +
        "(1100, 1101, 1102, 1103, 1104, 1105, 1106, 1107, 1108, 1109, … 490 more); first failure: " +
        `${REFUSED}). ${RECORDED}`,
    );
    expect(e.properties.queuedCount).toBe(1007);
    expect(e.properties.notQueuedIds).toEqual(ids.slice(1000));
  });

  it("finishing the ids not queued, with no expired batch, warns of nothing", async () => {
    const p = await setup();
    const s = record({ notQueuedIds: [901] });
    const { result, text } = await captureOutput(() => p.update!("replay-1", s, s.args));
    expect(text).toBe("");
    expect(result!.outs).toMatchObject({ queuedCount: 2, batchCount: 2, notQueuedIds: [] });
    expect(sim.replayQueue).toEqual([901]);
  });

  describe("batches past the token window", () => {
    /** A record whose last run left one id not queued and `expired` ids in a batch whose token the service has forgotten. */
    const recordWith = (expired: number[]) => ({
      args: { ids: [900, ...expired] },
      queuedCount: 0,
      batchCount: 1,
      replayedAt: null,
      notQueuedIds: [900],
      unknownIds: expired,
      unknownBatches: [{ ids: expired, uniquenessToken: "0d6f4c1a-8e7b-4b55-a2c9-3f1e5d7a9b20", sentAt: "2020-01-01T00:00:00.000Z" }],
    });
    const warning = (count: number, listed: string) =>
      `warning: WebhookReplay: ${count} webhook id(s) have an unknown outcome and their uniqueness tokens are older than the ` +
      `service's 60-minute duplicate window, so they are not re-sent (they may be queued already): ${listed}. ` +
      "Check the receiver; to replay them anyway, list them in a new WebhookReplay.";
    const range = (n: number) => Array.from({ length: n }, (_, i) => 801 + i);

    it.each([
      [1, "801"],
      [10, "801, 802, 803, 804, 805, 806, 807, 808, 809, 810"],
      [11, "801, 802, 803, 804, 805, 806, 807, 808, 809, 810, …"],
      [12, "801, 802, 803, 804, 805, 806, 807, 808, 809, 810, …"],
    ])("%i expired id(s): the finished run warns, listing at most ten, and keeps them unknown", async (n, listed) => {
      const p = await setup();
      const expired = range(n);
      const s = recordWith(expired);
      const { result, error, text } = await captureOutput(() => p.update!("replay-1", s, s.args));
      expect(error).toBeUndefined();
      expect(text).toBe(`${warning(n, listed)}\n`);
      expect(result!.outs).toEqual({
        args: s.args,
        queuedCount: 1,
        batchCount: 2,
        notQueuedIds: [],
        unknownIds: expired,
        unknownBatches: s.unknownBatches,
        replayedAt: expect.any(String),
      });
      expect(Date.parse(result!.outs.replayedAt)).not.toBeNaN();
      // Only the id not queued went out; the expired batch was not sent again.
      expect(sim.replayQueue).toEqual([900]);
    });

    it("a finished record whose only unknown batch is expired: update returns it as it is, sending and saying nothing", async () => {
      const p = await setup();
      const s = record({
        replayedAt: "2020-01-01T00:00:01.000Z",
        unknownIds: [901],
        unknownBatches: [{ ids: [901], uniquenessToken: TOKEN, sentAt: "2020-01-01T00:00:00.000Z" }],
      });
      const { result, text } = await captureOutput(() => p.update!("replay-1", s, s.args));
      expect(result!.outs).toEqual(s);
      expect(text).toBe("");
      expect(sim.requests).toEqual([]);
    });

    it("a batch sent exactly 55 minutes ago is past the token window: not re-sent, reported as expired", async () => {
      const p = await setup();
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(new Date("2026-01-01T12:55:00.000Z"));
      const s = record({
        notQueuedIds: [900],
        unknownIds: [901],
        unknownBatches: [{ ids: [901], uniquenessToken: TOKEN, sentAt: "2026-01-01T12:00:00.000Z" }],
      });
      const { result, text } = await captureOutput(() => p.update!("replay-1", s, s.args));
      expect(text).toMatch(/^warning: WebhookReplay: 1 webhook id\(s\) have an unknown outcome/);
      expect(result!.outs).toMatchObject({ notQueuedIds: [], unknownIds: [901] });
      expect(sim.replayQueue).toEqual([900]);
    });
  });
});
