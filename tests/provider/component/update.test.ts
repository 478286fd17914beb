import { afterEach, describe, expect, it } from "vitest";
import type { component } from "../../../provider/kinds/component";
import type { Simulator } from "../../../simulator";
import { captureOutput, mutations, UNKNOWN } from "../support";
import {
  failureOf,
  type Inputs,
  inputsOf,
  KINDS,
  label,
  NAME_TAKEN,
  ops,
  REPRICED,
  requests,
  type State,
  sms,
  startSite,
  steps,
  support,
  TIERS,
} from "./fixtures";

type Olds = Parameters<NonNullable<typeof component.operations.preflight>>[2];

/**
 * Component's in-place update: the component's fields through its update, the scheme, tiers, on/off price and
 * interval through its default price point (announced at preview), a repeated update sending nothing; the checks
 * of an update at preview (a handle another component holds, the ids carried); what the service refuses.
 */

describe("Component: update in place", () => {
  let sim: Simulator;
  afterEach(async () => sim?.close());

  /** Family `rockets`, the provider object and a direct context (fixtures.ts). */
  async function setup() {
    const site = await startSite();
    sim = site.sim;
    return site;
  }
  const held = (handle: string) => sim.components().find((c) => c.handle === handle);

  it("name and handle change in place through the component's update", async () => {
    const { components } = await setup();
    const { id, outs } = await components.create(sms);
    sim.reset();
    const news = { ...sms, name: "SMS", handle: "sms-v2" };
    expect(await components.diff!(id, outs, news)).toMatchObject({ changes: true, replaces: [] });
    const updated = await components.update!(id, outs, news);
    expect(updated.outs).toMatchObject({ handle: "sms-v2", name: "SMS", componentId: Number(id) });
    expect(steps(sim)).toEqual([`PUT /components/${id}.json`]);
    expect(held("sms-v2")?.id).toBe(Number(id));
    // Repeated (a retried up): the service already holds it, nothing is sent.
    sim.reset();
    await components.update!(id, updated.outs, news);
    expect(mutations(sim)).toEqual([]);
  });

  it("at preview: a new handle another component holds is refused, a price change is announced; nothing is sent", async () => {
    const { components } = await setup();
    const { outs } = await components.create(sms);
    sim.addComponent({ familyHandle: "rockets", kind: "on_off", handle: "taken", archived: true });
    sim.reset();
    const refused = await components.check!({ ...sms, componentId: outs.componentId }, { ...sms, handle: "taken" });
    expect(refused.failures?.[0]).toMatchObject({ property: "handle" });
    expect(refused.failures?.[0]?.reason).toMatch(/must be a handle no other component has: component `taken` .* \(archived\) holds it/);
    const repriced = await captureOutput(() =>
      components.check!(sms, { ...sms, prices: [{ startingQuantity: 1, unitPrice: 1 }], pricingScheme: "per_unit" }),
    );
    expect(repriced.result?.failures ?? []).toEqual([]);
    expect(repriced.text).toMatch(
      /pricing change \(pricingScheme tiered → per_unit, prices 1–100 at \$0\.50; 101\+ at \$0\.25 → 1\+ at \$1\.00\): in place/,
    );
    expect(mutations(sim)).toEqual([]);
  });

  it("new tiers change in place through the default price point, which keeps its id", async () => {
    const { components } = await setup();
    const { id, outs } = await components.create(sms);
    sim.reset();
    const prices = [
      { startingQuantity: 1, endingQuantity: 50, unitPrice: "0.6" },
      { startingQuantity: 51, endingQuantity: 500, unitPrice: "0.3" },
      { startingQuantity: 501, unitPrice: "0.1" },
    ];
    const news = { ...sms, pricingScheme: "volume", prices };
    expect(await components.diff!(id, outs, news)).toMatchObject({ changes: true, replaces: [] });
    const { text, result } = await captureOutput(() => components.update!(id, outs, news));
    expect(text).toMatch(/pricing of its default price point .* changed in place/);
    expect(steps(sim)).toEqual([`PUT /components/${id}/price_points/${outs.defaultPricePointId}.json`]);
    const def = held("sms")?.pricePoints.find((pp) => pp.default);
    expect(def?.id).toBe(outs.defaultPricePointId);
    expect(def?.pricingScheme).toBe("volume");
    expect(def?.prices.map((p) => [p.startingQuantity, p.endingQuantity ?? null])).toEqual([
      [1, 50],
      [51, 500],
      [501, null],
    ]);
    expect(await components.diff!(id, result!.outs, news)).toMatchObject({ changes: false });
  });

  it("an on/off component's price changes in place", async () => {
    const { components } = await setup();
    const support = KINDS[2][1];
    const { id, outs } = await components.create(support);
    const updated = await components.update!(id, outs, { ...support, unitPrice: "30" });
    expect(Number(held("support")?.pricePoints.find((pp) => pp.default)?.prices[0]?.unitPrice)).toBe(30);
    expect(updated.outs.defaultPricePointId).toBe(outs.defaultPricePointId);
  });

  it("an in-place update's outputs carry no archive key when nothing is left to archive", async () => {
    const { components, familyId } = await setup();
    const { id, outs } = await components.create(sms);
    const c = held("sms");
    const updated = await components.update!(id, outs, { ...sms, name: "SMS" });
    expect(updated.outs).toEqual({
      componentId: c?.id,
      productFamilyId: familyId,
      handle: "sms",
      name: "SMS",
      defaultPricePointId: c?.pricePoints[0]?.id,
      // The price point its own pricing is on: another promoted later holds its own declaration's prices.
      ownDefaultId: c?.pricePoints[0]?.id,
      archivedAt: null,
      pricingScheme: "tiered",
      prices: [
        { startingQuantity: 1, endingQuantity: 100, unitPrice: "0.5" },
        { startingQuantity: 101, endingQuantity: null, unitPrice: "0.25" },
      ],
      args: { ...sms, name: "SMS" },
    });
  });

  describe("interval and its unit change the default price point in place; unchanged, nothing is sent for them", () => {
    const monthly = { ...sms, interval: 1, intervalUnit: "month" };
    it.each([
      ["interval", { interval: 2 }, { interval: 2, intervalUnit: "month" }],
      ["intervalUnit", { intervalUnit: "day" }, { interval: 1, intervalUnit: "day" }],
    ])("a new %s", async (_, change, expected) => {
      const { components } = await setup();
      const { id, outs } = await components.create(monthly);
      sim.reset();
      await captureOutput(() => components.update!(id, outs, { ...monthly, ...change }));
      expect(steps(sim)).toEqual([`PUT /components/${id}/price_points/${outs.defaultPricePointId}.json`]);
      const def = held("sms")?.pricePoints.find((pp) => pp.default);
      expect({ interval: def?.interval, intervalUnit: def?.intervalUnit }).toEqual(expected);
    });

    it("the same interval and unit, a new name: only the component's update", async () => {
      const { components } = await setup();
      const { id, outs } = await components.create(monthly);
      sim.reset();
      await components.update!(id, outs, { ...monthly, name: "SMS" });
      expect(steps(sim)).toEqual([`PUT /components/${id}.json`]);
    });
  });

  it("an on/off component's new price is one open tier of its default price point, in place", async () => {
    const { ctx, notices } = await setup();
    const { id, state } = await ops.create(ctx, inputsOf(support));
    sim.reset();
    const after = await ops.update(ctx, id, state, inputsOf({ ...support, unitPrice: "30" }));
    expect(steps(sim)).toEqual([`PUT /components/${id}/price_points/${state.defaultPricePointId}.json`]);
    expect(after.prices).toEqual([{ startingQuantity: 1, endingQuantity: null, unitPrice: "30.0" }]);
    expect(notices).toEqual([
      `Component \`support\`: pricing of its default price point (id ${state.defaultPricePointId}) changed in place; every subscription on it pays the new prices.`,
    ]);
  });

  it("of a component the service no longer has: says to refresh, nothing sent", async () => {
    const { ctx, familyId } = await setup();
    const s = { handle: "sms", args: sms, componentId: 999999, productFamilyId: familyId } as State;
    await expect(ops.update(ctx, "999999", s, inputsOf(sms))).rejects.toThrow(
      new Error(`${label("sms", 999999)} no longer exists at the service: run \`pulumi refresh\` to drop it (nothing was changed)`),
    );
    expect(mutations(sim)).toEqual([]);
  });

  it("of a component archived at the service (its handle gone too): refused, by id", async () => {
    const { ctx, familyId } = await setup();
    const gone = sim.addComponent({ familyHandle: "rockets", kind: "metered", handle: null, unitName: "message", archived: true });
    const s = { handle: "sms", args: sms, componentId: gone.id, productFamilyId: familyId } as State;
    await expect(ops.update(ctx, String(gone.id), s, inputsOf(sms))).rejects.toThrow(
      new Error(
        `${label("?", gone.id)} is archived at the service (since ${gone.archivedAt}), an archived component keeps its handle, ` +
          "and the service has no unarchive for components: declare the component with another handle. " +
          "Nothing was changed; to let it go, remove it from the program (its destroy changes nothing more).",
      ),
    );
    expect(mutations(sim)).toEqual([]);
  });

  it("a converge the service refuses (422) names the update and every error the service gave", async () => {
    const { ctx } = await setup();
    const { id, state } = await ops.create(ctx, inputsOf(sms));
    // The SDK lets it through (the contract publishes no bound on a description); the service refuses one over 65,535
    // characters. (A blank name and a long tax code, which this test sent before, are now refused by the SDK.)
    const failed = await failureOf(ops.update(ctx, id, state, inputsOf({ ...sms, description: "d".repeat(65_536) })));
    expect(failed?.message).toBe(
      "Component `sms`: the service refused the update: description: is too long (maximum is 65535 characters). (nothing was changed)",
    );
  });

  describe("check of an update", () => {
    it("carries the recorded ids, so preview shows them known", async () => {
      const { components } = await setup();
      const olds = { ...sms, componentId: 30001, productFamilyId: 9001, defaultPricePointId: 40001 };
      // A new description: a new name is looked up in the family (renameFailures), which this test is not about.
      const news = { ...sms, description: "Texts sent" };
      expect(await components.check!(olds, news)).toEqual({
        inputs: { ...news, componentId: 30001, productFamilyId: 9001, defaultPricePointId: 40001 },
        failures: [],
      });
      expect(sim.requests).toEqual([]);
    });

    it("a new handle a live component holds is refused, not called archived", async () => {
      const { components } = await setup();
      const { outs } = await components.create(sms);
      const other = sim.addComponent({ familyHandle: "rockets", kind: "on_off", handle: "taken" });
      const checked = await components.check!({ ...sms, componentId: outs.componentId }, { ...sms, handle: "taken" });
      expect(checked.failures).toEqual([
        {
          property: "handle",
          reason: `must be a handle no other component has: ${label("taken", other.id)} holds it, and handles are unique among the site's components, archived ones included; choose another`,
        },
      ]);
    });
  });

  describe("an update's checks at preview", () => {
    const cheaper = [
      { startingQuantity: 1, endingQuantity: 100, unitPrice: "0.4" },
      { startingQuantity: 101, unitPrice: "0.25" },
    ];
    it.each([
      [
        "its pricing scheme alone",
        sms,
        { ...sms, pricingScheme: "volume" },
        "sms",
        "pricingScheme tiered → volume",
        { pricingScheme: "tiered" },
      ],
      ["its first tier's price alone", sms, { ...sms, prices: cheaper }, "sms", "prices 1–100 $0.50 → $0.40", { prices: TIERS }],
      [
        "its tiers' ranges",
        sms,
        { ...sms, prices: [{ startingQuantity: 1, unitPrice: "0.4" }] },
        "sms",
        "prices 1–100 at $0.50; 101+ at $0.25 → 1+ at $0.40",
        { prices: TIERS },
      ],
      [
        "an on/off component's unit price alone",
        support,
        { ...support, unitPrice: "30" },
        "support",
        "unitPrice $25.00 → $30.00",
        { unitPrice: "25" },
      ],
    ])(
      "%s changed: announced old → new in money, the change in preview for the policy and review, nothing looked up",
      async (_, olds, news, handle, change, from) => {
        const { ctx, notices } = await setup();
        const checked = await ops.preflight!(ctx, inputsOf(news), inputsOf(olds));
        expect(checked.failures).toEqual([]);
        expect(checked.preview?.pricingChange).toMatchObject({ fields: Object.keys(from), from });
        expect(notices).toEqual([REPRICED(handle, change)]);
        expect(sim.requests).toEqual([]);
      },
    );

    it("tiers written otherwise with the same prices (0.5 as 0.50) are no price change", async () => {
      const { ctx, notices } = await setup();
      const same = TIERS.map((t) => ({ ...t, unitPrice: Number(t.unitPrice).toFixed(2) }));
      expect(await ops.preflight!(ctx, inputsOf({ ...sms, prices: same }), inputsOf(sms))).toEqual({ failures: [] });
      expect(notices).toEqual([]);
    });

    it("a create-only field changed with the tiers is a replacement: no announcement of an in-place price change, its name judged as a create's", async () => {
      const { ctx, notices } = await setup();
      const news = { ...sms, unitName: "text", handle: "texts", name: "Texts", prices: [{ startingQuantity: 1, unitPrice: "0.4" }] };
      expect(await ops.preflight!(ctx, inputsOf(news), inputsOf(sms))).toEqual({ failures: [] });
      expect(notices).toEqual([]);
      // Only reads: the family's live components' names (replace.test.ts has the refusals).
      expect(mutations(sim)).toEqual([]);
      expect(requests(sim)).toContain("GET /product_families/handle:rockets.json");
    });

    it.each([
      ["unchanged (its old inputs carrying no component id)", "sms"],
      ["unknown at preview", UNKNOWN],
      ["absent", undefined],
    ])("a handle %s is not looked up and not refused, though a component holds the old one", async (_, handle) => {
      const { ctx, notices } = await setup();
      sim.addComponent({ familyHandle: "rockets", kind: "metered", handle: "sms", unitName: "message" });
      sim.reset();
      const news = { ...inputsOf({ ...sms, description: "Texts sent" }), handle } as Inputs;
      expect(await ops.preflight!(ctx, news, inputsOf(sms))).toEqual({ failures: [] });
      expect(notices).toEqual([]);
      expect(sim.requests).toEqual([]);
    });

    it("a new handle the component itself already holds (renamed outside the stack) is no refusal", async () => {
      const { ctx } = await setup();
      const self = sim.addComponent({ familyHandle: "rockets", kind: "metered", handle: "texts", unitName: "message" });
      const olds = { ...inputsOf(sms), componentId: self.id } as Olds;
      expect(await ops.preflight!(ctx, inputsOf({ ...sms, handle: "texts" }), olds)).toEqual({ failures: [] });
      expect(requests(sim)).toEqual(["GET /components/lookup.json"]);
    });
  });

  describe("a new name (unique among the family's live components: component-names.ts)", () => {
    it("another live component of the family holding it is refused at check, naming it, with the handle's refusal too; nothing is sent", async () => {
      const { components } = await setup();
      const { outs } = await components.create(sms);
      const other = sim.addComponent({ familyHandle: "rockets", kind: "on_off", handle: "support", name: "Support" });
      sim.reset();
      const olds = { ...sms, componentId: outs.componentId, productFamilyId: outs.productFamilyId };
      expect((await components.check!(olds, { ...sms, name: "Support" })).failures).toEqual([
        { property: "name", reason: NAME_TAKEN("Support", "support", other.id) },
      ]);
      // Its old inputs carrying no ids: its own component is told by its handle, the family read by its reference.
      const both = await components.check!(sms, { ...sms, name: "Support", handle: "support" });
      expect(both.failures?.map((f) => f.property)).toEqual(["handle", "name"]);
      expect(mutations(sim)).toEqual([]);
    });

    it.each([
      ["an archived component's name", "rockets", true],
      ["a component's name in another family", "boosters", false],
    ])("%s is no refusal, and the service takes it", async (_, family, archived) => {
      const { components } = await setup();
      sim.addProductFamily({ handle: "boosters", name: "Boosters" });
      const { id, outs } = await components.create(sms);
      sim.addComponent({ familyHandle: family, kind: "on_off", handle: "support", name: "Support", archived });
      const news = { ...sms, name: "Support" };
      expect((await components.check!(sms, news)).failures).toEqual([]);
      expect((await components.update!(id, outs, news)).outs.name).toBe("Support");
    });

    it("its own name (renamed so outside the stack) is no refusal", async () => {
      const { components, ctx, familyId } = await setup();
      const { outs } = await components.create(sms);
      await ctx.client(undefined).updateComponent(familyId, outs.componentId, { name: "SMS" });
      expect((await components.check!(sms, { ...sms, name: "SMS" })).failures).toEqual([]);
    });

    it("at up, the service's refusal of a taken name is reported and nothing changed", async () => {
      const { components } = await setup();
      const { id, outs } = await components.create(sms);
      sim.addComponent({ familyHandle: "rockets", kind: "on_off", handle: "support", name: "Support" });
      const failed = await failureOf(components.update!(id, outs, { ...sms, name: "Support" }));
      expect(failed?.message).toMatch(/the service refused the update: name: must be unique - that value has been taken\./);
      expect(sim.components().find((c) => c.id === Number(id))?.name).toBe("Text messages");
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
});
