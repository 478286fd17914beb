import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Simulator } from "../../simulator";
import { call, withSite } from "./helpers";

let sim: Simulator;
beforeEach(async () => {
  // basic (1; basic-default 101), pro (2; pro-monthly 201 default, pro-annual 202)
  sim = await withSite();
});
afterEach(async () => {
  await sim.close();
});

describe("GET /products/{id}.json and /products/handle/{handle}.json", () => {
  it.each(["/products/2.json", "/products/handle/pro.json"])(
    "%s: the product with its default price point's terms and id",
    async (path) => {
      const res = await call(sim, "GET", path);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(["product"]);
      expect(res.body.product).toMatchObject({
        id: 2,
        handle: "pro",
        name: "pro",
        price_in_cents: 5000,
        interval: 1,
        interval_unit: "month",
        default_product_price_point_id: 201,
        product_price_point_name: "Default",
        archived_at: null,
        product_family: { handle: expect.any(String) },
      });
      // The contract's product schema has both; the published promote example writes the default's id in both.
      expect(res.body.product.product_price_point_id).toBe(201);
      expect(res.body.product.product_price_point_handle).toBe("pro-monthly");
    },
  );

  it("the default moves with the product's own: a product whose given default is not first", async () => {
    sim.addProduct({
      id: 7,
      handle: "max",
      pricePoints: [
        { id: 701, handle: "max-weekly" },
        { id: 702, handle: "max-monthly", default: true },
      ],
    });
    expect((await call(sim, "GET", "/products/7.json")).body.product.default_product_price_point_id).toBe(702);
  });

  it('a product without a handle: "handle": null, reachable by id only', async () => {
    const p = sim.addProduct({ handle: null, name: "Legacy" });
    expect(p.handle).toBeNull();
    expect((await call(sim, "GET", `/products/${p.id}.json`)).body.product).toMatchObject({ id: p.id, handle: null, name: "Legacy" });
    expect((await call(sim, "GET", "/products/handle/null.json")).status).toBe(404);
    const pps = (await call(sim, "GET", `/products/${p.id}/price_points.json`)).body.price_points;
    expect(pps).toMatchObject([{ type: "default", product_id: p.id }]);
  });

  it.each(["/products/99.json", "/products/handle/gold.json", "/products/handle/%E0%A4%A.json"])(
    "404 with an error list for %s",
    async (path) => {
      expect(await call(sim, "GET", path)).toMatchObject({ status: 404, body: { errors: ["Product not found"] } });
    },
  );

  it("needs credentials like every API route", async () => {
    expect((await call(sim, "GET", "/products/1.json", { auth: null })).status).toBe(401);
  });
});

describe("GET /products/{id}/price_points.json", () => {
  it("lists ids, handles and types in the order they were made", async () => {
    const res = await call(sim, "GET", "/products/2/price_points.json");
    expect(res.status).toBe(200);
    expect(res.body.price_points).toEqual([
      expect.objectContaining({
        id: 201,
        handle: "pro-monthly",
        name: "Default",
        type: "default",
        price_in_cents: 5000,
        interval: 1,
        interval_unit: "month",
        product_id: 2,
        archived_at: null,
      }),
      expect.objectContaining({
        id: 202,
        handle: "pro-annual",
        name: "pro-annual",
        type: "catalog",
        price_in_cents: 50000,
        interval: 12,
        product_id: 2,
      }),
    ]);
    expect(res.body.price_points[0].created_at).toMatch(/Z$/);
  });

  it("takes the product as handle:<handle>, as the contract says", async () => {
    const res = await call(sim, "GET", "/products/handle:pro/price_points.json");
    expect(res.body.price_points.map((p: { id: number }) => p.id)).toEqual([201, 202]);
    expect((await call(sim, "GET", "/products/pro/price_points.json")).status).toBe(404);
  });

  it.each([
    { filter: "default", ids: [201] },
    { filter: "catalog", ids: [202] },
    { filter: "catalog,default", ids: [201, 202] },
    { filter: "custom", ids: [] },
  ])("filter[type]=$filter", async ({ filter, ids }) => {
    const res = await call(sim, "GET", `/products/2/price_points.json?filter[type]=${filter}`);
    expect(res.body.price_points.map((p: { id: number }) => p.id)).toEqual(ids);
  });

  it("pages 10 at a time by default, per_page up to 200", async () => {
    const many = Array.from({ length: 25 }, (_, i) => ({ id: 1000 + i, handle: `tier-${i}`, default: i === 0 }));
    sim.addProduct({ id: 9, handle: "tiers", pricePoints: many });
    const page = async (q: string) =>
      (await call(sim, "GET", `/products/9/price_points.json?${q}`)).body.price_points.map((p: { id: number }) => p.id);
    expect(await page("")).toEqual(Array.from({ length: 10 }, (_, i) => 1000 + i));
    expect(await page("page=3")).toEqual([1020, 1021, 1022, 1023, 1024]);
    expect(await page("page=4")).toEqual([]);
    expect(await page("per_page=500")).toHaveLength(25);
  });

  it.each(["filter[type]=gold", "page=0", "per_page=x"])("422 for %s", async (q) => {
    const res = await call(sim, "GET", `/products/2/price_points.json?${q}`);
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toContain(q.split("=")[0]);
  });

  it("404 for an unknown product", async () => {
    expect((await call(sim, "GET", "/products/99/price_points.json")).status).toBe(404);
    expect((await call(sim, "GET", "/products/handle:gold/price_points.json")).status).toBe(404);
  });
});

describe("GET /site.json", () => {
  it("answers the contract's Site, which has no webhooks_enabled whatever the setting", async () => {
    sim.webhooksEnabled = true;
    const res = await call(sim, "GET", "/site.json");
    expect(res.status).toBe(200);
    expect(res.body.site).toMatchObject({ id: expect.any(Number), subdomain: expect.any(String), currency: "USD", test: true });
    expect(res.text).not.toContain("webhooks_enabled");
  });
});
