import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { captureOutput, mutations } from "../support";
import { declared, type Json, offerSite } from "./site";

/**
 * Offer under the service's failures: a create whose outcome is unknown is recorded pending with its token and
 * site; resumed, the offer not there, it is created with the same token; there already, it is taken, not made twice.
 */

describe("Offer under the service's failures", () => {
  let sim: Simulator;
  const { setup } = offerSite((started) => {
    sim = started;
  });

  it("a create whose outcome is unknown records the pending create with its site", async () => {
    const { offers } = await setup();
    sim.injectFault({ kind: "status", status: 503, rate: 1, match: { method: "POST" } });
    const { error } = await captureOutput(() => offers.create({ ...declared, site: "eu" }));
    const partial = error as { message: string; id: string; properties: Record<string, unknown> };
    expect(partial.id).toMatch(/^pending-/);
    expect(partial.message).toMatch(/looks for offer `launch-bundle` by its handle and only re-sends the create/);
    const { __provider: _, ...recorded } = partial.properties;
    expect(recorded).toMatchObject({ handle: "launch-bundle", site: "eu", pendingToken: partial.id.slice("pending-".length) });
    expect(sim.offers()).toEqual([]);
  });

  it("a pending create resumed: created with the same token when not there, taken when there", async () => {
    const { offers } = await setup();
    const pending = { handle: "launch-bundle", args: {}, pendingToken: "tok-1" };
    const { result } = await captureOutput(() => offers.update!("pending-tok-1", pending, declared));
    expect(mutations(sim).map((r) => [r.method, r.path, (r.body as Json).uniqueness_token])).toEqual([["POST", "/offers.json", "tok-1"]]);
    expect(result?.outs).toMatchObject({ handle: "launch-bundle", couponCodes: ["SPRING25"] });
    expect(result?.outs.pendingToken).toBeUndefined();
    sim.reset();
    const again = await offers.update!("pending-tok-1", pending, declared);
    expect(again.outs).toMatchObject({ offerId: result?.outs.offerId });
    expect(mutations(sim)).toEqual([]);
    expect(sim.offers()).toHaveLength(1);
  });
});
