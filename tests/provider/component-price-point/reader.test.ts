import { afterEach, describe, expect, it } from "vitest";
import { componentPricePoint } from "../../../provider/kinds/component-price-point";
import type { SiteView } from "../../../provider/kinds/kind";
import { BillingClient } from "../../../sdk/client";
import type { ComponentPricePoint, PriceTier } from "../../../sdk/results";
import type { Simulator } from "../../../simulator";
import { KEY } from "../support";
import { startSite, VOLUME, volume } from "./site";

/**
 * The ComponentPricePoint kind's catalog facet and reader: a component's price points listed within it, archived ones
 * included, keyed by handle, found by handle or id; written as the inputs that declare what the service holds (its
 * component by handle, the service's defaults left out, the component's default as `default: true`, which makes it
 * the component's part in a snapshot), which check accepts and which re-create the same price point at another site;
 * recorded as the kind's own read records it.
 */

const reader = componentPricePoint.reader!;
const facet = componentPricePoint.kind.catalog!;

/** The rest of a site, as the catalog's read gives it to `fromService`: a component's handle by its id. */
const siteView = (client: BillingClient): SiteView => ({
  keyOf: async (_kind, id) => (await client.listComponents({ includeArchived: true })).find((c) => c.id === id)?.handle,
  children: async () => [],
});

/** A price point as the SDK reads one that answers only its id and the given fields. */
const point = (over: Partial<ComponentPricePoint>): ComponentPricePoint => ({
  id: 12,
  handle: undefined,
  name: undefined,
  type: undefined,
  componentId: 7,
  pricingScheme: undefined,
  prices: [],
  overagePrices: [],
  interval: undefined,
  intervalUnit: undefined,
  useSiteExchangeRate: undefined,
  taxIncluded: undefined,
  rolloverPrepaidRemainder: undefined,
  renewPrepaidAllocation: undefined,
  expirationInterval: undefined,
  expirationIntervalUnit: undefined,
  archivedAt: undefined,
  ...over,
});
const HELD: PriceTier[] = [
  { startingQuantity: 1, endingQuantity: 100, unitPrice: "0.5" },
  { startingQuantity: 101, endingQuantity: undefined, unitPrice: "0.25" },
];
const DECLARED = [
  { startingQuantity: 1, endingQuantity: 100, unitPrice: "0.5" },
  { startingQuantity: 101, unitPrice: "0.25" },
];

describe("ComponentPricePoint's catalog facet and reader", () => {
  let sim: Simulator;
  let client: BillingClient | undefined;
  afterEach(async () => {
    await client?.close();
    await sim?.close();
    client = undefined;
  });

  /** Metered `texts` and prepaid `credits` in family `rockets` (site.ts), and a client of the site that does not retry. */
  async function setup() {
    const site = await startSite();
    sim = site.sim;
    client = new BillingClient({ baseUrl: sim.url, apiKey: KEY, maxRetries: 0 });
    return { ...site, client };
  }

  /** A price point as the site holds it, without what only its site says (ids, times). */
  const heldAt = (s: Simulator, component: string, handle: string) => {
    const pp = s
      .components()
      .find((c) => c.handle === component)
      ?.pricePoints.find((x) => x.handle === handle);
    if (!pp) throw new Error(`no price point ${component}/${handle}`);
    const { id: _, createdAt: __, updatedAt: ___, prices, ...rest } = pp;
    return { ...rest, prices: prices.map((t) => [t.startingQuantity, t.endingQuantity, Number(t.unitPrice)]) };
  };

  it("the facet: keyed by handle within its component, the component's default its part, the runtime inputs, the defaults, the review's words", () => {
    expect(facet).toMatchObject({
      key: "handle",
      owner: { input: "component", kind: "component" },
      references: { component: { kind: "component", output: "componentId" } },
      partOfOwner: { input: "default", as: "defaultPricePoint" },
      runtimeInputs: ["adopt", "site", "pricingChangeAcknowledged"],
      defaults: { useSiteExchangeRate: true, taxIncluded: false, rolloverPrepaidRemainder: false, renewPrepaidAllocation: false },
      noun: "component price point",
      title: "Component price point",
      pricing: {
        fields: expect.arrayContaining(["pricingScheme", "prices", "overagePricing", "interval", "intervalUnit"]),
        onUpdate: "the price point's prices change in place: subscriptions on it pay the new prices from their next charge",
      },
    });
    expect(facet.replaced({ default: true })).toEqual([
      "rename the old price point's handle (which frees it)",
      "create the new one",
      "promote it to the component's default",
      "archive the old one (subscriptions on it keep it)",
    ]);
    expect(facet.replaced({})).not.toContain("promote it to the component's default");
    expect(facet.deleted({})).toEqual(["archived: its subscriptions keep it; its handle stays taken"]);
    expect(facet.deleted({ default: true })).toEqual([
      "archived: its subscriptions keep it; its handle stays taken",
      "it is declared the component's default, which the service cannot archive: promote another price point first, or archive its component in the same update",
    ]);
    for (const k of [
      ...Object.keys(facet.references),
      ...facet.runtimeInputs,
      ...Object.keys(facet.defaults),
      ...(facet.pricing?.fields ?? []),
    ])
      expect(Object.keys(componentPricePoint.kind.inputs.shape)).toContain(k);
  });

  it("lists a component's price points, archived ones too, keyed by handle; finds one by handle or id within it; needs its component", async () => {
    const { client, texts, original } = await setup();
    const old = sim.addComponentPricePoint({ componentHandle: "texts" }, { handle: "old", name: "Old", archived: true });
    const digits = sim.addComponentPricePoint({ componentHandle: "texts" }, { handle: "424242", name: "Digits" });
    const owner = { id: texts.id };
    const listed = (await reader.list(client, owner)) as ComponentPricePoint[];
    expect(listed.map((pp) => [reader.id(pp), reader.key(pp), reader.archived(pp)])).toEqual([
      [original.id, original.handle, false],
      [old.id, "old", true],
      [digits.id, "424242", false],
    ]);
    for (const [key, want] of [
      ["old", old.id],
      [String(old.id), old.id],
      ["424242", digits.id],
    ] as const)
      expect(reader.id(await reader.find(client, key, owner))).toBe(want);
    expect(await reader.find(client, "none", owner)).toBeUndefined();
    await expect(reader.list(client)).rejects.toThrow(/read within its component/);
  });

  it("fromService declares what the service holds; check accepts it, import shows no change, and it re-creates the same price point at another site", async () => {
    const { points, client, texts } = await setup();
    const declared = { ...volume, interval: 3, intervalUnit: "month", useSiteExchangeRate: false, taxIncluded: true };
    const made = await points.create!(declared);
    const pp = await reader.find(client, "texts-volume", { id: texts.id });
    const read = await reader.fromService(pp, siteView(client));
    expect(read).toStrictEqual(declared);
    const checked = await points.check!({}, read);
    expect(checked.failures).toEqual([]);
    const state = await reader.record(client, pp, read, undefined);
    expect(await points.diff!(made.id, state, checked.inputs)).toMatchObject({ changes: false });

    const other = await startSite();
    try {
      const again = await other.points.check!({}, read);
      expect(again.failures).toEqual([]);
      await other.points.create!(again.inputs);
      expect(heldAt(other.sim, "texts", "texts-volume")).toEqual(heldAt(sim, "texts", "texts-volume"));
    } finally {
      await other.sim.close();
    }
  });

  it("the component's default declares default: true (a snapshot files it under its component)", async () => {
    const { client, texts, original } = await setup();
    const pp = await reader.find(client, original.handle, { id: texts.id });
    expect(await reader.fromService(pp, siteView(client))).toMatchObject({
      component: "handle:texts",
      handle: original.handle,
      default: true,
    });
  });

  it.each<[string, ComponentPricePoint, string | undefined, Record<string, unknown>]>([
    [
      "a prepaid one: the overage as answered with its scheme, the prepaid terms; the service's defaults left out",
      point({
        handle: "bulk",
        name: "Bulk",
        pricingScheme: "per_unit",
        prices: [{ startingQuantity: 1, endingQuantity: undefined, unitPrice: "2" }],
        overagePrices: HELD,
        overagePricingScheme: "stairstep",
        useSiteExchangeRate: true,
        taxIncluded: false,
        rolloverPrepaidRemainder: true,
        renewPrepaidAllocation: false,
        expirationInterval: 2,
        expirationIntervalUnit: "day",
      }),
      "credits",
      {
        component: "handle:credits",
        handle: "bulk",
        name: "Bulk",
        pricingScheme: "per_unit",
        prices: [{ startingQuantity: 1, unitPrice: "2" }],
        overagePricing: { pricingScheme: "stairstep", prices: DECLARED },
        rolloverPrepaidRemainder: true,
        expirationInterval: 2,
        expirationIntervalUnit: "day",
      },
    ],
    [
      "overage tiers without their scheme: read from them; an interval without its unit left out",
      point({ handle: "bulk", pricingScheme: "tiered", prices: HELD, overagePrices: HELD, interval: 2 }),
      "credits",
      {
        component: "handle:credits",
        handle: "bulk",
        name: "bulk",
        pricingScheme: "tiered",
        prices: DECLARED,
        overagePricing: { pricingScheme: "tiered", prices: DECLARED },
      },
    ],
    [
      "a component without a handle: by its id; a price point without one: its id as its handle",
      point({ pricingScheme: "volume", prices: HELD }),
      undefined,
      { component: 7, handle: "12", name: "12", pricingScheme: "volume", prices: DECLARED },
    ],
  ])("%s", async (_, pp, component, expected) => {
    const site: SiteView = { keyOf: async () => component, children: async () => [] };
    expect(await reader.fromService(pp, site)).toStrictEqual(expected);
  });

  describe("record: the state the kind's own read records", () => {
    it("the price point read again, the declared inputs its args, the site", async () => {
      const { points, client, texts } = await setup();
      const made = await points.create!(volume);
      const pp = await reader.find(client, "texts-volume", { id: texts.id });
      const inputs = await reader.fromService(pp, siteView(client));
      const seed = { pricePointId: Number(made.id), componentId: texts.id, handle: "texts-volume", args: inputs };
      const refreshed = await points.read!(made.id, seed);
      expect(await reader.record(client, pp, inputs, undefined)).toStrictEqual(refreshed.props);
      expect(await reader.record(client, pp, inputs, "eu")).toStrictEqual({
        ...refreshed.props,
        site: "eu",
        args: { ...inputs, site: "eu" },
      });
      expect(refreshed.props).toMatchObject({ prices: VOLUME.map((t) => ({ endingQuantity: null, ...t })) });
    });

    it("fails naming one gone since it was found", async () => {
      const { client, texts } = await setup();
      await expect(reader.record(client, point({ id: 999999, handle: "bulk", componentId: texts.id }), {}, undefined)).rejects.toThrow(
        new Error("price point bulk is gone at the site: nothing to import"),
      );
    });
  });
});
