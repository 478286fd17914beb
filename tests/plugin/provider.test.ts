import { createRequire } from "node:module";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { afterEach, describe, expect, it } from "vitest";
import { providerConfig } from "../../plugin/config";
import { BillingProvider, kindKeyOf, typeOfUrn } from "../../plugin/provider";
import { guarded } from "../../plugin/serve";
import { type Simulator, startSimulator } from "../../simulator";
import { captureOutput } from "../provider/support";

// The plugin's provider against the simulator over a real socket, through the runtime the dynamic
// providers run: check, diff, create, update, read (refresh and import), delete, by type token.

const KEY = "sk_live_PLUGIN_SECRET_5151";
const EU_KEY = "sk_live_PLUGIN_EU_SECRET_6161";
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const SECRET = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };
const urn = (type: string, name = "hooks") => `urn:pulumi:dev::billing-app::billing:index:${type}::${name}`;
const ENDPOINT = urn("WebhookEndpoint");
const SETTINGS = urn("WebhookSettings", "webhooks");
const HOOK = "https://hooks.example.com/billing";
const EVENTS = ["subscription_state_change", "payment_failure"];
const SORTED = ["payment_failure", "subscription_state_change"];

describe("the plugin's provider", () => {
  let sim: Simulator;
  let euSim: Simulator | undefined;
  afterEach(async () => {
    await sim?.close();
    await euSim?.close();
    euSim = undefined;
  });

  /** A plugin provider configured as the engine does: variables `billing:config:*`, args bare with the key a secret. */
  async function setup(): Promise<BillingProvider> {
    sim = await startSimulator({ apiKey: KEY });
    const p = new BillingProvider("0.1.0");
    p.configure(providerConfig([["billing:config:baseUrl", sim.url]], { baseUrl: sim.url, apiKey: { ...SECRET, value: KEY } }));
    return p;
  }
  const mutations = () => sim.requests.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`);
  const noKey = (...values: unknown[]) => {
    for (const v of values) expect(JSON.stringify(v) ?? "").not.toContain(KEY);
  };

  it("dispatches by the URN's type token, a parent's type and a name with '::' included", () => {
    expect(typeOfUrn(ENDPOINT)).toBe("billing:index:WebhookEndpoint");
    expect(kindKeyOf("urn:pulumi:dev::app::my:Component$billing:index:WebhookSettings::a::b")).toBe("webhookSettings");
    const SERVED =
      "billing:index:WebhookSettings, billing:index:WebhookEndpoint, billing:index:SubscriptionMigration, billing:index:WebhookReplay, " +
      "billing:index:ProductFamily, billing:index:Product, billing:index:ProductPricePoint, billing:index:Component, " +
      "billing:index:ComponentPricePoint, billing:index:Coupon, billing:index:ReasonCode, billing:index:CustomField, billing:index:Offer";
    expect(() => kindKeyOf(urn("Invoice"))).toThrow(`unknown resource type billing:index:Invoice (this plugin serves ${SERVED})`);
    // Not a URN: no type at all, said as such.
    expect(typeOfUrn("billing:index:WebhookEndpoint")).toBe("");
    expect(() => kindKeyOf("billing:index:WebhookEndpoint")).toThrow(`unknown resource type  (this plugin serves ${SERVED})`);
  });

  it("a diff's changed declared inputs reach the response the SDK's server builds from it, not `preview` (issue 42)", async () => {
    const p = await setup();
    const checked = await p.check(ENDPOINT, {}, { url: HOOK, events: EVENTS });
    const created = await p.create(ENDPOINT, checked.inputs);
    const result = await p.diff(created.id, ENDPOINT, created.outs, { url: HOOK, events: ["payment_failure"], preview: { any: 1 } });
    // As provider/server.js builds it: `changes` read, then setChanges at once.
    const { DiffResponse } = createRequire(__filename)("@pulumi/pulumi/proto/provider_pb") as {
      DiffResponse: new () => { setChanges(v: number): void; toObject(): { diffsList: string[]; hasdetaileddiff: boolean } };
    };
    const resp = new DiffResponse();
    if (result.changes === true) resp.setChanges(2);
    expect(resp.toObject()).toMatchObject({ diffsList: ["events"], hasdetaileddiff: true });
  });

  it("WebhookEndpoint: check, create, diff, update, refresh, delete, with no credential in any result", async () => {
    const p = await setup();
    const bad = await p.check(ENDPOINT, {}, { url: "hooks.example.com", events: EVENTS });
    expect(bad.failures?.map((f) => f.property)).toEqual(["url"]);
    // Unknown values are the engine's placeholder, as in the dynamic host: set aside by check.
    expect((await p.check(ENDPOINT, {}, { url: UNKNOWN, events: EVENTS })).failures).toEqual([]);
    const checked = await p.check(ENDPOINT, {}, { url: HOOK, events: EVENTS });
    expect(checked.failures).toEqual([]);
    expect(sim.requests).toHaveLength(0);

    const created = await p.create(ENDPOINT, checked.inputs);
    const [held] = sim.endpoints();
    expect(created).toEqual({ id: String(held.id), outs: { endpointId: held.id, url: HOOK, events: SORTED, status: "enabled" } });

    expect(await p.diff(created.id, ENDPOINT, created.outs, { url: HOOK, events: [...SORTED].reverse() })).toMatchObject({
      changes: false,
    });
    expect(await p.diff(created.id, ENDPOINT, created.outs, { url: HOOK, events: ["payment_failure"] })).toMatchObject({
      changes: true,
      replaces: [],
    });
    expect(await p.diff(created.id, ENDPOINT, created.outs, { url: HOOK, events: EVENTS, site: "eu" })).toMatchObject({
      replaces: ["site"],
    });

    sim.reset();
    const updated = await p.update(created.id, ENDPOINT, created.outs, { url: HOOK, events: ["payment_failure"] });
    expect(updated.outs).toMatchObject({ endpointId: held.id, events: ["payment_failure"] });
    expect(mutations()).toEqual([`PUT /endpoints/${held.id}.json`]);

    sim.updateEndpoint(held.id, { events: ["refund_success"] });
    const refreshed = await p.read(created.id, ENDPOINT, updated.outs);
    expect(refreshed).toEqual({ id: created.id, props: { ...updated.outs, events: ["refund_success"] } });

    sim.reset();
    await captureOutput(() => p.delete(created.id, ENDPOINT, refreshed.props));
    expect(sim.endpoints()[0].events).toEqual([]);
    expect(mutations()).toEqual([`PUT /endpoints/${held.id}.json`]);
    noKey(checked, created, updated, refreshed);
  });

  it("import: a read with no state finds the endpoint by its id, answers state and inputs, and sends nothing", async () => {
    const p = await setup();
    const made = sim.addEndpoint({ url: HOOK, events: EVENTS });
    const imported = await p.read(String(made.id), ENDPOINT, {});
    expect(imported).toEqual({
      id: String(made.id),
      props: { endpointId: made.id, url: HOOK, events: SORTED, status: "enabled" },
      inputs: { url: HOOK, events: SORTED },
    });
    expect(mutations()).toEqual([]);
    // Declared as imported, nothing changes.
    const checked = await p.check(ENDPOINT, imported.inputs, { url: HOOK, events: EVENTS });
    expect(await p.diff(imported.id!, ENDPOINT, imported.props, checked.inputs)).toMatchObject({ changes: false });
    noKey(imported);
  });

  /**
   * A provider whose top-level site is `sim` (key KEY) and whose billing:sites entry `eu` is another
   * simulator with another key: a test that claims routing must be able to tell the two apart.
   */
  async function withEuSite(): Promise<{ p: BillingProvider; eu: Simulator }> {
    const p = await setup();
    const eu = await startSimulator({ apiKey: EU_KEY });
    euSim = eu;
    const sites = JSON.stringify({ eu: { baseUrl: eu.url, apiKey: EU_KEY } });
    p.configure(
      providerConfig([["billing:config:baseUrl", sim.url]], {
        baseUrl: sim.url,
        apiKey: { ...SECRET, value: KEY },
        sites: { ...SECRET, value: sites },
      }),
    );
    return { p, eu };
  }

  it("import: <site>/<id> reads the endpoint with that billing:sites entry's credentials and records the site", async () => {
    const { p, eu } = await withEuSite();
    // The same id on both sites, with different urls: only eu's is the one asked for.
    const decoy = sim.addEndpoint({ url: "https://top-level.example.com/hooks", events: ["payment_success"] });
    const made = eu.addEndpoint({ url: HOOK, events: ["payment_failure"] });
    expect(made.id).toBe(decoy.id);
    const imported = await p.read(`eu/${made.id}`, ENDPOINT, {});
    expect(imported).toEqual({
      id: String(made.id),
      props: { endpointId: made.id, url: HOOK, events: ["payment_failure"], status: "enabled", site: "eu" },
      inputs: { url: HOOK, events: ["payment_failure"], site: "eu" },
    });
    expect(sim.requests).toEqual([]);
    expect(eu.requests.length).toBeGreaterThan(0);
    noKey(imported);
    expect(JSON.stringify(imported)).not.toContain(EU_KEY);
  });

  it("import: an id the site does not have, or that is not an id, fails naming it", async () => {
    const p = await setup();
    await expect(p.read("42", ENDPOINT, {})).rejects.toThrow(
      /webhook endpoint 42 does not exist on the configured site: nothing to import/,
    );
    await expect(p.read("hooks", ENDPOINT, {})).rejects.toThrow(/import id "hooks" is not an endpoint id.*<site>\/<id>/);
    await expect(p.read("mars/1", ENDPOINT, {})).rejects.toThrow(/site "mars" is not an entry of the stack config billing:sites/);
  });

  it("import WebhookSettings: the id states the value (no GET exists), the site is read, the next up confirms it with one PUT", async () => {
    const p = await setup();
    const imported = await p.read("enabled", SETTINGS, {});
    expect(imported).toEqual({
      id: new URL(sim.url).host, // the id create gives the configured site
      props: { webhooksEnabled: true, disableOnDelete: false, appliedAt: null },
      inputs: { webhooksEnabled: true },
    });
    expect(sim.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /site.json"]);

    // Declared as imported: the value was stated, not confirmed, so an update is planned, and it sends the PUT once.
    const checked = await p.check(SETTINGS, imported.inputs, { webhooksEnabled: true });
    expect(await p.diff(imported.id!, SETTINGS, imported.props, checked.inputs)).toMatchObject({ changes: true, replaces: [] });
    const updated = await p.update(imported.id!, SETTINGS, imported.props, checked.inputs);
    expect(mutations()).toEqual(["PUT /webhooks/settings.json"]);
    expect(Date.parse(updated.outs.appliedAt)).not.toBeNaN();
    expect(await p.diff(imported.id!, SETTINGS, updated.outs, checked.inputs)).toMatchObject({ changes: false });
    noKey(imported, updated);
  });

  it("import WebhookSettings: <site>/disabled records that billing:sites entry", async () => {
    const { p, eu } = await withEuSite();
    expect(await p.read("eu/disabled", SETTINGS, {})).toEqual({
      id: "eu",
      props: { webhooksEnabled: false, disableOnDelete: false, site: "eu", appliedAt: null },
      inputs: { webhooksEnabled: false, site: "eu" },
    });
    // The site is read where the entry points (as the top-level import reads its own), never at the top level.
    expect(sim.requests).toEqual([]);
    expect(eu.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /site.json"]);
  });

  it.each([
    [
      "eu-store",
      /import id "eu-store": "eu-store" is not a state: use enabled or disabled \(or <site>\/enabled for an entry of billing:sites, e\.g\. "eu-store\/enabled" if "eu-store" is one\)/,
    ],
    [
      "on",
      /^WebhookSettings import id "on": "on" is not a state: use enabled or disabled \(or <site>\/enabled for an entry of billing:sites\); the service cannot report/,
    ],
    ["off", /"off" is not a state: use enabled or disabled \(or <site>\/enabled for an entry of billing:sites\);/],
    ["true", /"true" is not a state: use enabled or disabled \(or <site>\/enabled for an entry of billing:sites\);/],
    ["Yes", /"Yes" is not a state: use enabled or disabled \(or <site>\/enabled/],
    ["eu/on", /import id "eu\/on": "on" is not a state: use "eu\/enabled" or "eu\/disabled" for site "eu" of billing:sites/],
    ["/enabled", /names no site before the slash: use enabled or disabled for the configured site, or <site>\/enabled/],
    ["mars/enabled", /import id "mars\/enabled": site "mars" is not an entry of the stack config billing:sites/],
  ])("import WebhookSettings %s fails before any request, naming what is accepted", async (id, message) => {
    const p = await setup();
    await expect(p.read(id, SETTINGS, {})).rejects.toThrow(message);
    expect(sim.requests).toEqual([]);
  });

  it("import WebhookSettings with credentials the site refuses fails at import, adopting nothing, the key in no message", async () => {
    sim = await startSimulator({ apiKey: KEY });
    const p = new BillingProvider("0.1.0");
    p.configure(providerConfig([], { baseUrl: sim.url, apiKey: { ...SECRET, value: "sk_live_WRONG_7272" } }));
    const err = await p.read("enabled", SETTINGS, {}).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect(String((err as Error).message)).toMatch(/401/);
    expect(JSON.stringify({ m: (err as Error).message, s: (err as Error).stack })).not.toMatch(/sk_live_WRONG_7272|PLUGIN_SECRET/);
  });

  it("WebhookSettings: create sends the PUT and keys the site; delete leaves the site as it is", async () => {
    const p = await setup();
    const checked = await p.check(SETTINGS, {}, { webhooksEnabled: true });
    expect(checked.failures).toEqual([]);
    const created = await p.create(SETTINGS, checked.inputs);
    expect(created.id).toBe(new URL(sim.url).host);
    expect(created.outs).toMatchObject({ webhooksEnabled: true, disableOnDelete: false, appliedAt: expect.any(String) });
    expect(sim.webhooksEnabled).toBe(true);
    // No read: refresh keeps the recorded state.
    expect(await p.read(created.id, SETTINGS, created.outs)).toEqual({ id: created.id, props: created.outs });
    await p.delete(created.id, SETTINGS, created.outs);
    expect(sim.webhooksEnabled).toBe(true);
    noKey(created);
  });

  it("a partial failure keeps the recorded work, Struct-safe and without __provider", async () => {
    const p = await setup();
    sim.injectFault({ kind: "reset", times: 1, match: { method: "POST", path: "/endpoints.json" } });
    sim.injectFault({ kind: "delay", ms: 0, times: 1, match: { method: "GET", path: "/endpoints.json" } });
    sim.injectFault({ kind: "reset", match: { method: "GET", path: "/endpoints.json" } });
    const { error } = await captureOutput(() => p.create(ENDPOINT, { url: HOOK, events: EVENTS }));
    const e = error as Error & { id: string; properties: Record<string, unknown> };
    expect(e.message).toMatch(/may or may not have been applied/);
    expect(e.properties).toEqual({ url: HOOK, events: SORTED, pendingToken: expect.any(String) });
    expect(() => Struct.fromJavaScript(e.properties as never)).not.toThrow();
  });

  it("credentials from the environment when provider configuration has none", async () => {
    sim = await startSimulator({ apiKey: KEY });
    const p = new BillingProvider("0.1.0");
    p.configure({});
    const saved = { ...process.env };
    Object.assign(process.env, { BILLING_BASE_URL: sim.url, BILLING_API_KEY: KEY });
    try {
      const created = await p.create(SETTINGS, { webhooksEnabled: false });
      expect(created.outs).toMatchObject({ webhooksEnabled: false });
      noKey(created);
    } finally {
      for (const k of ["BILLING_BASE_URL", "BILLING_API_KEY"]) {
        if (saved[k] === undefined) delete process.env[k];
        else process.env[k] = saved[k];
      }
    }
  });
});

describe("provider configuration from a Configure request", () => {
  it("reads variables (billing:config:<key>) and args (bare keys, secrets unwrapped), skipping unknowns and version", () => {
    expect(
      providerConfig(
        [
          ["billing:config:subdomain", "acme"],
          ["billing:config:retryBudgetSeconds", "5"],
        ],
        {
          apiKey: { ...SECRET, value: KEY },
          sites: { eu: { subdomain: "acme-eu" } },
          accessToken: UNKNOWN,
          version: "0.1.0",
          timeoutMs: 800,
        },
      ),
    ).toEqual({
      "billing:subdomain": "acme",
      "billing:retryBudgetSeconds": "5",
      "billing:apiKey": KEY,
      "billing:sites": '{"eu":{"subdomain":"acme-eu"}}',
      "billing:timeoutMs": "800",
    });
  });
});

describe("the request wrapper of the SDK's provider server", () => {
  class Response {
    secrets?: boolean;
    resources?: boolean;
    setAcceptsecrets(v: boolean) {
      this.secrets = v;
    }
    setAcceptresources(v: boolean) {
      this.resources = v;
    }
  }
  const request = (fields: Partial<Record<string, unknown>>) => {
    let properties: unknown = fields.properties;
    return {
      getVariablesMap: () => new Map(Object.entries((fields.variables as Record<string, string>) ?? {})),
      getArgs: () => (fields.args ? { toJavaScript: () => fields.args as Record<string, unknown> } : undefined),
      getProperties: () => properties,
      setProperties: (s: unknown) => {
        properties = s;
      },
    };
  };

  it("configure hands the configuration to the provider and answers as the dynamic host does", () => {
    const seen: Record<string, string>[] = [];
    const server = { configure: () => "the SDK's own" } as never;
    const w = guarded(server, { configure: (c) => seen.push({ ...c }) }, Response, Struct);
    let answer: Response | undefined;
    w.configure({ request: request({ variables: { "billing:config:apiKey": KEY } }) as never }, (_e, v) => {
      answer = v as Response;
    });
    expect(seen).toEqual([{ "billing:apiKey": KEY }]);
    expect(answer).toMatchObject({ secrets: false, resources: false });
  });

  it("read: a request with no properties (pulumi import) gets empty ones before the server's read, which keeps its `this`", () => {
    const server = {
      marker: "server",
      read(this: { marker: string }, call: { request: { getProperties(): unknown } }) {
        return [this.marker, call.request.getProperties()];
      },
    };
    const w = guarded(server as never, { configure: () => {} }, Response, Struct);
    const [self, props] = w.read({ request: request({}) as never }, () => {}) as [string, unknown];
    expect(self).toBe("server");
    expect(props).toBeInstanceOf(Struct);
    const given = new Struct();
    expect((w.read({ request: request({ properties: given }) as never }, () => {}) as unknown[])[1]).toBe(given);
  });
});
