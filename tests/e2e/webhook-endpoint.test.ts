import assert from "node:assert/strict";
import { type Simulator, startSimulator } from "../../simulator";
import { ExampleStack, installedConsumer, mutations } from "./support";

// WebhookEndpoint through examples/webhook-settings (two sites, receivers per
// site from `webhooks:endpoints`), one stack for the whole sequence.

const KEYS = { "us-store": "sk_e2e_endpoint_us_5d02a7", "eu-store": "sk_e2e_endpoint_eu_b813f4" } as const;
type Site = keyof typeof KEYS;

const DUNNING = "https://dunning.acme.example/billing";
const PROVISIONING = "https://provisioning.acme.example/billing/webhooks";
type Receivers = Record<string, { url: string; events: string[] }>;
const US: Receivers = {
  dunning: { url: DUNNING, events: ["payment_failure"] },
  // Order and a repeated key are ignored.
  provisioning: { url: PROVISIONING, events: ["subscription_state_change", "payment_success", "subscription_state_change"] },
};
// The same url as us-store's provisioning: another site, so another endpoint.
const EU: Receivers = { provisioning: { url: PROVISIONING, events: ["subscription_state_change", "payment_success"] } };

interface Held {
  id: number;
  url: string;
  events: string[];
}

describe("WebhookEndpoint with the real CLI (examples/webhook-settings)", () => {
  const sims = {} as Record<Site, Simulator>;
  let s: ExampleStack;
  /** The stack's endpoint ids on us-store, by receiver name, as the first up made them. */
  const ids: Record<string, number> = {};

  /**
   * What a site holds, by url then id, events sorted (the simulator keeps the order sent; the engine
   * creates the endpoints in parallel, so which one got the lower id varies).
   */
  const held = (site: Site): Held[] =>
    sims[site]
      .endpoints()
      .map((e) => ({ id: e.id, url: e.url, events: [...e.events].sort() }))
      .sort((a, b) => a.url.localeCompare(b.url) || a.id - b.id);
  const sent = (site: Site) => mutations(sims[site].requests).map((r) => `${r.method} ${r.path}`);
  const setReceivers = (endpoints: Partial<Record<Site, Receivers>>) => s.config("webhooks:endpoints", JSON.stringify(endpoints));
  const outputs = async () => (await s.stackOutputs()).webhookEndpoints as Record<string, Held>;
  const text = (r: { stdout: string; stderr: string }) => r.stdout + r.stderr;

  before(async () => {
    const c = await installedConsumer();
    for (const site of Object.keys(KEYS) as Site[]) sims[site] = await startSimulator({ apiKey: KEYS[site] });
    s = await ExampleStack.create(c, "webhook-settings", "endpoints");
    const sites = Object.fromEntries(Object.entries(KEYS).map(([site, apiKey]) => [site, { baseUrl: sims[site as Site].url, apiKey }]));
    await s.config("billing:sites", JSON.stringify(sites), true);
    await s.config("webhooks:enabled", JSON.stringify({ "us-store": true, "eu-store": true }));
    await setReceivers({ "us-store": US });
  });

  after(async () => {
    await s?.dispose();
    for (const sim of Object.values(sims)) await sim?.close();
  });

  it("preview lists the endpoints to create and sends nothing", async () => {
    const res = await s.run(["preview"]);
    assert.match(res.stdout, /\+ +pulumi-nodejs:dynamic\/billing:WebhookEndpoint +us-store-dunning +create/);
    assert.match(res.stdout, /\+ +pulumi-nodejs:dynamic\/billing:WebhookEndpoint +us-store-provisioning +create/);
    for (const site of Object.keys(sims) as Site[]) assert.deepEqual(sent(site), []);
  });

  it("up creates each endpoint with its declared events (one POST each); outputs carry id, url and sorted events", async () => {
    const res = await s.run(["up", "--yes", "--skip-preview"]);
    assert.match(res.stdout, /WebhookEndpoint +us-store-dunning +created/);
    assert.match(res.stdout, /WebhookEndpoint +us-store-provisioning +created/);
    const out = await outputs();
    ids.dunning = out["us-store-dunning"].id;
    ids.provisioning = out["us-store-provisioning"].id;
    assert.deepEqual(out, {
      "us-store-dunning": { id: ids.dunning, url: DUNNING, events: ["payment_failure"] },
      "us-store-provisioning": { id: ids.provisioning, url: PROVISIONING, events: ["payment_success", "subscription_state_change"] },
    });
    assert.deepEqual(held("us-store"), [
      { id: ids.dunning, url: DUNNING, events: ["payment_failure"] },
      { id: ids.provisioning, url: PROVISIONING, events: ["payment_success", "subscription_state_change"] },
    ]);
    assert.deepEqual(
      sent("us-store").filter((r) => r.includes("endpoints")),
      ["POST /endpoints.json", "POST /endpoints.json"],
    );
    assert.deepEqual(held("eu-store"), []);
  });

  it("a second up changes nothing and sends nothing", async () => {
    const before = sent("us-store").length;
    const res = await s.run(["up", "--yes", "--skip-preview", "--expect-no-changes"]);
    assert.match(res.stdout, /Resources:\s+5 unchanged\s/);
    assert.doesNotMatch(res.stdout, /\d+ (created|updated|deleted|replaced)/);
    assert.equal(sent("us-store").length, before);
  });

  it("a change made on the service shows at refresh; the next up puts the declared url and events back", async () => {
    sims["us-store"].updateEndpoint(ids.dunning, { events: ["payment_failure", "customer_create"] });
    sims["us-store"].updateEndpoint(ids.provisioning, { url: "https://old-provisioning.acme.example/hooks" });
    const before = sent("us-store").length;

    const refresh = await s.run(["refresh", "--yes", "--skip-preview"]);
    assert.match(refresh.stdout, /~ 2 updated/);
    assert.equal(sent("us-store").length, before, "refresh only reads");
    const state = await s.exportState();
    assert.match(state, /"customer_create"/, "the drifted events are recorded");
    assert.match(state, /old-provisioning\.acme\.example/, "the drifted url is recorded");

    const up = await s.run(["up", "--yes", "--skip-preview"]);
    assert.match(up.stdout, /~ 2 updated/);
    assert.deepEqual(held("us-store"), [
      { id: ids.dunning, url: DUNNING, events: ["payment_failure"] },
      { id: ids.provisioning, url: PROVISIONING, events: ["payment_success", "subscription_state_change"] },
    ]);
    assert.deepEqual(
      sent("us-store").slice(before).sort(),
      [`PUT /endpoints/${ids.dunning}.json`, `PUT /endpoints/${ids.provisioning}.json`].sort(),
      "one PUT each, no new endpoint",
    );
    await s.run(["up", "--yes", "--skip-preview", "--expect-no-changes"]);
  });

  it("an endpoint removed on the service leaves the stack at refresh; the next up creates it again", async () => {
    sims["us-store"].removeEndpoint(ids.dunning);
    const refresh = await s.run(["refresh", "--yes", "--skip-preview"]);
    assert.match(refresh.stdout, /- 1 deleted/);
    assert.doesNotMatch(await s.exportState(), /WebhookEndpoint::us-store-dunning"/);

    const before = sent("us-store").length;
    const up = await s.run(["up", "--yes", "--skip-preview"]);
    assert.match(up.stdout, /WebhookEndpoint +us-store-dunning +created/);
    assert.deepEqual(sent("us-store").slice(before), ["POST /endpoints.json"]);
    const recreated = (await outputs())["us-store-dunning"];
    assert.notEqual(recreated.id, ids.dunning);
    assert.deepEqual(held("us-store"), [
      { id: recreated.id, url: DUNNING, events: ["payment_failure"] },
      { id: ids.provisioning, url: PROVISIONING, events: ["payment_success", "subscription_state_change"] },
    ]);
    ids.dunning = recreated.id;
  });

  it("an endpoint the site already has at the declared url is adopted, not duplicated, and the CLI says so", async () => {
    // Made in the web UI before this stack knew the site: one at another url, one at the receiver's.
    const other = sims["eu-store"].addEndpoint({ id: 7, url: "https://legacy.acme.example/hooks", events: ["signup_success"] });
    const existing = sims["eu-store"].addEndpoint({ id: 8, url: PROVISIONING, events: ["payment_success"] });
    await setReceivers({ "us-store": US, "eu-store": EU });

    const res = await s.run(["up", "--yes", "--skip-preview"]);
    assert.match(
      text(res),
      new RegExp(`adopted the existing endpoint ${existing.id} of site eu-store for ${PROVISIONING.replace(/\./g, "\\.")}`),
    );
    assert.match(res.stdout, /WebhookEndpoint +eu-store-provisioning +created/);
    assert.deepEqual(held("eu-store"), [
      { id: other.id, url: other.url, events: ["signup_success"] },
      { id: existing.id, url: PROVISIONING, events: ["payment_success", "subscription_state_change"] },
    ]);
    assert.deepEqual(
      sent("eu-store").filter((r) => r.includes("endpoints")),
      [`PUT /endpoints/${existing.id}.json`],
      "no POST: the declared events were PUT on the existing endpoint",
    );
    assert.deepEqual((await outputs())["eu-store-provisioning"], {
      id: existing.id,
      url: PROVISIONING,
      events: ["payment_success", "subscription_state_change"],
    });
    await s.run(["up", "--yes", "--skip-preview", "--expect-no-changes"]);
  });

  it("two resources declaring one url on one site fail the preview with a message naming both; nothing is sent", async () => {
    const before = Object.keys(sims).map((site) => sent(site as Site).length);
    await setReceivers({
      "us-store": { ...US, alerts: { url: DUNNING, events: ["dunning_step_reached"] } },
      "eu-store": EU,
    });
    const res = await s.run(["preview"], { allowFailure: true });
    await setReceivers({ "us-store": US, "eu-store": EU });

    assert.notEqual(res.code, 0);
    const both =
      /WebhookEndpoint "us-store-(alerts|dunning)" and WebhookEndpoint "us-store-(alerts|dunning)" both declare the url https:\/\/dunning\.acme\.example\/billing on site "us-store"/;
    const m = both.exec(text(res));
    assert.ok(m, `the message names both resources:\n${text(res)}`);
    assert.notEqual(m[1], m[2]);
    assert.match(text(res), /merge their events into one resource/);
    // Its own error, from the constructor: not a property serialization error, no promise warnings (as from an apply).
    assert.match(text(res), /error: WebhookEndpoint "us-store-/);
    assert.doesNotMatch(text(res), /error serializing property/);
    assert.doesNotMatch(text(res), /PromiseRejectionHandledWarning/);
    assert.deepEqual(
      Object.keys(sims).map((site) => sent(site as Site).length),
      before,
    );
  });

  it("no API key in the exported state or the stack config", async () => {
    const state = await s.exportState();
    assert.match(state, /WebhookEndpoint::eu-store-provisioning"/);
    const config = await s.stackConfigFile();
    for (const key of Object.values(KEYS)) {
      assert.ok(!state.includes(key), "state holds a key");
      assert.ok(!config.includes(key), "stack config holds a key in clear");
    }
  });

  it("destroy unsubscribes every endpoint of the stack (the service has no delete) and leaves others alone", async () => {
    const res = await s.run(["destroy", "--yes", "--skip-preview"]);
    assert.match(text(res), /is unsubscribed from every event/);
    assert.deepEqual(held("us-store"), [
      { id: ids.dunning, url: DUNNING, events: [] },
      { id: ids.provisioning, url: PROVISIONING, events: [] },
    ]);
    assert.deepEqual(held("eu-store"), [
      { id: 7, url: "https://legacy.acme.example/hooks", events: ["signup_success"] },
      { id: 8, url: PROVISIONING, events: [] },
    ]);
  });

  it("no API key in any CLI output of the whole sequence", () => {
    const all = s.outputs.join("\n");
    assert.ok(all.length > 0);
    for (const key of Object.values(KEYS)) assert.ok(!all.includes(key), "CLI output holds a key");
  });
});
