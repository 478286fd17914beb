import { afterEach, describe, expect, it } from "vitest";
import { notice, partialFailure } from "../../../provider/engine";
import { componentPricePoint } from "../../../provider/kinds/component-price-point";
import type { Context } from "../../../provider/kinds/kind";
import { clientFor, configure, siteLabel } from "../../../provider/runtime/config";
import { type Simulator, startSimulator } from "../../../simulator";
import { configureRequest, KEY } from "../support";
import { startSite, volume } from "./site";

/**
 * ComponentPricePoint's state: diff calling unfinished work a change, and the state the kind's own create returns
 * (the runtime drops undefined values on its way to the engine, so only the kind's own operations show them).
 */

describe("ComponentPricePoint: state", () => {
  let sim: Simulator;
  afterEach(async () => sim?.close());

  /** Metered `texts` and prepaid `credits` in family `rockets`, the provider configured for the site (site.ts). */
  async function setup(config?: (url: string) => Record<string, string>) {
    const site = await startSite(config);
    sim = site.sim;
    return site;
  }

  describe("diff: unchanged inputs still call for an update while the recorded work is unfinished", () => {
    it.each([
      ["a pending create", { pendingToken: "tok" }, true],
      ["steps left after a create", { todo: { archive: [7] } }, true],
      ["an archive made outside", { archivedAt: "2024-01-01T00:00:00Z" }, true],
      ["nothing left", {}, false],
    ])("%s", async (_, extra, changes) => {
      const { points } = await setup();
      const recorded = { handle: "texts-volume", args: volume, ...extra };
      expect(await points.diff!("7", recorded, volume)).toEqual({ changes, replaces: [], deleteBeforeReplace: false });
    });
  });
});

describe("the state the kind's own create returns: only what was declared and held", () => {
  let sim: Simulator | undefined;
  afterEach(async () => sim?.close());

  it("its args hold the declared inputs only (no key for one left out), and no site key without a site", async () => {
    sim = await startSimulator({ apiKey: KEY });
    sim.addProductFamily({ handle: "rockets", name: "Rockets" });
    const texts = sim.addComponent({ familyHandle: "rockets", kind: "metered", handle: "texts", unitName: "message", unitPrice: "0.01" });
    // The context the runtime gives each operation, from the runtime's own parts.
    const provider = {};
    configure(provider, configureRequest({ "billing:apiKey": KEY, "billing:baseUrl": sim.url }));
    const ctx: Context = {
      client: (site) => clientFor(provider, site),
      siteLabel: (site) => siteLabel(provider, site),
      partialFailure: (message, id, recorded) => partialFailure(message, id, { ...recorded }, undefined),
      notice,
    };
    const { id, state } = await componentPricePoint.operations.create(ctx, componentPricePoint.kind.inputs.parse(volume));
    expect(Object.keys(state.args).sort()).toEqual(["component", "handle", "name", "prices", "pricingScheme"]);
    expect(Object.hasOwn(state, "site")).toBe(false);
    expect(state).toMatchObject({ pricePointId: Number(id), componentId: texts.id, handle: "texts-volume", args: volume });
  });
});
