import { afterEach, describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { KEY } from "../support";
import { ops, type State, sms, startSite } from "./fixtures";

/**
 * Component's drift and refresh: a change made outside (the web UI) read by refresh, shown by diff and undone by
 * up; tiers changed outside in the declaration's terms; refresh of one gone, by a resource id, or without a family
 * id; and diff calling unfinished work (a pending create, replaced ones to archive, an archive outside) a change.
 */

describe("Component: drift and refresh", () => {
  let sim: Simulator;
  afterEach(async () => sim?.close());

  /** Family `rockets`, the provider object and a direct context (fixtures.ts). */
  async function setup() {
    const site = await startSite();
    sim = site.sim;
    return site;
  }
  const held = (handle: string) => sim.components().find((c) => c.handle === handle);

  it("refresh reads a change made in the web UI, and up restores the declaration", async () => {
    const { components } = await setup();
    const { id, outs } = await components.create(sms);
    await fetch(`${sim.url}/components/${id}.json`, {
      method: "PUT",
      headers: { authorization: `Basic ${Buffer.from(`${KEY}:x`).toString("base64")}`, "content-type": "application/json" },
      body: JSON.stringify({ component: { name: "Renamed in the UI" } }),
    });
    const read = await components.read!(id, outs);
    expect(read.props?.name).toBe("Renamed in the UI");
    expect((await components.diff!(id, read.props, sms)).changes).toBe(true);
    const { outs: after } = await components.update!(id, read.props, sms);
    expect(after.name).toBe("Text messages");
    expect(held("sms")?.name).toBe("Text messages");
  });

  it("refresh of a component gone from the service drops it", async () => {
    const { components } = await setup();
    const { outs } = await components.create(sms);
    const read = await components.read!("999999", { ...outs, componentId: 999999 });
    expect(read.id ?? "").toBe("");
  });

  describe("recorded inputs: tiers changed outside, in the declaration's terms", () => {
    const outside = [
      { startingQuantity: 1, endingQuantity: 50, unitPrice: "0.6" },
      { startingQuantity: 51, endingQuantity: null, unitPrice: "0.3" },
    ];
    const state = { handle: "sms", args: sms, pricingScheme: "tiered", prices: outside } as unknown as State;

    it("the held tiers, the open one without an endingQuantity key", () => {
      expect(ops.recordedInputs(state)).toStrictEqual({
        ...sms,
        prices: [
          { startingQuantity: 1, endingQuantity: 50, unitPrice: "0.6" },
          { startingQuantity: 51, unitPrice: "0.3" },
        ],
      });
    });

    it("a declaration that now says what the service holds is no change", async () => {
      const { components } = await setup();
      const { id, outs } = await components.create(sms);
      const read = { ...outs, prices: outside };
      const now = { ...sms, prices: [outside[0], { startingQuantity: 51, unitPrice: "0.3" }] };
      expect(await components.diff!(id, read, now)).toEqual({ changes: false, replaces: [], deleteBeforeReplace: false });
      expect((await components.diff!(id, read, sms)).changes).toBe(true);
    });
  });

  describe("refresh by the resource id when the state has no component id: only a decimal id without a leading zero is one", () => {
    it.each([
      ["the component's id", (id: number) => String(id), true],
      ["a leading zero", (id: number) => `0${id}`, false],
      ["a trailing letter", (id: number) => `${id}x`, false],
      ["a leading letter", (id: number) => `x${id}`, false],
    ])("%s", async (_, idOf, reads) => {
      const { components, familyId } = await setup();
      const made = sim.addComponent({
        familyHandle: "rockets",
        kind: "metered",
        handle: "sms",
        name: "Text messages",
        unitName: "message",
      });
      const s = { handle: "sms", args: sms, productFamilyId: familyId };
      sim.reset();
      const read = await components.read!(idOf(made.id), s);
      expect(read).toEqual({
        id: idOf(made.id),
        props: reads
          ? {
              ...s,
              componentId: made.id,
              name: "Text messages",
              defaultPricePointId: made.pricePoints[0]?.id,
              archivedAt: null,
              pricingScheme: "per_unit",
              prices: [{ startingQuantity: 1, endingQuantity: null, unitPrice: "1.0" }],
            }
          : s,
      });
      expect(sim.requests.map((r) => `${r.method} ${r.path}`)).toEqual(
        reads
          ? [
              `GET /product_families/${familyId}/components/${made.id}.json`,
              `GET /components/${made.id}/price_points/${made.pricePoints[0]?.id}.json`,
            ]
          : [],
      );
    });
  });

  describe("diff, nothing declared changed: unfinished business is a change", () => {
    it.each([
      ["a pending create's token", { pendingToken: "token-1" }, true],
      ["replaced ones left to archive", { todo: { archive: [{ componentId: 5, productFamilyId: 7 }] } }, true],
      ["an empty archive list", { todo: { archive: [] } }, false],
      ["archived at the service", { archivedAt: "2026-01-02T03:04:05Z" }, true],
      ["not archived (null)", { archivedAt: null }, false],
      ["none of these", {}, false],
    ])("%s: changes %s", async (_, extra, changes) => {
      const { components } = await setup();
      const prices = [
        { startingQuantity: 1, endingQuantity: 100, unitPrice: "0.5" },
        { startingQuantity: 101, endingQuantity: null, unitPrice: "0.25" },
      ];
      const outs = {
        handle: "sms",
        productFamilyId: 7,
        componentId: 5,
        name: "Text messages",
        pricingScheme: "tiered",
        prices,
        args: sms,
        ...extra,
      };
      expect(await components.diff!("5", outs, sms)).toEqual({ changes, replaces: [], deleteBeforeReplace: false });
    });
  });

  it("refresh of a state with a component id but no family id gives the state back and sends nothing", async () => {
    const { components } = await setup();
    const made = sim.addComponent({ familyHandle: "rockets", kind: "metered", handle: "sms", unitName: "message" });
    sim.reset();
    const s = { handle: "sms", args: sms, componentId: made.id };
    expect(await components.read!(String(made.id), s)).toEqual({ id: String(made.id), props: s });
    expect(sim.requests).toEqual([]);
  });
});
