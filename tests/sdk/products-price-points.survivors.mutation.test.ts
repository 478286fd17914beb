import { describe, expect, it } from "vitest";
import { BillingConnectionError, CatalogOutcomeUnknownError, PricePointsPartialFailureError, type ProductUpdateInput } from "../../sdk";
import { refusedWith, rejection, requestLog, site } from "./helpers";
import { LOST, MONTHLY, product, UNSENT } from "./product-fixtures";

// sdk/catalog/price-points.ts, products.ts and families.ts through BillingClient against the simulator: the mutation
// run found these unchecked. The words of refusals (the property named, the operation's heading, the duplicate-handle
// message), the read-back comparison a create whose answer was lost reports, the archive/unarchive read-backs that must
// see the state reached, the product update read-back that compares only the fields a read reports, reads repeated
// after a 500, and createPricePoints' workers bounded by maxConcurrency (seen in the order requests reach the service:
// the transport's pool already caps what is in flight, so extra workers show only as requests queued ahead of a
// worker's own read-back). Not pinned, as no input tells them apart: an update/create body entry set to undefined
// (JSON leaves it out), the value promotePricePoint's write settles with (it reads the price point afterwards anyway),
// and the results array's initial length (holes are skipped and every slot is filled on success).

const MAY_HAVE =
  "read ECONNRESET (ECONNRESET); it may or may not have been applied (the read-back could not confirm it), so read it back before relying on either";

const unknownTail = (kind: string, handle: string, post: string, seen: string, token: string) =>
  `creating the ${kind} "${handle}" may or may not have been applied: 1 attempt(s) failed ambiguously (last: POST ${post}: ` +
  `read ECONNRESET (ECONNRESET)) and no live ${kind} with handle "${handle}" is found (${seen}); it may or may not have ` +
  `been created. Resuming reads it back by handle first, then creates it with the same uniqueness_token (${token}), never a new one`;

describe("refusals name the operation and the property", () => {
  const id0 = "must be a positive integer id, got 0";

  it("createPricePoint with product id 0", async () => {
    const { sim, billing } = await site();
    expect(await refusedWith(billing.createPricePoint(0, { handle: "annual", name: "Annual", ...MONTHLY }))).toStrictEqual({
      message: `invalid price point: productId: ${id0}`,
      problems: [{ property: "productId", message: id0 }],
    });
    expect(sim.requests).toStrictEqual([]);
  });

  it("createPricePoints with product id 0", async () => {
    const { sim, billing } = await site();
    expect(await refusedWith(billing.createPricePoints(0, [{ handle: "annual", name: "Annual", ...MONTHLY }]))).toStrictEqual({
      message: `invalid price points: productId: ${id0}`,
      problems: [{ property: "productId", message: id0 }],
    });
    expect(sim.requests).toStrictEqual([]);
  });

  it("createPricePoints with two inputs of one handle", async () => {
    const { sim, billing, p } = await product();
    const dup = `"annual-2" is also the handle of [0]: a product's price points need distinct handles`;
    const inputs = ["annual-2", "monthly-2", "annual-2"].map((handle) => ({ handle, name: "N", ...MONTHLY }));
    expect(await refusedWith(billing.createPricePoints(p.id, inputs))).toStrictEqual({
      message: `invalid price points: [2].handle: ${dup}`,
      problems: [{ property: "[2].handle", message: dup }],
    });
    expect(sim.requests).toStrictEqual([]);
  });

  it("updatePricePoint with a bad handle", async () => {
    const { sim, billing, p, pp } = await product();
    const bad = `must be a lowercase letter or number first, then only lowercase letters, numbers, '.', ':', '-' and '_', got "Not A Handle"`;
    expect(await refusedWith(billing.updatePricePoint(p.id, pp.id, { handle: "Not A Handle" }))).toStrictEqual({
      message: `invalid price point update: handle: ${bad}`,
      problems: [{ property: "handle", message: bad }],
    });
    expect(sim.requests).toStrictEqual([]);
  });

  it("createProduct with family id 0", async () => {
    const { sim, billing } = await site();
    expect(await refusedWith(billing.createProduct(0, { handle: "pro", name: "Pro", ...MONTHLY }))).toStrictEqual({
      message: `invalid product: familyId: ${id0}`,
      problems: [{ property: "familyId", message: id0 }],
    });
    expect(sim.requests).toStrictEqual([]);
  });

  it("updateProduct with product id 0", async () => {
    const { sim, billing } = await site();
    expect(await refusedWith(billing.updateProduct(0, { name: "Pro 2" }))).toStrictEqual({
      message: `invalid product update: productId: ${id0}`,
      problems: [{ property: "productId", message: id0 }],
    });
    expect(sim.requests).toStrictEqual([]);
  });

  it("archiveProduct with product id 0", async () => {
    const { sim, billing } = await site();
    expect(await refusedWith(billing.archiveProduct(0))).toStrictEqual({
      message: `invalid product: productId: ${id0}`,
      problems: [{ property: "productId", message: id0 }],
    });
    expect(sim.requests).toStrictEqual([]);
  });
});

describe("a create whose answer was lost says what its read-back saw", () => {
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

describe("an archive or unarchive whose request was reset before it applied is not taken as done", () => {
  it("archivePricePoint: the price point read back live, the failure stands", async () => {
    const { sim, billing, p, pp } = await product();
    sim.injectFault({ ...UNSENT, match: { method: "DELETE" } });
    const point = `/products/${p.id}/price_points/${pp.id}.json`;
    const err = await rejection(billing.archivePricePoint(p.id, pp.id));
    expect(err).toBeInstanceOf(BillingConnectionError);
    expect((err as Error).message).toBe(`DELETE ${point}: ${MAY_HAVE}`);
    expect(requestLog(sim)).toStrictEqual([`DELETE ${point} 0`, `GET ${point} 200`]);
    expect((await billing.readPricePoint(p.id, pp.id)).archivedAt).toBe(undefined);
  });

  it("unarchivePricePoint: the price point read back archived, the failure stands", async () => {
    const { sim, billing, p, pp } = await product();
    const archived = await billing.archivePricePoint(p.id, pp.id);
    sim.reset();
    sim.injectFault({ ...UNSENT, match: { method: "PATCH" } });
    const point = `/products/${p.id}/price_points/${pp.id}.json`;
    const unarchive = `/products/${p.id}/price_points/${pp.id}/unarchive.json`;
    const err = await rejection(billing.unarchivePricePoint(p.id, pp.id));
    expect(err).toBeInstanceOf(BillingConnectionError);
    expect((err as Error).message).toBe(`PATCH ${unarchive}: ${MAY_HAVE}`);
    expect(requestLog(sim)).toStrictEqual([`PATCH ${unarchive} 0`, `GET ${point} 200`]);
    expect(await billing.readPricePoint(p.id, pp.id)).toStrictEqual(archived);
  });

  it("archiveProduct: the product read back live, the failure stands", async () => {
    const { sim, billing, p } = await product();
    sim.injectFault({ ...UNSENT, match: { method: "DELETE" } });
    const err = await rejection(billing.archiveProduct(p.id));
    expect(err).toBeInstanceOf(BillingConnectionError);
    expect((err as Error).message).toBe(`DELETE /products/${p.id}.json: ${MAY_HAVE}`);
    expect(requestLog(sim)).toStrictEqual([`DELETE /products/${p.id}.json 0`, `GET /products/${p.id}.json 200`]);
    expect((await billing.readProduct(p.id)).archivedAt).toBe(undefined);
  });
});

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

describe("reads are repeated after a 500, as a read may be", () => {
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

describe("createPricePoints runs at most maxConcurrency creates at a time", () => {
  it("with one at a time, a create's read-back goes before the next create is sent", async () => {
    const { sim, billing, p } = await product({ maxConcurrency: 1 });
    sim.injectFault({ ...UNSENT, match: { method: "POST" } });
    const err = await rejection(
      billing.createPricePoints(
        p.id,
        ["monthly", "weekly"].map((handle) => ({ handle, name: handle, ...MONTHLY })),
      ),
    );
    expect(err).toBeInstanceOf(PricePointsPartialFailureError);
    const e = err as PricePointsPartialFailureError;
    expect(e.failures.map((x) => [x.index, x.handle, x.error.name])).toStrictEqual([[0, "monthly", "CatalogOutcomeUnknownError"]]);
    expect(e.created.map((x) => [x.index, x.pricePoint.handle])).toStrictEqual([[1, "weekly"]]);
    const points = `/products/${p.id}/price_points.json`;
    expect(requestLog(sim)).toStrictEqual([`POST ${points} 0`, `GET ${points} 200`, `POST ${points} 201`]);
  });
});
