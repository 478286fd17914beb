import { describe, expect, it } from "vitest";
import {
  BillingConnectionError,
  BillingValidationError,
  CatalogOutcomeUnknownError,
  catalogErrorMessages,
  pricePointInput,
  productInput,
  productUpdateInput,
} from "../../sdk";
import { pricePointCreateBody, productCreateBody, productUpdateBody } from "../../sdk/catalog/bodies";
import { componentsService } from "./components-fake-service";
import { clientOf, site } from "./helpers";

/**
 * The catalog's create, product update, bodies, refusals and tier rules (sdk/catalog/create.ts,
 * products.ts, bodies.ts, refusals.ts, tiers.ts), pinned where the mutation run found them
 * unchecked: what a CatalogOutcomeUnknownError says when the read-back itself cannot be read (after
 * an answer the SDK does not understand, and after a 429 that followed an ambiguous attempt), the
 * product update's read-back (a description read back as none holds an update to ""; a field that
 * differs is never taken), bodies that carry only what was given, and refusals word for word.
 */

const MONTHLY = { priceInCents: 1000, interval: 1, intervalUnit: "month" } as const;
const SPRING = { code: "SPRING", name: "Spring", percentage: 15 } as const;
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const seen = (sim: { requests: { method: string; path: string }[] }) => sim.requests.map((r) => `${r.method} ${r.path}`);

async function unknownOf(p: Promise<unknown>): Promise<CatalogOutcomeUnknownError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CatalogOutcomeUnknownError);
  return err as CatalogOutcomeUnknownError;
}

describe("a create whose read-back cannot be read: the outcome unknown, saying why", () => {
  it("a 201 with a body the SDK does not understand, then the read by code fails: unreadable, with the read's failure", async () => {
    const svc = await componentsService();
    const billing = clientOf(svc.url, { maxRetries: 0 });
    svc.fault({ kind: "garbled", method: "POST" }, { kind: "503-before", method: "GET" });
    const err = await unknownOf(billing.createCoupon(1, SPRING));
    expect(err.message).toBe(
      `creating the coupon "SPRING" may or may not have been applied: the service answered 201 with a body this SDK does not understand, ` +
        `and no live coupon with handle "SPRING" is found (unreadable (GET /coupons/find.json failed with 503: Service Unavailable)); ` +
        `it may or may not have been created. Resuming reads it back by handle first, then creates it with the same uniqueness_token ` +
        `(${err.uniquenessToken}), never a new one`,
    );
    expect(err.uniquenessToken).toBe((svc.requests[0].body as { uniqueness_token: string }).uniqueness_token);
    expect(svc.seen()).toStrictEqual(["POST /product_families/1/coupons.json", "GET /coupons/find.json"]);
    expect(svc.coupons.map((c) => c.code)).toStrictEqual(["SPRING"]);
  });

  it.each([
    ["found nothing (404)", false, "not found \\(404\\)"],
    [
      "could not be read (a 429 of its own)",
      true,
      "unreadable \\(GET /coupons/find\\.json failed with 429: Your request was denied due to a usage violation\\. " +
        "You can track this request with support by referencing [0-9a-f]{32}\\)",
    ],
  ] as const)("a 503, not found, then a 429 not waited on: the second read %s", async (_, readFails, sightingPattern) => {
    const { sim, billing } = await site({}, { maxRetries: 1, retryBudgetSeconds: 0 });
    const f = await billing.createProductFamily({ handle: "saas", name: "SaaS" });
    sim.reset();
    const POST = { method: "POST", path: `/product_families/${f.id}/coupons.json` };
    sim.injectFault({ kind: "status", status: 503, times: 1, match: POST });
    sim.injectFault({ kind: "status", status: 429, times: 1, match: POST });
    // The first read passes (a delay of nothing), the second is the 429.
    if (readFails) {
      sim.injectFault({ kind: "delay", ms: 0, times: 1, match: { method: "GET" } });
      sim.injectFault({ kind: "status", status: 429, times: 1, match: { method: "GET" } });
    }
    const err = await unknownOf(billing.createCoupon(f.id, SPRING));
    const post = `POST /product_families/${f.id}/coupons.json`;
    expect(err.message).toMatch(
      new RegExp(
        `^${esc(`creating the coupon "SPRING" may or may not have been applied: an attempt failed ambiguously (${post} failed with 503: 503 Service Temporarily Unavailable), then the next one ${post} failed with 429: `)}` +
          "Your request was denied due to a usage violation\\. You can track this request with support by referencing [0-9a-f]{32}" +
          `${esc(', and no live coupon with handle "SPRING" is found (')}${sightingPattern}${esc(`); it may or may not have been created. Resuming reads it back by handle first, then creates it with the same uniqueness_token (${err.uniquenessToken}), never a new one`)}$`,
      ),
    );
    expect(err.cause).toMatchObject({ status: 429 });
    expect(seen(sim)).toStrictEqual([post, "GET /coupons/find.json", post, "GET /coupons/find.json"]);
    expect(await billing.listCoupons({ includeArchived: true })).toStrictEqual([]);
  });
});

describe("updateProduct whose answer is lost: read back, taken only when every reported field holds", () => {
  it("a description given and applied: the product read back", async () => {
    const { sim, billing } = await site({}, { maxRetries: 0 });
    const f = await billing.createProductFamily({ handle: "saas", name: "SaaS" });
    const p = await billing.createProduct(f.id, { handle: "pro", name: "Pro", description: "Plans", ...MONTHLY });
    sim.reset();
    sim.injectFault({ kind: "reset", applyAfterHandling: true, times: 1, match: { method: "PUT" } });
    const updated = await billing.updateProduct(p.id, { description: "Annual plans" });
    expect(updated).toStrictEqual({ ...p, description: "Annual plans" });
    expect(seen(sim)).toStrictEqual([`PUT /products/${p.id}.json`, `GET /products/${p.id}.json`]);
  });

  it('a description of "" not applied, and none read back: "" is what none is, so the update holds', async () => {
    const { sim, billing } = await site({}, { maxRetries: 0 });
    sim.addProduct({ id: 7, handle: "legacy", description: null });
    const before = await billing.readProduct(7);
    expect(before.description).toBeUndefined();
    sim.reset();
    sim.injectFault({ kind: "reset", times: 1, match: { method: "PUT" } });
    expect(await billing.updateProduct(7, { description: "" })).toStrictEqual(before);
    expect(seen(sim)).toStrictEqual(["PUT /products/7.json", "GET /products/7.json"]);
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

describe("bodies carry only the fields given", () => {
  it("a product update of its name: the name alone, no other key", () => {
    expect(productUpdateBody(productUpdateInput.parse({ name: "Pro" }))).toStrictEqual({ name: "Pro" });
    expect(productUpdateBody(productUpdateInput.parse({ priceInCents: 2500 }))).toStrictEqual({ price_in_cents: 2500 });
  });

  it("a product create: the fields given and the description the contract requires", () => {
    expect(productCreateBody(productInput.parse({ handle: "pro", name: "Pro", ...MONTHLY }))).toStrictEqual({
      handle: "pro",
      name: "Pro",
      description: "",
      price_in_cents: 1000,
      interval: 1,
      interval_unit: "month",
    });
  });

  it("a price point create: use_site_exchange_rate only when given", () => {
    const base = { handle: "annual", name: "Annual", ...MONTHLY, interval: 12 };
    const wire = { name: "Annual", handle: "annual", price_in_cents: 1000, interval: 12, interval_unit: "month" };
    expect(pricePointCreateBody(pricePointInput.parse(base))).toStrictEqual(wire);
    expect(pricePointCreateBody(pricePointInput.parse({ ...base, useSiteExchangeRate: false }))).toStrictEqual({
      ...wire,
      use_site_exchange_rate: false,
    });
  });
});

describe("catalogErrorMessages: the shapes that carry one message or none", () => {
  it.each([
    ["a blank text", " \n\t ", []],
    ["an empty text", "", []],
    ["a text", "  Gateway said no \n", ["Gateway said no"]],
    ["errors as one string", { errors: "Coupon is archived." }, ["Coupon is archived."]],
    ["errors as one labelled string, kept as sent", { errors: "Code: must be unique." }, ["Code: must be unique."]],
    ["error as one string", { error: "Not allowed." }, ["Not allowed."]],
  ] as const)("%s", (_, body, messages) => {
    expect(catalogErrorMessages(body)).toStrictEqual(messages);
  });
});

describe("tier rules: an open tier followed by one whose start is not a number", () => {
  const metered = { kind: "metered", handle: "sms", name: "SMS", unitName: "message", pricingScheme: "tiered" } as const;
  const OPEN = "is required: only the last tier is open-ended, and prices[0] is followed by prices[1]";

  it.each([
    [
      "a start that is text",
      { startingQuantity: "two", unitPrice: 1 },
      "prices.1.startingQuantity",
      'must be a whole number, 1 or more, got "two"',
    ],
    ["no tier at all", null, "prices.1", "must be an object { startingQuantity, endingQuantity?, unitPrice }"],
  ] as const)("%s: the end is required, with no end to suggest", async (_, next, property, message) => {
    const { sim, billing } = await site();
    const prices = [{ startingQuantity: 1, unitPrice: 1 }, next] as never;
    const err = await billing.createComponent(1, { ...metered, prices }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BillingValidationError);
    expect((err as BillingValidationError).problems).toStrictEqual([
      { property, message },
      { property: "prices.0.endingQuantity", message: OPEN },
    ]);
    expect((err as Error).message).toBe(`invalid component: ${property}: ${message}; prices.0.endingQuantity: ${OPEN}`);
    expect(sim.requests).toStrictEqual([]);
  });

  it("a start that is a whole number: the end it would have suggested", async () => {
    const { billing } = await site();
    const prices = [
      { startingQuantity: 1, unitPrice: 1 },
      { startingQuantity: 11, unitPrice: 1 },
    ];
    const err = await billing.createComponent(1, { ...metered, prices }).catch((e: unknown) => e);
    expect((err as BillingValidationError).problems).toStrictEqual([
      { property: "prices.0.endingQuantity", message: `${OPEN} (starting at 11, so prices[0] would end at 10)` },
    ]);
  });
});
