import { afterEach, describe, expect, it } from "vitest";
import { type Simulator, startSimulator } from "../../simulator";
import { configuredPlugin } from "./configured-plugin";

// `pulumi import` of a Component through the plugin's provider, against the simulator over a real socket:
// by handle, by id and by <site>/<handle>; the inputs are written as a program declares them (the family as
// a handle: reference, the default price point's tiers, nothing the service holds by default), and declared
// as imported they preview with no changes.

const KEY = "sk_live_PLUGIN_COMPONENT_SECRET_7171";
const EU_KEY = "sk_live_PLUGIN_COMPONENT_EU_SECRET_8181";
const COMPONENT = "urn:pulumi:dev::billing-app::billing:index:Component::sms";

describe("pulumi import of a Component", () => {
  const sims: Simulator[] = [];
  afterEach(async () => {
    for (const s of sims.splice(0)) await s.close();
  });

  /** A site as a web UI made it: family "plans", a tiered metered component "sms", an on/off "support", a prepaid one. */
  async function site(key: string) {
    const sim = await startSimulator({ apiKey: key });
    sims.push(sim);
    sim.addProductFamily({ handle: "plans", name: "Plans" });
    const sms = sim.addComponent({
      familyHandle: "plans",
      kind: "metered",
      handle: "sms",
      name: "Text messages",
      unitName: "message",
      pricingScheme: "tiered",
      prices: [
        { startingQuantity: 1, endingQuantity: 100, unitPrice: "0.5" },
        { startingQuantity: 101, unitPrice: "0.25" },
      ],
      accountingCode: "SMS-1",
    });
    sim.addComponent({ familyHandle: "plans", kind: "on_off", handle: "support", name: "Support", unitPrice: "25" });
    return { sim, sms };
  }

  const provider = async (sim: Simulator, sites?: string) => configuredPlugin(sim.url, KEY, sites);

  const declared = {
    productFamily: "handle:plans",
    kind: "metered",
    handle: "sms",
    name: "Text messages",
    unitName: "message",
    pricingScheme: "tiered",
    prices: [
      { startingQuantity: 1, endingQuantity: 100, unitPrice: "0.5" },
      { startingQuantity: 101, unitPrice: "0.25" },
    ],
    accountingCode: "SMS-1",
  };

  it("by handle: the inputs a program declares, the state the service holds; declared so, no changes; nothing sent but reads", async () => {
    const { sim, sms } = await site(KEY);
    const p = await provider(sim);
    const imported = await p.read("sms", COMPONENT, {});
    expect(imported.id).toBe(String(sms.id));
    expect(imported.inputs).toMatchObject({ ...declared, prices: [expect.any(Object), expect.any(Object)] });
    const prices = imported.inputs?.prices as { unitPrice: string }[] | undefined;
    expect(prices?.map((t) => Number(t.unitPrice))).toEqual([0.5, 0.25]);
    expect(Object.keys(imported.inputs ?? {}).sort()).toEqual(Object.keys(declared).sort());
    expect(imported.props).toMatchObject({ componentId: sms.id, handle: "sms", archivedAt: null, pricingScheme: "tiered" });
    expect(sim.requests.filter((r) => r.method !== "GET")).toEqual([]);
    // The program as a person writes it (prices as numbers) previews with no changes.
    const news = {
      ...declared,
      prices: [
        { startingQuantity: 1, endingQuantity: 100, unitPrice: 0.5 },
        { startingQuantity: 101, unitPrice: 0.25 },
      ],
    };
    const checked = await p.check(COMPONENT, imported.inputs ?? {}, news);
    expect(checked.failures ?? []).toEqual([]);
    const asImported = await p.check(COMPONENT, imported.inputs ?? {}, imported.inputs ?? {});
    expect(asImported.failures ?? []).toEqual([]);
    expect(await p.diff(imported.id ?? "", COMPONENT, imported.props ?? {}, asImported.inputs ?? {})).toMatchObject({ changes: false });
    expect(JSON.stringify(imported)).not.toContain(KEY);
  });

  it("by id, the same component; an on/off one with its unit price", async () => {
    const { sim, sms } = await site(KEY);
    const p = await provider(sim);
    const imported = await p.read(String(sms.id), COMPONENT, {});
    expect(imported.inputs).toMatchObject({ handle: "sms", kind: "metered", productFamily: "handle:plans" });
    const support = await p.read("support", COMPONENT, {});
    expect(support.inputs).toEqual({
      productFamily: "handle:plans",
      kind: "on_off",
      handle: "support",
      name: "Support",
      unitPrice: expect.any(String),
    });
    expect(Number(support.inputs?.unitPrice)).toBe(25);
    expect((await p.check(COMPONENT, support.inputs ?? {}, support.inputs ?? {})).failures ?? []).toEqual([]);
  });

  it("a prepaid usage component with its overage tiers; the printed code checks and previews with no changes", async () => {
    const { sim } = await site(KEY);
    const p = await provider(sim);
    // Made through the API, as the kind would have (the seeding helper takes no overage).
    const made = await fetch(`${sim.url}/product_families/handle:plans/prepaid_usage_components.json`, {
      method: "POST",
      headers: { authorization: `Basic ${Buffer.from(`${KEY}:x`).toString("base64")}`, "content-type": "application/json" },
      body: JSON.stringify({
        prepaid_usage_component: {
          name: "Prepaid texts",
          handle: "prepaid-texts",
          unit_name: "text",
          pricing_scheme: "per_unit",
          prices: [{ starting_quantity: 1, unit_price: "0.1" }],
          overage_pricing: { pricing_scheme: "per_unit", prices: [{ starting_quantity: 1, unit_price: "0.2" }] },
          rollover_prepaid_remainder: true,
          expiration_interval: 1,
          expiration_interval_unit: "month",
        },
      }),
    });
    expect(made.status).toBe(201);
    const imported = await p.read("prepaid-texts", COMPONENT, {});
    expect(imported.inputs).toMatchObject({
      kind: "prepaid_usage",
      overagePricing: { pricingScheme: "per_unit", prices: [{ startingQuantity: 1 }] },
    });
    // Its default price point answers its prepaid terms (the vendor's later Component Price Point schema), printed as created.
    expect(imported.inputs).toMatchObject({ rolloverPrepaidRemainder: true, expirationInterval: 1, expirationIntervalUnit: "month" });
    const checked = await p.check(COMPONENT, imported.inputs ?? {}, imported.inputs ?? {});
    expect(checked.failures ?? []).toEqual([]);
    expect(await p.diff(imported.id ?? "", COMPONENT, imported.props ?? {}, checked.inputs ?? {})).toMatchObject({ changes: false });
  });

  it("<site>/<handle> reads that billing:sites entry with its credentials and records the site", async () => {
    const { sim } = await site(KEY);
    const eu = await startSimulator({ apiKey: EU_KEY });
    sims.push(eu);
    eu.addProductFamily({ handle: "eu-plans", name: "EU plans" });
    const made = eu.addComponent({
      familyHandle: "eu-plans",
      kind: "quantity_based",
      handle: "seats",
      name: "Seats",
      unitName: "seat",
      recurring: false,
    });
    const p = await provider(sim, JSON.stringify({ eu: { baseUrl: eu.url, apiKey: EU_KEY } }));
    sim.reset();
    const imported = await p.read("eu/seats", COMPONENT, {});
    expect(imported.id).toBe(String(made.id));
    expect(imported.inputs).toMatchObject({
      productFamily: "handle:eu-plans",
      kind: "quantity_based",
      handle: "seats",
      unitName: "seat",
      recurring: false,
      pricingScheme: "per_unit",
      site: "eu",
    });
    expect(imported.props).toMatchObject({ site: "eu", componentId: made.id });
    expect(sim.requests).toEqual([]);
    expect(JSON.stringify(imported)).not.toContain(EU_KEY);
  });

  it("a handle the site does not have, an archived component, or a site not configured fails naming it", async () => {
    const { sim } = await site(KEY);
    sim.addComponent({ familyHandle: "plans", kind: "metered", handle: "old", unitName: "unit", archived: true });
    const p = await provider(sim);
    await expect(p.read("nope", COMPONENT, {})).rejects.toThrow(/Component import id "nope": component nope does not exist/);
    await expect(p.read("old", COMPONENT, {})).rejects.toThrow(/archived.*no unarchive for components/);
    await expect(p.read("mars/sms", COMPONENT, {})).rejects.toThrow(/site "mars" is not an entry of the stack config billing:sites/);
  });
});
