import { describe, expect, it } from "vitest";
import { CatalogOutcomeUnknownError, type ComponentInput } from "../../../../sdk";
import { clientOf, rejection, requestLog, site } from "../../helpers";
import { fakeService, TWO_FAMILIES } from "../fake-service";
import { rewritingProxy } from "../rewriting-proxy";
import {
  component,
  componentPoint,
  MONTHLY,
  product,
  siteWithFamilies,
  siteWithUnnamedFamilies,
  TIERS_TO_10,
  UNSENT,
} from "../simulator-fixtures";

/**
 * A create whose answer was lost reads back what it asked for (by handle, or a coupon by code): what the read-back
 * takes as the object created, and, when it finds nothing it can take, what the CatalogOutcomeUnknownError says it
 * saw (nothing, an archived one, one in another family, one holding another name, a read that failed).
 */

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
    const svc = await fakeService({ families: TWO_FAMILIES });
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

describe("a coupon create whose answer was lost says what its read-back by code saw", () => {
  const tail = (seen: string) =>
    'creating the coupon "SPRING" may or may not have been applied: 1 attempt(s) failed ambiguously (last: POST ' +
    `/product_families/1/coupons.json: read ECONNRESET (ECONNRESET)) and no live coupon with handle "SPRING" is found (${seen}); ` +
    "it may or may not have been created. Resuming reads it back by handle first, then creates it with the same " +
    "uniqueness_token (tok-1), never a new one";

  it.each<[string, Record<string, unknown>, Record<string, unknown>, string]>([
    [
      "another name",
      { code: "SPRING", name: "Spring", percentage: 15 },
      { code: "SPRING", name: "Autumn", percentage: 15 },
      'a coupon this create did not make (id ID holds name "Spring" where this create asked "Autumn")',
    ],
    [
      "another percentage",
      { code: "SPRING", name: "Spring", percentage: 15 },
      { code: "SPRING", name: "Spring", percentage: 20 },
      "a coupon this create did not make (id ID holds percentage 15 where this create asked 20)",
    ],
    [
      "another amount",
      { code: "SPRING", name: "Spring", amountInCents: 500 },
      { code: "SPRING", name: "Spring", amountInCents: 700 },
      "a coupon this create did not make (id ID holds amountInCents 500 where this create asked 700)",
    ],
    // The other kind of discount: the field asked for is absent from the answer, so comparing it alone saw nothing.
    [
      "an amount where a percentage was asked",
      { code: "SPRING", name: "Spring", amountInCents: 500 },
      { code: "SPRING", name: "Spring", percentage: 15 },
      "a coupon this create did not make (id ID holds amountInCents 500 where this create asked percentage 15)",
    ],
    [
      "a percentage where an amount was asked",
      { code: "SPRING", name: "Spring", percentage: 15 },
      { code: "SPRING", name: "Spring", amountInCents: 500 },
      "a coupon this create did not make (id ID holds percentage 15 where this create asked amountInCents 500)",
    ],
  ])("%s", async (_, existing, asked, seen) => {
    const { sim, billing } = await siteWithFamilies();
    const held = await billing.createCoupon(1, existing as never);
    sim.reset();
    sim.injectFault({ kind: "reset", times: 1, match: { method: "POST" } });
    const err = await rejection(billing.createCoupon(1, asked as never, { uniquenessToken: "tok-1" }));
    expect(err).toBeInstanceOf(CatalogOutcomeUnknownError);
    expect((err as Error).message).toBe(tail(seen.replace("ID", String(held.id))));
    expect(sim.requests.map((r) => [r.method, r.path, r.status, r.query])).toStrictEqual([
      ["POST", "/product_families/1/coupons.json", 0, {}],
      ["GET", "/coupons/find.json", 200, { code: "SPRING", product_family_id: "1" }],
    ]);
  });

  it("an archived coupon with the code", async () => {
    const { sim, billing } = await siteWithFamilies();
    const held = await billing.createCoupon(1, { code: "SPRING", name: "Spring", percentage: 15 });
    const archived = await billing.archiveCoupon(1, held.id);
    sim.reset();
    sim.injectFault({ kind: "reset", times: 1, match: { method: "POST" } });
    const err = await rejection(billing.createCoupon(1, { code: "SPRING", name: "Spring", percentage: 15 }, { uniquenessToken: "tok-1" }));
    expect(err).toBeInstanceOf(CatalogOutcomeUnknownError);
    expect((err as Error).message).toBe(tail(`an archived coupon (id ${held.id}, archived ${archived.archivedAt})`));
  });

  it("a coupon in another family", async () => {
    const { sim, billing } = await siteWithFamilies();
    const held = await billing.createCoupon(1, { code: "SPRING", name: "Spring", percentage: 15 });
    sim.reset();
    // The service answers with a coupon of another family than the one asked for.
    const url = await rewritingProxy(sim.url, (method, path, body) => {
      if (method === "GET" && path === "/coupons/find.json") (body as { coupon: Record<string, unknown> }).coupon.product_family_id = 2;
      return body;
    });
    const b = clientOf(url, { maxRetries: 0 });
    sim.injectFault({ kind: "reset", times: 1, match: { method: "POST" } });
    const err = await rejection(b.createCoupon(1, { code: "SPRING", name: "Spring", percentage: 15 }, { uniquenessToken: "tok-1" }));
    expect(err).toBeInstanceOf(CatalogOutcomeUnknownError);
    expect((err as Error).message).toBe(tail(`coupon ${held.id} in another family (2)`));
  });

  it("a coupon whose answer names no family is taken as the one created", async () => {
    const { sim, billing } = await siteWithFamilies();
    const held = await billing.createCoupon(1, { code: "SPRING", name: "Spring", percentage: 15 });
    sim.reset();
    const url = await rewritingProxy(sim.url, (method, path, body) => {
      if (method === "GET" && path === "/coupons/find.json") delete (body as { coupon: Record<string, unknown> }).coupon.product_family_id;
      return body;
    });
    const b = clientOf(url, { maxRetries: 0 });
    sim.injectFault({ kind: "reset", times: 1, match: { method: "POST" } });
    const got = await b.createCoupon(1, { code: "SPRING", name: "Spring", percentage: 15 }, { uniquenessToken: "tok-1" });
    expect([got.id, got.code, got.productFamilyId]).toStrictEqual([held.id, "SPRING", undefined]);
  });
});

describe("a coupon create's read-back does not compare a percentage the answer leaves out", () => {
  it("the coupon read back with percentage null, code and name as asked, is the one created", async () => {
    const { sim, billing } = await siteWithFamilies();
    const held = await billing.createCoupon(1, { code: "SPRING", name: "Spring", percentage: 15 });
    sim.reset();
    const url = await rewritingProxy(sim.url, (method, path, body) => {
      if (method === "GET" && path === "/coupons/find.json") (body as { coupon: Record<string, unknown> }).coupon.percentage = null;
      return body;
    });
    const b = clientOf(url, { maxRetries: 0 });
    sim.injectFault({ kind: "reset", times: 1, match: { method: "POST" } });
    const got = await b.createCoupon(1, { code: "SPRING", name: "Spring", percentage: 15 }, { uniquenessToken: "tok-1" });
    expect([got.id, got.code, got.percentage]).toStrictEqual([held.id, "SPRING", undefined]);
    expect(requestLog(sim)).toStrictEqual(["POST /product_families/1/coupons.json 0", "GET /coupons/find.json 200"]);
  });
});

describe("a duplicate-submission answer read back without finding the object", () => {
  it("says how long it read back, in seconds", async () => {
    const { sim, billing } = await siteWithFamilies({ migrationSettleSeconds: 1.4 });
    await billing.createProductFamily({ handle: "saas", name: "SaaS" }, { uniquenessToken: "tok-1" });
    sim.reset();
    const err = await rejection(billing.createProductFamily({ handle: "other", name: "Other" }, { uniquenessToken: "tok-1" }));
    expect(err).toBeInstanceOf(CatalogOutcomeUnknownError);
    expect((err as Error).message).toBe(
      'creating the product family "other" may or may not have been applied: the service answered that a request with this ' +
        "uniqueness_token was already submitted (it may still be processing), and after 1 s of reading back no live product " +
        'family with handle "other" is found (last seen: not found (404)); it may or may not have been created. Resuming ' +
        "reads it back by handle first, then creates it with the same uniqueness_token (tok-1), never a new one",
    );
  });
});

const unknownTail = (kind: string, handle: string, post: string, seen: string, token: string) =>
  `creating the ${kind} "${handle}" may or may not have been applied: 1 attempt(s) failed ambiguously (last: POST ${post}: ` +
  `read ECONNRESET (ECONNRESET)) and no live ${kind} with handle "${handle}" is found (${seen}); it may or may not have ` +
  `been created. Resuming reads it back by handle first, then creates it with the same uniqueness_token (${token}), never a new one`;

describe("a price point or family create whose answer was lost says what its read-back saw", () => {
  it("a price point: nothing with the handle is listed", async () => {
    const { sim, billing, p } = await product();
    sim.injectFault({ ...UNSENT, match: { method: "POST" } });
    const err = await rejection(
      billing.createPricePoint(p.id, { handle: "monthly", name: "Monthly", ...MONTHLY }, { uniquenessToken: "tok-1" }),
    );
    expect(err).toBeInstanceOf(CatalogOutcomeUnknownError);
    expect((err as Error).message).toBe(
      unknownTail("price point", "monthly", `/products/${p.id}/price_points.json`, "not listed", "tok-1"),
    );
  });

  it.each<[string, Record<string, unknown>, string]>([
    ["another name", { name: "Other", ...MONTHLY, interval: 12 }, 'name "Annual" where this create asked "Other"'],
    ["another price", { name: "Annual", ...MONTHLY, priceInCents: 2000, interval: 12 }, "priceInCents 1000 where this create asked 2000"],
  ])("a price point with the handle holding %s", async (_, fields, holds) => {
    const { sim, billing, p, pp } = await product();
    sim.injectFault({ ...UNSENT, match: { method: "POST" } });
    const err = await rejection(billing.createPricePoint(p.id, { handle: "annual", ...fields } as never, { uniquenessToken: "tok-1" }));
    expect(err).toBeInstanceOf(CatalogOutcomeUnknownError);
    const seen = `a price point this create did not make (id ${pp.id} holds ${holds})`;
    expect((err as Error).message).toBe(unknownTail("price point", "annual", `/products/${p.id}/price_points.json`, seen, "tok-1"));
  });

  it.each<[string, Record<string, unknown>, string]>([
    ["another name", { name: "Other", ...MONTHLY }, 'name "Pro" where this create asked "Other"'],
    ["another price", { name: "Pro", ...MONTHLY, priceInCents: 2000 }, "priceInCents 1000 where this create asked 2000"],
  ])("a product with the handle holding %s", async (_, fields, holds) => {
    const { sim, billing, f, p } = await product();
    sim.injectFault({ ...UNSENT, match: { method: "POST" } });
    const err = await rejection(billing.createProduct(f.id, { handle: "pro", ...fields } as never, { uniquenessToken: "tok-1" }));
    expect(err).toBeInstanceOf(CatalogOutcomeUnknownError);
    const seen = `a product this create did not make (id ${p.id} holds ${holds})`;
    expect((err as Error).message).toBe(unknownTail("product", "pro", `/product_families/${f.id}/products.json`, seen, "tok-1"));
  });

  it("a family with the handle holding another name", async () => {
    const { sim, billing, f } = await product();
    sim.injectFault({ ...UNSENT, match: { method: "POST" } });
    const err = await rejection(billing.createProductFamily({ handle: "saas", name: "Other" }, { uniquenessToken: "tok-1" }));
    expect(err).toBeInstanceOf(CatalogOutcomeUnknownError);
    const seen = `a product family this create did not make (id ${f.id} holds name "SaaS" where this create asked "Other")`;
    expect((err as Error).message).toBe(unknownTail("product family", "saas", "/product_families.json", seen, "tok-1"));
  });
});

const METERED = {
  kind: "metered",
  handle: "sms",
  name: "SMS",
  unitName: "message",
  pricingScheme: "per_unit",
  prices: [{ startingQuantity: 1, unitPrice: 1 }],
} satisfies ComponentInput;

describe("a component create whose answer was lost says what its read-back by handle saw", () => {
  const tail = (h: string, seen: string) =>
    `creating the component "${h}" may or may not have been applied: 1 attempt(s) failed ambiguously (last: POST ` +
    `/product_families/1/metered_components.json: read ECONNRESET (ECONNRESET)) and no live component with handle "${h}" is ` +
    `found (${seen}); it may or may not have been created. Resuming reads it back by handle first, then creates it with ` +
    "the same uniqueness_token (tok-1), never a new one";

  it.each<[string, { familyId: number; kind: "on_off" | "metered"; name: string }, string, string]>([
    [
      "another kind",
      { familyId: 1, kind: "on_off", name: "SMS" },
      "SMS",
      'a component this create did not make (id 30001 holds kind "on_off" where this create asked "metered")',
    ],
    [
      "another name",
      { familyId: 1, kind: "metered", name: "Minutes" },
      "Mins",
      'a component this create did not make (id 30001 holds name "Minutes" where this create asked "Mins")',
    ],
    ["another family", { familyId: 2, kind: "metered", name: "SMS" }, "SMS", "component 30001 in another family (2)"],
  ])("%s", async (_, held, name, seen) => {
    const { sim, billing } = await siteWithUnnamedFamilies();
    sim.addComponent({ id: 30001, handle: "sms", ...held });
    sim.injectFault({ kind: "reset", times: 1, match: { method: "POST" } });
    const err = await billing.createComponent(1, { ...METERED, name }, { uniquenessToken: "tok-1" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CatalogOutcomeUnknownError);
    expect((err as Error).message).toBe(tail("sms", seen));
    expect(requestLog(sim)).toStrictEqual(["POST /product_families/1/metered_components.json 0", "GET /components/lookup.json 200"]);
  });
});

describe("a component price point create whose answer was lost says what its read-back by handle saw", () => {
  const tail = (seen: string) =>
    `creating the component price point "retail" may or may not have been applied: 1 attempt(s) failed ambiguously (last: POST ` +
    `/components/30001/price_points.json: read ECONNRESET (ECONNRESET)) and no live component price point with handle "retail" is ` +
    `found (${seen}); it may or may not have been created. Resuming reads it back by handle first, then creates it with ` +
    "the same uniqueness_token (tok-1), never a new one";
  const input = { handle: "retail", name: "Retail", pricingScheme: "tiered", prices: TIERS_TO_10 } as const;

  it("nothing listed", async () => {
    const { sim, billing } = await component();
    sim.injectFault({ kind: "reset", times: 1, match: { method: "POST" } });
    const err = await billing.createComponentPricePoint(30001, input, { uniquenessToken: "tok-1" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CatalogOutcomeUnknownError);
    expect((err as Error).message).toBe(tail("not listed"));
    expect(requestLog(sim)).toStrictEqual(["POST /components/30001/price_points.json 0", "GET /components/30001/price_points.json 201"]);
  });

  it("one with the handle and another name, made before", async () => {
    const { sim, billing } = await component();
    sim.addComponentPricePoint(
      { componentId: 30001 },
      { id: 50002, handle: "retail", name: "Shop", pricingScheme: "tiered", prices: TIERS_TO_10 },
    );
    sim.injectFault({ kind: "reset", times: 1, match: { method: "POST" } });
    const err = await billing.createComponentPricePoint(30001, input, { uniquenessToken: "tok-1" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CatalogOutcomeUnknownError);
    expect((err as Error).message).toBe(
      tail('a component price point this create did not make (id 50002 holds name "Shop" where this create asked "Retail")'),
    );
  });
});

describe("createComponentPricePoint's read-back sees an archived price point with the handle", () => {
  it("it is not the one created: the outcome stays unknown, and the message says what was seen", async () => {
    const { sim, billing, c, pp } = await componentPoint();
    const archived = await billing.archiveComponentPricePoint(c.id, pp.id);
    sim.reset();
    sim.injectFault({ ...UNSENT, match: { method: "POST" } });
    const err = await billing
      .createComponentPricePoint(c.id, {
        handle: "wholesale",
        name: "Again",
        pricingScheme: "per_unit",
        prices: [{ startingQuantity: 1, unitPrice: 1 }],
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CatalogOutcomeUnknownError);
    const e = err as CatalogOutcomeUnknownError;
    expect([e.kind, e.handle, e.mayHaveApplied]).toStrictEqual(["component price point", "wholesale", true]);
    expect(e.message).toBe(
      `creating the component price point "wholesale" may or may not have been applied: 1 attempt(s) failed ambiguously ` +
        `(last: POST /components/${c.id}/price_points.json: read ECONNRESET (ECONNRESET)) and no live component price point ` +
        `with handle "wholesale" is found (an archived price point (id ${pp.id}, archived ${archived.archivedAt})); ` +
        "it may or may not have been created. Resuming reads it back by handle first, then creates it with the same " +
        `uniqueness_token (${e.uniquenessToken}), never a new one`,
    );
    expect(seen(sim)).toStrictEqual([`POST /components/${c.id}/price_points.json`, `GET /components/${c.id}/price_points.json`]);
    expect(sim.requests[1].query).toStrictEqual({ page: "1", per_page: "200", include_archived: "true" });
  });
});
