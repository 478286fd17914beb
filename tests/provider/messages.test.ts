import { afterEach, describe, expect, it } from "vitest";
import {
  componentProvider,
  subscriptionMigrationProvider,
  webhookEndpointProvider,
  webhookReplayProvider,
  webhookSettingsProvider,
} from "../../provider";
import { WEBHOOK_EVENTS } from "../../sdk";
import type { Simulator } from "../../simulator";
import { captureOutput, configured, configureRequest, KEY, pathsOf, unnested } from "./support";

// The messages a newcomer meets in `pulumi preview`, in the user's words: a missing top-level
// credential is the stack's problem, not an input's; an event error lists the accepted events, and
// no failure or error cites a file of this package.

const ENV = ["BILLING_API_KEY", "BILLING_ACCESS_TOKEN", "BILLING_SUBDOMAIN", "BILLING_ENVIRONMENT", "BILLING_BASE_URL"];
/** Valid inputs of each kind, naming no site. */
const VALID = [
  [webhookSettingsProvider, { webhooksEnabled: true }],
  [webhookEndpointProvider, { url: "https://hooks.example.com/billing", events: ["payment_failure"] }],
  [subscriptionMigrationProvider, { subscriptionId: 1, productHandle: "pro" }],
  [webhookReplayProvider, { ids: [1] }],
] as const;

/** What a message must not hold: a path inside this package, a stack frame, a module folder. */
const INTERNAL = /dist\/|node_modules|\.ts:|[\w-]+\.(ts|js)\b|\bat \w+ \(|sdk\/|provider\//;

describe("a missing top-level credential", () => {
  let saved: Record<string, string | undefined>;
  afterEach(() => {
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  });
  const clean = () => {
    saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));
    for (const k of ENV) delete process.env[k];
  };

  it.each(VALID)(
    "with nothing configured, %o's check fails on no property (the CLI prints the resource), saying what to set",
    async (provider, news) => {
      clean();
      const p = { ...provider };
      await p.configure!(configureRequest({}));
      const { failures } = await p.check!({}, news);
      expect(failures).toEqual([
        {
          property: "",
          reason:
            "no billing site is configured for this stack: set one with `pulumi config set billing:subdomain <subdomain>` and " +
            "`pulumi config set --secret billing:apiKey <api-key>` (or the BILLING_SUBDOMAIN and BILLING_API_KEY environment variables), " +
            "or give the resource a `site` named in billing:sites",
        },
      ]);
    },
  );

  it("with a subdomain but no key: the key at fault and the command that sets it, with --secret", async () => {
    clean();
    const p = { ...webhookSettingsProvider };
    await p.configure!(configureRequest({ "billing:subdomain": "acme" }));
    const { failures } = await p.check!({}, { webhooksEnabled: true });
    expect(failures).toHaveLength(1);
    expect(failures![0].property).toBe("");
    expect(failures![0].reason).toBe(
      "the billing credentials are not usable: billing:apiKey: the us environment needs an apiKey (or an accessToken with baseUrl). " +
        "Set `pulumi config set --secret billing:apiKey <api-key>` (or BILLING_API_KEY), or give the resource a `site` named in billing:sites",
    );
  });

  it("with a key but no subdomain: the subdomain, set without --secret", async () => {
    clean();
    const p = { ...webhookSettingsProvider };
    await p.configure!(configureRequest({ "billing:apiKey": KEY }));
    const { failures } = await p.check!({}, { webhooksEnabled: true });
    expect(pathsOf(failures)).toEqual([""]);
    expect(failures![0].reason).toMatch(
      /billing:subdomain: needs the site's subdomain.*Set `pulumi config set billing:subdomain <subdomain>` \(or BILLING_SUBDOMAIN\)/,
    );
    expect(JSON.stringify(failures)).not.toContain(KEY);
  });

  it("a site the resource names is still reported on `site`: the user set it, and the CLI shows its value", async () => {
    clean();
    const p = { ...webhookSettingsProvider };
    await p.configure!(configureRequest({}));
    const { failures } = await p.check!({}, { webhooksEnabled: true, site: "eu" });
    expect(pathsOf(failures)).toEqual(["site"]);
    expect(failures![0].reason).toMatch(
      /site "eu" is not an entry of the stack config billing:sites.*pulumi config set --secret billing:sites/,
    );
  });
});

describe("event errors name the property, the bad value and the accepted events", () => {
  let sim: Simulator | undefined;
  afterEach(async () => sim?.close());

  it.each([
    [["payment_success", "paymnt_failure"], "events.1", /^"paymnt_failure" is not a webhook event key; did you mean "payment_failure"\?/],
    [["payment_success", 7], "events.1", /^must be a webhook event key \(a string\), got 7; /],
    [[], "events", /^must name at least one webhook event/],
    ["payment_failure", "events", /^must be an array of webhook event keys such as \["payment_success"\], got "payment_failure"; /],
  ])("WebhookEndpoint events %o: on %s", async (events, property, start) => {
    const c = await configured(webhookEndpointProvider);
    sim = c.sim;
    const { failures } = await c.provider.check!({}, { url: "https://hooks.example.com/billing", events });
    expect(pathsOf(failures)).toEqual([property]);
    const reason = unnested(failures)[0].reason;
    expect(reason).toMatch(start);
    expect(reason).toContain(`the accepted events are ${WEBHOOK_EVENTS.join(", ")}`);
    expect(reason).not.toMatch(INTERNAL);
    expect(reason).not.toContain("WEBHOOK_EVENTS");
  });
});

describe("no failure or error of the providers cites an internal path", () => {
  let sims: Simulator[] = [];
  afterEach(async () => {
    await Promise.all(sims.map((s) => s.close()));
    sims = [];
  });

  it("across bad inputs, bad state and refused changes of every kind", async () => {
    const messages: string[] = [];
    const endpoint = await configured(webhookEndpointProvider);
    const settings = await configured(webhookSettingsProvider);
    const migration = await configured(subscriptionMigrationProvider);
    const replay = await configured(webhookReplayProvider);
    sims.push(endpoint.sim, settings.sim, migration.sim, replay.sim);
    const sub = migration.sim.addSubscription({ productHandle: "basic", state: "active" }).id;
    const failuresOf = async (p: typeof endpoint.provider, news: Record<string, unknown>) => {
      for (const f of (await p.check!({}, news)).failures ?? []) messages.push(`${f.property}: ${f.reason}`);
    };
    const thrown = async (f: () => Promise<unknown>) => {
      const err = await f().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err, "the call should have failed").toBeInstanceOf(Error);
      messages.push((err as Error).message);
    };
    const { text } = await captureOutput(async () => {
      await failuresOf(endpoint.provider, { url: "ftp://x", events: ["nope", 3], site: "", colour: "red" });
      await failuresOf(endpoint.provider, { url: 42, events: {} });
      await failuresOf(endpoint.provider, { url: "https://hooks.example.com/b", events: ["payment_failure"], site: "mars" });
      await failuresOf(settings.provider, { webhooksEnabled: "yes", disableOnDelete: 1 });
      await failuresOf(migration.provider, { subscriptionId: -1, productId: 2, productHandle: "pro", pricePointId: "x" });
      await failuresOf(migration.provider, { subscriptionId: sub, productHandle: "basic" });
      await failuresOf(migration.provider, { subscriptionId: 999_999, productHandle: "pro" });
      await failuresOf(replay.provider, { ids: [1, -2, "x"], selector: { status: "lost", sinceDate: "yesterday" }, triggers: "again" });
      await failuresOf(replay.provider, { selector: { status: "failed", sinceDate: "2024-05-02", untilDate: "2024-05-01", page: 2 } });
      // Recorded state this version cannot read, and a change that is refused before anything is sent.
      await thrown(() => endpoint.provider.update!("1", { url: 5 }, { url: "https://hooks.example.com/b", events: ["payment_failure"] }));
      await thrown(() => settings.provider.delete!("x", { webhooksEnabled: "maybe" }));
      const created = await migration.provider.create({ subscriptionId: sub, productHandle: "pro" });
      await thrown(() =>
        migration.provider.diff!("x", created.outs, { subscriptionId: sub, productId: 2, pricePointHandle: "pro-annual" }),
      );
      await thrown(() =>
        endpoint.provider.update!(
          "404404",
          { endpointId: 404404, url: "https://a.example.com/x", events: ["payment_failure"] },
          {
            url: "https://b.example.com/x",
            events: ["payment_failure"],
          },
        ),
      );
    });
    expect(messages.length).toBeGreaterThan(15);
    for (const m of messages) expect(m, m).not.toMatch(INTERNAL);
    expect(text).not.toMatch(/dist\/|node_modules|\.ts:/);
  });
});

describe("a failure inside a list input", () => {
  let sim: Simulator | undefined;
  afterEach(async () => sim?.close());

  // The engine prints a failure as `property P value {V}`, V looked up by P among the inputs: for
  // `prices.1.startingQuantity` it found none and printed `value {<nil>}` for a value the user set (50).
  it("overlapping tiers: on `prices`, the tier's path and its value in the reason", async () => {
    const c = await configured(componentProvider);
    sim = c.sim;
    const news = {
      productFamily: "handle:plans",
      kind: "metered",
      handle: "texts",
      name: "Texts",
      unitName: "message",
      pricingScheme: "tiered",
      prices: [
        { startingQuantity: 1, endingQuantity: 100, unitPrice: "0.02" },
        { startingQuantity: 50, unitPrice: "0.01" },
      ],
    };
    const { failures } = await c.provider.check!({}, news);
    expect(failures).toEqual([
      {
        property: "prices",
        reason:
          "prices[1].startingQuantity: must be 101 (one past prices[0]'s endingQuantity 100): prices[1] starting at 50 overlaps prices[0]",
      },
    ]);
    expect(c.sim.requests).toEqual([]);
  });
});
