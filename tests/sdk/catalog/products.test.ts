import { describe, expect, it } from "vitest";
import { BillingConnectionError, BillingValidationError, type Product, type ProductUpdateInput } from "../../../sdk";
import { resolveConnection } from "../../../sdk/options";
import { readProductByHandle } from "../../../sdk/products";
import { Transport } from "../../../sdk/transport";
import { KEY, rejection, requestLog, site } from "../helpers";
import { LOST, MONTHLY, product } from "./simulator-fixtures";

/**
 * Products (sdk/products.ts, sdk/catalog/products.ts) through BillingClient against the simulator: readProduct's
 * id-or-handle split and readProductByHandle, reads repeated after a 500, and the read-back that settles an update
 * whose answer was lost (taken only when every field a read reports holds).
 */

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
      requestBillingAddress: false,
      requireBillingAddress: false,
      requireShippingAddress: false,
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

const MAY_HAVE =
  "read ECONNRESET (ECONNRESET); it may or may not have been applied (the read-back could not confirm it), so read it back before relying on either";

describe("updateProduct whose answer was lost is confirmed by the fields a read reports, and only by those", () => {
  it.each<[string, ProductUpdateInput, string]>([
    ["the name alone", { name: "Pro 2" }, "Pro 2"],
    ["the name, with a field a read does not report", { name: "Pro 2", autoCreateSignupPage: true }, "Pro 2"],
    ["the name, with a description given as undefined", { name: "Pro 2", description: undefined }, "Pro 2"],
  ])("%s, applied: the product read back is the result", async (_, input, name) => {
    const { sim, billing, p } = await product();
    sim.injectFault({ ...LOST, match: { method: "PUT" } });
    const updated = await billing.updateProduct(p.id, input);
    expect(requestLog(sim)).toStrictEqual([`PUT /products/${p.id}.json 0`, `GET /products/${p.id}.json 200`]);
    expect(updated.name).toBe(name);
    expect(updated).toStrictEqual(await billing.readProduct(p.id));
  });

  it("fields a read does not report, alone, applied: it cannot be confirmed, so the failure stands", async () => {
    const { sim, billing, p } = await product();
    sim.injectFault({ ...LOST, match: { method: "PUT" } });
    const err = await rejection(billing.updateProduct(p.id, { autoCreateSignupPage: true, requireShippingAddress: true }));
    expect(err).toBeInstanceOf(BillingConnectionError);
    expect((err as Error).message).toBe(`PUT /products/${p.id}.json: ${MAY_HAVE}`);
    expect(requestLog(sim)).toStrictEqual([`PUT /products/${p.id}.json 0`, `GET /products/${p.id}.json 200`]);
  });
});

describe("listProducts and readProductFamily are repeated after a 500, as a read may be", () => {
  it("listProducts", async () => {
    const { sim, billing, p } = await product({ maxRetries: 1 });
    sim.injectFault({ kind: "status", status: 500, times: 1, match: { method: "GET", path: "/products.json" } });
    expect((await billing.listProducts()).map((x) => [x.id, x.handle])).toStrictEqual([[p.id, "pro"]]);
    expect(requestLog(sim)).toStrictEqual(["GET /products.json 500", "GET /products.json 200"]);
  });

  it("readProductFamily", async () => {
    const { sim, billing, f } = await product({ maxRetries: 1 });
    const path = `/product_families/${f.id}.json`;
    sim.injectFault({ kind: "status", status: 500, times: 1, match: { method: "GET", path } });
    expect((await billing.readProductFamily(f.id)).handle).toBe("saas");
    expect(requestLog(sim)).toStrictEqual([`GET ${path} 500`, `GET ${path} 200`]);
  });
});

const seenLines = (sim: { requests: { method: string; path: string }[] }) => sim.requests.map((r) => `${r.method} ${r.path}`);

describe("updateProduct whose answer is lost: read back, taken only when every reported field holds", () => {
  it("a description given and applied: the product read back", async () => {
    const { sim, billing } = await site({}, { maxRetries: 0 });
    const f = await billing.createProductFamily({ handle: "saas", name: "SaaS" });
    const p = await billing.createProduct(f.id, { handle: "pro", name: "Pro", description: "Plans", ...MONTHLY });
    sim.reset();
    sim.injectFault({ kind: "reset", applyAfterHandling: true, times: 1, match: { method: "PUT" } });
    const updated = await billing.updateProduct(p.id, { description: "Annual plans" });
    expect(updated).toStrictEqual({ ...p, description: "Annual plans" });
    expect(seenLines(sim)).toStrictEqual([`PUT /products/${p.id}.json`, `GET /products/${p.id}.json`]);
  });

  it('a description of "" not applied, and none read back: "" is what none is, so the update holds', async () => {
    const { sim, billing } = await site({}, { maxRetries: 0 });
    sim.addProduct({ id: 7, handle: "legacy", description: null });
    const before = await billing.readProduct(7);
    expect(before.description).toBeUndefined();
    sim.reset();
    sim.injectFault({ kind: "reset", times: 1, match: { method: "PUT" } });
    expect(await billing.updateProduct(7, { description: "" })).toStrictEqual(before);
    expect(seenLines(sim)).toStrictEqual(["PUT /products/7.json", "GET /products/7.json"]);
  });

  it.each([
    ["the name differs", { name: "Pro Plus" }],
    ["the description differs", { description: "Annual plans" }],
    ["the name holds, the description differs", { name: "Pro", description: "Annual plans" }],
  ] as const)("not applied, %s: the failure, saying it may have applied", async (_, input) => {
    const { sim, billing } = await site({}, { maxRetries: 0 });
    const f = await billing.createProductFamily({ handle: "saas", name: "SaaS" });
    const p = await billing.createProduct(f.id, { handle: "pro", name: "Pro", description: "Plans", ...MONTHLY });
    sim.reset();
    sim.injectFault({ kind: "reset", times: 1, match: { method: "PUT" } });
    const err = await billing.updateProduct(p.id, input).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BillingConnectionError);
    expect((err as Error).message).toBe(
      `PUT /products/${p.id}.json: read ECONNRESET (ECONNRESET); it may or may not have been applied (the read-back could not confirm it), so read it back before relying on either`,
    );
    expect(await billing.readProduct(p.id)).toStrictEqual(p);
  });
});
