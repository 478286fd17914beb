import { afterEach, describe, expect, it } from "vitest";
import { component } from "../../provider/kinds/component";
import { type Simulator, startSimulator } from "../../simulator";
import { componentSetup, type Inputs, inputsOf, label, type State, sms, support, TIERS } from "./component-fixtures";
import { captureOutput, KEY, mutations, UNKNOWN } from "./support";

/**
 * Component behaviour the 06:05 mutation run found unchecked (provider/kinds/component.ts survivors):
 * which update checks at preview announce a price change and which look a handle up (a replacement
 * neither; an unchanged, unknown or absent handle no lookup; a handle the component itself already
 * holds no refusal); what diff calls unfinished when nothing declared changed; the ids an update's
 * check finds by handle; a resumed create that still has replaced ones to archive; a 422 with several
 * errors; a refresh without a family id; a delete's lookup only for a pending create; and an adoption
 * excusing one delete only. Against the simulator over a real socket.
 */

type Olds = Parameters<NonNullable<typeof component.operations.preflight>>[2];
const REPRICED = (handle: string) =>
  `Component \`${handle}\`: its prices change in place on its default price point: every subscription on it pays the new prices.`;
const ARCHIVED = (handle: string, id: number) =>
  `Component: archived ${label(handle, id)}; the service keeps it archived (there is no unarchive), its handle stays taken, and subscriptions on it keep it.`;

const ops = component.operations;

describe("Component, behaviour the mutation run found unchecked", () => {
  let sim: Simulator;
  afterEach(async () => {
    await sim?.close();
  });

  async function setup() {
    sim = await startSimulator({ apiKey: KEY });
    return componentSetup(sim);
  }

  const held = (handle: string) => sim.components().find((c) => c.handle === handle);
  const requests = () => sim.requests.map((r) => `${r.method} ${r.path}`);

  describe("an update's checks at preview", () => {
    it.each([
      ["its pricing scheme alone", sms, { ...sms, pricingScheme: "volume" }, "sms"],
      ["its tiers alone", sms, { ...sms, prices: [{ startingQuantity: 1, unitPrice: "0.4" }] }, "sms"],
      ["an on/off component's unit price alone", support, { ...support, unitPrice: "30" }, "support"],
    ])("%s changed: the price change is announced, nothing is looked up", async (_, olds, news, handle) => {
      const { ctx, notices } = await setup();
      expect(await ops.preflight!(ctx, inputsOf(news), inputsOf(olds))).toEqual({ failures: [] });
      expect(notices).toEqual([REPRICED(handle)]);
      expect(sim.requests).toEqual([]);
    });

    it("a create-only field changed with the tiers is a replacement: no announcement of an in-place price change, no lookup", async () => {
      const { ctx, notices } = await setup();
      const news = inputsOf({ ...sms, unitName: "text", handle: "texts", prices: [{ startingQuantity: 1, unitPrice: "0.4" }] });
      expect(await ops.preflight!(ctx, news, inputsOf(sms))).toEqual({ failures: [] });
      expect(notices).toEqual([]);
      expect(sim.requests).toEqual([]);
    });

    it.each([
      ["unchanged (its old inputs carrying no component id)", "sms"],
      ["unknown at preview", UNKNOWN],
      ["absent", undefined],
    ])("a handle %s is not looked up and not refused, though a component holds the old one", async (_, handle) => {
      const { ctx, notices } = await setup();
      sim.addComponent({ familyHandle: "rockets", kind: "metered", handle: "sms", unitName: "message" });
      sim.reset();
      const news = { ...inputsOf({ ...sms, name: "SMS" }), handle } as Inputs;
      expect(await ops.preflight!(ctx, news, inputsOf(sms))).toEqual({ failures: [] });
      expect(notices).toEqual([]);
      expect(sim.requests).toEqual([]);
    });

    it("a new handle the component itself already holds (renamed outside the stack) is no refusal", async () => {
      const { ctx } = await setup();
      const self = sim.addComponent({ familyHandle: "rockets", kind: "metered", handle: "texts", unitName: "message" });
      const olds = { ...inputsOf(sms), componentId: self.id } as Olds;
      expect(await ops.preflight!(ctx, inputsOf({ ...sms, handle: "texts" }), olds)).toEqual({ failures: [] });
      expect(requests()).toEqual(["GET /components/lookup.json"]);
    });
  });

  it("an update's check without recorded ids finds them by the old handle", async () => {
    const { components, familyId } = await setup();
    const made = sim.addComponent({ familyHandle: "rockets", kind: "metered", handle: "sms", name: "Text messages", unitName: "message" });
    const news = { ...sms, name: "SMS" };
    expect(await components.check!(sms, news)).toEqual({
      inputs: { ...news, componentId: made.id, productFamilyId: familyId, defaultPricePointId: made.pricePoints[0]?.id },
      failures: [],
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

  it("an update the service refuses with several errors names them all, joined by a semicolon", async () => {
    const { ctx } = await setup();
    const { id, state } = await ops.create(ctx, inputsOf(sms));
    const failed = await ops
      .update(ctx, id, state, inputsOf({ ...sms, description: "d".repeat(65_536), accountingCode: "a".repeat(256) }))
      .then(
        () => undefined,
        (e: Error) => e.message,
      );
    expect(failed).toBe(
      "Component `sms`: the service refused the update: description: is too long (maximum is 65535 characters).; accountingCode: is too long (maximum is 255 characters). (nothing was changed)",
    );
  });

  it("refresh of a state with a component id but no family id gives the state back and sends nothing", async () => {
    const { components } = await setup();
    const made = sim.addComponent({ familyHandle: "rockets", kind: "metered", handle: "sms", unitName: "message" });
    sim.reset();
    const s = { handle: "sms", args: sms, componentId: made.id };
    expect(await components.read!(String(made.id), s)).toEqual({ id: String(made.id), props: s });
    expect(sim.requests).toEqual([]);
  });

  describe("delete", () => {
    it("of a recorded component reads it by id and archives it: no lookup by handle", async () => {
      const { ctx, notices, familyId } = await setup();
      const made = sim.addComponent({ familyHandle: "rockets", kind: "metered", handle: "sms", unitName: "message" });
      sim.reset();
      await ops.del!(ctx, String(made.id), { handle: "sms", args: sms, productFamilyId: familyId, componentId: made.id } as State);
      expect(requests()).toEqual([
        `GET /product_families/${familyId}/components/${made.id}.json`,
        `DELETE /product_families/${familyId}/components/${made.id}.json`,
      ]);
      expect(notices).toEqual([ARCHIVED("sms", made.id)]);
    });

    it("of a pending create whose first attempt made the component finds it by handle and archives it", async () => {
      const { ctx, notices, familyId } = await setup();
      const made = sim.addComponent({ familyHandle: "rockets", kind: "metered", handle: "sms", unitName: "message" });
      sim.reset();
      const pending = { handle: "sms", args: sms, productFamilyId: familyId, pendingToken: "token-1" } as State;
      await ops.del!(ctx, "pending-token-1", pending);
      expect(requests()).toEqual([
        "GET /components/lookup.json",
        `GET /product_families/${familyId}/components/${made.id}.json`,
        `DELETE /product_families/${familyId}/components/${made.id}.json`,
      ]);
      expect(notices).toEqual([ARCHIVED("sms", made.id)]);
      expect(held("sms")?.archivedAt).not.toBeNull();
    });
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
});
