import { afterEach } from "vitest";
import { subscriptionMigrationProvider } from "../../../provider";
import type { Simulator, SubscriptionState } from "../../../simulator";
import { configured, configureRequest, KEY, type Redirect, redirectingProxy } from "../support";

/**
 * What the SubscriptionMigration kind's tests share: how they read the migrations a step posted and the requests it
 * sent, the advice for a trial_ended subscription, and a fresh simulator per test (support.ts's `configured`:
 * products basic (1), pro (2: price points 201 default, 202), launch (3)) holding a subscription on basic, with the
 * migration provider configured for it over a real socket.
 */

export const MIGRATIONS = /^\/subscriptions\/\d+\/migrations\.json$/;
/** The migrations posted. */
export const postsOf = (sim: Simulator) => sim.requests.filter((r) => r.method === "POST" && MIGRATIONS.test(r.path));
/** The requests, as `METHOD path`. */
export const calls = (sim: Simulator) => sim.requests.map((r) => `${r.method} ${r.path}`);
export const RECOMMENDED = "the recommended path for a trial_ended subscription is to cancel it, change its product, then reactivate it";

/**
 * A site per test, closed after it (call at a test file's top level; `started` is given each test's simulator).
 * `setup` starts it with a subscription on basic (in `state`, with `extra`) and returns the provider and the
 * subscription's id; `proxied` is the provider behind a proxy that sends the requests `to` names elsewhere on the
 * site (support.ts); `migrationPosts` lists the migrations the running test's site was posted.
 */
export function migrationSite(started: (sim: Simulator) => void) {
  let current: Simulator | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  const site = () => current as Simulator;

  async function setup(state: SubscriptionState = "active", extra = {}) {
    const c = await configured(subscriptionMigrationProvider);
    current = c.sim;
    started(c.sim);
    const id = c.sim.addSubscription({ productHandle: "basic", state, ...extra }).id;
    return { p: c.provider, id };
  }

  async function proxied(to: Redirect) {
    const p = { ...subscriptionMigrationProvider };
    await p.configure!(configureRequest({ "billing:baseUrl": await redirectingProxy(site().url, to), "billing:apiKey": KEY }));
    return p;
  }

  const migrationPosts = () => site().requests.filter((r) => r.method === "POST" && /\/migrations\.json$/.test(r.path));

  return { setup, proxied, migrationPosts };
}
