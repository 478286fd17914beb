import { afterEach, describe, expect, it } from "vitest";
import { componentProvider, productFamilyProvider } from "../../provider";
import type { Simulator } from "../../simulator";
import { sms, TIERS } from "./component-fixtures";
import { captureOutput, configured, configureRequest, KEY, mutations, UNKNOWN } from "./support";

/**
 * The Component kind's provider object against the simulator over a real socket: each kind
 * created with its tiers, what changes in place (the component's fields, the tiers through its
 * default price point), what replaces it (its handle freed first), adoption, refresh, delete, and
 * bad input named by property before anything is sent.
 */

const family = { handle: "rockets", name: "Rockets" };

const KINDS: [string, Record<string, unknown>][] = [
  ["metered", sms],
  ["quantity_based", { ...sms, kind: "quantity_based", handle: "seats", unitName: "seat", recurring: true }],
  ["on_off", { productFamily: "handle:rockets", kind: "on_off", handle: "support", name: "Support", unitPrice: "25" }],
  [
    "prepaid_usage",
    {
      ...sms,
      kind: "prepaid_usage",
      handle: "prepaid-sms",
      pricingScheme: "per_unit",
      prices: [{ startingQuantity: 1, unitPrice: "0.1" }],
      overagePricing: { pricingScheme: "volume", prices: TIERS },
      rolloverPrepaidRemainder: true,
      expirationInterval: 1,
      expirationIntervalUnit: "month",
    },
  ],
  ["event_based", { ...sms, kind: "event_based", handle: "api-calls", unitName: "call", eventBasedBillingMetricId: 7 }],
];

const steps = (sim: Simulator) => mutations(sim).map((r) => `${r.method} ${r.path}`);

describe("Component provider", () => {
  let sim: Simulator;
  afterEach(async () => sim?.close());

  async function setup(withFamily = true) {
    const c = await configured(productFamilyProvider);
    sim = c.sim;
    const components = { ...componentProvider };
    await components.configure?.(configureRequest({ "billing:baseUrl": sim.url, "billing:apiKey": KEY }));
    const f = withFamily ? await c.provider.create(family) : undefined;
    sim.reset();
    return { components, familyId: f?.outs.familyId as number };
  }

  const held = (handle: string) => sim.components().find((c) => c.handle === handle);

  describe("check names the property before anything is sent", () => {
    it.each([
      [
        "a gap between tiers",
        { ...sms, prices: [TIERS[0], { startingQuantity: 150, unitPrice: "0.25" }] },
        "prices",
        /must be 101.*leaves quantities 101–149 unpriced/,
      ],
      ["a first tier not at 1", { ...sms, prices: [{ startingQuantity: 2, unitPrice: 1 }] }, "prices", /must be 1/],
      [
        "an open tier before the last",
        { ...sms, prices: [{ startingQuantity: 1, unitPrice: 1 }, TIERS[1]] },
        "prices",
        /only the last tier/,
      ],
      ["a unitPrice on a metered component", { ...sms, unitPrice: 3 }, "unitPrice", /not taken by a "metered" component.*"on_off"/],
      ["recurring on a metered component", { ...sms, recurring: true }, "recurring", /only "quantity_based" components take it/],
      ["prices on an on/off component", { ...KINDS[2][1], prices: TIERS, pricingScheme: "tiered" }, "prices", /not taken by a "on_off"/],
      ["a metered component without its unit name", { ...sms, unitName: undefined }, "unitName", /required for a "metered"/],
      [
        "an event based component without its metric",
        { ...KINDS[4][1], eventBasedBillingMetricId: undefined },
        "eventBasedBillingMetricId",
        /required/,
      ],
      ["an unknown kind", { ...sms, kind: "usage" }, "kind", /one of "metered"/],
      ["a family that is neither an id nor handle:", { ...sms, productFamily: "rockets" }, "productFamily", /handle:<handle>/],
      [
        "a price with 9 decimals",
        { ...sms, prices: [{ startingQuantity: 1, unitPrice: "0.000000001" }], pricingScheme: "per_unit" },
        "prices",
        /8 decimal/,
      ],
      [
        "a bad overage tier",
        { ...KINDS[3][1], overagePricing: { pricingScheme: "volume", prices: [{ startingQuantity: 3, unitPrice: 1 }] } },
        "overagePricing",
        /must be 1/,
      ],
    ])("%s", async (_, inputs, property, reason) => {
      const { components } = await setup();
      const { failures } = await components.check!({}, inputs);
      // A tier's failure names the tier's field under its list (prices.1.startingQuantity).
      const named = (f: { property: string }) => f.property.split(".")[0] === property;
      expect(failures?.some(named)).toBe(true);
      expect(failures?.find(named)?.reason).toMatch(reason);
      expect(mutations(sim)).toEqual([]);
    });

    it("an unknown tier list still checks the other fields and the kind's rules", async () => {
      const { components } = await setup();
      const { failures } = await components.check!({}, { ...sms, prices: UNKNOWN, handle: "Bad", recurring: true });
      expect(failures?.map((f) => f.property).sort()).toEqual(["handle", "recurring"]);
    });
  });

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

  it.each(KINDS)("a second create of a %s component (a resumed create, a new stack) adopts it: nothing is sent", async (_, inputs) => {
    const { components } = await setup();
    const first = await components.create(inputs);
    sim.reset();
    const again = await components.create(inputs);
    expect(again.id).toBe(first.id);
    expect(mutations(sim)).toEqual([]);
  });

  it("accountingCode and itemCategory, which only the update takes, are set right after the create", async () => {
    const { components } = await setup();
    const { id } = await components.create({ ...sms, accountingCode: "SMS-1", itemCategory: "Digital Services" });
    expect(steps(sim)).toEqual([expect.stringMatching(/^POST .*\/metered_components\.json$/), `PUT /components/${id}.json`]);
    expect(held("sms")).toMatchObject({ accountingCode: "SMS-1", itemCategory: "Digital Services" });
  });

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
    expect(repriced.text).toMatch(/prices change in place on its default price point: every subscription on it pays the new prices/);
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

  it.each([
    ["kind", { kind: "quantity_based" }],
    ["unitName", { unitName: "text" }],
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

  it("a component adopted by a create is archived by that same resource's delete later in the process", async () => {
    const { components } = await setup();
    sim.addComponent({ familyHandle: "rockets", kind: "metered", handle: "sms", name: "Text messages", unitName: "message" });
    const adopted = await components.create(sms);
    await components.delete!(adopted.id, adopted.outs);
    expect(held("sms")?.archivedAt).not.toBeNull();
  });

  it("a prepaid component's new overage pricing replaces it (the service changes no overage in place)", async () => {
    const { components } = await setup();
    const prepaid = KINDS[3][1];
    const old = await components.create(prepaid);
    const news = { ...prepaid, overagePricing: { pricingScheme: "per_unit", prices: [{ startingQuantity: 1, unitPrice: "0.3" }] } };
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

  it("adopts a component made in the web UI and converges it; at preview it is announced", async () => {
    const { components } = await setup();
    const made = sim.addComponent({ familyHandle: "rockets", kind: "metered", handle: "sms", name: "Old name", unitName: "message" });
    const checked = await components.check!({}, sms);
    expect(checked.inputs.preview).toEqual({ adopt: { id: made.id, handle: "sms" } });
    const { result, text } = await captureOutput(() => components.create(sms));
    expect(result?.id).toBe(String(made.id));
    expect(text).toContain(`adopted component \`sms\` (id ${made.id})`);
    const c = held("sms");
    expect(c?.name).toBe("Text messages");
    expect(c?.pricePoints.find((pp) => pp.default)?.pricingScheme).toBe("tiered");
    expect(sim.components()).toHaveLength(1);
  });

  it("an archived component with the handle is refused at preview and at create: the service has no unarchive", async () => {
    const { components } = await setup();
    sim.addComponent({ familyHandle: "rockets", kind: "metered", handle: "sms", unitName: "message", archived: true });
    const checked = await components.check!({}, sms);
    expect(checked.failures?.[0]).toMatchObject({ property: "handle" });
    expect(checked.failures?.[0]?.reason).toMatch(/archived.*no unarchive for components.*another handle/);
    await expect(components.create(sms)).rejects.toThrow(/no unarchive for components/);
    expect(mutations(sim)).toEqual([]);
  });

  it("adopt: false makes an existing handle a preview failure", async () => {
    const { components } = await setup();
    await components.create(sms);
    sim.reset();
    const { failures } = await components.check!({}, { ...sms, adopt: false });
    expect(failures?.[0]).toMatchObject({ property: "handle" });
    expect(failures?.[0]?.reason).toMatch(/already exists at the service and adopt is false/);
    expect(mutations(sim)).toEqual([]);
  });

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

  it("delete archives it, its handle stays taken; a second delete sends nothing", async () => {
    const { components, familyId } = await setup();
    const { id, outs } = await components.create(sms);
    sim.reset();
    const { text } = await captureOutput(() => components.delete!(id, outs));
    expect(steps(sim)).toEqual([`DELETE /product_families/${familyId}/components/${id}.json`]);
    expect(text).toMatch(/archived component `sms`.*handle stays taken/);
    expect(held("sms")?.archivedAt).not.toBeNull();
    sim.reset();
    await components.delete!(id, outs);
    expect(mutations(sim)).toEqual([]);
  });
});
