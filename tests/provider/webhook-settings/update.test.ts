import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { webhookSettingsProvider } from "../../../provider";
import { type Simulator, startSimulator } from "../../../simulator";
import { configured, configureRequest, KEY } from "../support";

/**
 * WebhookSettings create and update: a PUT of the setting (the id is the site; the service has no read of it); the same
 * inputs are no change, disableOnDelete alone sends nothing, a new site replaces, and an update moving to another site
 * sends it there.
 */

describe("WebhookSettings create and update", () => {
  let sim: Simulator;
  afterEach(async () => sim?.close());

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

  it("update moving the setting to another site sends it there and records that site", async () => {
    sim = await startSimulator({ apiKey: KEY });
    const eu = await startSimulator({ apiKey: "sk_live_EU_SITE_SECRET_7373" });
    onTestFinished(() => eu.close());
    const p = { ...webhookSettingsProvider };
    await p.configure!(
      configureRequest({
        "billing:baseUrl": sim.url,
        "billing:apiKey": KEY,
        "billing:sites": JSON.stringify({ eu: { baseUrl: eu.url, apiKey: "sk_live_EU_SITE_SECRET_7373" } }),
      }),
    );
    const made = await p.create({ webhooksEnabled: false, disableOnDelete: false });
    const moved = await p.update!(made.id, made.outs, { webhooksEnabled: false, disableOnDelete: false, site: "eu" });
    expect(moved.outs).toMatchObject({ webhooksEnabled: false, disableOnDelete: false, site: "eu" });
    expect(eu.requests.map((r) => r.method)).toEqual(["PUT"]);
    expect(eu.webhooksEnabled).toBe(false);
  });
});
