import { afterEach, describe, expect, it } from "vitest";
import { webhookSettingsProvider } from "../../../provider";
import type { Simulator } from "../../../simulator";
import { configured } from "../support";

/** WebhookSettings delete disables webhooks only when disableOnDelete says so; otherwise it sends nothing. */

describe("WebhookSettings delete", () => {
  let sim: Simulator;
  afterEach(async () => sim?.close());

  it.each([
    [false, []],
    [true, [{ webhooks_enabled: false }]],
  ])("delete with disableOnDelete=%s sends %o", async (disableOnDelete, bodies) => {
    const c = await configured(webhookSettingsProvider);
    sim = c.sim;
    const { id, outs } = await c.provider.create({ webhooksEnabled: true, disableOnDelete });
    sim.requests.length = 0;
    await c.provider.delete!(id, outs);
    expect(sim.requests.map((r) => r.body)).toEqual(bodies);
    expect(sim.webhooksEnabled).toBe(!disableOnDelete);
  });
});
