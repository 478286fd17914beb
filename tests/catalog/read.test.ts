import { describe, expect, it, onTestFinished } from "vitest";
import { readCatalog } from "../../catalog";
import { SECRET_KEY, webUiSite } from "./site";

// readCatalog against the simulator over a socket: a catalog clicked together in a web UI, read whole
// (every page, archived objects when asked), into a snapshot by handle, with at most 4 requests in flight.

const started = async (o: Parameters<typeof webUiSite>[0] = {}) => {
  const sim = await webUiSite(o);
  onTestFinished(() => sim.close());
  return sim;
};

describe("readCatalog", () => {
  it("reads every family, product, price point, component of each kind with its tiers, and coupon with its restrictions", async () => {
    const sim = await started();
    const { snapshot: s, ids, skipped } = await readCatalog({ baseUrl: sim.url, apiKey: SECRET_KEY });
    expect(skipped).toEqual([]);
    expect(Object.keys(s.families)).toEqual(["addons", "plans"]);
    expect(s.families.plans).toEqual({ name: "Plans", description: "Self-serve plans" });
    // Archived objects are left out unless asked for.
    expect(Object.keys(s.products)).toEqual(["basic", "pro"]);
    expect(s.products.basic).toMatchObject({
      productFamily: "plans",
      name: "Basic",
      priceInCents: 1900,
      interval: 1,
      intervalUnit: "month",
      defaultPricePoint: { handle: "basic-monthly", name: "Monthly" },
      pricePoints: { "basic-annual": { name: "Annual", priceInCents: 19000, interval: 12, intervalUnit: "month" } },
    });
    expect(Object.keys(s.products.basic!.pricePoints)).toEqual(["basic-annual"]);
    expect(Object.keys(s.products.pro!.pricePoints)).toEqual(["pro-annual", "pro-quarterly"]);
    expect(s.products.pro!.pricePoints["pro-quarterly"]).toMatchObject({ initialChargeInCents: 5000, priceInCents: 13900 });
    expect(Object.fromEntries(Object.entries(s.components).map(([h, c]) => [h, c.kind]))).toEqual({
      "api-calls": "metered",
      credits: "prepaid_usage",
      events: "event_based",
      seats: "quantity_based",
      sso: "on_off",
    });
    expect(s.components["api-calls"]).toMatchObject({
      productFamily: "plans",
      unitName: "call",
      pricingScheme: "tiered",
      taxable: true,
      prices: [
        { startingQuantity: 1, endingQuantity: 100, unitPrice: "0.1" },
        { startingQuantity: 101, endingQuantity: 1000, unitPrice: "0.05" },
        { startingQuantity: 1001, unitPrice: "0.01" },
      ],
      pricePoints: { "api-calls-eu": { name: "EU", pricingScheme: "volume" } },
    });
    expect(s.components["api-calls"]!.prices![2]).not.toHaveProperty("endingQuantity");
    expect(s.components.sso).toMatchObject({ kind: "on_off", unitPrice: "99.0" });
    expect(s.components.sso).not.toHaveProperty("prices");
    expect(s.components.credits!.overagePricing).toEqual({
      pricingScheme: "tiered",
      prices: [
        { startingQuantity: 1, endingQuantity: 50, unitPrice: "2.0" },
        { startingQuantity: 51, unitPrice: "1.8" },
      ],
    });
    expect(s.components.events).toMatchObject({ eventBasedBillingMetricId: 42, pricingScheme: "volume" });
    expect(s.components.seats).toMatchObject({ recurring: true, pricingScheme: "stairstep", pricePoints: {} });
    expect(Object.keys(s.coupons)).toEqual(["SEATS5", "WELCOME10"]);
    expect(s.coupons.WELCOME10).toMatchObject({ productFamily: "plans", percentage: 10, restrictedProducts: ["basic", "pro"] });
    expect(s.coupons.SEATS5).toMatchObject({
      amountInCents: 500,
      recurring: true,
      durationPeriodCount: 3,
      stackable: true,
      restrictedProducts: ["pro"],
      restrictedComponents: ["seats"],
    });
    // Ids are kept aside, by the same keys.
    expect(ids.components.seats).toBe(sim.components().find((c) => c.handle === "seats")!.id);
    expect(Object.keys(ids.components).sort()).toEqual(Object.keys(s.components));
    expect(JSON.stringify(s)).not.toMatch(/"id"/);
  });

  it("with includeArchived: the archived product, price points, component and coupon too, marked archived", async () => {
    const sim = await started();
    const { snapshot: s } = await readCatalog({ baseUrl: sim.url, apiKey: SECRET_KEY }, { includeArchived: true });
    expect(s.includesArchived).toBe(true);
    expect(s.products.legacy).toMatchObject({ archived: true, name: "Legacy" });
    expect(s.products.basic!.pricePoints["basic-2019"]).toMatchObject({ archived: true, priceInCents: 1500 });
    expect(s.components["old-usage"]).toMatchObject({ archived: true, kind: "metered" });
    // The SDK's list never asks for archived component price points; the export's own list does.
    expect(s.components.seats!.pricePoints["seats-old"]).toMatchObject({ archived: true, name: "Old seats" });
    expect(s.coupons.BLACKFRIDAY).toMatchObject({ archived: true, amountInCents: 2000, endDate: "2025-12-01T00:00:00Z" });
    expect(s.products.basic).not.toHaveProperty("archived");
  });

  it("reads every page: 230 more products take two pages of products, and every one is in the snapshot", async () => {
    const sim = await started({ bulk: 230 });
    const { snapshot: s } = await readCatalog({ baseUrl: sim.url, apiKey: SECRET_KEY });
    expect(Object.keys(s.products)).toHaveLength(232);
    expect(s.products["bulk-0229"]).toMatchObject({ productFamily: "bulk", priceInCents: 329 });
    const pages = sim.requests.filter((r) => r.path === "/products.json").map((r) => r.query.page);
    expect(pages).toEqual(["1", "2"]);
  });

  it("never has more than 4 requests in flight, and uses all 4", async () => {
    // The simulator lets any number in (maxConcurrent 100), so only the client's cap bounds what arrives at once.
    const sim = await started({ bulk: 60, maxConcurrent: 100, latencyMs: 5 });
    await readCatalog({ baseUrl: sim.url, apiKey: SECRET_KEY, maxConcurrency: 64 });
    expect(sim.peakInFlight).toBe(4);
  });

  it("reports progress: a count of objects read that only grows, ending at every object of the snapshot", async () => {
    const sim = await started({ bulk: 10 });
    const seen: number[] = [];
    const { snapshot: s } = await readCatalog({ baseUrl: sim.url, apiKey: SECRET_KEY }, { onProgress: (p) => seen.push(p.objects) });
    const count =
      Object.keys(s.families).length +
      Object.values(s.products).reduce((n, p) => n + 1 + Object.keys(p.pricePoints).length, 0) +
      Object.values(s.components).reduce((n, c) => n + 1 + Object.keys(c.pricePoints).length, 0) +
      Object.keys(s.coupons).length;
    expect(seen.length).toBeGreaterThan(10);
    expect(seen.at(-1)).toBe(count);
    for (let i = 1; i < seen.length - 1; i++) expect(seen[i]).toBeGreaterThanOrEqual(seen[i - 1]!);
  });
});

describe("objects nothing keys across sites", () => {
  it("a product without a handle is left out, named in skipped, and its price points are not read", async () => {
    const sim = await started();
    const nameless = sim.addProduct({ handle: null, name: "Made by an old import", familyHandle: "plans", priceInCents: 100 });
    const { snapshot, skipped } = await readCatalog({ baseUrl: sim.url, apiKey: SECRET_KEY });
    expect(skipped).toEqual([
      { type: "Product", id: nameless.id, reason: "a product without a handle (its price points left out with it)" },
    ]);
    expect(Object.keys(snapshot.products)).toEqual(["basic", "pro"]);
    expect(sim.requests.some((r) => r.path === `/products/${nameless.id}/price_points.json`)).toBe(false);
  });
});
