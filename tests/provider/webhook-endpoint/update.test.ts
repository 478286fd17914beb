import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { UNKNOWN } from "../support";
import { EVENTS, endpointSite, HOOK, postsOf, putBody, putsOf, SORTED } from "./site";

/**
 * WebhookEndpoint update, in place: diff sees the events as a set (order and duplicates are no change) and replaces
 * only for another site; update PUTs the url and the whole event list, and nothing when the service holds them
 * already; an endpoint removed on the service says to refresh, and nothing is created.
 */

describe("WebhookEndpoint update", () => {
  let sim: Simulator;
  const { setup, created, puts } = endpointSite((started) => {
    sim = started;
  });

  describe("diff", () => {
    it.each([
      ["the same events in another order", { url: HOOK, events: [...SORTED] }, { changes: false }],
      ["the same events with duplicates", { url: HOOK, events: [...EVENTS, ...EVENTS, "payment_failure"] }, { changes: false }],
      ["a changed url", { url: "https://hooks.example.com/v2", events: EVENTS }, { changes: true, replaces: [] }],
      ["an added event", { url: HOOK, events: [...EVENTS, "payment_success"] }, { changes: true, replaces: [] }],
      ["a removed event", { url: HOOK, events: ["payment_failure"] }, { changes: true, replaces: [] }],
      ["a changed site", { url: HOOK, events: EVENTS, site: "eu" }, { changes: true, replaces: ["site"] }],
      ["an unknown url", { url: UNKNOWN, events: EVENTS }, { changes: true, replaces: [] }],
      ["unknown events", { url: HOOK, events: UNKNOWN }, { changes: true, replaces: [] }],
      ["an unknown event among known ones", { url: HOOK, events: ["payment_failure", UNKNOWN] }, { changes: true, replaces: [] }],
      ["an unknown site", { url: HOOK, events: EVENTS, site: UNKNOWN }, { changes: true }],
    ])("%s: %o, sending nothing", async (_, news, expected) => {
      const { p, id, outs } = await created();
      expect(await p.diff!(id, outs, news)).toMatchObject(expected);
      expect(sim.requests).toHaveLength(0);
    });
  });

  it("PUTs the url and the complete event list; the service holds the new list", async () => {
    const { p, id, outs } = await created();
    const url = "https://hooks.example.com/v2";
    const updated = await p.update!(id, outs, { url, events: ["refund_success", "payment_failure", "refund_success"] });

    expect(putsOf(sim).map((r) => [r.path, r.body])).toEqual([
      [`/endpoints/${id}.json`, putBody(url, ["payment_failure", "refund_success"])],
    ]);
    expect(updated.outs).toEqual({ endpointId: Number(id), url, events: ["payment_failure", "refund_success"], status: "enabled" });
    expect(sim.endpoints()).toEqual([{ id: Number(id), url, events: ["payment_failure", "refund_success"], status: "enabled" }]);
    expect(postsOf(sim)).toHaveLength(0);
  });

  it("the same events in another order send nothing", async () => {
    const { p, id, outs } = await created();
    const updated = await p.update!(id, outs, { url: HOOK, events: [...SORTED, "payment_failure"] });
    expect(updated.outs).toMatchObject({ endpointId: Number(id), url: HOOK, events: SORTED });
    expect(sim.requests).toHaveLength(0);
  });

  it("a PUT to an endpoint removed on the service fails, telling to run `pulumi refresh`; nothing is created", async () => {
    const { p, id, outs } = await created();
    sim.removeEndpoint(Number(id));
    const err = await p.update!(id, outs, { url: HOOK, events: ["payment_success"] }).catch((e) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toMatch(new RegExp(`webhook endpoint ${id} no longer exists on the service`));
    expect(err.message).toMatch(/run `pulumi refresh`/);
    expect(putsOf(sim).map((r) => r.status)).toEqual([404]);
    expect(postsOf(sim)).toHaveLength(0);
    expect(sim.endpoints()).toEqual([]);
  });

  it("update to as many events as recorded, but other ones, sends them", async () => {
    const p = await setup();
    const made = await p.create({ url: HOOK, events: SORTED });
    const events = ["payment_failure", "payment_success"];
    const updated = await p.update!(made.id, made.outs, { url: HOOK, events });
    expect(updated.outs).toEqual({ endpointId: 1, url: HOOK, events, status: "enabled" });
    expect(puts()).toEqual([["/endpoints/1.json", { endpoint: { url: HOOK, webhook_subscriptions: events } }]]);
  });
});
