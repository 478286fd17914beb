import assert from "node:assert/strict";
import { type Simulator, startSimulator } from "../../simulator";
import { ExampleStack, installedConsumer, mutations } from "./support";

const KEYS = { "us-store": "sk_e2e_us_0a91f2", "eu-store": "sk_e2e_eu_7c33e8" } as const;

describe("examples/webhook-settings with the real CLI: several sites in one stack", () => {
  const sims: Record<string, Simulator> = {};
  let s: ExampleStack;

  before(async () => {
    const c = await installedConsumer();
    for (const site of Object.keys(KEYS) as (keyof typeof KEYS)[]) sims[site] = await startSimulator({ apiKey: KEYS[site] });
    s = await ExampleStack.create(c, "webhook-settings", "sites");
    const sites = Object.fromEntries(Object.entries(KEYS).map(([site, apiKey]) => [site, { baseUrl: sims[site].url, apiKey }]));
    await s.config("billing:sites", JSON.stringify(sites), true);
    await s.config("webhooks:enabled", JSON.stringify({ "us-store": true, "eu-store": false }));
  });

  after(async () => {
    await s?.dispose();
    for (const sim of Object.values(sims)) await sim.close();
  });

  it("preview sends nothing", async () => {
    await s.run(["preview"]);
    for (const sim of Object.values(sims)) assert.deepEqual(mutations(sim.requests), []);
  });

  it("up enables webhooks on one site and disables them on the other", async () => {
    sims["eu-store"].webhooksEnabled = true;
    await s.run(["up", "--yes", "--skip-preview"]);
    assert.equal(sims["us-store"].webhooksEnabled, true);
    assert.equal(sims["eu-store"].webhooksEnabled, false);
    assert.deepEqual((await s.stackOutputs()).webhooks, { "us-store": true, "eu-store": false });
  });

  it("a second up and a refresh change nothing (the setting has no GET: refresh keeps it)", async () => {
    await s.run(["up", "--yes", "--skip-preview", "--expect-no-changes"]);
    await s.run(["refresh", "--yes", "--skip-preview"]);
    await s.run(["up", "--yes", "--skip-preview", "--expect-no-changes"]);
    assert.equal(mutations(sims["us-store"].requests).length, 1);
  });

  it("flipping a site's value updates in place with one PUT", async () => {
    await s.config("webhooks:enabled", JSON.stringify({ "us-store": true, "eu-store": true }));
    const res = await s.run(["up", "--yes", "--skip-preview"]);
    assert.match(res.stdout, /1 updated/);
    assert.equal(sims["eu-store"].webhooksEnabled, true);
    assert.equal(mutations(sims["eu-store"].requests).length, 2);
  });

  it("destroy leaves the sites as they are (disableOnDelete is false)", async () => {
    await s.run(["destroy", "--yes", "--skip-preview"]);
    assert.equal(sims["us-store"].webhooksEnabled, true);
    assert.equal(sims["eu-store"].webhooksEnabled, true);
  });

  it("no credential in state, __provider or CLI output; billing:sites is stored encrypted", async () => {
    await s.run(["up", "--yes", "--skip-preview"]);
    const state = await s.exportState();
    const config = await s.stackConfigFile();
    for (const key of Object.values(KEYS)) {
      assert.ok(!state.includes(key), "state holds a key");
      assert.ok(!s.outputs.join("\n").includes(key), "CLI output holds a key");
      assert.ok(!config.includes(key), "stack config holds a key in clear");
    }
    assert.match(config, /billing:sites:\s+secure: /);
  });
});
