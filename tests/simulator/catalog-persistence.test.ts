import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DATA_VERSION, DataFileError, startSimulator } from "../../simulator";
import { call, start } from "./helpers";

// The catalogue in the data file: a restarted simulator answers every catalogue read as the stopped one did,
// hands out no id twice, and still reads files of version 1 (before families and full terms).

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "sim-catalog-"));
  file = path.join(dir, "site.json");
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const monthly = (name: string, handle: string, price: number) => ({
  name,
  handle,
  price_in_cents: price,
  interval: 1,
  interval_unit: "month",
});

/** Every catalogue read a client can make, archived things included. */
async function everything(sim: Awaited<ReturnType<typeof startSimulator>>) {
  const families = (await call(sim, "GET", "/product_families.json")).body;
  const products = (await call(sim, "GET", "/products.json?include_archived=true&per_page=200")).body;
  const pricePoints = [];
  for (const { product } of products)
    pricePoints.push((await call(sim, "GET", `/products/${product.id}/price_points.json?include_archived=true&per_page=200`)).body);
  return { families, products, pricePoints };
}

describe("the catalogue across a restart", () => {
  it("keeps families, products, price points (archived, promoted, repriced) and their ids", async () => {
    const first = await startSimulator({ dataFile: file });
    first.addProductFamily({ handle: "seeded", name: "Seeded", description: "from the web UI" });
    first.addProduct({
      handle: "legacy",
      familyHandle: "seeded",
      archived: true,
      pricePoints: [
        { handle: "l", default: true },
        { handle: "l-old", archived: true },
      ],
    });
    const fam = (await call(first, "POST", "/product_families.json", { body: { product_family: { name: "SaaS", handle: "saas" } } })).body
      .product_family;
    const prod = (
      await call(first, "POST", `/product_families/${fam.id}/products.json`, {
        body: {
          product: {
            ...monthly("Gold", "gold", 1000),
            trial_interval: 14,
            trial_interval_unit: "day",
            trial_price_in_cents: 0,
            trial_type: "no_obligation",
            auto_create_signup_page: true,
          },
        },
      })
    ).body.product;
    await call(first, "POST", `/products/${prod.id}/price_points/bulk.json`, {
      body: { price_points: [monthly("A", "a", 1), monthly("B", "b", 2)] },
    });
    await call(first, "PUT", `/products/${prod.id}.json`, { body: { product: { price_in_cents: 1500, description: "repriced" } } });
    await call(first, "DELETE", `/products/${prod.id}/price_points/handle:a.json`);
    await call(first, "PATCH", `/products/${prod.id}/price_points/handle:b/default.json`);
    const made = await call(first, "POST", `/products/${prod.id}/price_points.json`, {
      body: { price_point: monthly("C", "c", 3), uniqueness_token: "c-1" },
    });
    const before = await everything(first);
    await first.close();

    const saved = JSON.parse(await readFile(file, "utf8"));
    expect(saved.version).toBe(DATA_VERSION);
    expect(saved.site.productFamilies.map((f: any) => f.handle)).toEqual(["seeded", "saas"]);

    const second = await start({ dataFile: file });
    expect(second.restored).toBe(true);
    expect(await everything(second)).toEqual(before);
    // The uniqueness token is kept with the catalogue it made.
    expect(
      (
        await call(second, "POST", `/products/${prod.id}/price_points.json`, {
          body: { price_point: monthly("C", "c", 3), uniqueness_token: "c-1" },
        })
      ).status,
    ).toBe(409);
    // Ids continue where the stopped simulator left off.
    const nextFamily = (await call(second, "POST", "/product_families.json", { body: { product_family: { name: "Next" } } })).body
      .product_family;
    expect(nextFamily.id).toBe(fam.id + 1);
    const nextPp = (await call(second, "POST", `/products/${prod.id}/price_points.json`, { body: { price_point: monthly("D", "d", 4) } }))
      .body.price_point;
    expect(nextPp.id).toBe(made.body.price_point.id + 1);
    // Handles are still taken, archived ones too.
    expect((await call(second, "POST", "/product_families.json", { body: { product_family: { name: "x", handle: "saas" } } })).status).toBe(
      422,
    );
    expect(
      (await call(second, "POST", `/products/${prod.id}/price_points.json`, { body: { price_point: monthly("A", "a", 1) } })).status,
    ).toBe(422);
  });

  it("a file whose product names a family that is not there is refused, naming where", async () => {
    const first = await startSimulator({ dataFile: file });
    first.addProduct({ handle: "basic" });
    await first.close();
    const saved = JSON.parse(await readFile(file, "utf8"));
    saved.site.productFamilies = [];
    await writeFile(file, JSON.stringify(saved));
    const err = await startSimulator({ dataFile: file }).then(
      (s) => s.close().then(() => undefined),
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DataFileError);
    expect((err as Error).message).toMatch(/site\.products\[0\]\.familyId: no product family has id/);
  });
});

describe("a data file of version 1", () => {
  const v1 = {
    format: "billing-simulator-data",
    version: 1,
    site: {
      webhooksEnabled: true,
      nextIds: { product: 3, pricePoint: 203, subscription: 1002, webhook: 1, endpoint: 1 },
      products: [
        {
          id: 1,
          handle: "basic",
          name: "Basic",
          priceInCents: 1000,
          pricePoints: [{ id: 101, handle: "basic-default", name: "Default", default: true, priceInCents: 1000, intervalMonths: 1 }],
          createdAt: "2026-09-01T09:00:00Z",
        },
        {
          id: 2,
          handle: "pro",
          name: "Pro",
          priceInCents: 5000,
          pricePoints: [
            { id: 201, handle: "pro-monthly", name: "Monthly", default: true, priceInCents: 5000, intervalMonths: 1 },
            { id: 202, handle: "pro-annual", name: "Annual", default: false, priceInCents: 50000, intervalMonths: 12 },
          ],
          createdAt: "2026-09-02T09:00:00Z",
        },
      ],
      subscriptions: [
        {
          id: 1001,
          productId: 2,
          pricePointId: 202,
          state: "active",
          requiresAuthentication: false,
          createdAt: "2026-09-03T09:00:00Z",
          updatedAt: "2026-09-03T09:00:00Z",
          currentPeriodStartedAt: "2026-09-03T09:00:00Z",
          currentPeriodEndsAt: "2027-09-03T09:00:00Z",
        },
      ],
      migrationsApplied: [],
      authentications: [],
      webhooks: [],
      replayLog: [],
      replayQueue: [],
      endpoints: [],
      uniquenessTokens: [],
    },
  };

  it("is read and upgraded: one family 'plans' (id 1, as version 1 showed it), terms in months; written as the current version at the first change", async () => {
    await writeFile(file, JSON.stringify(v1));
    const sim = await start({ dataFile: file });
    expect(sim.restored).toBe(true);
    const pro = (await call(sim, "GET", "/products/handle/pro.json")).body.product;
    expect(pro).toMatchObject({
      id: 2,
      description: "",
      price_in_cents: 5000,
      interval: 1,
      interval_unit: "month",
      product_family: { id: 1, handle: "plans" },
    });
    const pps = (await call(sim, "GET", "/products/2/price_points.json")).body.price_points;
    expect(pps.map((pp: any) => [pp.id, pp.interval, pp.interval_unit, pp.type])).toEqual([
      [201, 1, "month", "default"],
      [202, 12, "month", "catalog"],
    ]);
    expect((await call(sim, "GET", "/subscriptions/1001.json")).body.subscription.product.interval).toBe(12);
    expect(JSON.parse(await readFile(file, "utf8")).version).toBe(1);
    const fam = (await call(sim, "POST", "/product_families.json", { body: { product_family: { name: "New" } } })).body.product_family;
    expect(fam.id).not.toBe(1);
    const saved = JSON.parse(await readFile(file, "utf8"));
    expect(saved.version).toBe(DATA_VERSION);
    expect(saved.site.productFamilies.map((f: any) => [f.id, f.handle])).toEqual([
      [1, "plans"],
      [fam.id, "new"],
    ]);
  });

  it("is refused like any other when its own shape is wrong, and left as it was", async () => {
    const bad = structuredClone(v1);
    (bad.site.products[0].pricePoints[0] as any).intervalMonths = 0;
    const text = JSON.stringify(bad);
    await writeFile(file, text);
    await expect(startSimulator({ dataFile: file })).rejects.toThrow(/site\.products\[0\]\.pricePoints\[0\]\.intervalMonths/);
    expect(await readFile(file, "utf8")).toBe(text);
  });
});
