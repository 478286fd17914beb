import { afterEach, describe, expect, it } from "vitest";
import { webhookSettingsProvider } from "../../../provider";
import type { Simulator } from "../../../simulator";
import { configured, UNKNOWN } from "../support";

/** WebhookSettings check(): each input of the wrong type, an unknown input or site fails on its property, sending nothing; unknown values pass. */

describe("WebhookSettings check", () => {
  let sim: Simulator;
  afterEach(async () => sim?.close());

  it.each([
    [{ webhooksEnabled: "yes" }, "webhooksEnabled", /true or false/],
    [{}, "webhooksEnabled", /true or false/],
    [{ webhooksEnabled: true, disableOnDelete: 1 }, "disableOnDelete", /true or false/],
    [{ webhooksEnabled: true, site: "" }, "site", /non-empty/],
    [{ webhooksEnabled: true, site: "mars" }, "site", /not an entry of the stack config billing:sites/],
    [{ webhooksEnabled: true, colour: "red" }, "colour", /not an input of WebhookSettings/],
  ])("check %o fails on %s, sending nothing", async (news, property, reason) => {
    const c = await configured(webhookSettingsProvider);
    sim = c.sim;
    const { failures } = await c.provider.check!({}, news);
    expect(failures?.map((f) => f.property)).toContain(property);
    expect(failures?.find((f) => f.property === property)?.reason).toMatch(reason);
    expect(sim.requests).toHaveLength(0);
  });

  it("unknown values pass check during preview", async () => {
    const c = await configured(webhookSettingsProvider);
    sim = c.sim;
    expect((await c.provider.check!({}, { webhooksEnabled: UNKNOWN, site: UNKNOWN })).failures).toEqual([]);
  });
});
