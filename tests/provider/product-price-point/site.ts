import { afterEach } from "vitest";
import { productPricePointProvider } from "../../../provider";
import type { Simulator } from "../../../simulator";
import { configured, configureRequest, KEY, mutations, type Redirect, redirectingProxy } from "../support";

/**
 * What the ProductPricePoint kind's tests share: the declaration (`launch-annual` on product `launch`, id 3, whose only
 * price point is its default `launch-default`), how the kind's messages name a price point, how the tests read the
 * requests a step sent and a step's failure, and a fresh simulator per test (support.ts's `configured`: products
 * basic (1), pro (2), launch (3)) with the price point provider configured for it over a real socket.
 */

export const annual = {
  product: "handle:launch",
  handle: "launch-annual",
  name: "Annual",
  priceInCents: 49000,
  interval: 12,
  intervalUnit: "month" as const,
};
export const LAUNCH = 3;
/** How the kind's messages name a price point. */
export const label = (handle: string, id: number | string) => `price point \`${handle}\` (id ${id})`;
export const ppPath = (id: number | string) => `/products/${LAUNCH}/price_points/${id}.json`;
export type Json = Record<string, unknown>;
export const auth = { authorization: `Basic ${Buffer.from(`${KEY}:x`).toString("base64")}` };

/** The requests that change something, as `METHOD path`. */
export const steps = (sim: Simulator) => mutations(sim).map((r) => `${r.method} ${r.path}`);

export type Failed = Error & { id: string; properties: Record<string, unknown> };
/** The error a step fails with, or undefined when it succeeds. */
export const failureOf = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: Failed) => e,
  ) as Promise<Failed | undefined>;

/** A preview's pricing change of `annual` from $490.00 to $590.00, with the `effect` it says. */
export const priceChange = (effect: string) => ({
  effect,
  fields: ["priceInCents"],
  from: { priceInCents: 49000 },
  to: { priceInCents: 59000 },
});

/**
 * A site per test, closed after it (call at a test file's top level; `started` is given each test's simulator).
 * `setup` starts it and returns the provider, `connect` (configure it again, with the key and `extra`) and the id
 * of `launch-default`, the request log emptied; `listed`, `promote` and `proxy` read or change the running test's site.
 */
export function pricePointSite(started: (sim: Simulator) => void) {
  let current: Simulator | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  const site = () => current as Simulator;

  async function setup() {
    const c = await configured(productPricePointProvider);
    current = c.sim;
    started(c.sim);
    const points = c.provider;
    const connect = (extra: Record<string, string>) => points.configure!(configureRequest({ "billing:apiKey": KEY, ...extra }));
    const launchDefault = (await listed()).find((pp) => pp.handle === "launch-default")?.id as number;
    c.sim.reset();
    return { points, connect, launchDefault };
  }

  /** The launch product's price points as the service lists them, archived ones too. */
  async function listed(): Promise<{ id: number; handle: string; type: string; archived_at: string | null }[]> {
    const answer = await fetch(`${site().url}/products/${LAUNCH}/price_points.json?include_archived=true`, { headers: auth });
    return ((await answer.json()) as { price_points: { id: number; handle: string; type: string; archived_at: string | null }[] })
      .price_points;
  }

  /** A promotion made outside the stack (the web UI). */
  const promote = (id: number | string) =>
    fetch(`${site().url}/products/${LAUNCH}/price_points/${id}/default.json`, { method: "PATCH", headers: auth });

  /** The simulator behind a proxy that sends the requests `to` names elsewhere (support.ts). */
  const proxy = (to: Redirect) => redirectingProxy(site().url, to);

  return { setup, listed, promote, proxy };
}
