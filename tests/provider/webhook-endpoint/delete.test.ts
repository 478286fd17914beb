import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { captureOutput } from "../support";
import { endpointSite, HOOK, putBody, putsOf, SORTED } from "./site";

/**
 * WebhookEndpoint delete unsubscribes the endpoint from every event (the service has no delete of one); an endpoint
 * gone is no error; a record that names no endpoint sends nothing, and a pending create that made none says so.
 */

describe("WebhookEndpoint delete", () => {
  let sim: Simulator;
  const { setup, created } = endpointSite((started) => {
    sim = started;
  });

  it("PUTs an empty event list with the recorded url; the endpoint stays, subscribed to nothing", async () => {
    const { p, id, outs } = await created();
    const { error, text } = await captureOutput(() => p.delete!(id, outs));
    expect(error).toBeUndefined();
    expect(putsOf(sim).map((r) => [r.path, r.body])).toEqual([[`/endpoints/${id}.json`, putBody(HOOK, [])]]);
    expect(sim.endpoints()).toEqual([{ id: Number(id), url: HOOK, events: [], status: "enabled" }]);
    expect(text).toMatch(/unsubscribed from every event/);
  });

  it("an endpoint already gone is not an error", async () => {
    const { p, id, outs } = await created();
    sim.removeEndpoint(Number(id));
    const { error } = await captureOutput(() => p.delete!(id, outs));
    expect(error).toBeUndefined();
    expect(putsOf(sim).map((r) => r.status)).toEqual([404]);
    expect(sim.endpoints()).toEqual([]);
  });

  it("a pending create that made no endpoint: nothing to unsubscribe, and says so", async () => {
    const p = await setup();
    sim.addEndpoint({ url: "https://other.example.com/hooks", events: ["payment_success"] });
    const recorded = { url: HOOK, events: SORTED, pendingToken: "4b1c0f7e-3a55-4e2a-9d0c-6f1e2d3c4b5a" };
    const { error, text } = await captureOutput(() => p.delete!("pending-4b1c0f7e", recorded));
    expect(error).toBeUndefined();
    expect(text).toBe(`WebhookEndpoint: the pending create of ${HOOK} made no endpoint; nothing to unsubscribe.\n`);
    expect(sim.requests.map((r) => [r.method, r.path])).toEqual([["GET", "/endpoints.json"]]);
    expect(sim.endpoints().map((e) => e.events)).toEqual([["payment_success"]]);
  });

  it("no endpoint id and no pending create (an id that is no endpoint's): nothing is sent and nothing said", async () => {
    const p = await setup();
    sim.addEndpoint({ url: HOOK, events: SORTED });
    const { error, text } = await captureOutput(() => p.delete!("hooks-imported", { url: HOOK, events: SORTED }));
    expect(error).toBeUndefined();
    expect(text).toBe("");
    expect(sim.requests).toEqual([]);
    expect(sim.endpoints().map((e) => e.events)).toEqual([SORTED]);
  });
});
