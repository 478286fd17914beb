import { afterEach } from "vitest";
import { webhookEndpointProvider } from "../../../provider";
import type { Simulator } from "../../../simulator";
import { configured, configureRequest, KEY, redirectingProxy } from "../support";

/**
 * What the WebhookEndpoint kind's tests share: the url and events they declare, how they read the requests a step
 * sent, and a fresh simulator per test (support.ts's `configured`) with the endpoint provider configured for it over
 * a real socket.
 */

export const LIST = "/endpoints.json";
export const ONE = /^\/endpoints\/\d+\.json$/;
export const HOOK = "https://hooks.example.com/billing";
/** The key of the `eu` entry of billing:sites, another simulator than the top-level one. */
export const EU_KEY = "sk_live_EU_SITE_SECRET_7373";
/** Declared out of order, as a user might: the service and the outputs see them sorted. */
export const EVENTS = ["subscription_state_change", "payment_failure"];
export const SORTED = ["payment_failure", "subscription_state_change"];
/** A pending create's uniqueness token. */
export const TOKEN = "4b1c0f7e-3a55-4e2a-9d0c-6f1e2d3c4b5a";

export const postsOf = (sim: Simulator) => sim.requests.filter((r) => r.method === "POST" && r.path === LIST);
export const putsOf = (sim: Simulator) => sim.requests.filter((r) => r.method === "PUT" && ONE.test(r.path));
export const putBody = (url: string, events: string[]) => ({ endpoint: { url, webhook_subscriptions: events } });
/** The requests, as `METHOD path`. */
export const calls = (sim: Simulator) => sim.requests.map((r) => `${r.method} ${r.path}`);
/** The SDK's error for a PUT of endpoint `id` that `refusingPuts` sent to the list's path, which takes no PUT. */
export const REFUSED = (id: number) =>
  `PUT /endpoints/${id}.json failed with 405: Method PUT not allowed on /endpoints.json; allowed: POST, GET`;

/**
 * A site per test, closed after it (call at a test file's top level; `started` is given each test's simulator).
 * `setup` starts it and returns the provider (configured with `extra` too); `created` makes an endpoint through it
 * and empties the request log; `refusingPuts` is the provider behind a proxy that sends every PUT to the list's path
 * (a 405, an error no user's input explains); `puts` lists the PUTs sent.
 */
export function endpointSite(started: (sim: Simulator) => void) {
  let current: Simulator | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  const site = () => current as Simulator;

  async function setup(extra: Record<string, string> = {}) {
    const c = await configured(webhookEndpointProvider, extra);
    current = c.sim;
    started(c.sim);
    return c.provider;
  }

  /** An endpoint created through the provider, the simulator's log emptied afterwards. */
  async function created(inputs: Record<string, unknown> = { url: HOOK, events: EVENTS }) {
    const p = await setup();
    const { id, outs } = await p.create(inputs);
    site().reset();
    return { p, id, outs };
  }

  async function refusingPuts() {
    const p = { ...webhookEndpointProvider };
    const url = await redirectingProxy(site().url, (method) => (method === "PUT" ? "/endpoints.json" : undefined));
    await p.configure!(configureRequest({ "billing:baseUrl": url, "billing:apiKey": KEY }));
    return p;
  }

  const puts = () =>
    site()
      .requests.filter((r) => r.method === "PUT")
      .map((r) => [r.path, r.body]);

  return { setup, created, refusingPuts, puts };
}
