import fc from "fast-check";
import { WEBHOOK_EVENTS } from "../../sdk";
import { type FaultSpec, type RequestLogEntry, type Simulator, startSimulator } from "../../simulator";
import { catalogue } from "../sdk/helpers";

/**
 * The fault matrix's world: several sites of the simulator, each with a
 * catalogue, subscriptions to migrate back and forth, and a seeded mix of
 * every failure the service can show, injected at a combined rate of about
 * 37% of requests.
 */

export const KEY = "sk_fault_matrix_key";
/**
 * The clients' timeout: short, so that "an answer slower than the client's timeout" costs little, yet far above
 * an ordinary answer on a loaded 2-core machine (a stall past it would turn an ordinary request into an
 * abandoned one). The faults below outlast it by a second or more, not by a scheduling hiccup: with 300 ms
 * against a 450 ms delay, a client whose timer fired 150 ms late took an answer the matrix counted as
 * abandoned. Which faults fire is the seed's; how long things take only moves by seconds.
 */
export const TIMEOUT_MS = 1000;
/** How long past the client's timeout a held answer or a still-running request lasts. */
export const PAST_TIMEOUT_MS = 1000;
export const PRODUCTS = ["basic", "pro"] as const;
/**
 * How long a client reads back after a "duplicate submission" 409 before it calls the outcome unknown
 * (`migrationSettleSeconds`, which endpoint creates use too): the request held by a processing fault, which
 * the retry meets at the client's timeout, lands PAST_TIMEOUT_MS later, a second before the window ends.
 */
export const SETTLE_SECONDS = 2;

/** Each kind at ~4.5%: 1 − 0.955^10 ≈ 37% of requests meet one. */
const RATE = 0.045;

export const FAULT_MIX: readonly FaultSpec[] = [
  { kind: "status", status: 429, rate: RATE },
  { kind: "status", status: 429, retryAfter: 1, rate: RATE },
  { kind: "status", status: 500, rate: RATE },
  { kind: "status", status: 502, rate: RATE, applyAfterHandling: true },
  { kind: "status", status: 503, rate: RATE },
  { kind: "status", status: 504, rate: RATE, applyAfterHandling: true },
  { kind: "reset", rate: RATE },
  { kind: "reset", rate: RATE, applyAfterHandling: true },
  // Applied, then answered after the client gave up.
  { kind: "delay", ms: TIMEOUT_MS + PAST_TIMEOUT_MS, rate: RATE, applyAfterHandling: true },
  // Still running when the client's retry arrives: the retry meets the first request's token (and the
  // settle window after it, SETTLE_SECONDS, outlasts it by another second).
  { kind: "processing", ms: TIMEOUT_MS + PAST_TIMEOUT_MS, rate: RATE },
];

export const ENDPOINTS_PATH = "/endpoints.json";

/**
 * An endpoint create the service is still processing when the client's whole settle window has passed:
 * the client reports the outcome unknown while the request has yet to land, the one moment when
 * resuming with the same token (not a new POST, not trusting the list alone) is what keeps one endpoint.
 * Without it the SDK's five attempts and read-backs leave almost no outcome unknown under the mix above.
 * Once per site (at a quarter of the creates no other fault took, until it fires): it holds its operation ~4.5 s,
 * 1.5 s past the client's first timeout and whole settle window.
 */
export const SLOW_CREATE_MS = TIMEOUT_MS + SETTLE_SECONDS * 1000 + 1500;
export const ENDPOINT_FAULTS: readonly FaultSpec[] = [
  { kind: "processing", ms: SLOW_CREATE_MS, rate: 0.25, times: 1, match: { method: "POST", path: ENDPOINTS_PATH } },
];

export interface World {
  readonly sites: readonly Simulator[];
  /** Subscription ids of each site, for migrations. */
  readonly subscriptions: readonly number[];
  close(): Promise<void>;
}

export async function world(seed: number, siteCount: number, subscriptionsPerSite: number): Promise<World> {
  const sites = await Promise.all(Array.from({ length: siteCount }, (_, i) => startSimulator({ apiKey: KEY, faultSeed: seed + i })));
  const subscriptions = Array.from({ length: subscriptionsPerSite }, (_, i) => 2001 + i);
  for (const sim of sites) {
    // basic (1, default price point 101) and pro (2, default 201): what the migrations move between.
    catalogue(sim);
    for (const id of subscriptions) sim.addSubscription({ id, productHandle: "basic", state: id % 2 === 0 ? "active" : "trialing" });
    for (const f of [...FAULT_MIX, ...ENDPOINT_FAULTS]) sim.injectFault({ ...f });
  }
  return { sites, subscriptions, close: async () => void (await Promise.all(sites.map((s) => s.close()))) };
}

/** The other product: every migration in the matrix is to the product the subscription is not on. */
export function otherProduct(sim: Simulator, subscriptionId: number): (typeof PRODUCTS)[number] {
  return sim.getSubscription(subscriptionId)!.productId === 1 ? "pro" : "basic";
}

/** How often each id was queued, from the simulator's exact log. */
export function queuedCounts(sim: Simulator): Map<string, number> {
  const counts = new Map<string, number>();
  for (const id of sim.replayLog) counts.set(id, (counts.get(id) ?? 0) + 1);
  return counts;
}

/** Resolves when no request is in flight at any site (requests still processing after their client gave up included). */
export async function quiet(sites: readonly Simulator[]): Promise<void> {
  while (sites.some((s) => s.inFlight > 0)) await new Promise((r) => setTimeout(r, 5));
}

export type Op = { kind: "replay"; size: number; big: boolean } | { kind: "migration" } | { kind: "settings"; enabled: boolean };

/** Replays of 1–5000 ids (mostly small, as in practice), migrations and settings, ~50/30/20. */
export const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant("replay" as const),
      size: fc.oneof(
        { weight: 6, arbitrary: fc.integer({ min: 1, max: 100 }) },
        { weight: 3, arbitrary: fc.integer({ min: 101, max: 1000 }) },
        { weight: 1, arbitrary: fc.integer({ min: 1001, max: 5000 }) },
      ),
      big: fc.boolean(),
    }),
  },
  { weight: 3, arbitrary: fc.constant({ kind: "migration" as const }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("settings" as const), enabled: fc.boolean() }) },
);

/** Fresh ids for each replay, so that "queued once" is checkable per id; some past 2^53, as decimal text. */
export class IdSource {
  #next = 1;
  #nextBig = 2n ** 53n + 1n;
  take(size: number, big: boolean): (number | string)[] {
    const ids: (number | string)[] = [];
    for (let i = 0; i < size; i++) ids.push(this.#next++);
    if (big) ids.push(String(this.#nextBig++));
    return ids;
  }
}

/**
 * A webhook endpoint through its life: declared with `steps[0]`, then changed to each later step (a new
 * url when `move`), then, when `removed`, deleted (the provider; the SDK empties its event list).
 * `preexisting`: the site already holds an endpoint with the first url (made in the web UI), which the
 * provider must adopt. Events come in any order, with repeats: the service must end with the set.
 */
export interface EndpointOp {
  kind: "endpoint";
  steps: { move: boolean; events: string[] }[];
  removed: boolean;
  preexisting: string[] | undefined;
}

const eventsArb = fc.array(fc.constantFrom(...WEBHOOK_EVENTS), { minLength: 1, maxLength: 6 });

export const endpointOpArb: fc.Arbitrary<EndpointOp> = fc.record({
  kind: fc.constant("endpoint" as const),
  steps: fc.array(fc.record({ move: fc.boolean(), events: eventsArb }), { minLength: 1, maxLength: 4 }),
  removed: fc.boolean(),
  preexisting: fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: eventsArb }),
});

/** Events as the service must hold them for a declaration: each once, sorted (the SDK sends them so). */
export const eventSet = (events: readonly string[]): string[] => [...new Set(events)].sort();
export const sameEvents = (a: readonly string[], b: readonly string[]): boolean =>
  JSON.stringify(eventSet(a)) === JSON.stringify(eventSet(b));

/** The urls of endpoint operation `n`, one per step: all under one prefix, so its endpoints are findable whatever url they moved to. */
export function endpointUrls(n: number, op: EndpointOp): { prefix: string; urls: string[] } {
  const prefix = `https://hooks.example.com/matrix/${n}/`;
  let version = 0;
  return { prefix, urls: op.steps.map((s, k) => `${prefix}v${k > 0 && s.move ? ++version : version}`) };
}

/** The endpoints the site holds under a prefix. */
export const endpointsUnder = (sim: Simulator, prefix: string) => sim.endpoints().filter((e) => e.url.startsWith(prefix));

const endpointBody = (r: RequestLogEntry) => (r.body as { endpoint?: { url?: unknown; webhook_subscriptions?: unknown } })?.endpoint;

/** The uniqueness tokens of every create the site received for urls under a prefix. */
export function createTokensUnder(sim: Simulator, prefix: string): string[] {
  return sim.requests
    .filter((r) => r.method === "POST" && r.path === ENDPOINTS_PATH && String(endpointBody(r)?.url).startsWith(prefix))
    .map((r) => r.uniquenessToken)
    .filter((t): t is string => t !== undefined);
}

/** Whether the site received a create with this token for this url. */
export const createSent = (sim: Simulator, token: string, url: string): boolean =>
  sim.requests.some((r) => r.method === "POST" && r.path === ENDPOINTS_PATH && r.uniquenessToken === token && endpointBody(r)?.url === url);

const endpointValue = (r: RequestLogEntry): { url: unknown; events: string[] } | undefined => {
  const b = endpointBody(r);
  return b && Array.isArray(b.webhook_subscriptions) ? { url: b.url, events: b.webhook_subscriptions as string[] } : undefined;
};
const sameValue = (v: { url: unknown; events: readonly string[] } | undefined, w: { url: string; events: readonly string[] }) =>
  v !== undefined && v.url === w.url && sameEvents(v.events, w.events);

/**
 * Whether endpoint `id` holding `held` instead of `expected` is a PUT landing late: the last PUT to it
 * that was answered carried `expected`, and an earlier one its client gave up on (status 0: no answer
 * ever sent) carried exactly `held`. The matrix's timeouts are far below the service's 120 s cut-off
 * (unlike the default), so a request still processing after its client gave up can overwrite a newer
 * value, which a list read shows. Anything else (`expected` never answered last, `held` never sent) is
 * no excuse.
 */
export function staleLanding(
  sim: Simulator,
  id: number,
  held: { url: string; events: readonly string[] },
  expected: { url: string; events: readonly string[] },
): boolean {
  const puts = sim.requests.filter((r) => r.method === "PUT" && r.path === `/endpoints/${id}.json`);
  let last = -1;
  puts.forEach((r, i) => {
    if (r.status === 200) last = i;
  });
  if (last < 0 || !sameValue(endpointValue(puts[last]), expected)) return false;
  return puts.some((r, i) => i < last && r.status === 0 && sameValue(endpointValue(r), held));
}

const SETTINGS_PATH = "/webhooks/settings.json";
const settingValue = (r: RequestLogEntry): unknown => (r.body as { webhooks_enabled?: unknown } | undefined)?.webhooks_enabled;

/**
 * Whether the site's `webhooks_enabled` being `held` instead of `expected` is a PUT landing late: the
 * last settings PUT that was answered 200 carried `expected`, and an earlier one its client gave up on
 * (status 0: no answer ever sent) carried `held`. The setting has no GET, so no client can see such a
 * landing; it can come between the answer to a newer PUT and the moment the report is checked, when the
 * cores are shared. Anything else (`expected` not the last answered, `held` never abandoned) is no excuse.
 */
export function staleSetting(sim: Simulator, held: boolean, expected: boolean): boolean {
  const puts = sim.requests.filter((r) => r.method === "PUT" && r.path === SETTINGS_PATH);
  let last = -1;
  puts.forEach((r, i) => {
    if (r.status === 200) last = i;
  });
  if (last < 0 || settingValue(puts[last]) !== expected) return false;
  return puts.some((r, i) => i < last && r.status === 0 && settingValue(r) === held);
}
