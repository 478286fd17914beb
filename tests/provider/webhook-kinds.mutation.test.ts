import * as pulumi from "@pulumi/pulumi";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { subscriptionMigrationProvider, webhookEndpointProvider, webhookReplayProvider } from "../../provider";
import type { Simulator } from "../../simulator";
import { captureOutput, configured } from "./support";

// What the mutation run found unchecked in the webhook kinds, the migration kind and the resource base class:
// a program's one-resource-per-url rule (plain values refused in the constructor, Outputs once known, the key
// by site and url), the type a resource registers and the credential warning its constructor gives, a pending
// endpoint create deleted before it made anything, a replay's warning about expired batches and its empty
// record, and the migration's messages for a product without a handle, an ineligible create and trial_ended.

const HOOK = "https://hooks.example.com/billing";
const EVENTS = ["payment_failure"];
const SORTED = ["payment_failure", "subscription_state_change"];
const PLAIN_KEY = "sk_plain_PROGRAM_KEY_5151";

/** An Output's value, as a program's apply would see it. */
const resolved = <T>(o: pulumi.Output<T>): Promise<T> => new Promise((resolve) => o.apply(resolve));

const clash = (second: string, first: string, url: string, where: string) =>
  `WebhookEndpoint "${second}" and WebhookEndpoint "${first}" both declare the url ${url} on ${where}: ` +
  "a site has one endpoint per url, so merge their events into one resource";

describe("WebhookEndpoint in a program: one resource per url and site", () => {
  const registered: { type: string; name: string; inputs: Record<string, unknown> }[] = [];

  beforeEach(async () => {
    // The declared urls are kept per loaded module (per program run): each test loads it afresh.
    vi.resetModules();
    registered.length = 0;
    await pulumi.runtime.setMocks(
      {
        newResource: (a) => {
          registered.push({ type: a.type, name: a.name, inputs: a.inputs });
          return { id: `${a.name}-id`, state: a.inputs };
        },
        call: (a) => a.inputs,
      },
      "billing-app",
      "dev",
      true,
    );
    pulumi.runtime.setAllConfig({ "billing:apiKey": PLAIN_KEY, "billing:baseUrl": "http://127.0.0.1:9" }, []);
  });

  const load = async () => (await import("../../provider/kinds/webhook-endpoint")).WebhookEndpoint;

  /** Builds the resources, waits until each is registered, and returns what was said meanwhile. */
  async function declareAll(build: (W: Awaited<ReturnType<typeof load>>) => pulumi.CustomResource[]) {
    const W = await load();
    const { error, text } = await captureOutput(async () => {
      for (const r of build(W)) await resolved(r.urn);
    });
    if (error) throw error;
    return text;
  }

  it("registers as billing:WebhookEndpoint (the provider's module and type) with its inputs as given", async () => {
    await declareAll((W) => [new W("hooks", { url: HOOK, events: EVENTS })]);
    expect(registered.map((r) => [r.type, r.name])).toEqual([["pulumi-nodejs:dynamic/billing:WebhookEndpoint", "hooks"]]);
    const { __provider, ...inputs } = registered[0].inputs;
    expect(typeof __provider).toBe("string");
    expect(inputs).toEqual({ url: HOOK, events: EVENTS });
  });

  it("the first resource of the run warns about a credential set without --secret, once, never showing it", async () => {
    const text = await declareAll((W) => [
      new W("a", { url: HOOK, events: EVENTS }),
      new W("b", { url: "https://hooks.example.com/other", events: EVENTS }),
    ]);
    expect(text.split("\n").filter((l) => l !== "")).toEqual([
      "warning: [runtime] billing:apiKey is stored in plain text in Pulumi.dev.yaml: run `pulumi config set --secret billing:apiKey <value>` to store it encrypted",
    ]);
    expect(text).not.toContain(PLAIN_KEY);
  });

  it.each([
    ["the default site", undefined, undefined, "the default site"],
    ["a named site", "eu", "eu", 'site "eu"'],
    // The default site's key is the empty site name, which no entry of billing:sites may have (check refuses it).
    ['the default site and a site named ""', undefined, "", 'site ""'],
  ])("a second resource with the url on %s is refused in its constructor, naming both", async (_, first, second, where) => {
    await declareAll((W) => [new W("alerts", { url: HOOK, events: EVENTS, ...(first === undefined ? {} : { site: first }) })]);
    const W = await load();
    let thrown: unknown;
    try {
      new W("dunning", { url: HOOK, events: SORTED, ...(second === undefined ? {} : { site: second }) });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(pulumi.RunError);
    expect((thrown as Error).message).toBe(clash("dunning", "alerts", HOOK, where));
    expect(registered.map((r) => r.name)).toEqual(["alerts"]);
  });

  it.each([
    [
      "other urls on one site",
      [{ url: HOOK }, { url: `${HOOK}/v2` }, { url: `${HOOK}/v3`, site: "eu" }, { url: `${HOOK}/v4`, site: "eu" }],
    ],
    [
      "one url on two named sites",
      [
        { url: HOOK, site: "eu" },
        { url: HOOK, site: "us" },
      ],
    ],
    ["one url on the default site and a named one", [{ url: HOOK }, { url: HOOK, site: "eu" }]],
  ])("%s: every resource is declared", async (_, declarations) => {
    await declareAll((W) => declarations.map((d, i) => new W(`hooks-${i}`, { ...d, events: EVENTS })));
    expect(registered.map((r) => r.name).sort()).toEqual(declarations.map((_, i) => `hooks-${i}`));
  });

  it("the same resource name declaring its url again is not a second resource", async () => {
    await declareAll((W) => [new W("hooks", { url: HOOK, events: EVENTS }), new W("hooks", { url: HOOK, events: SORTED })]);
    expect(registered.map((r) => r.name)).toEqual(["hooks", "hooks"]);
  });

  it("a url given as an Output is declared once known: a later resource with that url is refused, naming both", async () => {
    await declareAll((W) => [new W("from-output", { url: pulumi.output(HOOK), events: EVENTS, site: pulumi.output("eu") })]);
    expect(registered.map((r) => [r.name, r.inputs.url])).toEqual([["from-output", HOOK]]);
    const W = await load();
    expect(() => new W("plain", { url: HOOK, events: EVENTS, site: "eu" })).toThrow(clash("plain", "from-output", HOOK, 'site "eu"'));
    // Another site's endpoint at that url is another endpoint.
    await resolved(new W("plain-us", { url: HOOK, events: EVENTS, site: "us" }).urn);
    expect(registered.map((r) => r.name)).toEqual(["from-output", "plain-us"]);
  });
});

describe("WebhookEndpoint delete of a record that names no endpoint", () => {
  let sim: Simulator;
  afterEach(async () => sim?.close());

  it("a pending create that made no endpoint: nothing to unsubscribe, and says so", async () => {
    const c = await configured(webhookEndpointProvider);
    sim = c.sim;
    sim.addEndpoint({ url: "https://other.example.com/hooks", events: ["payment_success"] });
    const recorded = { url: HOOK, events: SORTED, pendingToken: "4b1c0f7e-3a55-4e2a-9d0c-6f1e2d3c4b5a" };
    const { error, text } = await captureOutput(() => c.provider.delete!("pending-4b1c0f7e", recorded));
    expect(error).toBeUndefined();
    expect(text).toBe(`WebhookEndpoint: the pending create of ${HOOK} made no endpoint; nothing to unsubscribe.\n`);
    expect(sim.requests.map((r) => [r.method, r.path])).toEqual([["GET", "/endpoints.json"]]);
    expect(sim.endpoints().map((e) => e.events)).toEqual([["payment_success"]]);
  });

  it("no endpoint id and no pending create (an id that is no endpoint's): nothing is sent and nothing said", async () => {
    const c = await configured(webhookEndpointProvider);
    sim = c.sim;
    sim.addEndpoint({ url: HOOK, events: SORTED });
    const { error, text } = await captureOutput(() => c.provider.delete!("hooks-imported", { url: HOOK, events: SORTED }));
    expect(error).toBeUndefined();
    expect(text).toBe("");
    expect(sim.requests).toEqual([]);
    expect(sim.endpoints().map((e) => e.events)).toEqual([SORTED]);
  });
});

describe("WebhookReplay: batches too old to re-send, and a selector that finds nothing", () => {
  let sim: Simulator;
  afterEach(async () => sim?.close());

  async function setup() {
    const c = await configured(webhookReplayProvider);
    sim = c.sim;
    return c.provider;
  }

  /** A record whose last run left one id not queued and `expired` ids in a batch whose token the service has forgotten. */
  const recordWith = (expired: number[]) => ({
    args: { ids: [900, ...expired] },
    queuedCount: 0,
    batchCount: 1,
    replayedAt: null,
    notQueuedIds: [900],
    unknownIds: expired,
    unknownBatches: [{ ids: expired, uniquenessToken: "0d6f4c1a-8e7b-4b55-a2c9-3f1e5d7a9b20", sentAt: "2020-01-01T00:00:00.000Z" }],
  });
  const warning = (count: number, listed: string) =>
    `warning: WebhookReplay: ${count} webhook id(s) have an unknown outcome and their uniqueness tokens are older than the ` +
    `service's 60-minute duplicate window, so they are not re-sent (they may be queued already): ${listed}. ` +
    "Check the receiver; to replay them anyway, list them in a new WebhookReplay.";
  const range = (n: number) => Array.from({ length: n }, (_, i) => 801 + i);

  it.each([
    [1, "801"],
    [10, "801, 802, 803, 804, 805, 806, 807, 808, 809, 810"],
    [11, "801, 802, 803, 804, 805, 806, 807, 808, 809, 810, …"],
    [12, "801, 802, 803, 804, 805, 806, 807, 808, 809, 810, …"],
  ])("%i expired id(s): the finished run warns, listing at most ten, and keeps them unknown", async (n, listed) => {
    const p = await setup();
    const expired = range(n);
    const s = recordWith(expired);
    const { result, error, text } = await captureOutput(() => p.update!("replay-1", s, s.args));
    expect(error).toBeUndefined();
    expect(text).toBe(`${warning(n, listed)}\n`);
    expect(result!.outs).toEqual({
      args: s.args,
      queuedCount: 1,
      batchCount: 2,
      notQueuedIds: [],
      unknownIds: expired,
      unknownBatches: s.unknownBatches,
      replayedAt: expect.any(String),
    });
    expect(Date.parse(result!.outs.replayedAt)).not.toBeNaN();
    // Only the id not queued went out; the expired batch was not sent again.
    expect(sim.replayQueue).toEqual([900]);
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
});

describe("SubscriptionMigration messages", () => {
  let sim: Simulator;
  afterEach(async () => sim?.close());

  const RECOMMENDED = "the recommended path for a trial_ended subscription is to cancel it, change its product, then reactivate it";

  async function setup() {
    const c = await configured(subscriptionMigrationProvider);
    sim = c.sim;
    // A product without a handle, reachable by id only.
    sim.addProduct({ id: 4, handle: null });
    return c.provider;
  }
  const migrationPosts = () => sim.requests.filter((r) => r.method === "POST" && /\/migrations\.json$/.test(r.path));

  it("a subscription already on a product without a handle: the refusal names the product by its id", async () => {
    const p = await setup();
    const id = sim.addSubscription({ productId: 4, state: "active" }).id;
    const { failures } = await p.check!({}, { subscriptionId: id, productId: 4 });
    expect(failures).toEqual([
      {
        property: "productId",
        reason:
          `subscription ${id} is already on product id 4: the service refuses a migration to the product a subscription already has. ` +
          "Target a different product; to move to another price point of the same product, that is a price point change, " +
          "a different operation than a product migration; if nothing should change, remove this SubscriptionMigration.",
      },
    ]);
    expect(migrationPosts()).toEqual([]);
  });

  it("create of a canceled subscription: refused naming the property and the state, with nothing sent", async () => {
    const p = await setup();
    const id = sim.addSubscription({ productHandle: "basic", state: "canceled" }).id;
    const err = await p.create({ subscriptionId: id, productHandle: "pro" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe(
      `subscriptionId: subscription ${id} is canceled; only active or trialing subscriptions can be migrated ` +
        "(trial_ended is accepted but not recommended) (nothing was sent)",
    );
    expect(migrationPosts()).toEqual([]);
  });

  it("create of a trial_ended subscription: migrated, with the recommended path as a warning and in the outputs", async () => {
    const p = await setup();
    const id = sim.addSubscription({ productHandle: "basic", state: "trial_ended" }).id;
    const { result, error, text } = await captureOutput(() => p.create({ subscriptionId: id, productHandle: "pro" }));
    expect(error).toBeUndefined();
    expect(text).toBe(
      `warning: subscription ${id} is trial_ended: the API accepts migrating it for backwards compatibility, but ${RECOMMENDED}.\n`,
    );
    expect(result!.outs).toMatchObject({ previousState: "trial_ended", productHandle: "pro", warnings: [RECOMMENDED] });
    expect(migrationPosts()).toHaveLength(1);
  });

  it("create of an active subscription records no warnings and says nothing", async () => {
    const p = await setup();
    const id = sim.addSubscription({ productHandle: "basic", state: "active" }).id;
    const { result, text } = await captureOutput(() => p.create({ subscriptionId: id, productHandle: "pro" }));
    expect(text).toBe("");
    expect(result!.outs).toMatchObject({ previousState: "active", productHandle: "pro", warnings: [] });
  });
});
