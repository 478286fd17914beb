import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { replaySite } from "./site";

/**
 * WebhookReplay create: any number of ids, in batches of 1000, each sent once; a selector resolved through the webhook
 * list (one that finds nothing is a replay of nothing, sending no replay); the id is replay-<time>-<random>.
 */

describe("WebhookReplay create", () => {
  let sim: Simulator;
  const { setup } = replaySite((started) => {
    sim = started;
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

  it("a selector that finds no webhook: replayed with nothing queued, no replay sent", async () => {
    const p = await setup();
    sim.addWebhook({ status: "successful" });
    const { outs } = await p.create({ selector: { status: "failed" } });
    expect(outs).toEqual({
      args: { selector: { status: "failed" } },
      queuedCount: 0,
      batchCount: 0,
      notQueuedIds: [],
      unknownIds: [],
      unknownBatches: [],
      replayedAt: expect.any(String),
    });
    expect(Date.parse(outs.replayedAt)).not.toBeNaN();
    expect(sim.requests.map((r) => r.path)).toEqual(["/webhooks.json"]);
  });

  it("create: the id is replay-<time>-<six random characters>", async () => {
    const p = await setup();
    const { id } = await p.create({ ids: [5] });
    expect(id).toMatch(/^replay-[0-9a-z]+-[0-9a-z]{1,6}$/);
  });
});
