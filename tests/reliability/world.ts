import fc from "fast-check";
import { type FaultSpec, type Simulator, startSimulator } from "../../simulator";
import { catalogue } from "../sdk/helpers";

/**
 * The fault matrix's world: several sites of the simulator, each with a
 * catalogue, subscriptions to migrate back and forth, and a seeded mix of
 * every failure the service can show, injected at a combined rate of about
 * 37% of requests.
 */

export const KEY = "sk_fault_matrix_key";
/** Short, so that "an answer slower than the client's timeout" costs little; the faults below outlast it. */
export const TIMEOUT_MS = 300;
export const PRODUCTS = ["basic", "pro"] as const;

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
  { kind: "delay", ms: TIMEOUT_MS + 150, rate: RATE, applyAfterHandling: true },
  // Still running when the client's retry arrives: the retry meets the first request's token.
  { kind: "processing", ms: TIMEOUT_MS + 250, rate: RATE },
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
    for (const f of FAULT_MIX) sim.injectFault({ ...f });
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
