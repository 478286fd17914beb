import { describe, expect, it } from "vitest";
import { record, replaySite, TOKEN } from "./site";

/**
 * WebhookReplay diff: a change of ids, selector or triggers replaces it (a new replay); an unfinished run (ids not
 * queued, a batch still re-sendable) is a change, for update to finish; an expired batch alone is not.
 */

describe("WebhookReplay diff", () => {
  const { setup } = replaySite();

  it("diff: ids, selector and triggers replace; nothing else changes", async () => {
    const p = await setup();
    const { outs } = await p.create({ ids: [1, 2] });
    expect(await p.diff!("x", outs, { ids: [1, 2] })).toMatchObject({ changes: false });
    expect(await p.diff!("x", outs, { ids: [1, 2, 3] })).toMatchObject({ changes: true, replaces: ["ids"] });
    expect(await p.diff!("x", outs, { ids: [1, 2], triggers: ["2"] })).toMatchObject({ changes: true, replaces: ["triggers"] });
  });

  it("unfinished: ids not queued, or a batch still re-sendable, is a change; an expired batch alone is not", async () => {
    const p = await setup();
    const batch = (sentAt: string) => ({ ids: [901], uniquenessToken: TOKEN, sentAt });
    expect(await p.diff!("x", record({ notQueuedIds: [901] }), { ids: [900, 901] })).toMatchObject({ changes: true, replaces: [] });
    const fresh = record({ unknownIds: [901], unknownBatches: [batch(new Date().toISOString())] });
    expect(await p.diff!("x", fresh, { ids: [900, 901] })).toMatchObject({ changes: true, replaces: [] });
    const old = record({ unknownIds: [901], unknownBatches: [batch("2020-01-01T00:00:00.000Z")] });
    expect(await p.diff!("x", old, { ids: [900, 901] })).toMatchObject({ changes: false });
  });
});
