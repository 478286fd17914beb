import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { ValidationContext } from "openapi-backend";
import { beforeAll, describe, expect, it } from "vitest";
import type { Simulator } from "../../simulator";
import { CONTRACT, contractApi } from "../contract/validator";
import { call, start } from "./helpers";

/**
 * The vendor's published catalog examples (tests/fixtures/vendor/catalog, sources in its index.json)
 * as test data for the simulator: each published request is sent as published and the answer checked
 * key by key against the published answer (every key it shows is there, with a value of the same JSON
 * type or null, and the values the request gave come back); each published refusal is provoked and
 * compared with the published body. Where the examples break the vendor's own contract is listed.
 */

const DIR = path.resolve(__dirname, "../fixtures/vendor/catalog");
interface Entry {
  file: string;
  method: string;
  path: string;
  status: number | null;
  kind: "request" | "response";
  operationId: string;
  source: string;
  notes: string;
  contract: { pointer: string[] };
}
const INDEX: Entry[] = JSON.parse(readFileSync(path.join(DIR, "index.json"), "utf8"));
const text = (file: string) => readFileSync(path.join(DIR, file), "utf8");
const fx = (file: string): any => JSON.parse(text(file));

/** Where a published answer's shape and the simulator's differ: keys missing, or another JSON type than the example's (null aside). */
function shapeProblems(example: unknown, actual: unknown, at = ""): string[] {
  if (example === null || actual === null) return [];
  if (Array.isArray(example)) {
    if (!Array.isArray(actual)) return [`${at || "/"}: not an array`];
    if (example.length === 0) return [];
    if (actual.length === 0) return [`${at || "/"}: empty where the example has entries`];
    return actual.flatMap((a, i) => shapeProblems(example[0], a, `${at}/${i}`));
  }
  if (typeof example === "object") {
    if (typeof actual !== "object" || Array.isArray(actual)) return [`${at || "/"}: not an object`];
    return Object.entries(example as object).flatMap(([k, v]) =>
      k in (actual as object) ? shapeProblems(v, (actual as Record<string, unknown>)[k], `${at}/${k}`) : [`${at}/${k}: missing`],
    );
  }
  return typeof example === typeof actual ? [] : [`${at}: ${typeof actual} where the example has ${typeof example}`];
}

/** The answer in the published answer's shape, and every value the request gave that the published answer echoes, echoed. */
function expectPublished(actual: unknown, example: unknown, request?: Record<string, unknown>): void {
  expect(shapeProblems(example, actual)).toEqual([]);
  if (!request) return;
  const echoed = Object.entries(request).filter(([k, v]) => JSON.stringify((example as Record<string, unknown>)[k]) === JSON.stringify(v));
  expect(echoed.length).toBeGreaterThan(0);
  for (const [k, v] of echoed) expect((actual as Record<string, unknown>)[k], k).toEqual(v);
}

describe("the catalog fixtures", () => {
  it("index.json lists every file of the folder once, each with its source", () => {
    const files = readdirSync(DIR)
      .filter((f) => !["index.json", "README.md", "refresh-from-contract.mjs"].includes(f))
      .sort();
    expect(INDEX.map((e) => e.file).sort()).toEqual(files);
    const readme = text("README.md");
    for (const e of INDEX) {
      expect(e.source, e.file).toMatch(/^maxio-com\/stoplight-platform-api-docs, .*paths\./);
      expect(readme, e.file).toContain(`\`${e.file}\``);
      expect(text(e.file), e.file).toBe(`${JSON.stringify(JSON.parse(text(e.file)), null, 2)}\n`);
    }
  });

  it("each holds the contract's published value, unchanged, under the operation it names", () => {
    const contract = JSON.parse(readFileSync(CONTRACT, "utf8"));
    for (const e of INDEX) {
      expect(fx(e.file), e.file).toEqual(e.contract.pointer.reduce((o: any, k) => o?.[k], contract));
      expect(contract.paths[e.path][e.method.toLowerCase()].operationId, e.file).toBe(e.operationId);
    }
  });

  const SPACE = "a space, not 'T', in a timestamp: not RFC 3339 as the contract's date-time says (parse both)";
  const timestamps = (...prefixes: string[]) =>
    Object.fromEntries(prefixes.flatMap((p) => ["archived_at", "created_at", "updated_at"].map((k) => [`${p}/${k}`, SPACE])));
  /** fixture → (JSON pointer → why the published example breaks the contract there). */
  const DEVIATIONS: Record<string, Record<string, string>> = {
    "price-point-create.201.json": timestamps("/price_point"),
    "price-point-read.200.json": timestamps("/price_point"),
    "price-point-update.200.json": timestamps("/price_point"),
    "price-point-archive.200.json": timestamps("/price_point"),
    "price-point-unarchive.200.json": timestamps("/price_point"),
    "price-points-list.200.json": timestamps("/price_points/0"),
    "price-points-bulk.201.json": timestamps("/price_points/0"),
    "price-point-promote.200.json": {
      "/product/created_at": SPACE,
      "/product/updated_at": SPACE,
      "/product/product_family/created_at": SPACE,
      "/product/product_family/updated_at": SPACE,
    },
    "products-list.200.json": { "/0/product/created_at": SPACE, "/0/product/updated_at": SPACE },
  };

  let deviations: (body: unknown, schema: object) => string[];
  beforeAll(async () => {
    const ajv = (await contractApi()).validator.getAjv(ValidationContext.Response, { allErrors: true });
    deviations = (body, schema) => {
      const validate = ajv.compile(schema);
      validate(body);
      return [...new Set((validate.errors ?? []).map((e) => e.instancePath || "/"))].sort();
    };
  });

  it.each(INDEX.map((e) => [e.file, e] as const))("%s: where it breaks the contract is exactly what is listed", (file, e) => {
    const op = JSON.parse(readFileSync(CONTRACT, "utf8")).paths[e.path][e.method.toLowerCase()];
    const schema =
      e.kind === "request"
        ? op.requestBody.content["application/json"].schema
        : op.responses[String(e.status)].content["application/json"].schema;
    expect(deviations(fx(file), schema)).toEqual(Object.keys(DEVIATIONS[file] ?? {}).sort());
  });
});

describe("the simulator takes the vendor's requests and answers in the published shapes", () => {
  /** A family made from the published request, a product from the published request, a price point from the published one. */
  async function catalog(): Promise<{ sim: Simulator; family: any; product: any; pricePoint: any }> {
    const sim = await start();
    const family = await call(sim, "POST", "/product_families.json", { body: fx("product-family-create.request.json") });
    expect(family.status).toBe(201);
    const product = await call(sim, "POST", `/product_families/${family.body.product_family.id}/products.json`, {
      body: fx("product-create.request.json"),
    });
    expect(product.status).toBe(201);
    const pp = await call(sim, "POST", `/products/${product.body.product.id}/price_points.json`, {
      body: fx("price-point-create.request.json"),
    });
    expect(pp.status).toBe(201);
    return { sim, family: family.body.product_family, product: product.body.product, pricePoint: pp.body.price_point };
  }

  it("createProductFamily: the published answer's shape, the handle made from the name as published", async () => {
    const { family } = await catalog();
    const published = fx("product-family-create.201.json").product_family;
    expectPublished(family, published, fx("product-family-create.request.json").product_family);
    expect(family.handle).toBe(published.handle);
  });

  it("listProductFamilies and readProductFamily", async () => {
    const { sim, family } = await catalog();
    expectPublished((await call(sim, "GET", "/product_families.json")).body, fx("product-families-list.200.json"));
    expectPublished((await call(sim, "GET", `/product_families/handle:${family.handle}.json`)).body, fx("product-family-read.200.json"));
  });

  it("createProduct: the published answer's shape and values (one signup page, version 1, 'Default', taxable false)", async () => {
    const { product } = await catalog();
    const published = fx("product-create.201.json").product;
    expectPublished(product, published, fx("product-create.request.json").product);
    for (const k of ["product_price_point_name", "version_number", "taxable", "archived_at", "request_credit_card"])
      expect(product[k], k).toEqual(published[k]);
    expect(product.public_signup_pages).toHaveLength(published.public_signup_pages.length);
  });

  it("listProductsForProductFamily, listProducts, readProduct, readProductByHandle, updateProduct, archiveProduct", async () => {
    const { sim, family, product } = await catalog();
    expectPublished((await call(sim, "GET", `/product_families/${family.id}/products.json`)).body, fx("products-for-family.200.json"));
    expectPublished((await call(sim, "GET", "/products.json")).body, fx("products-list.200.json"));
    expectPublished((await call(sim, "GET", `/products/${product.id}.json`)).body, fx("product-read.200.json"));
    expectPublished((await call(sim, "GET", `/products/handle/${product.handle}.json`)).body, fx("product-read-by-handle.200.json"));
    const updated = await call(sim, "PUT", `/products/${product.id}.json`, { body: { product: { name: "Platinum Plan" } } });
    expectPublished(updated.body, fx("product-update.200.json"));
    const archived = await call(sim, "DELETE", `/products/${product.id}.json`);
    expectPublished(archived.body, fx("product-archive.200.json"));
    expect(archived.body.product.archived_at).toEqual(expect.any(String));
  });

  it("the price point requests: create, read, list, update, archive, unarchive, promote", async () => {
    const { sim, product, pricePoint } = await catalog();
    const request = fx("price-point-create.request.json").price_point;
    expectPublished(pricePoint, fx("price-point-create.201.json").price_point, request);
    const at = `/products/${product.id}/price_points/${pricePoint.id}`;
    expectPublished((await call(sim, "GET", `${at}.json`)).body, fx("price-point-read.200.json"));
    // The catalog price point alone: the product's first one has no trial, and so no trial_type (not nullable in the contract).
    const listed = await call(sim, "GET", `/products/${product.id}/price_points.json?filter[type]=catalog`);
    expectPublished(listed.body, fx("price-points-list.200.json"));
    const update = fx("price-point-update.request.json");
    const updated = await call(sim, "PUT", `${at}.json`, { body: update });
    expectPublished(updated.body, fx("price-point-update.200.json"));
    // The published answer shows the create's price (1000); the simulator answers the price it was given.
    expect(updated.body.price_point).toMatchObject(update.price_point);
    expectPublished((await call(sim, "DELETE", `${at}.json`)).body, fx("price-point-archive.200.json"));
    expectPublished((await call(sim, "PATCH", `${at}/unarchive.json`)).body, fx("price-point-unarchive.200.json"));
    const promoted = await call(sim, "PATCH", `${at}/default.json`);
    expectPublished(promoted.body, fx("price-point-promote.200.json"));
    expect(promoted.body.product).toMatchObject({
      default_product_price_point_id: pricePoint.id,
      product_price_point_id: pricePoint.id,
      ...Object.fromEntries(
        ["price_in_cents", "interval", "interval_unit", "trial_price_in_cents", "expiration_interval"].map((k) => [
          k,
          { ...request, ...update.price_point }[k],
        ]),
      ),
    });
  });

  it("bulkCreateProductPricePoints: every price point of the published request, each in the published answer's shape", async () => {
    const { sim } = await catalog();
    // Another product: the catalog's holds "educational" already, and a handle is unique within its product.
    const product = sim.addProduct({ handle: "bulk" });
    const request = fx("price-points-bulk.request.json");
    const res = await call(sim, "POST", `/products/${product.id}/price_points/bulk.json`, { body: request });
    expect(res.status).toBe(201);
    expect(res.body.price_points).toHaveLength(request.price_points.length);
    res.body.price_points.forEach((pp: unknown, i: number) => {
      expectPublished(pp, fx("price-points-bulk.201.json").price_points[0], request.price_points[i]);
    });
  });
});

describe("the simulator refuses as the vendor publishes", () => {
  const pricePoint = () => fx("price-point-create.request.json").price_point;

  it.each<{
    file: string;
    provoke: (sim: Simulator, ids: { family: number; product: number }) => Promise<{ status: number; text: string }>;
  }>([
    {
      file: "product-family-create-422.json",
      provoke: (sim) =>
        call(sim, "POST", "/product_families.json", { body: { product_family: { name: "Again", handle: "acme-projects" } } }),
    },
    {
      file: "product-create-422.json",
      provoke: (sim, { family }) => {
        const { name: _n, ...rest } = fx("product-create.request.json").product;
        return call(sim, "POST", `/product_families/${family}/products.json`, { body: { product: { ...rest, handle: "other" } } });
      },
    },
    { file: "products-for-family-404.json", provoke: (sim) => call(sim, "GET", "/product_families/424242/products.json") },
    {
      file: "product-update-422.json",
      provoke: (sim, { product }) => call(sim, "PUT", `/products/${product}.json`, { body: { product: { name: "" } } }),
    },
    {
      file: "product-archive-422.json",
      provoke: async (sim, { product }) => {
        await call(sim, "DELETE", `/products/${product}.json`);
        return call(sim, "DELETE", `/products/${product}.json`);
      },
    },
    {
      file: "price-point-create-422.blank.json",
      provoke: (sim, { product }) => call(sim, "POST", `/products/${product}/price_points.json`, { body: {} }),
    },
    {
      file: "price-point-create-422.fields.json",
      provoke: (sim, { product }) => call(sim, "POST", `/products/${product}/price_points.json`, { body: { price_point: {} } }),
    },
    {
      file: "price-point-create-422.interval.json",
      provoke: (sim, { product }) =>
        call(sim, "POST", `/products/${product}/price_points.json`, {
          body: { price_point: { ...pricePoint(), handle: "x", interval: 0 } },
        }),
    },
    {
      file: "price-point-create-422.price.json",
      provoke: (sim, { product }) =>
        call(sim, "POST", `/products/${product}/price_points.json`, {
          body: { price_point: { ...pricePoint(), handle: "x", price_in_cents: -1 } },
        }),
    },
    {
      file: "price-point-archive-422.json",
      provoke: async (sim, { product }) => {
        const { default_product_price_point_id: id } = (await call(sim, "GET", `/products/${product}.json`)).body.product;
        return call(sim, "DELETE", `/products/${product}/price_points/${id}.json`);
      },
    },
    {
      file: "price-points-bulk-422.interval.json",
      provoke: (sim, { product }) => {
        const [first, second] = fx("price-points-bulk.request.json").price_points;
        return call(sim, "POST", `/products/${product}/price_points/bulk.json`, {
          body: {
            price_points: [
              { ...first, handle: "x1", interval: 0 },
              { ...second, handle: "x2" },
            ],
          },
        });
      },
    },
  ])("$file: the published body, exactly", async ({ file, provoke }) => {
    const sim = await start();
    const family = (await call(sim, "POST", "/product_families.json", { body: fx("product-family-create.request.json") })).body
      .product_family.id;
    const product = (await call(sim, "POST", `/product_families/${family}/products.json`, { body: fx("product-create.request.json") })).body
      .product.id;
    const res = await provoke(sim, { family, product });
    expect(res.status).toBe(INDEX.find((e) => e.file === file)?.status);
    expect(JSON.parse(res.text)).toEqual(fx(file));
  });

  /** Without currency prices (a site with several currencies), which the simulated one-currency site does not model. */
  const withoutCurrencyPrices = (body: Record<string, string[]>) =>
    Object.fromEntries(Object.entries(body).filter(([k]) => !k.endsWith(".currency_prices")));

  it.each([
    // The published body has only "must be 'month' or 'day'" for the unit (a blank one is also "cannot be blank",
    // as createProductPricePoint's example 2 shows): the example's entries had a unit, not one of the two.
    { file: "price-points-bulk-422.fields.json", entries: [{ interval_unit: "week" }, { interval_unit: "year" }] },
    {
      file: "price-points-bulk-422.price.json",
      entries: [{ ...fx("price-points-bulk.request.json").price_points[0], price_in_cents: -1 }],
    },
  ])("$file: the published body but its currency_prices keys", async ({ file, entries }) => {
    const sim = await start();
    const product = sim.addProduct({ handle: "p" });
    const res = await call(sim, "POST", `/products/${product.id}/price_points/bulk.json`, { body: { price_points: entries } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(withoutCurrencyPrices(fx(file)));
  });
});
