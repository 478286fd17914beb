import { describe, expect, it } from "vitest";
import { BillingApiError } from "../../../sdk";
import { rejection, site } from "../helpers";

/**
 * `readBatchWindowMs`: reads of one product's price points (or of one family's products, named with `familyId`)
 * asked for together go out as one list, each answered as its read by id would be; alone, a read is the read by id;
 * no answer outlives its batch (issue 43, bulk reads).
 */

const WINDOW = 20;
const paths = (requests: readonly { method: string; path: string }[]) => requests.map((r) => `${r.method} ${r.path}`);

/** Product `rocket` with price points `rocket-a` and `rocket-b` (archived); the client batches reads unless told otherwise. */
async function product(client: { readBatchWindowMs?: number } = { readBatchWindowMs: WINDOW }) {
  const s = await site({}, client);
  s.sim.addProductFamily({ handle: "plans", name: "Plans" });
  const p = s.sim.addProduct({ handle: "rocket", familyHandle: "plans", name: "Rocket", priceInCents: 4900 });
  const a = await s.billing.createPricePoint(p.id, {
    name: "A",
    handle: "rocket-a",
    priceInCents: 100,
    interval: 1,
    intervalUnit: "month",
  });
  const b = await s.billing.createPricePoint(p.id, {
    name: "B",
    handle: "rocket-b",
    priceInCents: 200,
    interval: 1,
    intervalUnit: "month",
  });
  await s.billing.archivePricePoint(p.id, b.id);
  s.sim.reset();
  return { ...s, productId: p.id, a, b };
}

describe("reads of a product's price points, batched (readBatchWindowMs)", () => {
  it("asked for together: one list, archived price points included, each answer equal to its read by id", async () => {
    const { billing, sim, productId, a, b } = await product();
    const batched = await Promise.all([billing.readPricePoint(productId, a.id), billing.readPricePoint(productId, b.id)]);
    expect(paths(sim.requests)).toEqual([`GET /products/${productId}/price_points.json`]);
    sim.reset();
    const one = await billing.readPricePoint(productId, a.id);
    const two = await billing.readPricePoint(productId, b.id);
    expect(paths(sim.requests)).toEqual([
      `GET /products/${productId}/price_points/${a.id}.json`,
      `GET /products/${productId}/price_points/${b.id}.json`,
    ]);
    expect(batched).toEqual([one, two]);
    expect(batched[1].archivedAt).toBeDefined();
  });

  it("an id the list does not hold is read by id: its 404 is that read's own error, and the others are answered", async () => {
    const { billing, sim, productId, a } = await product();
    const [found, missing] = await Promise.allSettled([
      billing.readPricePoint(productId, a.id),
      billing.readPricePoint(productId, 999_999),
    ]);
    expect(found.status).toBe("fulfilled");
    expect(missing.status).toBe("rejected");
    const err = (missing as PromiseRejectedResult).reason;
    expect(err).toBeInstanceOf(BillingApiError);
    expect((err as BillingApiError).status).toBe(404);
    expect(paths(sim.requests)).toEqual([
      `GET /products/${productId}/price_points.json`,
      `GET /products/${productId}/price_points/999999.json`,
    ]);
  });

  it("the list refused: every read of the batch fails with its error", async () => {
    const { billing, sim, productId, a, b } = await product();
    // Every attempt (the retries too) answered 500.
    sim.injectFault({ kind: "status", status: 500, match: { method: "GET", path: `/products/${productId}/price_points.json` } });
    const results = await Promise.allSettled([billing.readPricePoint(productId, a.id), billing.readPricePoint(productId, b.id)]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(results.map((r) => ((r as PromiseRejectedResult).reason as BillingApiError).status)).toEqual([500, 500]);
    expect(paths(sim.requests).every((r) => r === `GET /products/${productId}/price_points.json`)).toBe(true);
  });

  it("nothing is kept between batches: a read after a change sees the change", async () => {
    const { billing, productId, a, b } = await product();
    await Promise.all([billing.readPricePoint(productId, a.id), billing.readPricePoint(productId, b.id)]);
    await billing.updatePricePoint(productId, a.id, { priceInCents: 150 });
    const [after] = await Promise.all([billing.readPricePoint(productId, a.id), billing.readPricePoint(productId, b.id)]);
    expect(after.pricing?.priceInCents).toBe(150);
  });

  it("off by default: each read by id", async () => {
    const { billing, sim, productId, a, b } = await product({});
    await Promise.all([billing.readPricePoint(productId, a.id), billing.readPricePoint(productId, b.id)]);
    expect(paths(sim.requests).sort()).toEqual(
      [`GET /products/${productId}/price_points/${a.id}.json`, `GET /products/${productId}/price_points/${b.id}.json`].sort(),
    );
  });

  it("a bad id is refused by the read itself, before anything is sent", async () => {
    const { billing, sim } = await product();
    const err = await rejection(billing.readPricePoint(0, 1));
    expect(String(err)).toMatch(/productId/);
    expect(sim.requests).toEqual([]);
  });
});

describe("reads of a family's products, batched (readProduct with familyId)", () => {
  it("asked for together: one list of the family's, archived included, each answer equal to its read by id", async () => {
    const s = await site({}, { readBatchWindowMs: WINDOW });
    const plans = s.sim.addProductFamily({ handle: "plans", name: "Plans" });
    const a = s.sim.addProduct({ handle: "a", familyHandle: "plans", name: "A", priceInCents: 100 });
    const b = s.sim.addProduct({ handle: "b", familyHandle: "plans", name: "B", priceInCents: 200 });
    await s.billing.archiveProduct(b.id);
    s.sim.reset();
    const batched = await Promise.all([
      s.billing.readProduct(a.id, { familyId: plans.id }),
      s.billing.readProduct(b.id, { familyId: plans.id }),
    ]);
    expect(paths(s.sim.requests)).toEqual([`GET /product_families/${plans.id}/products.json`]);
    const byId = [await s.billing.readProduct(a.id), await s.billing.readProduct(b.id)];
    expect(batched).toEqual(byId);
    expect(batched[1].archivedAt).toBeDefined();
  });

  it("a product in another family than the one named is read by id", async () => {
    const s = await site({}, { readBatchWindowMs: WINDOW });
    const plans = s.sim.addProductFamily({ handle: "plans", name: "Plans" });
    s.sim.addProductFamily({ handle: "others", name: "Others" });
    const a = s.sim.addProduct({ handle: "a", familyHandle: "plans", name: "A", priceInCents: 100 });
    const o = s.sim.addProduct({ handle: "o", familyHandle: "others", name: "O", priceInCents: 300 });
    s.sim.reset();
    const [, other] = await Promise.all([
      s.billing.readProduct(a.id, { familyId: plans.id }),
      s.billing.readProduct(o.id, { familyId: plans.id }),
    ]);
    expect(other.handle).toBe("o");
    expect(paths(s.sim.requests)).toEqual([`GET /product_families/${plans.id}/products.json`, `GET /products/${o.id}.json`]);
  });
});

describe("a batch no larger than its collection's pages is read alone", () => {
  it("after a list of 250 reason codes (2 pages), 2 reads together go by id and 3 go as the list", async () => {
    const s = await site({}, { readBatchWindowMs: WINDOW });
    const codes = Array.from({ length: 250 }, (_, i) => s.sim.addReasonCode({ code: `r${i}`, description: `Reason ${i}` }));
    const together = (ids: number[]) => Promise.all(ids.map((id) => s.billing.readReasonCode(id)));
    // The first batch knows no size: it is the list, and its two pages tell the size.
    await together([codes[0].id, codes[1].id]);
    expect(paths(s.sim.requests)).toEqual(["GET /reason_codes.json", "GET /reason_codes.json"]);
    s.sim.reset();
    const two = await together([codes[10].id, codes[249].id]);
    expect(paths(s.sim.requests).sort()).toEqual(
      [`GET /reason_codes/${codes[10].id}.json`, `GET /reason_codes/${codes[249].id}.json`].sort(),
    );
    expect(two.map((c) => c.code)).toEqual(["r10", "r249"]);
    s.sim.reset();
    const three = await together([codes[3].id, codes[4].id, codes[5].id]);
    expect(paths(s.sim.requests)).toEqual(["GET /reason_codes.json", "GET /reason_codes.json"]);
    expect(three.map((c) => c.code)).toEqual(["r3", "r4", "r5"]);
  });
});
