import { afterEach, describe, expect, it } from "vitest";
import { webhookSettingsProvider } from "../../provider";
import type { Simulator } from "../../simulator";
import { configured, UNKNOWN } from "./support";

describe("WebhookSettings provider", () => {
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

  it("create and update issue the PUT; the id is the site; refresh is left to the host", async () => {
    const c = await configured(webhookSettingsProvider);
    sim = c.sim;
    const created = await c.provider.create({ webhooksEnabled: true });
    expect(created.id).toBe(new URL(sim.url).host);
    expect(created.outs).toMatchObject({ webhooksEnabled: true, disableOnDelete: false });
    expect(Date.parse(created.outs.appliedAt)).not.toBeNaN();
    expect(sim.webhooksEnabled).toBe(true);

    const d = await c.provider.diff!(created.id, created.outs, { webhooksEnabled: false });
    expect(d).toMatchObject({ changes: true, replaces: [] });
    const updated = await c.provider.update!(created.id, created.outs, { webhooksEnabled: false });
    expect(updated.outs).toMatchObject({ webhooksEnabled: false });
    expect(sim.webhooksEnabled).toBe(false);
    expect(sim.requests.map((r) => [r.method, r.body])).toEqual([
      ["PUT", { webhooks_enabled: true }],
      ["PUT", { webhooks_enabled: false }],
    ]);

    // No GET of the setting exists: the provider has no read, and the host echoes the recorded state
    // (tests/engine drives that through the real host).
    expect(c.provider.read).toBeUndefined();
    expect(sim.requests).toHaveLength(2);
  });

  it("diff: same inputs no change (omitted disableOnDelete equals false); a new site replaces", async () => {
    const c = await configured(webhookSettingsProvider);
    sim = c.sim;
    const { outs } = await c.provider.create({ webhooksEnabled: true });
    expect(await c.provider.diff!("x", outs, { webhooksEnabled: true })).toMatchObject({ changes: false });
    expect(await c.provider.diff!("x", outs, { webhooksEnabled: true, site: "eu" })).toMatchObject({ changes: true, replaces: ["site"] });
  });

  it("a change of disableOnDelete alone sends nothing", async () => {
    const c = await configured(webhookSettingsProvider);
    sim = c.sim;
    const { outs } = await c.provider.create({ webhooksEnabled: true });
    const updated = await c.provider.update!("x", outs, { webhooksEnabled: true, disableOnDelete: true });
    expect(updated.outs).toMatchObject({ disableOnDelete: true, appliedAt: outs.appliedAt });
    expect(sim.requests).toHaveLength(1);
  });

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
