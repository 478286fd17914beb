import { afterEach, describe, expect, it } from "vitest";
import { providerConfig } from "../../plugin/config";
import { BillingProvider } from "../../plugin/provider";
import { type Simulator, startSimulator } from "../../simulator";

// `pulumi import` of a ComponentPricePoint through the plugin's provider, against the simulator over a
// real socket: by <component>/<price point> (handles or ids, optionally after <site>/), inputs written
// as a program declares them, which then diff as no change; nothing is sent but reads.

const KEY = "sk_live_PLUGIN_CPP_SECRET_7171";
const EU_KEY = "sk_live_PLUGIN_CPP_EU_SECRET_8181";
const SECRET = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };
const URN = "urn:pulumi:dev::billing-app::billing:index:ComponentPricePoint::volume";
const TIERS = [
  { startingQuantity: 1, endingQuantity: 1000, unitPrice: "0.05" },
  { startingQuantity: 1001, unitPrice: "0.03" },
];

describe("import of a ComponentPricePoint", () => {
  let sim: Simulator;
  let eu: Simulator | undefined;
  afterEach(async () => {
    await sim?.close();
    await eu?.close();
    eu = undefined;
  });

  /** The plugin's provider on a site with component `texts` (its default "Original") and its price point `texts-volume`. */
  async function setup(sites?: Record<string, { baseUrl: string; apiKey: string }>) {
    sim = await startSimulator({ apiKey: KEY });
    const p = new BillingProvider("0.1.0");
    p.configure(
      providerConfig([["billing:config:baseUrl", sim.url]], {
        baseUrl: sim.url,
        apiKey: { ...SECRET, value: KEY },
        ...(sites ? { sites: { ...SECRET, value: JSON.stringify(sites) } } : {}),
      }),
    );
    return p;
  }
  const seed = (s: Simulator) => {
    s.addProductFamily({ handle: "messaging", name: "Messaging" });
    const c = s.addComponent({ familyHandle: "messaging", kind: "metered", handle: "texts", unitName: "message", unitPrice: "0.01" });
    const pp = s.addComponentPricePoint(
      { componentHandle: "texts" },
      { handle: "texts-volume", name: "Volume", pricingScheme: "volume", prices: TIERS, interval: 1, intervalUnit: "month" },
    );
    return { c, pp };
  };
  const mutations = () => sim.requests.filter((r) => r.method !== "GET");

  it("by handles: inputs as a program declares them, state as the kind reads it; declared as printed, no change", async () => {
    const p = await setup();
    const { c, pp } = seed(sim);
    const imported = await p.read("texts/texts-volume", URN, {});
    expect(imported.id).toBe(String(pp.id));
    expect(imported.inputs).toEqual({
      component: "handle:texts",
      handle: "texts-volume",
      name: "Volume",
      pricingScheme: "volume",
      prices: [
        { startingQuantity: 1, endingQuantity: 1000, unitPrice: expect.any(String) },
        { startingQuantity: 1001, unitPrice: expect.any(String) },
      ],
      interval: 1,
      intervalUnit: "month",
    });
    expect(imported.props).toMatchObject({
      pricePointId: pp.id,
      componentId: c.id,
      handle: "texts-volume",
      isDefault: false,
      archivedAt: null,
    });
    expect(mutations()).toEqual([]);
    // The program as the import prints it (and as written by hand: "0.05" for the service's text) previews with no change.
    for (const declared of [imported.inputs, { ...imported.inputs, prices: TIERS }]) {
      const checked = await p.check(URN, imported.inputs!, declared!);
      expect(checked.failures).toEqual([]);
      expect(await p.diff(imported.id!, URN, imported.props, checked.inputs)).toMatchObject({ changes: false });
    }
    expect(JSON.stringify(imported)).not.toContain(KEY);
  });

  it("by ids, and the component's default declared default: true", async () => {
    const p = await setup();
    const { c } = seed(sim);
    const def = sim
      .components()
      .find((x) => x.id === c.id)
      ?.pricePoints.find((x) => x.default);
    const imported = await p.read(`${c.id}/${def?.id}`, URN, {});
    expect(imported.inputs).toMatchObject({ component: "handle:texts", handle: def?.handle, default: true });
    expect(imported.props).toMatchObject({ isDefault: true });
  });

  it("an archived one is imported as archived; the next up unarchives it", async () => {
    const p = await setup();
    const { c } = seed(sim);
    const old = sim.addComponentPricePoint(
      { componentHandle: "texts" },
      { handle: "texts-old", name: "Old", pricingScheme: "per_unit", prices: [{ startingQuantity: 1, unitPrice: 1 }], archived: true },
    );
    const imported = await p.read("texts/texts-old", URN, {});
    expect(imported.props).toMatchObject({ pricePointId: old.id, archivedAt: expect.any(String) });
    const checked = await p.check(URN, imported.inputs!, imported.inputs!);
    expect(await p.diff(imported.id!, URN, imported.props, checked.inputs)).toMatchObject({ changes: true });
    const updated = await p.update(imported.id!, URN, imported.props, checked.inputs);
    expect(updated.outs).toMatchObject({ archivedAt: null });
    expect(mutations().map((r) => `${r.method} ${r.path}`)).toEqual([`PUT /components/${c.id}/price_points/${old.id}/unarchive.json`]);
  });

  it("<site>/<component>/<price point> reads that billing:sites entry and records the site", async () => {
    eu = await startSimulator({ apiKey: EU_KEY });
    const p = await setup({ eu: { baseUrl: eu.url, apiKey: EU_KEY } });
    seed(sim);
    const { pp } = seed(eu);
    const imported = await p.read("eu/texts/texts-volume", URN, {});
    expect(imported.id).toBe(String(pp.id));
    expect(imported.inputs).toMatchObject({ site: "eu", handle: "texts-volume" });
    expect(imported.props).toMatchObject({ site: "eu" });
    expect(sim.requests).toEqual([]);
  });

  it.each([
    ["texts", /give <component>\/<component price point>, each a handle or an id/],
    ["nowhere/texts-volume", /component nowhere does not exist at the site: nothing to import/],
    ["texts/texts-nothing", /component texts has no component price point texts-nothing: nothing to import/],
    ["mars/texts/texts-volume", /import id "mars\/texts\/texts-volume": site "mars" is not an entry of the stack config billing:sites/],
  ])("%s fails naming what is wrong", async (id, message) => {
    const p = await setup();
    seed(sim);
    await expect(p.read(id, URN, {})).rejects.toThrow(message);
    expect(mutations()).toEqual([]);
  });
});
