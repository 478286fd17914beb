import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  BillingApiError,
  BillingClient,
  catalogErrorMessages,
  type PricePoint,
  type Pricing,
  type Product,
  type ProductFamily,
} from "../../../sdk";
import { operations, responseExamples } from "../../contract/examples";
import { contractRequestCheck } from "../catalog/request-contract";
import { type FixtureServer, fixture, type Reply, type Route, startFixtureServer } from "../fixture-server";

/**
 * The catalog operations against the vendor's own examples in the contract
 * (contract/advanced-billing.openapi.json, every example of every catalog operation the SDK calls):
 * each is served over a real socket, read through the public client, and what comes out is checked
 * field by field against values copied by hand from the example. Every request the SDK sent is
 * validated against the operation's request schema (../catalog/request-contract.ts, its listed deviations).
 */

const examples = responseExamples;

/** The one example (or the named one) as a reply with its status. */
function example(operationId: string, status: number, name?: string, status2 = status): Reply {
  const all = examples(operationId, status);
  const value = name === undefined ? Object.values(all)[0] : all[name];
  if (value === undefined) throw new Error(`${operationId} ${status}: no example ${name}`);
  return { status: status2, text: JSON.stringify(value), contentType: "application/json" };
}

let server: FixtureServer;

let billing: BillingClient;

const clients: BillingClient[] = [];

const sentAll: { method: string; url: string; text: string }[] = [];

beforeAll(async () => {
  server = await startFixtureServer();
});

afterAll(() => server.close());

beforeEach(() => {
  server.requests.length = 0;
  server.serve([]);
  billing = new BillingClient({
    baseUrl: server.url,
    apiKey: "k",
    retryBaseDelayMs: 1,
    maxRetries: 0,
    retryBudgetSeconds: 0,
    migrationSettleSeconds: 0,
  });
  clients.push(billing);
});

afterEach(async () => {
  sentAll.push(...server.requests.map((r) => ({ method: r.method, url: r.url, text: r.text })));
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

const route = (method: string, path: string | RegExp, reply: Reply): Route => ({ method, path, reply });

const seen = () => server.requests.map((r) => `${r.method} ${r.url}`);

const body = (i = 0) => JSON.parse(server.requests[i].text);

const NO_PRICING: Omit<Pricing, "priceInCents" | "interval" | "intervalUnit"> = {
  trialPriceInCents: undefined,
  trialInterval: undefined,
  trialIntervalUnit: undefined,
  trialType: undefined,
  initialChargeInCents: undefined,
  initialChargeAfterTrial: undefined,
  expirationInterval: undefined,
  expirationIntervalUnit: undefined,
};

const MONTHLY = { priceInCents: 1000, interval: 1, intervalUnit: "month" } as const;

// ---------------------------------------------------------------------------------------------------
// Families.
// ---------------------------------------------------------------------------------------------------

describe("product families, on the contract's examples", () => {
  it("createProductFamily: 201 Example; the request carries name, handle, description and a token", async () => {
    server.serve([route("POST", "/product_families.json", example("createProductFamily", 201))]);
    const f = await billing.createProductFamily({
      handle: "acme-projects",
      name: "Acme Projects",
      description: "Amazing project management tool",
    });
    expect(f).toStrictEqual<ProductFamily>({
      id: 933860,
      handle: "acme-projects",
      name: "Acme Projects",
      description: "Amazing project management tool",
      accountingCode: undefined,
      createdAt: undefined,
    });
    expect(body().product_family).toStrictEqual({
      name: "Acme Projects",
      handle: "acme-projects",
      description: "Amazing project management tool",
    });
  });

  it("createProductFamily: the 422 Example names the handle", async () => {
    server.serve([route("POST", "/product_families.json", example("createProductFamily", 422))]);
    const err = await billing.createProductFamily({ handle: "acme-projects", name: "Acme Projects" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BillingApiError);
    expect(err).toMatchObject({ status: 422, errors: ["handle: must be unique - that value has been taken."], mayHaveApplied: false });
    expect(seen()).toStrictEqual(["POST /product_families.json"]);
  });

  it('readProductFamily by id and by handle: 200 Example (description "")', async () => {
    server.serve([route("GET", /^\/product_families\/(527890|handle:billing-plans)\.json$/, example("readProductFamily", 200))]);
    const expected: ProductFamily = {
      id: 527890,
      handle: "billing-plans",
      name: "Acme Projects",
      description: "",
      accountingCode: undefined,
      createdAt: undefined,
    };
    expect(await billing.readProductFamily(527890)).toStrictEqual(expected);
    expect(await billing.readProductFamily("billing-plans")).toStrictEqual(expected);
    expect(seen()).toStrictEqual(["GET /product_families/527890.json", "GET /product_families/handle:billing-plans.json"]);
  });

  it("listProductFamilies: 200 Example (a null description read as undefined), one request", async () => {
    server.serve([route("GET", "/product_families.json", example("listProductFamilies", 200))]);
    expect(await billing.listProductFamilies()).toStrictEqual<ProductFamily[]>([
      {
        id: 37,
        handle: "acme-projects",
        name: "Acme Projects",
        description: undefined,
        accountingCode: undefined,
        createdAt: "2013-02-20T15:05:51-07:00",
      },
      {
        id: 155,
        handle: "bat-family",
        name: "Bat Family",
        description: "Another family.",
        accountingCode: undefined,
        createdAt: "2014-04-16T12:41:13-06:00",
      },
    ]);
    expect(seen()).toStrictEqual(["GET /product_families.json"]);
  });

  it("a 409 duplicate submission (the vendor's published body): read back by handle, found", async () => {
    server.serve([
      route("POST", "/product_families.json", fixture("duplicate-409.json")),
      route("GET", "/product_families/handle:billing-plans.json", example("readProductFamily", 200)),
    ]);
    const f = await billing.createProductFamily({ handle: "billing-plans", name: "Acme Projects" });
    expect(f.id).toBe(527890);
    expect(seen()).toStrictEqual(["POST /product_families.json", "GET /product_families/handle:billing-plans.json"]);
  });
});

// ---------------------------------------------------------------------------------------------------
// Products.
// ---------------------------------------------------------------------------------------------------

const GOLD: Product = {
  id: 4364984,
  handle: "gold",
  name: "Gold Plan",
  description: "This is our gold plan.",
  defaultPricePointId: undefined,
  defaultPricePointHandle: undefined,
  productFamilyId: 527890,
  productFamilyHandle: "billing-plans",
  accountingCode: "123",
  taxCode: undefined,
  requireCreditCard: true,
  requestCreditCard: true,
  requestBillingAddress: undefined,
  requireBillingAddress: undefined,
  requireShippingAddress: undefined,
  archivedAt: undefined,
  pricing: { ...MONTHLY, ...NO_PRICING, initialChargeAfterTrial: false },
  versionNumber: 1,
};

const PAID_ANNUAL_SEATS: Product = {
  id: 4535635,
  handle: "paid-annual-seats",
  name: "Paid Annual Seats",
  description: "Paid annual seats for our commercial enterprise product",
  defaultPricePointId: undefined,
  defaultPricePointHandle: undefined,
  productFamilyId: 1025627,
  productFamilyHandle: "acme-products",
  accountingCode: "paid-annual-seats",
  taxCode: "D0000000",
  requireCreditCard: true,
  requestCreditCard: true,
  requestBillingAddress: undefined,
  requireBillingAddress: undefined,
  requireShippingAddress: undefined,
  archivedAt: undefined,
  pricing: {
    priceInCents: 10000,
    interval: 12,
    intervalUnit: "month",
    trialPriceInCents: 1000,
    trialInterval: 14,
    trialIntervalUnit: "day",
    trialType: undefined,
    initialChargeInCents: 4900,
    initialChargeAfterTrial: false,
    expirationInterval: 1,
    expirationIntervalUnit: "day",
  },
  versionNumber: 4,
};

describe("products, on the contract's examples", () => {
  it("createProduct: 201 Example; the request is the published request Example's fields", async () => {
    server.serve([route("POST", "/product_families/527890/products.json", example("createProduct", 201))]);
    const p = await billing.createProduct(527890, {
      handle: "gold",
      name: "Gold Plan",
      description: "This is our gold plan.",
      accountingCode: "123",
      requireCreditCard: true,
      autoCreateSignupPage: true,
      taxCode: "D0000000",
      ...MONTHLY,
    });
    expect(p).toStrictEqual(GOLD);
    const published = (operations.get("createProduct").requestBody.content["application/json"].examples.Example.value as any).product;
    expect(body().product).toStrictEqual(published);
  });

  it("createProduct: the 422 Example names the field", async () => {
    server.serve([route("POST", "/product_families/527890/products.json", example("createProduct", 422))]);
    await expect(billing.createProduct(527890, { handle: "gold", name: "Gold Plan", ...MONTHLY })).rejects.toMatchObject({
      status: 422,
      errors: ["name: cannot be blank."],
    });
  });

  it("readProduct by id and by handle: the 200 Examples, every field", async () => {
    server.serve([
      route("GET", "/products/4535635.json", example("readProduct", 200)),
      route("GET", "/products/handle/no-cost-product.json", example("readProductByHandle", 200)),
    ]);
    expect(await billing.readProduct(4535635)).toStrictEqual(PAID_ANNUAL_SEATS);
    expect(await billing.readProduct("no-cost-product")).toStrictEqual<Product>({
      id: 3903594,
      handle: "no-cost-product",
      name: "No cost product",
      description: "",
      defaultPricePointId: undefined,
      defaultPricePointHandle: undefined,
      productFamilyId: 527890,
      productFamilyHandle: "billing-plans",
      accountingCode: "",
      taxCode: undefined,
      requireCreditCard: false,
      requestCreditCard: true,
      requestBillingAddress: undefined,
      requireBillingAddress: undefined,
      requireShippingAddress: undefined,
      archivedAt: undefined,
      pricing: {
        priceInCents: 0,
        interval: 1,
        intervalUnit: "month",
        ...NO_PRICING,
        trialPriceInCents: 5,
        trialInterval: 1,
        trialIntervalUnit: "month",
        initialChargeAfterTrial: false,
        expirationIntervalUnit: "never",
      },
      versionNumber: 1,
    });
  });

  it("updateProduct: sends only the fields given; 200 Example; 422 Example", async () => {
    server.serve([route("PUT", "/products/4365034.json", example("updateProduct", 200))]);
    const p = await billing.updateProduct(4365034, {
      name: "Platinum Plan",
      description: "This is our platinum plan.",
      handle: "platinum",
    });
    expect(p).toMatchObject({ id: 4365034, handle: "platinum", name: "Platinum Plan", pricing: { ...MONTHLY }, versionNumber: 1 });
    expect(body()).toStrictEqual({ product: { name: "Platinum Plan", handle: "platinum", description: "This is our platinum plan." } });
    server.serve([route("PUT", "/products/4365034.json", example("updateProduct", 422))]);
    await expect(billing.updateProduct(4365034, { name: "x" })).rejects.toMatchObject({ status: 422, errors: ["name: cannot be blank."] });
  });

  it("updateProduct with the whole pricing, and expirationIntervalUnit never (sent on an update)", async () => {
    server.serve([route("PUT", "/products/4365034.json", example("updateProduct", 200))]);
    await billing.updateProduct(4365034, {
      name: "Platinum Plan",
      description: "",
      priceInCents: 1000,
      interval: 1,
      intervalUnit: "month",
      expirationIntervalUnit: "never",
    });
    expect(body().product).toStrictEqual({
      name: "Platinum Plan",
      description: "",
      price_in_cents: 1000,
      interval: 1,
      interval_unit: "month",
      expiration_interval_unit: "never",
    });
  });

  it("archiveProduct: 200 Example (archived_at, handle null, expiration never); 422 Example", async () => {
    server.serve([route("DELETE", "/products/4535638.json", example("archiveProduct", 200))]);
    expect(await billing.archiveProduct(4535638)).toStrictEqual<Product>({
      id: 4535638,
      handle: undefined,
      name: "Business Monthly",
      description: "Business Monthly",
      defaultPricePointId: undefined,
      defaultPricePointHandle: undefined,
      productFamilyId: 1025627,
      productFamilyHandle: "acme-products",
      accountingCode: "",
      taxCode: "",
      requireCreditCard: false,
      requestCreditCard: true,
      requestBillingAddress: undefined,
      requireBillingAddress: undefined,
      requireShippingAddress: undefined,
      archivedAt: "2018-01-16T13:02:44-06:00",
      pricing: {
        priceInCents: 4900,
        interval: 1,
        intervalUnit: "month",
        ...NO_PRICING,
        trialPriceInCents: 0,
        trialInterval: 1,
        trialIntervalUnit: "day",
        initialChargeAfterTrial: false,
        expirationIntervalUnit: "never",
      },
      versionNumber: 1,
    });
    server.serve([route("DELETE", "/products/4535638.json", example("archiveProduct", 422))]);
    await expect(billing.archiveProduct(4535638)).rejects.toMatchObject({ status: 422, errors: ["Product cannot be archived."] });
  });

  it("listProducts: the site-wide Example is a placeholder (id 0): read, and left out", async () => {
    server.serve([route("GET", "/products.json", example("listProducts", 200))]);
    expect(await billing.listProducts({ includeArchived: true })).toStrictEqual([]);
    expect(seen()).toStrictEqual(["GET /products.json?page=1&per_page=200&include_archived=true"]);
  });

  it("listProducts: the placeholder's values are all read (its id made real)", async () => {
    const [row] = Object.values(examples("listProducts", 200))[0] as any[];
    row.product.id = 1;
    server.serve([route("GET", "/products.json", { status: 200, text: JSON.stringify([row]), contentType: "application/json" })]);
    expect(await billing.listProducts()).toStrictEqual<Product[]>([
      {
        id: 1,
        handle: "string",
        name: "string",
        description: "string",
        defaultPricePointId: undefined,
        defaultPricePointHandle: undefined,
        productFamilyId: undefined,
        productFamilyHandle: "string",
        accountingCode: "string",
        taxCode: "string",
        requireCreditCard: true,
        requestCreditCard: true,
        requestBillingAddress: true,
        requireBillingAddress: true,
        requireShippingAddress: true,
        archivedAt: undefined,
        pricing: {
          priceInCents: 0,
          interval: 0,
          intervalUnit: "month",
          trialPriceInCents: 0,
          trialInterval: 0,
          trialIntervalUnit: "month",
          trialType: undefined,
          initialChargeInCents: 0,
          initialChargeAfterTrial: true,
          expirationInterval: 0,
          expirationIntervalUnit: "month",
        },
        versionNumber: 0,
      },
    ]);
  });

  it("listProducts of a family: 200 Example, both products; its 404 Example (a bare string) is the error's message", async () => {
    server.serve([route("GET", "/product_families/527890/products.json", example("listProductsForProductFamily", 200))]);
    const rows = await billing.listProducts({ familyId: 527890 });
    expect(
      rows.map((p) => [p.id, p.handle, p.productFamilyId, p.pricing?.priceInCents, p.pricing?.expirationIntervalUnit, p.versionNumber]),
    ).toStrictEqual([
      [3801242, "zero-dollar-product", 527890, 10000, "never", 4],
      [3858146, "calendar-billing-product", 527890, 10000, "never", 1],
    ]);
    expect(rows[0].pricing).toStrictEqual({
      priceInCents: 10000,
      interval: 1,
      intervalUnit: "month",
      ...NO_PRICING,
      initialChargeInCents: 0,
      trialIntervalUnit: "month",
      initialChargeAfterTrial: false,
      expirationIntervalUnit: "never",
    });
    server.serve([route("GET", "/product_families/527890/products.json", example("listProductsForProductFamily", 404))]);
    await expect(billing.listProducts({ familyId: 527890 })).rejects.toMatchObject({
      status: 404,
      errors: ["A valid product_family_id is required"],
    });
  });

  it("a 409 duplicate submission: read back by handle (the by-handle Example), found", async () => {
    server.serve([
      route("POST", "/product_families/527890/products.json", fixture("duplicate-409.json")),
      route("GET", "/products/handle/no-cost-product.json", example("readProductByHandle", 200)),
    ]);
    const p = await billing.createProduct(527890, { handle: "no-cost-product", name: "No cost product", ...MONTHLY, priceInCents: 0 });
    expect(p.id).toBe(3903594);
  });
});

// ---------------------------------------------------------------------------------------------------
// Price points.
// ---------------------------------------------------------------------------------------------------

const EDUCATIONAL: PricePoint = {
  id: 283,
  handle: "educational",
  name: "Educational",
  type: undefined,
  productId: 901,
  archivedAt: "2023-11-30 06:37:20-05:00",
  pricing: {
    priceInCents: 1000,
    interval: 1,
    intervalUnit: "month",
    trialPriceInCents: 4900,
    trialInterval: 1,
    trialIntervalUnit: "month",
    trialType: "payment_expected",
    initialChargeInCents: 120000,
    initialChargeAfterTrial: false,
    expirationInterval: 12,
    expirationIntervalUnit: "month",
  },
};

const EDUCATIONAL_INPUT = {
  handle: "educational",
  name: "Educational",
  priceInCents: 1000,
  interval: 1,
  intervalUnit: "month",
  trialPriceInCents: 4900,
  trialInterval: 1,
  trialIntervalUnit: "month",
  trialType: "payment_expected",
  initialChargeInCents: 120000,
  initialChargeAfterTrial: false,
  expirationInterval: 12,
  expirationIntervalUnit: "month",
} as const;

const POINTS = "/products/901/price_points.json";

const POINT = "/products/901/price_points/283.json";

describe("price points, on the contract's examples", () => {
  it("createPricePoint: 201 Example; the request is the published request Example", async () => {
    server.serve([route("POST", POINTS, example("createProductPricePoint", 201))]);
    expect(await billing.createPricePoint(901, EDUCATIONAL_INPUT)).toStrictEqual(EDUCATIONAL);
    const published = operations.get("createProductPricePoint").requestBody.content["application/json"].examples.Example.value;
    const { uniqueness_token, ...rest } = body();
    expect(rest).toStrictEqual(published);
    expect(uniqueness_token).toEqual(expect.any(String));
  });

  // The four published 422s of a price point create: {"errors": {field: [...] | "..."}}, each in the caller's words.
  const REFUSALS: Record<string, string[]> = {
    "Example-1": ["pricePoint: can't be blank"],
    "Example-2": [
      "interval: cannot be blank.",
      "intervalUnit: cannot be blank.",
      "intervalUnit: must be 'month' or 'day'.",
      "name: cannot be blank.",
      "priceInCents: is not a number.",
      "priceInCents: cannot be blank.",
    ],
    "Example-3": ["interval: must be greater than or equal to 1."],
    "Example-4": ["priceInCents: must be greater than or equal to 0."],
  };
  it.each(Object.entries(REFUSALS))("createPricePoint: 422 %s in the caller's words", async (name, errors) => {
    server.serve([route("POST", POINTS, example("createProductPricePoint", 422, name))]);
    const err = await billing.createPricePoint(901, EDUCATIONAL_INPUT).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BillingApiError);
    expect(err).toMatchObject({
      status: 422,
      errors,
      mayHaveApplied: false,
      message: `POST ${POINTS} failed with 422: ${errors.join("; ")}`,
    });
  });

  // The bulk create's published 422s: indexed keys at the top level. The SDK creates one at a time, but reads the shape anywhere.
  const BULK: Record<string, string[]> = {
    "Example-1": [
      "[0].currencyPrices: Currency prices: is invalid.",
      "[0].interval: cannot be blank.",
      "[0].intervalUnit: must be 'month' or 'day'.",
      "[0].name: cannot be blank.",
      "[0].priceInCents: is not a number.",
      "[0].priceInCents: cannot be blank.",
      "[1].currencyPrices: Currency prices: is invalid.",
      "[1].interval: cannot be blank.",
      "[1].intervalUnit: must be 'month' or 'day'.",
      "[1].name: cannot be blank.",
      "[1].priceInCents: is not a number.",
      "[1].priceInCents: cannot be blank.",
    ],
    "Example-2": ["[0].interval: must be greater than or equal to 1."],
    "Example-3": ["[0].currencyPrices: Currency prices: is invalid.", "[0].priceInCents: must be greater than or equal to 0."],
  };
  it.each(Object.entries(BULK))("the bulk create's 422 %s: indexed keys, in the caller's words", async (name, errors) => {
    expect(catalogErrorMessages(examples("bulkCreateProductPricePoints", 422)[name])).toStrictEqual(errors);
    server.serve([route("POST", POINTS, example("bulkCreateProductPricePoints", 422, name))]);
    await expect(billing.createPricePoint(901, EDUCATIONAL_INPUT)).rejects.toMatchObject({ status: 422, errors });
  });

  it("readPricePoint, updatePricePoint, archivePricePoint, unarchivePricePoint: their 200 Examples", async () => {
    server.serve([
      route("GET", POINT, example("readProductPricePoint", 200)),
      route("PUT", POINT, example("updateProductPricePoint", 200)),
      route("DELETE", POINT, example("archiveProductPricePoint", 200)),
      route("PATCH", "/products/901/price_points/283/unarchive.json", example("unarchiveProductPricePoint", 200)),
    ]);
    expect(await billing.readPricePoint(901, 283)).toStrictEqual(EDUCATIONAL);
    expect(await billing.updatePricePoint(901, 283, { handle: "educational", priceInCents: 1250 })).toStrictEqual(EDUCATIONAL);
    const published = operations.get("updateProductPricePoint").requestBody.content["application/json"].examples.Example.value;
    expect(body(1)).toStrictEqual(published);
    expect(await billing.archivePricePoint(901, 283)).toStrictEqual(EDUCATIONAL);
    // The published unarchive answer still carries archived_at: read as the service sent it.
    expect(await billing.unarchivePricePoint(901, 283)).toStrictEqual(EDUCATIONAL);
    expect(seen()).toStrictEqual([
      `GET ${POINT}`,
      `PUT ${POINT}`,
      `DELETE ${POINT}`,
      "PATCH /products/901/price_points/283/unarchive.json",
    ]);
  });

  it("archivePricePoint: the 422 Example (the default price point)", async () => {
    server.serve([route("DELETE", POINT, example("archiveProductPricePoint", 422))]);
    await expect(billing.archivePricePoint(901, 283)).rejects.toMatchObject({
      status: 422,
      errors: ["Cannot archive the default price point."],
    });
  });

  it("promotePricePoint: the 200 Example (a Product Response), then the price point read", async () => {
    server.serve([
      route("PATCH", "/products/901/price_points/283/default.json", example("promoteProductPricePointToDefault", 200)),
      route("GET", POINT, example("readProductPricePoint", 200)),
    ]);
    expect(await billing.promotePricePoint(901, 283)).toStrictEqual(EDUCATIONAL);
    expect(seen()).toStrictEqual(["PATCH /products/901/price_points/283/default.json", `GET ${POINT}`]);
  });

  it("listPricePoints: 200 Example, with archived when asked", async () => {
    server.serve([route("GET", POINTS, example("listProductPricePoints", 200))]);
    expect(await billing.listPricePoints(901)).toStrictEqual([EDUCATIONAL]);
    expect(await billing.listPricePoints(901, { includeArchived: true })).toStrictEqual([EDUCATIONAL]);
    expect(seen()).toStrictEqual([`GET ${POINTS}?page=1&per_page=200`, `GET ${POINTS}?page=1&per_page=200&archived=true`]);
  });

  it("a 409 duplicate submission: the list read back with archived; an archived one with the handle is not the one created", async () => {
    server.serve([route("POST", POINTS, fixture("duplicate-409.json")), route("GET", POINTS, example("listProductPricePoints", 200))]);
    // The published price point is archived (archived_at set): it holds the handle, so this create cannot have made it.
    const err = await billing.createPricePoint(901, EDUCATIONAL_INPUT).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: "CatalogOutcomeUnknownError", kind: "price point", handle: "educational" });
    expect((err as Error).message).toContain(
      'no live price point with handle "educational" is found (last seen: an archived price point (id 283',
    );
    expect(seen()).toStrictEqual([`POST ${POINTS}`, `GET ${POINTS}?page=1&per_page=200&archived=true`]);
  });

  it("createPricePoints: one request per price point, every answer read", async () => {
    server.serve([route("POST", POINTS, example("createProductPricePoint", 201))]);
    const made = await billing.createPricePoints(901, [
      EDUCATIONAL_INPUT,
      { ...EDUCATIONAL_INPUT, handle: "more-educational", priceInCents: 2000 },
    ]);
    expect(made).toStrictEqual([EDUCATIONAL, EDUCATIONAL]);
    expect(server.requests.map((r) => JSON.parse(r.text).price_point.handle).sort()).toStrictEqual(["educational", "more-educational"]);
  });
});

// Last: every request sent above, judged against the contract.
describe("every catalog request sent above", () => {
  it("validates against the contract's request schema, but for the listed deviations", async () => {
    expect(sentAll.length).toBeGreaterThan(30);
    const { problems, deviations } = await contractRequestCheck(sentAll);
    expect(problems).toStrictEqual([]);
    expect(deviations).toStrictEqual([
      "listProductPricePoints: archived in the query",
      "readProductFamily: {id} as handle:x",
      "updateProduct: a partial product (without some of name, description, price_in_cents, interval, interval_unit)",
      'updateProduct: expiration_interval_unit "never"',
    ]);
  });
});
