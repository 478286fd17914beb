import type OpenAPIBackend from "openapi-backend";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_SITE, type Simulator, startSimulator } from "../../simulator";
import { type Exchange, recordingProxy } from "./recorder";
import { contractApi, contractCheck } from "./validator";

/**
 * The catalogue on the wire: a battery of requests written to the published contract (its request
 * examples among them) sent through a recording proxy to the simulator. Every request must validate
 * against the contract as published, every answer against the patched contract, and the battery must
 * reach every catalogue operation's success and each refusal shape the contract publishes for it.
 */
describe("the catalogue's requests and the simulator's answers validate against the contract", () => {
  let api: OpenAPIBackend;
  let sim: Simulator;
  let proxy: Awaited<ReturnType<typeof recordingProxy>>;
  let exchanges: Exchange[];

  const auth = `Basic ${Buffer.from(`${DEMO_SITE.apiKey}:x`).toString("base64")}`;
  const send = async (method: string, path: string, body?: unknown): Promise<any> => {
    const res = await fetch(proxy.url + path, {
      method,
      headers: { accept: "application/json", authorization: auth, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return text === "" ? undefined : JSON.parse(text);
  };
  const terms = { price_in_cents: 1000, interval: 1, interval_unit: "month" };
  const pricePoint = (handle: string, extra: Record<string, unknown> = {}) => ({ name: handle, handle, ...terms, ...extra });

  beforeAll(async () => {
    api = await contractApi();
    sim = await startSimulator({ seed: "demo" });
    proxy = await recordingProxy(sim.url);

    // Families: made (the published request, without a handle), refused (a taken handle), listed, read both ways.
    const family = (
      await send("POST", "/product_families.json", {
        product_family: { name: "Acme Projects", description: "Amazing project management tool" },
      })
    ).product_family;
    await send("POST", "/product_families.json", { product_family: { name: "Again", handle: "acme-projects" } });
    await send("GET", "/product_families.json");
    await send("GET", `/product_families/${family.id}.json`);
    await send("GET", "/product_families/handle:acme-projects.json");

    // Products: the published create request, a refused one, lists (paged, with archived), reads, updates, archive.
    const gold = (
      await send("POST", `/product_families/${family.id}/products.json`, {
        product: {
          name: "Gold Plan",
          handle: "gold",
          description: "This is our gold plan.",
          accounting_code: "123",
          require_credit_card: true,
          ...terms,
          auto_create_signup_page: true,
          tax_code: "D0000000",
        },
      })
    ).product;
    await send("POST", `/product_families/${family.id}/products.json`, { product: { name: "", description: "", ...terms } });
    await send("GET", `/product_families/${family.id}/products.json?page=1&per_page=50&include_archived=true`);
    await send("GET", "/product_families/424242/products.json");
    await send("GET", "/products.json?include_archived=true&per_page=200");
    await send("GET", `/products/${gold.id}.json`);
    await send("GET", "/products/handle/gold.json");
    const full = { name: "Gold Plan", description: "Repriced.", interval: 1, interval_unit: "month" };
    await send("PUT", `/products/${gold.id}.json`, {
      product: {
        ...full,
        price_in_cents: 1200,
        trial_price_in_cents: 0,
        trial_interval: 14,
        trial_interval_unit: "day",
        trial_type: "no_obligation",
      },
    });
    await send("PUT", `/products/${gold.id}.json`, { product: { ...full, name: "", price_in_cents: 1200 } });

    // Price points: the published create, bulk and update requests; every refusal shape; archive, unarchive, promote.
    const edu = (
      await send("POST", `/products/${gold.id}/price_points.json`, {
        price_point: pricePoint("educational", {
          trial_price_in_cents: 4900,
          trial_interval: 1,
          trial_interval_unit: "month",
          trial_type: "payment_expected",
          initial_charge_in_cents: 120000,
          initial_charge_after_trial: false,
          expiration_interval: 12,
          expiration_interval_unit: "month",
        }),
      })
    ).price_point;
    await send("POST", `/products/${gold.id}/price_points.json`, { price_point: pricePoint("bad", { interval: 0 }) });
    await send("POST", `/products/${gold.id}/price_points/bulk.json`, {
      price_points: [pricePoint("more-educational"), pricePoint("most-educational")],
    });
    await send("POST", `/products/${gold.id}/price_points/bulk.json`, { price_points: [pricePoint("x1", { price_in_cents: -1 })] });
    await send("GET", `/products/${gold.id}/price_points.json?page=1&per_page=200&filter[type]=catalog,default&archived=true`);
    await send("GET", `/products/handle:gold/price_points/${edu.id}.json`);
    await send("PUT", `/products/${gold.id}/price_points/${edu.id}.json`, { price_point: { handle: "educational", price_in_cents: 1250 } });
    await send("DELETE", `/products/${gold.id}/price_points/${edu.id}.json`);
    await send("PATCH", `/products/${gold.id}/price_points/${edu.id}/unarchive.json`);
    await send("PATCH", `/products/${gold.id}/price_points/${edu.id}/default.json`);
    await send("DELETE", `/products/${gold.id}/price_points/${edu.id}.json`); // now the default: refused
    await send("DELETE", `/products/${gold.id}.json`);
    await send("DELETE", `/products/${gold.id}.json`); // already archived: refused
    await send("POST", `/products/${gold.id}/price_points.json`, { price_point: pricePoint("late") }); // archived product: refused

    // A repeated token on a create.
    const once = { product_family: { name: "Once", handle: "once" }, uniqueness_token: "catalog-contract-1" };
    await send("POST", "/product_families.json", once);
    await send("POST", "/product_families.json", once);
    exchanges = proxy.exchanges;
  });
  afterAll(async () => {
    await proxy?.close();
    await sim?.close();
  });

  const operationOf = (e: Exchange) => {
    const url = new URL(e.url, "http://x");
    return api.router.matchOperation({ method: e.method, path: url.pathname, headers: {}, query: Object.fromEntries(url.searchParams) })
      ?.operationId;
  };

  it("reaches every catalogue operation's success and each refusal the contract publishes", () => {
    const seen = new Set(exchanges.map((e) => `${operationOf(e)} ${e.status}`));
    for (const want of [
      "createProductFamily 201",
      "createProductFamily 422",
      "createProductFamily 409",
      "listProductFamilies 200",
      "readProductFamily 200",
      "createProduct 201",
      "createProduct 422",
      "listProductsForProductFamily 200",
      "listProductsForProductFamily 404",
      "listProducts 200",
      "readProduct 200",
      "readProductByHandle 200",
      "updateProduct 200",
      "updateProduct 422",
      "archiveProduct 200",
      "archiveProduct 422",
      "createProductPricePoint 201",
      "createProductPricePoint 422",
      "bulkCreateProductPricePoints 201",
      "bulkCreateProductPricePoints 422",
      "listProductPricePoints 200",
      "readProductPricePoint 200",
      "updateProductPricePoint 200",
      "archiveProductPricePoint 200",
      "archiveProductPricePoint 422",
      "unarchiveProductPricePoint 200",
      "promoteProductPricePointToDefault 200",
    ])
      expect(seen, want).toContain(want);
  });

  /**
   * Requests the contract as published refuses though the vendor documents them: operation → the one
   * place it breaks, and why. A client of the real service sends these too.
   */
  const DEPARTURES: Record<string, { where: string; why: string }> = {
    readProductFamily: {
      where: "/path/id",
      why: "the path parameter is typed integer, while the operation's description says the family may be given as handle:my-family",
    },
    listProductPricePoints: {
      where: "/query",
      why: "the vendored contract lists no parameter to include archived price points; the vendor's later SDKs send archived=true",
    },
  };

  it("every request matches an operation and validates against the contract as published (path, query, body), but the listed departures", () => {
    const departed = new Set<string>();
    const problems: string[] = [];
    for (const e of exchanges) {
      const url = new URL(e.url, "http://x");
      const headers = Object.fromEntries(Object.entries(e.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : (v ?? "")]));
      const req = { method: e.method, path: url.pathname, query: Object.fromEntries(url.searchParams), headers, body: e.requestBody };
      const op = api.router.matchOperation(req);
      if (!op) {
        problems.push(`${e.method} ${e.url}: no such operation`);
        continue;
      }
      // The uniqueness token is the vendor's guide's, not the contract's schema's (which allows other keys anyway).
      const v = api.validator.validateRequest(req, op);
      const id = op.operationId ?? "(no operationId)";
      const known = DEPARTURES[id];
      const errors = (v.errors ?? []).filter((err) => {
        const listed = known !== undefined && err.instancePath === known.where;
        if (listed) departed.add(id);
        return !listed;
      });
      if (errors.length > 0) problems.push(`${id} ${e.url}: ${JSON.stringify(errors)}`);
    }
    expect(problems).toEqual([]);
    // Each listed departure was met (the table is not stale).
    expect([...departed].sort()).toEqual(Object.keys(DEPARTURES).sort());
  });

  it("every answer is one the patched contract allows", async () => {
    const check = await contractCheck();
    const problems = exchanges.flatMap((e) =>
      check.problems({ method: e.method, path: e.url, status: e.status, contentType: e.responseType, text: e.responseText }),
    );
    expect(problems).toEqual([]);
  });

  it("the refusals come in the three published shapes", () => {
    const body = (op: string, status: number) => exchanges.find((e) => operationOf(e) === op && e.status === status)?.responseBody as any;
    expect(body("createProduct", 422)).toEqual({ errors: ["Name: cannot be blank."] });
    expect(body("createProductPricePoint", 422)).toEqual({
      errors: { interval: ["Recurring Interval: must be greater than or equal to 1."] },
    });
    expect(body("bulkCreateProductPricePoints", 422)).toEqual({ "price_points[0].price": ["Price: must be greater than or equal to 0."] });
    expect(body("archiveProductPricePoint", 422)).toEqual({ errors: ["Cannot archive the default price point."] });
    expect(body("listProductsForProductFamily", 404)).toBe("A valid product_family_id is required");
  });

  it("the contract's request schema for PUT /products/{id}.json requires the whole product (name, description, price, interval, unit)", () => {
    // A partial update is what the vendor describes ("change aspects of an existing product") and what the simulator
    // takes; a client that sends one departs from the published schema, which this records.
    const schema = (api.getOperation("updateProduct") as any).requestBody.content["application/json"].schema;
    expect(schema.properties.product.required).toEqual(["name", "description", "price_in_cents", "interval", "interval_unit"]);
  });
});
