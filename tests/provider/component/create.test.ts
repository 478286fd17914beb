import { afterEach, describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { mutations } from "../support";
import { inputsOf, KINDS, ops, sms, startSite, steps } from "./fixtures";

/**
 * Component's create: each kind created with its pricing as the service then holds it (no diff after), the
 * update-only fields sent right after the create, the state the kind returns, and a family that does not exist.
 */

describe("Component: create", () => {
  let sim: Simulator;
  afterEach(async () => sim?.close());

  /** Family `rockets`, the provider object and a direct context (fixtures.ts). */
  async function setup() {
    const site = await startSite();
    sim = site.sim;
    return site;
  }
  const held = (handle: string) => sim.components().find((c) => c.handle === handle);

  it.each(KINDS)("creates a %s component with its pricing, as the service holds it", async (kind, inputs) => {
    const { components, familyId } = await setup();
    const { id, outs } = await components.create(inputs);
    expect(outs).toMatchObject({ componentId: Number(id), productFamilyId: familyId, handle: inputs.handle, archivedAt: null });
    const c = held(inputs.handle as string);
    expect(c?.kind).toBe(kind);
    const def = c?.pricePoints.find((pp) => pp.default);
    expect(outs.defaultPricePointId).toBe(def?.id);
    if (kind === "on_off") expect(Number(def?.prices[0]?.unitPrice)).toBe(25);
    else if (kind === "prepaid_usage") {
      expect(def?.overagePricing?.prices.map((p) => p.startingQuantity)).toEqual([1, 101]);
      expect(def?.rolloverPrepaidRemainder).toBe(true);
    } else
      expect(def?.prices.map((p) => [p.startingQuantity, p.endingQuantity ?? null, Number(p.unitPrice)])).toEqual([
        [1, 100, 0.5],
        [101, null, 0.25],
      ]);
    // Created as declared: no diff, nothing to do.
    expect(await components.diff!(id, outs, inputs)).toMatchObject({ changes: false });
  });

  it("accountingCode and itemCategory, which only the update takes, are set right after the create", async () => {
    const { components } = await setup();
    const { id } = await components.create({ ...sms, accountingCode: "SMS-1", itemCategory: "Digital Services" });
    expect(steps(sim)).toEqual([expect.stringMatching(/^POST .*\/metered_components\.json$/), `PUT /components/${id}.json`]);
    expect(held("sms")).toMatchObject({ accountingCode: "SMS-1", itemCategory: "Digital Services" });
  });

  it("a create's state as the kind returns it: only the declared args, no site or archive key", async () => {
    const { ctx, familyId } = await setup();
    const { id, state } = await ops.create(ctx, inputsOf(sms));
    const c = held("sms");
    expect(id).toBe(String(c?.id));
    expect(state).toStrictEqual({
      componentId: c?.id,
      productFamilyId: familyId,
      handle: "sms",
      name: "Text messages",
      defaultPricePointId: c?.pricePoints[0]?.id,
      // The price point its own pricing is on: another promoted later holds its own declaration's prices.
      ownDefaultId: c?.pricePoints[0]?.id,
      archivedAt: null,
      pricingScheme: "tiered",
      prices: [
        { startingQuantity: 1, endingQuantity: 100, unitPrice: "0.5" },
        { startingQuantity: 101, endingQuantity: null, unitPrice: "0.25" },
      ],
      args: inputsOf(sms),
    });
  });

  it("a family handle no family has: the create says so, nothing sent", async () => {
    const { ctx } = await setup();
    await expect(ops.create(ctx, inputsOf({ ...sms, productFamily: "handle:boosters" }))).rejects.toThrow(
      new Error(
        "productFamily: no product family has the handle `boosters` at site default: declare a ProductFamily and pass its familyId",
      ),
    );
    expect(mutations(sim)).toEqual([]);
  });
});
