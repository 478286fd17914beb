import { describe, expect, it } from "vitest";
import { BillingValidationError } from "../../../sdk";
import { catalogue, clientOf, migrationSite, posts, scripted, site } from "../helpers";

/**
 * The price point of a migrated subscription: taken from the answer when the service reports it, resolved through
 * the product otherwise (resolvePricePoint), and a lookup that fails never fails a migration that was applied.
 */

const MIGRATIONS = /^\/subscriptions\/\d+\/migrations\.json$/;

describe("price point of a migrated subscription", () => {
  // [label, target, price point id, its handle, requests after the POST when the answer does not report it]
  const CASES = [
    ["named by id", { productId: 2, pricePointId: 202 }, 202, "pro-annual", []],
    ["named by handle", { productHandle: "pro", pricePointHandle: "pro-annual" }, 202, "pro-annual", ["GET /products/2/price_points.json"]],
    ["the product's default", { productHandle: "pro" }, 201, "pro-monthly", ["GET /products/2.json"]],
  ] as const;

  it.each(CASES)("%s, not reported by the answer: resolved through the product", async (_, target, ppId, ppHandle, lookups) => {
    const { sim, billing, id } = await migrationSite();
    const sub = await billing.migrateSubscription(id, target);
    expect(sub.pricePointId).toBe(ppId);
    expect(sim.getSubscription(id)?.pricePointId).toBe(ppId);
    expect(sim.requests.slice(1).map((q) => `${q.method} ${q.path}`)).toEqual(lookups);
    expect("pricePointHandle" in sub).toBe(true);
    // Exact when the handle was named; otherwise it may be unknown, but never another price point's.
    if ("pricePointHandle" in target) expect(sub.pricePointHandle).toBe(ppHandle);
    else expect([undefined, ppHandle]).toContain(sub.pricePointHandle);
  });

  it.each(CASES)("%s, reported by the answer (reportPricePoint): taken from it, nothing else read", async (_, target, ppId) => {
    const { sim, billing, id } = await migrationSite({ reportPricePoint: true });
    const sub = await billing.migrateSubscription(id, target);
    expect(sub.pricePointId).toBe(ppId);
    expect(sim.getSubscription(id)?.pricePointId).toBe(ppId);
    expect(sim.requests.map((q) => q.method)).toEqual(["POST"]);
  });

  it("a read reports the price point only when the service does; resolvePricePoint fills it in", async () => {
    for (const reportPricePoint of [false, true]) {
      const s = await site({ reportPricePoint });
      catalogue(s.sim);
      const id = s.sim.addSubscription({ productHandle: "pro", pricePointId: 202, state: "active" }).id;
      const sub = await s.billing.readSubscription(id);
      expect(sub.pricePointId).toBe(reportPricePoint ? 202 : undefined);
      expect(sub.previousState).toBe("active"); // the service's previous_state, which equals state for API calls
      s.sim.reset();
      const resolved = await s.billing.resolvePricePoint(sub, { productHandle: "pro", pricePointHandle: "pro-annual" });
      if (reportPricePoint) {
        expect(resolved).toStrictEqual(sub); // nothing to resolve
        expect(s.sim.requests).toHaveLength(0);
      } else {
        expect(resolved).toStrictEqual({ ...sub, pricePointId: 202, pricePointHandle: "pro-annual" });
        expect(s.sim.requests.map((q) => q.path)).toEqual(["/products/2/price_points.json"]);
      }
    }
  });

  it("readProduct by id or handle, listPricePoints", async () => {
    const s = await site();
    catalogue(s.sim);
    expect(await s.billing.readProduct(2)).toMatchObject({ id: 2, handle: "pro", defaultPricePointId: 201 });
    expect(await s.billing.readProduct("pro")).toMatchObject({ id: 2, handle: "pro", defaultPricePointId: 201 });
    expect(await s.billing.readProduct("3")).toMatchObject({ id: 3, handle: "launch", defaultPricePointId: 301 });
    expect(s.sim.requests.map((q) => q.path)).toEqual(["/products/2.json", "/products/handle/pro.json", "/products/3.json"]);
    const points = await s.billing.listPricePoints(2);
    expect(points.map((p) => [p.id, p.handle, p.type])).toEqual([
      [201, "pro-monthly", "default"],
      [202, "pro-annual", "catalog"],
    ]);
    await expect(s.billing.readProduct("gold")).rejects.toMatchObject({ status: 404, path: "/products/handle/gold.json" });
    await expect(s.billing.readProduct(0)).rejects.toBeInstanceOf(BillingValidationError);
    await expect(s.billing.listPricePoints(-1)).rejects.toBeInstanceOf(BillingValidationError);
  });

  it("a price point lookup that fails does not fail a migration that was applied", async () => {
    const { sim, billing, id } = await migrationSite({}, { maxRetries: 1 });
    sim.injectFault({ kind: "status", status: 503, match: { method: "GET", path: "/products/2.json" } });
    const sub = await billing.migrateSubscription(id, { productHandle: "pro" });
    expect(sub).toMatchObject({ id, product: { id: 2, handle: "pro" }, pricePointId: undefined });
    // One POST; then only lookups of the product, every one failed: 3 rounds (sdk/products.ts) of maxRetries + 1 attempts.
    expect(posts(sim, MIGRATIONS).map((q) => q.status)).toEqual([200]);
    const lookups = sim.requests.slice(1);
    expect(lookups).toHaveLength(3 * (1 + 1));
    expect(lookups.every((q) => q.method === "GET" && q.path === "/products/2.json" && q.status === 503)).toBe(true);
    expect(sim.migrationsApplied(id)).toBe(1);
  });
});

describe("resolvePricePoint when the product names no default price point", () => {
  // The simulator always names a product's default; the vendor's placeholder (default_product_price_point_id 0)
  // names none, so the SDK looks for the price point of type "default" among the product's price points.
  it.each<[string, { id: number; handle: string; type: string }[], number | undefined, string | undefined]>([
    [
      "the one of type default, not the first listed",
      [
        { id: 71, handle: "solo-annual", type: "catalog" },
        { id: 72, handle: "solo-monthly", type: "default" },
      ],
      72,
      "solo-monthly",
    ],
    ["none when no price point is the default", [{ id: 71, handle: "solo-annual", type: "catalog" }], undefined, undefined],
  ])("%s", async (_, pricePoints, pricePointId, pricePointHandle) => {
    const server = await scripted([
      { status: 200, json: { subscription: { id: 9, state: "active", product: { id: 7, handle: "solo" } } } },
      { status: 200, json: { product: { id: 7, handle: "solo", default_product_price_point_id: 0 } } },
      { status: 200, json: { price_points: pricePoints } },
    ]);
    const billing = clientOf(server.url);
    const sub = await billing.readSubscription(9);
    const resolved = await billing.resolvePricePoint(sub, { productId: 7 });
    expect(resolved).toStrictEqual({ ...sub, pricePointId, pricePointHandle });
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toStrictEqual([
      "GET /subscriptions/9.json",
      "GET /products/7.json",
      "GET /products/7/price_points.json",
    ]);
  });
});
