import { afterEach, describe, expect, it } from "vitest";
import type { Simulator } from "../../../simulator";
import { captureOutput, mutations } from "../support";
import { ARCHIVED, failureOf, inputsOf, KINDS, label, NAME_KEPT, ops, type State, sms, startSite, steps, TIERS } from "./fixtures";

/**
 * Component's replacement: a create-only field changed (kind, unit name, overage, family) frees the old one's
 * handle, creates the new one, archives the old one in its own family; an adopted one declared otherwise is
 * replaced; its family named another way adopts the same component, whose old resource's delete then leaves it
 * live, once; replaced ones left to archive are archived by the next update or resumed create. A replacement in the
 * same family takes another name (the old one holds its own until archived after): keeping it is refused at check, and
 * at up before anything is sent.
 */

describe("Component: replacement", () => {
  let sim: Simulator;
  afterEach(async () => sim?.close());

  /** Family `rockets`, the provider object and a direct context (fixtures.ts). */
  async function setup() {
    const site = await startSite();
    sim = site.sim;
    return site;
  }
  const held = (handle: string) => sim.components().find((c) => c.handle === handle);

  // A replacement takes another name: the old component holds its own until it is archived after (component-names.ts).
  it.each([
    ["kind", { kind: "quantity_based", name: "Text bundles" }],
    ["unitName", { unitName: "text", name: "Texts" }],
  ])(
    "a change of %s replaces it: the old one's handle freed first, the new one created with it, the old one archived",
    async (field, change) => {
      const { components, familyId } = await setup();
      const old = await components.create(sms);
      sim.reset();
      const news = { ...sms, ...change };
      expect((await components.diff!(old.id, old.outs, news)).replaces).toEqual([field]);
      const { result, text } = await captureOutput(() => components.create(news));
      const created = result!;
      expect(created.id).not.toBe(old.id);
      expect(steps(sim)).toEqual([
        `PUT /components/${old.id}.json`, // the old one's handle freed
        expect.stringMatching(/^POST \/product_families\/\d+\/(metered|quantity_based)_components\.json$/), // the new one, with the handle
        `DELETE /product_families/${familyId}/components/${old.id}.json`, // the old one archived
      ]);
      expect(text).toMatch(new RegExp(`renamed \`sms-replaced-${old.id}\` to free its handle`));
      expect(held("sms")?.id).toBe(Number(created.id));
      expect(held(`sms-replaced-${old.id}`)?.archivedAt).not.toBeNull();
      // The engine's delete of the replaced resource then finds it archived: nothing more is sent.
      sim.reset();
      await components.delete!(old.id, old.outs);
      expect(mutations(sim)).toEqual([]);
    },
  );

  it("its family named another way (handle:, then the family's id) adopts the same component, and the old resource's delete leaves it live", async () => {
    const { components, familyId } = await setup();
    const old = await components.create(sms);
    const news = { ...sms, productFamily: familyId };
    expect((await components.diff!(old.id, old.outs, news)).replaces).toEqual(["productFamily"]);
    sim.reset();
    const adopted = await captureOutput(() => components.create(news));
    expect(adopted.result?.id).toBe(old.id);
    const deleted = await captureOutput(() => components.delete!(old.id, old.outs));
    expect(deleted.text).toMatch(/stays live: its replacement adopted it/);
    expect(mutations(sim)).toEqual([]);
    expect(held("sms")?.archivedAt).toBeNull();
    // The adopting resource's own delete archives it.
    await components.delete!(adopted.result!.id, adopted.result!.outs);
    expect(held("sms")?.archivedAt).not.toBeNull();
  });

  it("a prepaid component's new overage pricing replaces it (the service changes no overage in place)", async () => {
    const { components } = await setup();
    const prepaid = KINDS[3][1];
    const old = await components.create(prepaid);
    const news = {
      ...prepaid,
      name: "Prepaid texts",
      overagePricing: { pricingScheme: "per_unit", prices: [{ startingQuantity: 1, unitPrice: "0.3" }] },
    };
    expect((await components.diff!(old.id, old.outs, news)).replaces).toEqual(["overagePricing"]);
    const created = await components.create(news);
    expect(created.id).not.toBe(old.id);
    const live = sim.components().filter((c) => c.archivedAt === null);
    expect(live.map((c) => c.id)).toEqual([Number(created.id)]);
    expect(live[0]?.pricePoints.find((pp) => pp.default)?.overagePricing?.prices.map((p) => Number(p.unitPrice))).toEqual([0.3]);
  });

  it("a change of family replaces it; the old one is archived in its own family", async () => {
    const { components, familyId } = await setup();
    const other = sim.addProductFamily({ handle: "boosters", name: "Boosters" });
    const old = await components.create(sms);
    sim.reset();
    const news = { ...sms, productFamily: "handle:boosters" };
    expect((await components.diff!(old.id, old.outs, news)).replaces).toEqual(["productFamily"]);
    const created = await components.create(news);
    expect(created.outs.productFamilyId).toBe(other.id);
    expect(steps(sim)).toEqual([
      `PUT /components/${old.id}.json`,
      `POST /product_families/${other.id}/metered_components.json`,
      `DELETE /product_families/${familyId}/components/${old.id}.json`,
    ]);
    expect(
      sim
        .components()
        .filter((c) => c.archivedAt === null)
        .map((c) => [c.handle, c.familyId]),
    ).toEqual([["sms", other.id]]);
  });

  it("an adopted component whose create-only fields differ is replaced, not changed: the declaration wins, the old one is archived", async () => {
    const { components } = await setup();
    const made = sim.addComponent({ familyHandle: "rockets", kind: "quantity_based", handle: "sms", unitName: "seat" });
    const { result, text } = await captureOutput(() => components.create(sms));
    expect(result?.id).not.toBe(String(made.id));
    expect(text).toMatch(/renamed `sms-replaced-\d+` to free its handle.*kind quantity_based → metered, unitName seat → message/);
    const live = sim.components().filter((c) => c.archivedAt === null);
    expect(live.map((c) => [c.handle, c.kind])).toEqual([["sms", "metered"]]);
  });

  it("archives what it replaced first, named by id when it has no handle, and records none left", async () => {
    const { ctx, notices, familyId } = await setup();
    const { id, state } = await ops.create(ctx, inputsOf(sms));
    const old = sim.addComponent({ familyHandle: "rockets", kind: "metered", handle: null, unitName: "message" });
    sim.reset();
    const after = await ops.update(
      ctx,
      id,
      { ...state, todo: { archive: [{ componentId: old.id, productFamilyId: familyId }] } },
      inputsOf(sms),
    );
    expect(steps(sim)).toEqual([`DELETE /product_families/${familyId}/components/${old.id}.json`]);
    expect(notices).toEqual([`Component: archived the replaced ${label("?", old.id)}.`]);
    expect(after).toStrictEqual(state);
  });

  it("a resumed create still archives the ones it replaced, then records none left", async () => {
    const { ctx, notices, familyId } = await setup();
    const old = sim.addComponent({ familyHandle: "rockets", kind: "metered", handle: "sms-replaced-1", unitName: "message" });
    // What the first attempt made, its answer lost.
    const made = sim.addComponent({
      familyHandle: "rockets",
      kind: "metered",
      handle: "sms",
      name: "Text messages",
      unitName: "message",
      pricingScheme: "tiered",
      prices: TIERS,
    });
    sim.reset();
    const pending = {
      handle: "sms",
      args: sms,
      productFamilyId: familyId,
      pendingToken: "token-1",
      todo: { archive: [{ componentId: old.id, productFamilyId: familyId }] },
    } as State;
    const resumed = await ops.update(ctx, "pending-token-1", pending, inputsOf(sms));
    expect(resumed.componentId).toBe(made.id);
    expect("archive" in resumed).toBe(false);
    expect("todo" in resumed).toBe(false);
    expect(mutations(sim).map((r) => `${r.method} ${r.path}`)).toEqual([`DELETE /product_families/${familyId}/components/${old.id}.json`]);
    expect(notices).toEqual([`Component: archived the replaced ${label("sms-replaced-1", old.id)}.`]);
    expect(held("sms-replaced-1")?.archivedAt).not.toBeNull();
  });

  it("an adoption excuses the replaced resource's delete once: the same delete again archives it", async () => {
    const { components, familyId } = await setup();
    const old = await components.create(sms);
    const adopted = await components.create({ ...sms, productFamily: familyId });
    expect(adopted.id).toBe(old.id);
    const first = await captureOutput(() => components.delete!(old.id, old.outs));
    expect(first.text).toMatch(/stays live: its replacement adopted it/);
    expect(held("sms")?.archivedAt).toBeNull();
    const again = await captureOutput(() => components.delete!(old.id, old.outs));
    expect(again.text).toContain(ARCHIVED("sms", Number(old.id)));
    expect(held("sms")?.archivedAt).not.toBeNull();
  });

  describe("its name (unique among the family's live components: component-names.ts)", () => {
    const live = () =>
      sim
        .components()
        .filter((c) => c.archivedAt === null)
        .map((c) => [c.handle, c.name]);

    it.each([
      ["kind", { kind: "quantity_based" }, "kind metered → quantity_based"],
      ["unitName", { unitName: "text" }, "unitName message → text"],
    ])("a change of %s keeping the name is refused at check, saying what is accepted; nothing is sent", async (_, change, changed) => {
      const { components } = await setup();
      const old = await components.create(sms);
      sim.reset();
      const checked = await components.check!({ ...sms, componentId: old.outs.componentId }, { ...sms, ...change });
      expect(checked.failures).toEqual([{ property: "name", reason: NAME_KEPT("Text messages", "sms", Number(old.id), changed) }]);
      expect(mutations(sim)).toEqual([]);
    });

    it("under a new handle too: the old component keeps the name until it is archived after the new one exists", async () => {
      const { components } = await setup();
      const old = await components.create(sms);
      sim.reset();
      const checked = await components.check!(sms, { ...sms, unitName: "text", handle: "texts" });
      expect(checked.failures).toEqual([{ property: "name", reason: NAME_KEPT("Text messages", "sms", Number(old.id), "unitName") }]);
      expect(mutations(sim)).toEqual([]);
    });

    it("at up (what preview could not see): refused before the old one's handle is freed; nothing is sent", async () => {
      const { components } = await setup();
      const old = await components.create(sms);
      sim.reset();
      const failed = await failureOf(components.create({ ...sms, kind: "quantity_based" }));
      expect(failed?.message).toBe(
        `Component \`sms\`: name ${NAME_KEPT("Text messages", "sms", Number(old.id), "kind metered → quantity_based")}. Nothing was changed`,
      );
      expect(mutations(sim)).toEqual([]);
      expect(live()).toEqual([["sms", "Text messages"]]);
    });

    it("moved to another family, it keeps its name: accepted at check and made", async () => {
      const { components } = await setup();
      sim.addProductFamily({ handle: "boosters", name: "Boosters" });
      const old = await components.create(sms);
      const news = { ...sms, productFamily: "handle:boosters" };
      expect((await components.check!(sms, news)).failures).toEqual([]);
      await components.create(news);
      await components.delete!(old.id, old.outs);
      expect(live()).toEqual([["sms", "Text messages"]]);
    });

    it("the accepted way: replaced under another name, then renamed back in place once the old one is archived", async () => {
      const { components } = await setup();
      const old = await components.create(sms);
      const replacement = { ...sms, unitName: "text", name: "Texts" };
      expect((await components.check!(sms, replacement)).failures).toEqual([]);
      const made = await components.create(replacement);
      // The engine then deletes the replaced resource: archived already, nothing more is sent.
      await components.delete!(old.id, old.outs);
      const back = { ...replacement, name: "Text messages" };
      expect((await components.check!(replacement, back)).failures).toEqual([]);
      const renamed = await components.update!(made.id, made.outs, back);
      expect(renamed.outs).toMatchObject({ componentId: Number(made.id), name: "Text messages" });
      expect(live()).toEqual([["sms", "Text messages"]]);
    });

    it("a first deploy replacing the component its handle finds (create-only fields differ) under the same name: refused at check and at up", async () => {
      const { components } = await setup();
      const made = sim.addComponent({
        familyHandle: "rockets",
        kind: "quantity_based",
        handle: "sms",
        name: "Text messages",
        unitName: "seat",
      });
      sim.reset();
      const reason = NAME_KEPT("Text messages", "sms", made.id, "kind quantity_based → metered, unitName seat → message");
      expect((await components.check!({}, sms)).failures).toEqual([{ property: "name", reason }]);
      expect((await failureOf(components.create(sms)))?.message).toBe(`Component \`sms\`: name ${reason}. Nothing was changed`);
      expect(mutations(sim)).toEqual([]);
    });
  });
});
