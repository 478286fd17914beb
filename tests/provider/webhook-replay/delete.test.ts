import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { replaySite } from "./site";

/** WebhookReplay delete sends nothing (a replay cannot be undone), and refresh is left to the host. */

describe("WebhookReplay delete", () => {
  let sim: Simulator;
  const { setup } = replaySite((started) => {
    sim = started;
  });

  it("delete sends nothing; refresh is left to the host (no read)", async () => {
    const p = await setup();
    const { id, outs } = await p.create({ ids: [1] });
    const before = sim.requests.length;
    await p.delete!(id, outs);
    expect(p.read).toBeUndefined();
    expect(sim.requests).toHaveLength(before);
  });
});
