import { afterEach, describe, expect, it } from "vitest";
import { type Simulator, startSimulator } from "../../simulator";
import { seedCatalog } from "../provider/offer/site";
import { configuredPlugin } from "./configured-plugin";

// `pulumi import` of an Offer through the plugin's provider, against the simulator over a real socket: by handle,
// by id and by <site>/<handle>; its references are written as a program declares them (handle:, a default price
// point left out), its signup pages are outputs only, and declared as imported it previews with no changes. An
// archived one is imported archived: the next up unarchives it.

const KEY = "sk_live_PLUGIN_OFFER_SECRET_7171";
const EU_KEY = "sk_live_PLUGIN_OFFER_EU_SECRET_7272";
const URN = "urn:pulumi:dev::billing-app::billing:index:Offer::bundle";

describe("pulumi import of an Offer", () => {
  const sims: Simulator[] = [];
  afterEach(async () => {
    for (const s of sims.splice(0)) await s.close();
  });

  async function site(key: string, archived = false) {
    const sim = await startSimulator({ apiKey: key });
    sims.push(sim);
    const catalog = seedCatalog(sim);
    const offer = sim.addOffer({
      handle: "launch-bundle",
      name: "Launch bundle",
      description: "Pro with seats",
      productHandle: "launch-pro",
      pricePointHandle: "launch-pro-annual",
      components: [
        { componentHandle: "support", startingQuantity: 1 },
        { componentHandle: "seats", pricePointHandle: "seats-bulk", startingQuantity: 5 },
      ],
      couponCodes: ["WELCOME", "SPRING25"],
      signupPages: [{ nickname: "launch" }],
      archived,
    });
    return { sim, catalog, offer };
  }

  const provider = async (sim: Simulator, sites?: string) => configuredPlugin(sim.url, KEY, sites);

  const declared = {
    handle: "launch-bundle",
    name: "Launch bundle",
    description: "Pro with seats",
    product: "handle:launch-pro",
    productPricePoint: "handle:launch-pro-annual",
    components: [
      { component: "handle:seats", pricePoint: "handle:seats-bulk", startingQuantity: 5 },
      { component: "handle:support", startingQuantity: 1 },
    ],
    coupons: ["handle:SPRING25", "handle:WELCOME"],
  };

  it("by handle: the inputs a program declares, the state the service holds; declared so, no changes; nothing sent but reads", async () => {
    const { sim, catalog, offer } = await site(KEY);
    const p = await provider(sim);
    const imported = await p.read("launch-bundle", URN, {});
    expect(imported.id).toBe(String(offer.id));
    expect(imported.inputs).toEqual(declared);
    expect(imported.props).toMatchObject({
      offerId: offer.id,
      productId: catalog.product.id,
      productPricePointId: catalog.annual,
      couponCodes: ["SPRING25", "WELCOME"],
      signupPages: [{ id: offer.signupPages[0]?.id, nickname: "launch", url: offer.signupPages[0]?.url, enabled: true }],
      archivedAt: null,
      args: declared,
    });
    expect(sim.requests.every((r) => r.method === "GET")).toBe(true);
    const checked = await p.check(URN, imported.inputs ?? {}, imported.inputs ?? {});
    expect(checked.failures ?? []).toEqual([]);
    expect(await p.diff(imported.id ?? "", URN, imported.props ?? {}, checked.inputs ?? {})).toMatchObject({ changes: false });
    expect(JSON.stringify(imported)).not.toContain(KEY);
  });

  it("by id the same offer; archived, it is imported archived and the next up unarchives it", async () => {
    const { sim, offer } = await site(KEY, true);
    const p = await provider(sim);
    const imported = await p.read(String(offer.id), URN, {});
    expect(imported.inputs).toEqual(declared);
    expect(imported.props?.archivedAt).toEqual(expect.any(String));
    const checked = await p.check(URN, imported.inputs ?? {}, imported.inputs ?? {});
    expect(await p.diff(imported.id ?? "", URN, imported.props ?? {}, checked.inputs ?? {})).toMatchObject({ changes: true, replaces: [] });
  });

  it("<site>/<handle> reads that billing:sites entry and records the site", async () => {
    const { sim } = await site(KEY);
    const eu = await startSimulator({ apiKey: EU_KEY });
    sims.push(eu);
    seedCatalog(eu);
    const made = eu.addOffer({ handle: "launch-bundle", name: "Launch bundle", productHandle: "launch-pro" });
    const p = await provider(sim, JSON.stringify({ eu: { baseUrl: eu.url, apiKey: EU_KEY } }));
    sim.reset();
    const imported = await p.read("eu/launch-bundle", URN, {});
    expect(imported.id).toBe(String(made.id));
    // The product's default price point: left out, as a create without one takes it.
    expect(imported.inputs).toEqual({ handle: "launch-bundle", name: "Launch bundle", product: "handle:launch-pro", site: "eu" });
    expect(imported.props).toMatchObject({ offerId: made.id, site: "eu" });
    expect(sim.requests).toEqual([]);
    expect(JSON.stringify(imported)).not.toContain(EU_KEY);
  });

  it("a handle the site does not have fails naming it", async () => {
    const { sim } = await site(KEY);
    await expect((await provider(sim)).read("nope", URN, {})).rejects.toThrow(
      /Offer import id "nope": offer nope does not exist at the site/,
    );
  });
});
