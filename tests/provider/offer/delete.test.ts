import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { captureOutput } from "../support";
import { declared, offerSite, steps } from "./site";

/** Offer delete archives it; one archived or gone already stays so; a pending create that made none sends nothing. */

describe("Offer delete", () => {
  let sim: Simulator;
  const { setup, held } = offerSite((started) => {
    sim = started;
  });

  it("archives it, and says so; archived already, nothing more is sent", async () => {
    const { offers } = await setup();
    const o = await offers.create(declared);
    sim.reset();
    const { text, error } = await captureOutput(() => offers.delete!(o.id, o.outs));
    expect(error).toBeUndefined();
    expect(text).toContain(`Offer: archived offer \`launch-bundle\` (id ${o.id}); subscriptions made from it keep what they have`);
    expect(steps(sim)).toEqual([`PUT /offers/${o.id}/archive.json`]);
    expect(held("launch-bundle")?.archivedAt).not.toBeNull();
    sim.reset();
    await offers.delete!(o.id, o.outs);
    expect(steps(sim)).toEqual([]);
  });

  it("a pending create: the offer its create made is archived, found by its handle; none made, nothing sent", async () => {
    const { offers } = await setup();
    const pending = { handle: "launch-bundle", args: {}, pendingToken: "t" };
    const { text } = await captureOutput(() => offers.delete!("pending-t", pending));
    expect(text).toContain("the pending create of `launch-bundle` made no offer; nothing to archive.");
    const o = sim.addOffer({ handle: "launch-bundle", productHandle: "launch-pro" });
    await offers.delete!("pending-t", pending);
    expect(steps(sim)).toEqual([`PUT /offers/${o.id}/archive.json`]);
  });
});
