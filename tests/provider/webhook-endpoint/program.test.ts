import * as pulumi from "@pulumi/pulumi";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { captureOutput } from "../support";

// WebhookEndpoint in a program (a file of its own: the mutation run leaves it out, see mutation/vitest.config.mts): the
// one-resource-per-url rule (plain values refused in the constructor, Outputs once known, the key by site and url), the
// type a resource registers and the credential warning its constructor gives.

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

  const load = async () => (await import("../../../provider/kinds/webhook-endpoint")).WebhookEndpoint;

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
