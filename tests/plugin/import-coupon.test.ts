import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type Simulator, startSimulator } from "../../simulator";
import { configuredPlugin } from "./configured-plugin";

// `pulumi import` of a Coupon through the plugin's provider, against the simulator over a real socket:
// by code, by id and by <site>/<code>; the inputs are written as a program declares them (the family and
// the restrictions as handle: references), and declared as imported they preview with no changes.

const KEY = "sk_live_PLUGIN_COUPON_SECRET_7272";
const EU_KEY = "sk_live_PLUGIN_COUPON_EU_SECRET_8383";
const COUPON = "urn:pulumi:dev::billing-app::billing:index:Coupon::spring";

describe("pulumi import of a Coupon", () => {
  const sims: Simulator[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const s of sims.splice(0)) await s.close();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
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

  const provider = async (sim: Simulator, sites?: string) => configuredPlugin(sim.url, KEY, sites);

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

  /** What the service holds for a coupon made with none of these set. */
  const serviceDefaults = {
    description: "",
    percentage: null,
    amountInCents: null,
    recurring: false,
    durationPeriodCount: null,
    endDate: null,
    stackable: false,
    compoundingStrategy: "compound",
    allowNegativeBalance: false,
    excludeMidPeriodAllocations: false,
    applyOnCancelAtEndOfPeriod: false,
    applyOnSubscriptionExpiration: false,
    restrictedProductIds: [],
    restrictedComponentIds: [],
    // A percentage coupon has none; a flat-amount one's are read ({} when it has none).
    currencyPrices: null,
    archivedAt: null,
  };

  /** The ids site() restricts SPRING25 to, as the service lists them. */
  const restricted = { products: [1, 2], components: [30001] };

  /** The GETs the import sent, with the query that says what was asked (paging left out). */
  const gets = (sim: Simulator) =>
    sim.requests.map((r) => {
      expect(r.method).toBe("GET");
      const { page: _, per_page: __, ...q } = r.query;
      const query = Object.entries(q).map(([k, v]) => `${k}=${v}`);
      return `${r.path}${query.length ? `?${query.join("&")}` : ""}`;
    });

  it("by code: the inputs a program declares, the state the service holds; declared so, no changes; nothing sent but reads", async () => {
    const { sim, coupon } = await site(KEY);
    const p = await provider(sim);
    const imported = await p.read("SPRING25", COUPON, {});
    expect(imported.id).toBe(String(coupon.id));
    expect(imported.inputs).toEqual(declared);
    expect(imported.props).toEqual({
      ...serviceDefaults,
      couponId: coupon.id,
      productFamilyId: coupon.familyId,
      code: "SPRING25",
      name: "Spring sale",
      percentage: 25,
      recurring: true,
      durationPeriodCount: 3,
      stackable: true,
      restrictedProductIds: restricted.products,
      restrictedComponentIds: restricted.components,
      args: declared,
      productFamilyHandle: "plans",
      resolvedProductIds: restricted.products,
      resolvedComponentIds: restricted.components,
    });
    // The restrictions carry their handles: no product is read for one.
    expect(gets(sim)).toEqual([`/coupons.json?filter[codes]=SPRING25`, `/product_families/${coupon.familyId}.json`]);
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
    expect(imported.props).toEqual({
      ...serviceDefaults,
      couponId: made.id,
      productFamilyId: made.familyId,
      code: "SPRING25",
      name: "Frühling",
      amountInCents: 500,
      currencyPrices: {},
      site: "eu",
      args: imported.inputs,
      productFamilyHandle: "eu-plans",
    });
    expect(sim.requests).toEqual([]);
    expect(JSON.stringify(imported)).not.toContain(EU_KEY);
  });

  it("a code the site does not have, an archived coupon, or a site not configured fails naming it", async () => {
    const { sim } = await site(KEY);
    sim.addCoupon({ familyHandle: "plans", code: "OLD10", percentage: 10, archived: true });
    const p = await provider(sim);
    await expect(p.read("NOPE", COUPON, {})).rejects.toThrow(/Coupon import id "NOPE": coupon NOPE does not exist at the site/);
    await expect(p.read("OLD10", COUPON, {})).rejects.toThrow(/archived.*cannot unarchive a coupon/);
    await expect(p.read("mars/SPRING25", COUPON, {})).rejects.toThrow(/site "mars" is not an entry of the stack config billing:sites/);
  });

  it("restrictions without a handle are written as ids, the product read for its handle and the component looked for in the list", async () => {
    const { sim } = await site(KEY);
    const bare = sim.addProduct({ familyHandle: "plans" });
    const addOn = sim.addComponent({ familyHandle: "plans", kind: "on_off" });
    const made = sim.addCoupon({
      familyHandle: "plans",
      code: "PLAIN",
      amountInCents: 500,
      description: "Five off",
      endDate: "2030-01-01T00:00:00Z",
      compoundingStrategy: "full-price",
      restrictedProducts: [bare.id],
      restrictedComponents: [addOn.id],
    });
    const p = await provider(sim);
    const inputs = {
      productFamily: "handle:plans",
      code: "PLAIN",
      name: "PLAIN",
      description: "Five off",
      amountInCents: 500,
      endDate: "2030-01-01T00:00:00Z",
      compoundingStrategy: "full-price",
      restrictedProducts: [bare.id],
      restrictedComponents: [addOn.id],
    };
    const imported = await p.read("PLAIN", COUPON, {});
    expect(imported).toEqual({
      id: String(made.id),
      inputs,
      props: {
        ...serviceDefaults,
        couponId: made.id,
        productFamilyId: made.familyId,
        code: "PLAIN",
        name: "PLAIN",
        description: "Five off",
        amountInCents: 500,
        endDate: "2030-01-01T00:00:00Z",
        compoundingStrategy: "full-price",
        restrictedProductIds: [bare.id],
        restrictedComponentIds: [addOn.id],
        currencyPrices: {},
        args: inputs,
        productFamilyHandle: "plans",
        resolvedProductIds: [bare.id],
        resolvedComponentIds: [addOn.id],
      },
    });
    expect(gets(sim)).toEqual([
      "/coupons.json?filter[codes]=PLAIN",
      // A flat-amount coupon: its currency prices, which only the list reads.
      `/coupons.json?filter[ids]=${made.id}&currency_prices=true`,
      `/product_families/${made.familyId}.json`,
      `/products/${bare.id}.json`,
      // A component is found by its id in the site's list (a component has no read by id alone); this one has no handle.
      "/components.json?include_archived=true",
    ]);
    // Declared as imported, it previews with no changes.
    const checked = await p.check(COUPON, imported.inputs ?? {}, inputs);
    expect(checked.failures ?? []).toEqual([]);
    expect(await p.diff(imported.id ?? "", COUPON, imported.props ?? {}, checked.inputs ?? {})).toMatchObject({ changes: false });
  });

  it("a duration the service holds for a coupon that does not recur is no input (the declaration could not say it)", async () => {
    // The API nulls the duration of a coupon that does not recur; a site's data can hold one all the same.
    const dir = mkdtempSync(path.join(tmpdir(), "import-coupon-"));
    dirs.push(dir);
    const file = path.join(dir, "site.json");
    const first = await startSimulator({ apiKey: KEY, dataFile: file });
    first.addProductFamily({ handle: "plans", name: "Plans" });
    const made = first.addCoupon({ familyHandle: "plans", code: "ONCE", percentage: 10 });
    await first.close();
    const data = JSON.parse(readFileSync(file, "utf8")) as { site: { coupons: { code: string; durationPeriodCount: number | null }[] } };
    const held = data.site.coupons.find((c) => c.code === "ONCE");
    if (!held) throw new Error("the data file holds no coupon ONCE");
    held.durationPeriodCount = 3;
    writeFileSync(file, JSON.stringify(data));
    const sim = await startSimulator({ apiKey: KEY, dataFile: file });
    sims.push(sim);
    const imported = await (await provider(sim)).read("ONCE", COUPON, {});
    const inputs = { productFamily: "handle:plans", code: "ONCE", name: "ONCE", percentage: 10 };
    expect(imported.inputs).toEqual(inputs);
    expect(imported.props).toEqual({
      ...serviceDefaults,
      couponId: made.id,
      productFamilyId: made.familyId,
      code: "ONCE",
      name: "ONCE",
      percentage: 10,
      durationPeriodCount: 3,
      args: inputs,
      productFamilyHandle: "plans",
    });
  });

  it("a code of digits wins over the coupon with that id; an id no code has finds the coupon by id, archived ones too", async () => {
    const { sim, coupon } = await site(KEY);
    const digits = sim.addCoupon({ familyHandle: "plans", code: String(coupon.id), percentage: 5 });
    const summer = sim.addCoupon({ familyHandle: "plans", code: "SUMMER", percentage: 10 });
    const old = sim.addCoupon({ familyHandle: "plans", code: "OLD10", percentage: 10, archived: true });
    const p = await provider(sim);
    expect((await p.read(String(coupon.id), COUPON, {})).id).toBe(String(digits.id));
    expect(gets(sim)).toEqual([`/coupons.json?filter[codes]=${coupon.id}`, `/product_families/${coupon.familyId}.json`]);
    sim.reset();
    expect((await p.read(String(summer.id), COUPON, {})).id).toBe(String(summer.id));
    expect(gets(sim)).toEqual([`/coupons.json?filter[codes]=${summer.id}`, "/coupons.json", `/product_families/${coupon.familyId}.json`]);
    await expect(p.read(String(old.id), COUPON, {})).rejects.toThrow(
      new Error(
        `Coupon import id "${old.id}": coupon \`OLD10\` (id ${old.id}) is archived (since ${old.archivedAt}), and the service cannot unarchive a coupon: nothing to manage`,
      ),
    );
  });

  it.each(["NOPE", "NOPE1", "1NOPE"])("%s, a code no coupon has and no id, is looked up by code only, once", async (id) => {
    const { sim } = await site(KEY);
    const p = await provider(sim);
    await expect(p.read(id, COUPON, {})).rejects.toThrow(
      new Error(`Coupon import id "${id}": coupon ${id} does not exist at the site: nothing to import`),
    );
    expect(gets(sim)).toEqual([`/coupons.json?filter[codes]=${id}`]);
  });

  it("an id of more than one slash, or a site not configured, fails naming the type and the id", async () => {
    const { sim } = await site(KEY);
    const p = await provider(sim);
    await expect(p.read("eu/SPRING25/x", COUPON, {})).rejects.toThrow(
      new Error(
        'Coupon import id "eu/SPRING25/x": give the coupon\'s code or id (e.g. SPRING25), or <site>/<code> for an entry of billing:sites',
      ),
    );
    const err = (await p.read("mars/SPRING25", COUPON, {}).catch((e: Error) => e)) as Error;
    expect(err.message.startsWith('Coupon import id "mars/SPRING25": site "mars" is not an entry of the stack config billing:sites')).toBe(
      true,
    );
    expect(sim.requests).toEqual([]);
  });
});
