import { beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { BillingValidationError, type Product } from "../../sdk";
import { resolveConnection } from "../../sdk/options";
import { readProductByHandle } from "../../sdk/products";
import { Transport } from "../../sdk/transport";
import { clientOf, KEY, scripted, site } from "./helpers";

// sdk/products.ts, sdk/site.ts and sdk/input-values.ts, pinned exactly: the mutation run (tests/sdk/ only) left
// their mutants alive. readProduct's id-or-handle split (the regex's anchors, the handle's length bounds, a
// non-string id), the refusals' words and properties, the reads' retry of an ambiguous answer, and the lookup of a
// product's default price point when the product does not name it were unchecked; so were valueText's rendering
// and the messages of `flag` and `integer`, which are built when the modules load (see the last describe).

/** The simulator's log, as the method, path and query each request arrived with. */
const seen = (s: Awaited<ReturnType<typeof site>>) => s.sim.requests.map((r) => ({ method: r.method, path: r.path, query: r.query }));

/** What `p` rejects with, as plain fields; a value it resolves to instead shows up in the failed comparison. */
async function refusal(p: Promise<unknown>): Promise<unknown> {
  try {
    return { resolved: await p };
  } catch (e) {
    const { name, message, problems } = e as BillingValidationError;
    return { name, message, problems, isValidation: e instanceof BillingValidationError };
  }
}

const refused = (message: string, property: string, problem: string) => ({
  name: "BillingValidationError",
  message: `${message}: ${property}: ${problem}`,
  problems: [{ property, message: problem }],
  isValidation: true,
});

const LONG = "h".repeat(255);

async function catalogue() {
  const s = await site();
  s.sim.addProduct({ id: 12, handle: "twelve", pricePoints: [{ id: 120, handle: "twelve-default", default: true }] });
  s.sim.addProduct({ id: 13, handle: "3d-print", pricePoints: [{ id: 130, handle: "3d-default", default: true }] });
  s.sim.addProduct({ id: 14, handle: "plan-2", pricePoints: [{ id: 140, handle: "plan-2-default", default: true }] });
  s.sim.addProduct({ id: 15, handle: LONG, pricePoints: [{ id: 150, handle: "long-default", default: true }] });
  return s;
}

describe("readProduct: a string of digits is an id, any other string a handle", () => {
  it.each<[string, string, number, string, string]>([
    ["digits, more than one", "12", 12, "twelve", "/products/12.json"],
    ["a handle that starts with a digit", "3d-print", 13, "3d-print", "/products/handle/3d-print.json"],
    ["a handle that ends with a digit", "plan-2", 14, "plan-2", "/products/handle/plan-2.json"],
    ["a handle of 255 characters, the longest", LONG, 15, LONG, `/products/handle/${LONG}.json`],
  ])("%s", async (_, idOrHandle, id, handle, path) => {
    const s = await catalogue();
    const p = await s.billing.readProduct(idOrHandle);
    expect([p.id, p.handle]).toStrictEqual([id, handle]);
    expect(seen(s)).toStrictEqual([{ method: "GET", path, query: {} }]);
  });

  it("reads the product as the service holds it", async () => {
    const s = await catalogue();
    expect(await s.billing.readProduct(12)).toStrictEqual<Product>({
      id: 12,
      handle: "twelve",
      name: "twelve",
      defaultPricePointId: 120,
      defaultPricePointHandle: "twelve-default",
      description: "",
      productFamilyId: 9001,
      productFamilyHandle: "plans",
      accountingCode: undefined,
      taxCode: undefined,
      requireCreditCard: true,
      requestCreditCard: true,
      archivedAt: undefined,
      pricing: {
        priceInCents: 1000,
        interval: 1,
        intervalUnit: "month",
        trialPriceInCents: undefined,
        trialInterval: undefined,
        trialIntervalUnit: undefined,
        trialType: undefined,
        initialChargeInCents: undefined,
        initialChargeAfterTrial: false,
        expirationInterval: undefined,
        expirationIntervalUnit: "never",
      },
      versionNumber: 1,
    });
  });

  const HANDLE = "must be a product id or a non-empty handle";
  it.each<[string, unknown, string]>([
    ["an empty handle", "", HANDLE],
    ["a handle of 256 characters", "h".repeat(256), HANDLE],
    ["id 0", 0, "must be a positive integer id, got 0"],
    ["a string of digits that is 0", "0", "must be a positive integer id, got 0"],
    ["true (a JavaScript caller's)", true, "must be a positive integer id, got true"],
    ["null", null, "must be a positive integer id, got null"],
    ["a fraction", 1.5, "must be a positive integer id, got 1.5"],
  ])("refuses %s before sending anything", async (_, idOrHandle, problem) => {
    const s = await catalogue();
    expect(await refusal(s.billing.readProduct(idOrHandle as never))).toStrictEqual(refused("invalid product", "product", problem));
    expect(s.sim.requests).toStrictEqual([]);
  });

  it("repeats a read whose answer was a 500", async () => {
    const s = await catalogue();
    s.sim.injectFault({ kind: "status", status: 500, times: 1, match: { method: "GET", path: "/products/12.json" } });
    expect((await s.billing.readProduct(12)).handle).toBe("twelve");
    expect(s.sim.requests.map((r) => `${r.status} ${r.path}`)).toStrictEqual(["500 /products/12.json", "200 /products/12.json"]);
  });
});

describe("readProductByHandle: a handle, always, even one of digits", () => {
  it("reads by handle, and repeats a read whose answer was a 500", async () => {
    const s = await site();
    s.sim.addProduct({ id: 21, handle: "2024", pricePoints: [{ id: 210, handle: "y2024", default: true }] });
    s.sim.injectFault({ kind: "status", status: 500, times: 1, match: { method: "GET" } });
    const t = new Transport(resolveConnection({ baseUrl: s.sim.url, apiKey: KEY, retryBaseDelayMs: 1 }));
    try {
      const p = await readProductByHandle(t, "2024");
      expect([p.id, p.handle, p.defaultPricePointId]).toStrictEqual([21, "2024", 210]);
    } finally {
      await t.close();
    }
    expect(s.sim.requests.map((r) => `${r.status} ${r.method} ${r.path}`)).toStrictEqual([
      "500 GET /products/handle/2024.json",
      "200 GET /products/handle/2024.json",
    ]);
  });
});

describe("listPricePoints", () => {
  it.each<[string, unknown, string]>([
    ["id 0", 0, "must be a positive integer id, got 0"],
    ["a string of digits", "12", 'must be a positive integer id, got "12"'],
  ])("refuses %s before sending anything, naming productId", async (_, productId, problem) => {
    const s = await catalogue();
    expect(await refusal(s.billing.listPricePoints(productId as never))).toStrictEqual(refused("invalid product", "productId", problem));
    expect(s.sim.requests).toStrictEqual([]);
  });

  it("repeats a page whose answer was a 500", async () => {
    const s = await catalogue();
    s.sim.injectFault({ kind: "status", status: 500, times: 1, match: { method: "GET", path: "/products/12/price_points.json" } });
    expect((await s.billing.listPricePoints(12)).map((p) => [p.id, p.handle, p.type])).toStrictEqual([[120, "twelve-default", "default"]]);
    expect(s.sim.requests.map((r) => [r.status, r.path, r.query])).toStrictEqual([
      [500, "/products/12/price_points.json", { page: "1", per_page: "200" }],
      [200, "/products/12/price_points.json", { page: "1", per_page: "200" }],
    ]);
  });
});

describe("readSite", () => {
  it("reads the site, repeating a read whose answer was a 500", async () => {
    const s = await site();
    s.sim.injectFault({ kind: "status", status: 500, times: 1, match: { method: "GET", path: "/site.json" } });
    expect(await s.billing.readSite()).toStrictEqual({ id: 1, name: "Billing Simulator", subdomain: "simulator", test: true });
    expect(s.sim.requests.map((r) => `${r.status} ${r.method} ${r.path}`)).toStrictEqual(["500 GET /site.json", "200 GET /site.json"]);
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

describe("input-values, loaded fresh for each test", () => {
  // `flag` is built when the module loads, and `integer`'s schemas when catalog/inputs.ts loads, both before a
  // mutant is switched on: each test loads its own copy.
  beforeEach(() => {
    vi.resetModules();
  });
  const fresh = () => import("../../sdk/input-values");

  it.each<[string, unknown, string]>([
    ["a short string", "abc", '"abc"'],
    ["a string of 40 characters, whole", "x".repeat(40), `"${"x".repeat(40)}"`],
    ["a string of 41 characters, cut at 40", `${"x".repeat(40)}YZ`.slice(0, 41), `"${"x".repeat(40)}…"`],
    ["a long string, cut at 40", "y".repeat(39) + "z".repeat(30), `"${"y".repeat(39)}z…"`],
    ["a number", 5, "5"],
    ["a fraction", 1.5, "1.5"],
    ["a boolean", false, "false"],
    ["null", null, "null"],
    ["an array", [1, 2], "an array"],
    ["an object", { a: 1 }, "object"],
    ["undefined", undefined, "undefined"],
  ])("valueText renders %s", async (_, value, text) => {
    const { valueText } = await fresh();
    expect(valueText(value)).toBe(text);
  });

  it.each<[unknown, { success: true; data: boolean } | { success: false; messages: string[] }]>([
    [true, { success: true, data: true }],
    [false, { success: true, data: false }],
    ["yes", { success: false, messages: ['must be true or false, got "yes"'] }],
    [1, { success: false, messages: ["must be true or false, got 1"] }],
    [undefined, { success: false, messages: ["must be true or false, got undefined"] }],
  ])("flag takes %j as %j", async (value, expected) => {
    const { flag } = await fresh();
    const r = flag.safeParse(value);
    expect(r.success ? { success: true, data: r.data } : { success: false, messages: r.error.issues.map((i) => i.message) }).toStrictEqual(
      expected,
    );
  });

  const WHAT = "a whole number, 1 or more";
  it.each<[unknown, { success: true; data: number } | { success: false; messages: string[] }]>([
    [1, { success: true, data: 1 }],
    [2, { success: true, data: 2 }],
    [Number.MAX_SAFE_INTEGER, { success: true, data: Number.MAX_SAFE_INTEGER }],
    [0, { success: false, messages: [`must be ${WHAT}, got 0`] }],
    [1.5, { success: false, messages: [`must be ${WHAT} (no fractions), got 1.5`] }],
    [2 ** 53, { success: false, messages: [`must be ${WHAT}, at most 9007199254740991, got 9007199254740992`] }],
    ["5", { success: false, messages: [`must be ${WHAT}, got "5"`] }],
    [null, { success: false, messages: [`must be ${WHAT}, got null`] }],
  ])("integer(1, ...) takes %j as %j", async (value, expected) => {
    const { integer } = await fresh();
    const r = integer(1, WHAT).safeParse(value);
    expect(r.success ? { success: true, data: r.data } : { success: false, messages: r.error.issues.map((i) => i.message) }).toStrictEqual(
      expected,
    );
  });

  it("integer says in JSON Schema that it takes a safe integer from its minimum up", async () => {
    const { integer } = await fresh();
    expect(z.toJSONSchema(integer(0, "cents"))).toStrictEqual({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "integer",
      minimum: 0,
      maximum: Number.MAX_SAFE_INTEGER,
    });
  });

  it("a product input's messages come from these pieces (catalog/inputs.ts builds its schemas as it loads)", async () => {
    const { productInput } = await import("../../sdk/catalog/inputs");
    const r = productInput.safeParse({
      handle: "pro",
      name: "Pro",
      priceInCents: -1,
      interval: 1.5,
      intervalUnit: "month",
      requireCreditCard: "no",
    });
    expect(r.success ? [] : r.error.issues.map((i) => [i.path.join("."), i.message])).toStrictEqual([
      ["requireCreditCard", 'must be true or false, got "no"'],
      ["priceInCents", "must be a whole number of cents, 0 or more (1000 for 10.00), got -1"],
      ["interval", "must be a whole number, 1 or more (no fractions), got 1.5"],
    ]);
  });
});
