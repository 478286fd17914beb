import { afterEach, describe, expect, it } from "vitest";
import { webhookReplayProvider } from "../../provider";
import type { Simulator } from "../../simulator";
import { configured, UNKNOWN } from "./support";

const REPLAY = "/webhooks/replay.json";

describe("WebhookReplay provider", () => {
  let sim: Simulator;
  afterEach(async () => sim?.close());

  async function setup() {
    const c = await configured(webhookReplayProvider);
    sim = c.sim;
    return c.provider;
  }

  it.each([
    [{}, "ids", /exactly one of ids .* or selector/],
    [{ ids: [1], selector: { status: "failed" } }, "ids", /exactly one/],
    [{ ids: [1, -2] }, "ids", /positive integer/],
    [{ selector: {} }, "selector.status", /required/],
    [{ selector: { status: "lost" } }, "selector.status", /./],
    [{ selector: { status: "failed", sinceDate: "yesterday" } }, "selector.sinceDate", /./],
    [{ ids: [1], triggers: "again" }, "triggers", /array/],
  ])("check %o fails on %s, sending nothing", async (news, property, reason) => {
    const p = await setup();
    const { failures } = await p.check!({}, news);
    const f = failures?.find((x) => x.property === property || x.property.startsWith(`${property}`));
    expect(f, JSON.stringify(failures)).toBeDefined();
    expect(f!.reason).toMatch(reason);
    expect(sim.requests).toHaveLength(0);
  });

  it("unknown values pass check", async () => {
    const p = await setup();
    expect((await p.check!({}, { ids: UNKNOWN })).failures).toEqual([]);
    expect((await p.check!({}, { selector: UNKNOWN })).failures).toEqual([]);
  });

  // Whatever an unknown (or a wrong) ids turns out to be, ids and selector together are refused at preview.
  it.each([
    ["ids unknown", { ids: UNKNOWN, selector: { status: "failed" } }],
    ["selector unknown", { ids: [1], selector: UNKNOWN }],
    ["ids not an array", { ids: "5001", selector: { status: "failed" } }],
  ])("check: %s beside the other still fails on exactly one of ids or selector", async (_, news) => {
    const p = await setup();
    const { failures } = await p.check!({}, news);
    expect(failures?.filter((f) => f.property === "ids").map((f) => f.reason)).toContainEqual(
      expect.stringMatching(/^give exactly one of ids \(webhook ids to replay\) or selector/),
    );
    expect(sim.requests).toHaveLength(0);
  });

  it("any number of ids: 2500 go out in 3 batches, each once", async () => {
    const p = await setup();
    const ids = Array.from({ length: 2500 }, (_, i) => 100 + i);
    const { outs } = await p.create({ ids });
    expect(outs).toMatchObject({ queuedCount: 2500, batchCount: 3, notQueuedIds: [] });
    expect(Date.parse(outs.replayedAt)).not.toBeNaN();
    expect(sim.replayQueue).toHaveLength(2500);
  });

  it("a selector is resolved through the webhook list at create", async () => {
    const p = await setup();
    const failed = [1, 2, 3, 4, 5].map(() => sim.addWebhook({ status: "failed" }).id);
    sim.addWebhook({ status: "successful" });
    const { outs } = await p.create({ selector: { status: "failed" } });
    expect(outs.queuedCount).toBe(5);
    expect([...sim.replayQueue]).toEqual(failed);
    expect(sim.requests.filter((r) => r.path === "/webhooks.json")[0].query).toMatchObject({ status: "failed" });
  });

  it("diff: ids, selector and triggers replace; nothing else changes", async () => {
    const p = await setup();
    const { outs } = await p.create({ ids: [1, 2] });
    expect(await p.diff!("x", outs, { ids: [1, 2] })).toMatchObject({ changes: false });
    expect(await p.diff!("x", outs, { ids: [1, 2, 3] })).toMatchObject({ changes: true, replaces: ["ids"] });
    expect(await p.diff!("x", outs, { ids: [1, 2], triggers: ["2"] })).toMatchObject({ changes: true, replaces: ["triggers"] });
  });

  it("delete sends nothing; refresh is left to the host (no read)", async () => {
    const p = await setup();
    const { id, outs } = await p.create({ ids: [1] });
    const before = sim.requests.length;
    await p.delete!(id, outs);
    expect(p.read).toBeUndefined();
    expect(sim.requests).toHaveLength(before);
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
});
