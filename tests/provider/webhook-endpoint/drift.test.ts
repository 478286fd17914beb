import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { endpointSite, HOOK, SORTED } from "./site";

/**
 * WebhookEndpoint refresh: the events, url and status the service holds come back; an endpoint removed comes back
 * with an empty id, so the engine drops it; a record without an endpoint id is kept as it is, reading nothing.
 */

describe("WebhookEndpoint drift", () => {
  let sim: Simulator;
  const { setup, created } = endpointSite((started) => {
    sim = started;
  });

  it.each([
    [
      "events",
      { events: ["refund_success", "payment_success", "refund_success"] },
      { url: HOOK, events: ["payment_success", "refund_success"] },
    ],
    ["url", { url: "https://moved.example.com/hooks" }, { url: "https://moved.example.com/hooks", events: SORTED }],
    ["status", { status: "disabled" }, { url: HOOK, events: SORTED, status: "disabled" }],
  ])("%s changed on the service come back in the props", async (_, change, expected) => {
    const { p, id, outs } = await created();
    sim.updateEndpoint(Number(id), change);
    const read = await p.read!(id, outs);
    expect(read.id).toBe(id);
    expect(read.props).toMatchObject({ endpointId: Number(id), ...expected });
    expect(sim.requests.every((r) => r.method === "GET")).toBe(true);
  });

  it("an endpoint removed from the list comes back with an empty id, so the engine drops it", async () => {
    const { p, id, outs } = await created();
    sim.addEndpoint({ url: "https://other.example.com/hooks", events: ["payment_success"] });
    sim.removeEndpoint(Number(id));
    expect(await p.read!(id, outs)).toEqual({ id: "", props: {} });
  });

  it.each(["hooks-imported", "12abc", "abc12"])(
    "read of a record without an endpoint id, under id %s, keeps it and reads nothing",
    async (id) => {
      const p = await setup();
      sim.addEndpoint({ id: 12, url: HOOK, events: ["payment_success"] });
      const recorded = { url: HOOK, events: SORTED };
      expect((await p.read!(id, recorded)).props).toEqual(recorded);
      expect(sim.requests).toEqual([]);
    },
  );
});
