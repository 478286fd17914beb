import { describe, expect, it } from "vitest";
import { BillingApiError, BillingValidationError, type PricePoint, type Product, type ProductFamily } from "../../../../sdk";
import { clientOf } from "../../helpers";
import { type FakeService, fakeService } from "../fake-service";
import { contractRequestCheck, type SentRequest } from "../request-contract";

/**
 * Product families, products and price points through BillingClient, end to end over a socket against the
 * in-memory catalog service (../fake-service.ts): what each method sends, and what it returns. The last test
 * validates every request sent here against the contract's request schemas (../request-contract.ts).
 */

const MONTHLY = { priceInCents: 1000, interval: 1, intervalUnit: "month" } as const;

const pricing = (over: Partial<NonNullable<Product["pricing"]>> = {}) => ({
  priceInCents: 1000,
  interval: 1,
  intervalUnit: "month",
  trialPriceInCents: undefined,
  trialInterval: undefined,
  trialIntervalUnit: undefined,
  trialType: undefined,
  initialChargeInCents: undefined,
  initialChargeAfterTrial: undefined,
  expirationInterval: undefined,
  expirationIntervalUnit: undefined,
  ...over,
});

/** Every service of this file, for the contract check of everything sent (the last test). */
const services: FakeService[] = [];

async function setup() {
  const svc = await fakeService();
  services.push(svc);
  const billing = clientOf(svc.url);
  return { svc, billing };
}

describe("product families", () => {
  it("create, read by id and by handle (bare or handle:x), list", async () => {
    const { svc, billing } = await setup();
    const f = await billing.createProductFamily({ handle: "saas", name: "SaaS", description: "Plans" });
    expect(f).toStrictEqual<ProductFamily>({
      id: f.id,
      handle: "saas",
      name: "SaaS",
      description: "Plans",
      accountingCode: undefined,
      createdAt: expect.any(String),
    });
    const body = svc.requests[0].body as any;
    expect(body.product_family).toStrictEqual({ name: "SaaS", handle: "saas", description: "Plans" });
    expect(body.uniqueness_token).toMatch(/^[0-9a-f-]{36}$/);
    expect(await billing.readProductFamily(f.id)).toStrictEqual(f);
    expect(await billing.readProductFamily("saas")).toStrictEqual(f);
    expect(await billing.readProductFamily("handle:saas")).toStrictEqual(f);
    await billing.createProductFamily({ handle: "addons", name: "Add-ons" });
    expect((await billing.listProductFamilies()).map((x) => x.handle)).toStrictEqual(["saas", "addons"]);
    expect(svc.seen()).toStrictEqual([
      "POST /product_families.json",
      `GET /product_families/${f.id}.json`,
      "GET /product_families/handle:saas.json",
      "GET /product_families/handle:saas.json",
      "POST /product_families.json",
      "GET /product_families.json",
    ]);
    expect((svc.requests[4].body as any).product_family).toStrictEqual({ name: "Add-ons", handle: "addons" });
  });

  it("a taken handle: BillingApiError 422 naming the handle in the caller's words; a missing family: 404", async () => {
    const { billing } = await setup();
    await billing.createProductFamily({ handle: "saas", name: "SaaS" });
    const err = await billing.createProductFamily({ handle: "saas", name: "Again" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BillingApiError);
    expect(err).toMatchObject({ status: 422, errors: ["handle: must be unique - that value has been taken."], mayHaveApplied: false });
    await expect(billing.readProductFamily("nope")).rejects.toMatchObject({ status: 404 });
  });

  it("refuses bad input before sending anything, naming every property", async () => {
    const { svc, billing } = await setup();
    const err = await billing
      .createProductFamily({ handle: "Bad Handle", name: "" } as any, { uniquenessToken: "" })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BillingValidationError);
    expect((err as BillingValidationError).problems.map((p) => p.property).sort()).toStrictEqual(["handle", "name", "uniquenessToken"]);
    await expect(billing.readProductFamily(0)).rejects.toBeInstanceOf(BillingValidationError);
    await expect(billing.readProductFamily("UPPER")).rejects.toBeInstanceOf(BillingValidationError);
    expect(svc.requests).toHaveLength(0);
  });
});

describe("products", () => {
  it('create (description defaults to ""), read by id and handle, list, update, archive', async () => {
    const { svc, billing } = await setup();
    const f = await billing.createProductFamily({ handle: "saas", name: "SaaS" });
    const p = await billing.createProduct(f.id, {
      handle: "pro",
      name: "Pro",
      taxCode: "D0000000",
      ...MONTHLY,
      trialPriceInCents: 0,
      trialInterval: 14,
      trialIntervalUnit: "day",
    });
    expect(p).toStrictEqual<Product>({
      id: p.id,
      handle: "pro",
      name: "Pro",
      description: "",
      defaultPricePointId: expect.any(Number),
      defaultPricePointHandle: "pro-default",
      productFamilyId: f.id,
      productFamilyHandle: "saas",
      accountingCode: undefined,
      taxCode: "D0000000",
      requireCreditCard: false,
      requestCreditCard: true,
      requestBillingAddress: undefined,
      requireBillingAddress: undefined,
      requireShippingAddress: undefined,
      archivedAt: undefined,
      pricing: pricing({ trialPriceInCents: 0, trialInterval: 14, trialIntervalUnit: "day" }),
      versionNumber: 1,
    });
    expect((svc.requests[1].body as any).product).toStrictEqual({
      name: "Pro",
      handle: "pro",
      description: "",
      tax_code: "D0000000",
      price_in_cents: 1000,
      interval: 1,
      interval_unit: "month",
      trial_price_in_cents: 0,
      trial_interval: 14,
      trial_interval_unit: "day",
    });
    expect(await billing.readProduct(p.id)).toStrictEqual(p);
    expect(await billing.readProduct("pro")).toStrictEqual(p);
    expect(await billing.listProducts()).toStrictEqual([p]);
    expect(await billing.listProducts({ familyId: f.id })).toStrictEqual([p]);

    const renamed = await billing.updateProduct(p.id, { name: "Pro plan" });
    expect(renamed).toStrictEqual({ ...p, name: "Pro plan" });
    expect(svc.requests.at(-1)!.body).toStrictEqual({ product: { name: "Pro plan" } });
    const repriced = await billing.updateProduct(p.id, { priceInCents: 1500 });
    expect(repriced.pricing?.priceInCents).toBe(1500);
    expect(repriced.defaultPricePointId).not.toBe(p.defaultPricePointId);
    expect(repriced.versionNumber).toBe(2);

    const archived = await billing.archiveProduct(p.id);
    expect(archived.archivedAt).toEqual(expect.any(String));
    expect(await billing.listProducts()).toStrictEqual([]);
    expect((await billing.listProducts({ includeArchived: true })).map((x) => x.id)).toStrictEqual([p.id]);
    expect(svc.requests.filter((r) => r.method === "GET" && r.path === "/products.json").map((r) => r.url)).toStrictEqual([
      "/products.json?page=1&per_page=200",
      "/products.json?page=1&per_page=200",
      "/products.json?page=1&per_page=200&include_archived=true",
    ]);
  });

  it("lists across pages (200 a page)", async () => {
    const { svc, billing } = await setup();
    const f = await billing.createProductFamily({ handle: "saas", name: "SaaS" });
    for (let i = 0; i < 203; i++) await billing.createProduct(f.id, { handle: `p${i}`, name: `P${i}`, ...MONTHLY });
    svc.requests.length = 0;
    const all = await billing.listProducts({ familyId: f.id });
    expect(all.map((p) => p.handle)).toStrictEqual(Array.from({ length: 203 }, (_, i) => `p${i}`));
    expect(svc.requests.map((r) => r.url)).toStrictEqual([
      `/product_families/${f.id}/products.json?page=1&per_page=200`,
      `/product_families/${f.id}/products.json?page=2&per_page=200`,
    ]);
  });

  it("a taken handle is a 422 naming handle; bad input is refused before sending", async () => {
    const { svc, billing } = await setup();
    const f = await billing.createProductFamily({ handle: "saas", name: "SaaS" });
    await billing.createProduct(f.id, { handle: "pro", name: "Pro", ...MONTHLY });
    await expect(billing.createProduct(f.id, { handle: "pro", name: "Pro 2", ...MONTHLY })).rejects.toMatchObject({
      status: 422,
      errors: ["handle: must be unique within a Site."],
    });
    const sent = svc.requests.length;
    const err = await billing
      .createProduct(0, { handle: "x", name: "X", priceInCents: 1.5, interval: 1, intervalUnit: "week" } as any)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BillingValidationError);
    expect((err as BillingValidationError).problems.map((p) => p.property).sort()).toStrictEqual([
      "familyId",
      "intervalUnit",
      "priceInCents",
    ]);
    await expect(billing.updateProduct(1, { bogus: 1 } as any)).rejects.toThrow(/bogus: is not a known property \(accepted: handle, name,/);
    expect(svc.requests.length).toBe(sent);
  });
});

describe("price points", () => {
  async function product() {
    const s = await setup();
    const f = await s.billing.createProductFamily({ handle: "saas", name: "SaaS" });
    const p = await s.billing.createProduct(f.id, { handle: "pro", name: "Pro", ...MONTHLY });
    s.svc.requests.length = 0;
    return { ...s, p };
  }

  it("create, read, list (archived), update handle and price, archive, unarchive, promote", async () => {
    const { svc, billing, p } = await product();
    const pp = await billing.createPricePoint(p.id, {
      handle: "annual",
      name: "Annual",
      priceInCents: 10000,
      interval: 12,
      intervalUnit: "month",
      expirationInterval: 24,
      expirationIntervalUnit: "month",
      useSiteExchangeRate: false,
    });
    expect(pp).toStrictEqual<PricePoint>({
      id: pp.id,
      handle: "annual",
      name: "Annual",
      type: "catalog",
      productId: p.id,
      archivedAt: undefined,
      pricing: pricing({ priceInCents: 10000, interval: 12, expirationInterval: 24, expirationIntervalUnit: "month" }),
      useSiteExchangeRate: false,
    });
    expect(svc.requests[0].body).toMatchObject({
      price_point: {
        name: "Annual",
        handle: "annual",
        price_in_cents: 10000,
        interval: 12,
        interval_unit: "month",
        expiration_interval: 24,
        expiration_interval_unit: "month",
        use_site_exchange_rate: false,
      },
    });
    expect(await billing.readPricePoint(p.id, pp.id)).toStrictEqual(pp);
    expect((await billing.listPricePoints(p.id)).map((x) => x.handle)).toStrictEqual(["pro-default", "annual"]);

    const moved = await billing.updatePricePoint(p.id, pp.id, { handle: "annual-2", priceInCents: 9000 });
    expect(moved).toMatchObject({ handle: "annual-2", pricing: { priceInCents: 9000 } });
    expect(svc.requests.at(-1)!.body).toStrictEqual({ price_point: { handle: "annual-2", price_in_cents: 9000 } });

    const archived = await billing.archivePricePoint(p.id, pp.id);
    expect(archived.archivedAt).toEqual(expect.any(String));
    expect((await billing.listPricePoints(p.id)).map((x) => x.id)).toStrictEqual([p.defaultPricePointId]);
    expect((await billing.listPricePoints(p.id, { includeArchived: true })).map((x) => x.id)).toStrictEqual([p.defaultPricePointId, pp.id]);
    expect(svc.requests.at(-1)!.url).toBe(`/products/${p.id}/price_points.json?page=1&per_page=200&archived=true`);

    const back = await billing.unarchivePricePoint(p.id, pp.id);
    expect(back.archivedAt).toBeUndefined();
    const promoted = await billing.promotePricePoint(p.id, pp.id);
    expect(promoted).toMatchObject({ id: pp.id, type: "default" });
    expect(svc.seen().slice(-2)).toStrictEqual([
      `PATCH /products/${p.id}/price_points/${pp.id}/default.json`,
      `GET /products/${p.id}/price_points/${pp.id}.json`,
    ]);
    expect((await billing.readProduct(p.id)).defaultPricePointId).toBe(pp.id);
  });

  it("the default price point cannot be archived: the service's 422, as it words it", async () => {
    const { billing, p } = await product();
    await expect(billing.archivePricePoint(p.id, p.defaultPricePointId!)).rejects.toMatchObject({
      status: 422,
      errors: ["Cannot archive the default price point."],
    });
  });

  it("createPricePoints: in the inputs' order, at most maxConcurrency in flight", async () => {
    const { svc, p } = await product();
    const billing = clientOf(svc.url, { maxConcurrency: 2 });
    svc.fault({ kind: "slow", method: "POST", delayMs: 30, times: 100 });
    const inputs = Array.from({ length: 7 }, (_, i) => ({ handle: `pp-${i}`, name: `PP ${i}`, ...MONTHLY, priceInCents: 100 * i }));
    const made = await billing.createPricePoints(p.id, inputs);
    expect(made.map((x) => x.handle)).toStrictEqual(inputs.map((x) => x.handle));
    expect(made.map((x) => x.pricing?.priceInCents)).toStrictEqual(inputs.map((x) => x.priceInCents));
    const tokens = svc.requests.filter((r) => r.method === "POST").map((r) => (r.body as any).uniqueness_token);
    expect(new Set(tokens).size).toBe(7);
  });

  it("createPricePoints checks every input first, naming [index].property, and sends nothing when one is bad", async () => {
    const { svc, billing, p } = await product();
    const err = await billing
      .createPricePoints(p.id, [
        { handle: "a", name: "A", ...MONTHLY },
        { handle: "b", name: "B", ...MONTHLY, priceInCents: -1 },
        { handle: "a", name: "A again", ...MONTHLY },
      ])
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BillingValidationError);
    expect((err as BillingValidationError).problems.map((x) => x.property)).toStrictEqual(["[1].priceInCents", "[2].handle"]);
    expect(svc.requests).toHaveLength(0);
  });

  it("a field refusal names the field as the caller wrote it", async () => {
    const { billing, p } = await product();
    await billing.createPricePoint(p.id, { handle: "dup", name: "Dup", ...MONTHLY });
    await expect(billing.createPricePoint(p.id, { handle: "dup", name: "Dup", ...MONTHLY })).rejects.toMatchObject({
      status: 422,
      errors: ["handle: must be unique within the product."],
      message: expect.stringContaining("failed with 422: handle: must be unique within the product."),
    });
  });
});

describe("every request sent above", () => {
  it("validates against the contract's request schema, but for the listed deviations (request-contract.ts)", async () => {
    const sent: SentRequest[] = services.flatMap((s) =>
      s.log.map((r) => ({ method: r.method, url: r.url, text: r.body === undefined ? "" : JSON.stringify(r.body) })),
    );
    expect(sent.length).toBeGreaterThan(20);
    const { problems, deviations } = await contractRequestCheck(sent);
    expect(problems).toStrictEqual([]);
    expect(deviations).toStrictEqual([
      "listProductPricePoints: archived in the query",
      "readProductFamily: {id} as handle:x",
      "updateProduct: a partial product (without some of name, description, price_in_cents, interval, interval_unit)",
    ]);
  });
});
