import { describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { captureOutput } from "../support";
import { declared, offerSite, steps } from "./site";

/**
 * An offer cannot change at the service (no update) and keeps its handle when archived: a change under the same
 * handle is refused at preview naming the field; a new handle replaces the offer, the new one created before the
 * old one is archived; an update sends nothing.
 */

describe("Offer change and replacement", () => {
  let sim: Simulator;
  const { setup, held } = offerSite((started) => {
    sim = started;
  });

  it("a change under the same handle is refused at preview, naming the field and the way out", async () => {
    const { offers } = await setup();
    const made = await offers.create(declared);
    const changed = { ...declared, components: [{ component: "handle:seats", pricePoint: "handle:seats-bulk", startingQuantity: 6 }] };
    const { failures } = await offers.check!(made.outs, changed);
    expect(failures).toEqual([
      {
        property: "components",
        reason: expect.stringMatching(/components changed, and the service has no update of an offer.*new handle/),
      },
    ]);
    // Had the check been skipped, the update still sends nothing.
    sim.reset();
    await expect(offers.update!(made.id, made.outs, changed)).rejects.toThrow(/holds another components than declared/);
    expect(steps(sim)).toEqual([]);
  });

  it("a new handle replaces it: diff plans a create-first replacement, the new offer is created, then the old one archived", async () => {
    const { offers } = await setup();
    const old = await offers.create(declared);
    const renamed = { ...declared, handle: "launch-bundle-2", coupons: [] };
    expect((await offers.check!(old.outs, renamed)).failures).toEqual([]);
    expect(await offers.diff!(old.id, old.outs, renamed)).toEqual({
      changes: true,
      replaces: ["handle"],
      deleteBeforeReplace: false,
    });
    sim.reset();
    const made = await offers.create(renamed);
    const { text } = await captureOutput(() => offers.delete!(old.id, old.outs));
    expect(steps(sim)).toEqual(["POST /offers.json", `PUT /offers/${old.id}/archive.json`]);
    expect(text).toContain(`archived offer \`launch-bundle\` (id ${old.id})`);
    expect(held("launch-bundle-2")).toMatchObject({ id: Number(made.id), couponIds: [], archivedAt: null });
  });

  it("an update whose declaration resolves to what the offer holds sends nothing", async () => {
    const { offers, catalog } = await setup();
    const made = await offers.create(declared);
    sim.reset();
    const { outs } = await offers.update!(made.id, made.outs, { ...declared, product: catalog.product.id, adopt: false });
    expect(outs).toMatchObject({ offerId: Number(made.id), args: { product: catalog.product.id, adopt: false } });
    expect(steps(sim)).toEqual([]);
  });
});
