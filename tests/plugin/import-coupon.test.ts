import { afterEach, describe, expect, it } from "vitest";
import { providerConfig } from "../../plugin/config";
import { BillingProvider } from "../../plugin/provider";
import { type Simulator, startSimulator } from "../../simulator";

// `pulumi import` of a Coupon through the plugin's provider, against the simulator over a real socket:
// by code, by id and by <site>/<code>; the inputs are written as a program declares them (the family and
// the restrictions as handle: references), and declared as imported they preview with no changes.

const KEY = "sk_live_PLUGIN_COUPON_SECRET_7272";
const EU_KEY = "sk_live_PLUGIN_COUPON_EU_SECRET_8383";
const SECRET = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };
const COUPON = "urn:pulumi:dev::billing-app::billing:index:Coupon::spring";

describe("pulumi import of a Coupon", () => {
  const sims: Simulator[] = [];
  afterEach(async () => {
    for (const s of sims.splice(0)) await s.close();
  });

  /** A site as a web UI made it: family "plans", products pro and basic, component "support", coupon SPRING25 restricted to them. */
  async function site(key: string) {
    const sim = await startSimulator({ apiKey: key });
    sims.push(sim);
    sim.addProductFamily({ handle: "plans", name: "Plans" });
    sim.addProduct({ handle: "basic", familyHandle: "plans" });
    sim.addProduct({ handle: "pro", familyHandle: "plans" });
    sim.addComponent({ familyHandle: "plans", kind: "on_off", handle: "support" });
    const coupon = sim.addCoupon({
      familyHandle: "plans",
      code: "SPRING25",
      name: "Spring sale",
      percentage: 25,
      recurring: true,
      durationPeriodCount: 3,
      stackable: true,
      restrictedProducts: ["pro", "basic"],
      restrictedComponents: ["support"],
    });
    return { sim, coupon };
  }

  async function provider(sim: Simulator, sites?: string) {
    const p = new BillingProvider("0.1.0");
    p.configure(
      providerConfig([["billing:config:baseUrl", sim.url]], {
        baseUrl: sim.url,
        apiKey: { ...SECRET, value: KEY },
        ...(sites ? { sites: { ...SECRET, value: sites } } : {}),
      }),
    );
    return p;
  }

  const declared = {
    productFamily: "handle:plans",
    code: "SPRING25",
    name: "Spring sale",
    percentage: 25,
    recurring: true,
    stackable: true,
    durationPeriodCount: 3,
    restrictedProducts: ["handle:basic", "handle:pro"],
    restrictedComponents: ["handle:support"],
  };

  it("by code: the inputs a program declares, the state the service holds; declared so, no changes; nothing sent but reads", async () => {
    const { sim, coupon } = await site(KEY);
    const p = await provider(sim);
    const imported = await p.read("SPRING25", COUPON, {});
    expect(imported.id).toBe(String(coupon.id));
    expect(imported.inputs).toEqual(declared);
    expect(imported.props).toMatchObject({ couponId: coupon.id, code: "SPRING25", percentage: 25, archivedAt: null });
    expect(sim.requests.filter((r) => r.method !== "GET")).toEqual([]);
    // The program written in another order of restrictions still previews with no changes.
    const news = { ...declared, restrictedProducts: ["handle:pro", "handle:basic"] };
    const checked = await p.check(COUPON, imported.inputs ?? {}, news);
    expect(checked.failures ?? []).toEqual([]);
    expect(await p.diff(imported.id ?? "", COUPON, imported.props ?? {}, checked.inputs ?? {})).toMatchObject({ changes: false });
    expect(JSON.stringify(imported)).not.toContain(KEY);
  });

  it("by id, the same coupon", async () => {
    const { sim, coupon } = await site(KEY);
    const imported = await (await provider(sim)).read(String(coupon.id), COUPON, {});
    expect(imported.inputs).toEqual(declared);
  });

  it("<site>/<code> reads that billing:sites entry with its credentials and records the site", async () => {
    const { sim } = await site(KEY);
    const eu = await startSimulator({ apiKey: EU_KEY });
    sims.push(eu);
    eu.addProductFamily({ handle: "eu-plans", name: "EU plans" });
    const made = eu.addCoupon({ familyHandle: "eu-plans", code: "SPRING25", name: "Frühling", amountInCents: 500 });
    const p = await provider(sim, JSON.stringify({ eu: { baseUrl: eu.url, apiKey: EU_KEY } }));
    sim.reset();
    const imported = await p.read("eu/SPRING25", COUPON, {});
    expect(imported.id).toBe(String(made.id));
    expect(imported.inputs).toEqual({
      productFamily: "handle:eu-plans",
      code: "SPRING25",
      name: "Frühling",
      amountInCents: 500,
      site: "eu",
    });
    expect(imported.props).toMatchObject({ site: "eu", amountInCents: 500 });
    expect(sim.requests).toEqual([]);
    expect(JSON.stringify(imported)).not.toContain(EU_KEY);
  });

  it("a code the site does not have, an archived coupon, or a site not configured fails naming it", async () => {
    const { sim } = await site(KEY);
    sim.addCoupon({ familyHandle: "plans", code: "OLD10", percentage: 10, archived: true });
    const p = await provider(sim);
    await expect(p.read("NOPE", COUPON, {})).rejects.toThrow(/Coupon import id "NOPE": no coupon has the code or id NOPE/);
    await expect(p.read("OLD10", COUPON, {})).rejects.toThrow(/archived.*cannot unarchive a coupon/);
    await expect(p.read("mars/SPRING25", COUPON, {})).rejects.toThrow(/site "mars" is not an entry of the stack config billing:sites/);
  });
});
