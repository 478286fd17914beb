import { afterEach } from "vitest";
import { webhookReplayProvider } from "../../../provider";
import type { Simulator } from "../../../simulator";
import { configured, configureRequest, KEY, redirectingProxy } from "../support";

/**
 * What the WebhookReplay kind's tests share: the replay's path, a record of an earlier run, the words of a run the
 * service refused, and a fresh simulator per test (support.ts's `configured`) with the replay provider configured for
 * it over a real socket.
 */

export const REPLAY = "/webhooks/replay.json";
/** A batch's uniqueness token. */
export const TOKEN = "4b1c0f7e-3a55-4e2a-9d0c-6f1e2d3c4b5a";

/** The record of a finished replay of ids 900 and 901, changed by `extra`. */
export const record = (extra: Record<string, unknown>) => ({
  args: { ids: [900, 901] },
  queuedCount: 1,
  batchCount: 1,
  replayedAt: null,
  notQueuedIds: [],
  unknownIds: [],
  unknownBatches: [],
  ...extra,
});

/** The SDK's error for a replay that `refusingAfter` sent to the list's path, which takes no POST. */
export const REFUSED = "POST /webhooks/replay.json failed with 405: Method POST not allowed on /webhooks.json; allowed: GET";
/** What a partly failed run's message says the next up does. */
export const RECORDED =
  "Recorded: the next `pulumi up` sends the ids not queued, and re-sends the batches of unknown outcome with their original " +
  "uniqueness tokens, so the service refuses any it already queued.";

/**
 * A site per test, closed after it (call at a test file's top level; `started` is given each test's simulator).
 * `setup` starts it and returns the provider; `refusingAfter(passing)` is the provider behind a proxy that answers
 * every POST of a replay after the first `passing` by the list's path (405): refused, so not queued.
 */
export function replaySite(started: (sim: Simulator) => void = () => {}) {
  let current: Simulator | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });

  async function setup() {
    const c = await configured(webhookReplayProvider);
    current = c.sim;
    started(c.sim);
    return c.provider;
  }

  async function refusingAfter(passing: number) {
    let seen = 0;
    const p = { ...webhookReplayProvider };
    const url = await redirectingProxy((current as Simulator).url, (method, path) =>
      method === "POST" && path === REPLAY && seen++ >= passing ? "/webhooks.json" : undefined,
    );
    await p.configure!(configureRequest({ "billing:baseUrl": url, "billing:apiKey": KEY }));
    return p;
  }

  return { setup, refusingAfter };
}
