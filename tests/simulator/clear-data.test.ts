import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { type Simulator, type SimulatorOptions, startSimulator } from "../../simulator";
import { call, start, until } from "./helpers";

// POST /sites/clear_data.json over real HTTP: 403 on a live site; on a test site 200 at once and the data gone only
// after a delay, so a client must poll until the site is empty; cleanup_scope customers leaves the catalogue.

/** A catalogue (family, product, component, coupon, offer, a currency price), two subscriptions, site configuration. */
async function site(o: SimulatorOptions = {}): Promise<Simulator> {
  const sim = await start({ nonPrimaryCurrencies: ["EUR"], ...o });
  sim.addProductFamily({ id: 9001, handle: "saas" });
  sim.addProduct({
    id: 1,
    handle: "pro",
    familyHandle: "saas",
    pricePoints: [{ id: 101, handle: "monthly", default: true, useSiteExchangeRate: false }],
  });
  sim.addProductCurrencyPrices(101, [{ currency: "EUR", role: "baseline", price: 9 }]);
  sim.addComponent({ familyHandle: "saas", kind: "on_off", handle: "support" });
  sim.addCoupon({ familyHandle: "saas", code: "TEN", amountInCents: 1000 });
  sim.addOffer({ handle: "solo", productHandle: "pro" });
  sim.addSubscription({ id: 1001, productHandle: "pro", state: "active" });
  sim.addSubscription({ id: 1002, productHandle: "pro", state: "trialing" });
  sim.addMetafield({ resourceType: "subscriptions", name: "Color", dataCount: 2 });
  sim.addReasonCode({ code: "PRICE", description: "Too dear" });
  return sim;
}

const products = async (sim: Simulator) => (await call(sim, "GET", "/products.json?include_archived=true")).body.length;
const subscription = async (sim: Simulator) => (await call(sim, "GET", "/subscriptions/1001.json")).status;

describe("POST /sites/clear_data.json", () => {
  it("a live site refuses: 403, and nothing is cleared", async () => {
    const sim = await site({ live: true, clearDataDelayMs: 0 });
    const res = await call(sim, "POST", "/sites/clear_data.json");
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ errors: ["This site is in live mode: its data can only be cleared on a test site."] });
    await new Promise((r) => setTimeout(r, 30));
    expect([await products(sim), await subscription(sim)]).toEqual([1, 200]);
  });

  it("a test site: 200 without a body at once, the data still there right after; gone when a client polls for it", async () => {
    const sim = await site({ clearDataDelayMs: 150 });
    const res = await call(sim, "POST", "/sites/clear_data.json?cleanup_scope=all");
    expect([res.status, res.text]).toEqual([200, ""]);
    expect([await products(sim), await subscription(sim)]).toEqual([1, 200]);
    const started = Date.now();
    let empty = false;
    while (!empty) {
      empty = (await products(sim)) === 0;
      if (!empty) await new Promise((r) => setTimeout(r, 10));
      if (Date.now() - started > 10_000) throw new Error("the site was never cleared");
    }
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
    expect(await subscription(sim)).toBe(404);
  });

  it("cleanup_scope=all (the default) clears the catalogue, offers and currency prices; settings, fields and codes stay", async () => {
    const sim = await site({ clearDataDelayMs: 0 });
    expect((await call(sim, "POST", "/sites/clear_data.json")).status).toBe(200);
    await until(() => sim.offers().length === 0, "the offers are cleared");
    expect(await products(sim)).toBe(0);
    expect((await call(sim, "GET", "/product_families.json")).body).toEqual([]);
    expect(sim.components()).toEqual([]);
    expect(sim.coupons()).toEqual([]);
    expect(await subscription(sim)).toBe(404);
    expect(sim.metafields().map((m) => [m.name, m.dataCount])).toEqual([["Color", 0]]);
    expect(sim.reasonCodes().map((r) => r.code)).toEqual(["PRICE"]);
    expect((await call(sim, "GET", "/site.json")).body.site.non_primary_currencies).toEqual(["EUR"]);
    // Ids keep counting: what is made next is not mistaken for what was cleared.
    const family = await call(sim, "POST", "/product_families.json", { body: { product_family: { name: "Again", handle: "saas" } } });
    expect(family.status).toBe(201);
    expect(family.body.product_family.id).not.toBe(9001);
  });

  it("cleanup_scope=customers clears subscriptions and the fields' data; the catalogue stays", async () => {
    const sim = await site({ clearDataDelayMs: 0 });
    expect((await call(sim, "POST", "/sites/clear_data.json?cleanup_scope=customers")).status).toBe(200);
    await until(() => sim.getSubscription(1001) === undefined, "the subscriptions are cleared");
    expect(sim.getSubscription(1002)).toBeUndefined();
    expect(sim.metafields()[0].dataCount).toBe(0);
    expect([await products(sim), sim.offers().length, sim.coupons().length, sim.components().length]).toEqual([1, 1, 1, 1]);
    expect(
      (await call(sim, "GET", "/products/1/price_points/101.json?currency_prices=true")).body.price_point.currency_prices,
    ).toHaveLength(1);
  });

  it("a scope the contract does not list: 422, nothing cleared", async () => {
    const sim = await site({ clearDataDelayMs: 0 });
    const res = await call(sim, "POST", "/sites/clear_data.json?cleanup_scope=products");
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ errors: ["cleanup_scope must be all or customers; got 'products'."] });
    await new Promise((r) => setTimeout(r, 30));
    expect(await subscription(sim)).toBe(200);
  });

  it("a live site made a test site (configureSite) can be cleared", async () => {
    const sim = await site({ live: true, clearDataDelayMs: 0 });
    expect((await call(sim, "POST", "/sites/clear_data.json")).status).toBe(403);
    sim.configureSite({ live: false });
    expect((await call(sim, "POST", "/sites/clear_data.json")).status).toBe(200);
    await until(() => sim.getSubscription(1001) === undefined, "the site is cleared");
  });

  it("a clear still pending when the simulator closes is in the data file (the service would finish it), which loads again", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "sim-clear-"));
    const file = path.join(dir, "site.json");
    try {
      const first = await startSimulator({ dataFile: file, clearDataDelayMs: 60_000, nonPrimaryCurrencies: ["EUR"] });
      first.addProduct({ handle: "pro", pricePoints: [{ id: 101, handle: "m", default: true }] });
      first.addProductCurrencyPrices(101, [{ currency: "EUR", role: "baseline", price: 9 }]);
      first.addComponent({ familyHandle: "plans", kind: "on_off", handle: "support" });
      first.addCoupon({ familyHandle: "plans", code: "TEN", amountInCents: 100 });
      first.addOffer({ handle: "solo", productHandle: "pro", couponCodes: ["TEN"], components: [{ componentHandle: "support" }] });
      first.addMetafield({ resourceType: "customers", name: "Tier", dataCount: 3 });
      first.addSubscription({ id: 1001, productHandle: "pro", state: "active" });
      expect((await call(first, "POST", "/sites/clear_data.json")).status).toBe(200);
      expect(first.getSubscription(1001)).toBeDefined();
      await first.close();
      const stored = JSON.parse(await readFile(file, "utf8"));
      expect([stored.site.products, stored.site.subscriptions, stored.site.offers, stored.site.productCurrencyPrices]).toEqual([
        [],
        [],
        [],
        [],
      ]);
      const second = await startSimulator({ dataFile: file });
      try {
        expect(second.restored).toBe(true);
        expect(second.metafields().map((m) => [m.name, m.dataCount])).toEqual([["Tier", 0]]);
        expect((await call(second, "GET", "/subscriptions/1001.json")).status).toBe(404);
      } finally {
        await second.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("a clear applied by its timer is written to the data file", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "sim-clear-"));
    const file = path.join(dir, "site.json");
    const sim = await startSimulator({ dataFile: file, clearDataDelayMs: 20 });
    try {
      sim.addProduct({ handle: "pro" });
      await call(sim, "POST", "/sites/clear_data.json");
      const stored = async () => JSON.parse(await readFile(file, "utf8")).site.products.length;
      const deadline = Date.now() + 10_000;
      while ((await stored()) !== 0) {
        if (Date.now() > deadline) throw new Error("the clear never reached the file");
        await new Promise((r) => setTimeout(r, 10));
      }
    } finally {
      await sim.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("startSimulator refuses a negative delay", async () => {
    await expect(startSimulator({ clearDataDelayMs: -1 })).rejects.toThrow(/clearDataDelayMs must be 0 or more/);
  });
});
