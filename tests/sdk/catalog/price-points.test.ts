import { describe, expect, it } from "vitest";
import {
  type BillingApiError,
  BillingConnectionError,
  BillingValidationError,
  PricePointsPartialFailureError,
  type PricePointUpdateInput,
} from "../../../sdk";
import { rejection, requestLog, site } from "../helpers";
import { LOST, MONTHLY, product, UNSENT } from "./simulator-fixtures";

/**
 * Product price points (sdk/catalog/price-points.ts) through BillingClient against the simulator: the read-back that
 * settles an update, archive or unarchive whose answer was lost or whose request was reset (taken only when the state
 * asked for is read back), listPricePoints' refusals and retried pages, and createPricePoints' refusals, the order of
 * its failures and its bound on creates at a time.
 */

const seen = (sim: { requests: { method: string; path: string }[] }) => sim.requests.map((r) => `${r.method} ${r.path}`);

describe("updatePricePoint whose answer is lost: read back, taken only when every field given holds", () => {
  it.each<[string, PricePointUpdateInput, string, number]>([
    ["handle and price", { handle: "annual-2", priceInCents: 9000 }, "annual-2", 9000],
    ["handle only", { handle: "annual-2" }, "annual-2", 1000],
    ["price only", { priceInCents: 9000 }, "annual", 9000],
  ])("%s, applied: the price point read back is the result", async (_, input, handle, priceInCents) => {
    const { sim, billing, p, pp } = await product();
    sim.injectFault({ ...LOST, match: { method: "PUT" } });
    const updated = await billing.updatePricePoint(p.id, pp.id, input);
    const point = `/products/${p.id}/price_points/${pp.id}.json`;
    expect(seen(sim)).toStrictEqual([`PUT ${point}`, `GET ${point}`]);
    expect(updated).toStrictEqual(await billing.readPricePoint(p.id, pp.id));
    expect([updated.handle, updated.pricing?.priceInCents]).toStrictEqual([handle, priceInCents]);
  });

  it.each([
    ["the handle differs (the price as asked)", { handle: "annual-2", priceInCents: 1000 }],
    ["the price differs (the handle as asked)", { handle: "annual", priceInCents: 9000 }],
    ["the handle differs", { handle: "annual-2" }],
    ["the price differs", { priceInCents: 9000 }],
  ] satisfies [string, PricePointUpdateInput][])(
    "not applied, %s: not taken for the update; the failure says it may have applied",
    async (_, input) => {
      const { sim, billing, p, pp } = await product();
      sim.injectFault({ ...UNSENT, match: { method: "PUT" } });
      const err = await billing.updatePricePoint(p.id, pp.id, input).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BillingConnectionError);
      const point = `/products/${p.id}/price_points/${pp.id}.json`;
      expect((err as Error).message).toBe(
        `PUT ${point}: read ECONNRESET (ECONNRESET); it may or may not have been applied (the read-back could not confirm it), so read it back before relying on either`,
      );
      expect(err).toMatchObject({ mayHaveApplied: true });
      expect(seen(sim)).toStrictEqual([`PUT ${point}`, `GET ${point}`]);
      expect(await billing.readPricePoint(p.id, pp.id)).toStrictEqual(pp);
    },
  );
});

describe("createPricePoints: refusals before anything is sent, and failures in the inputs' order", () => {
  it("inputs that are not an array: named pricePoints, nothing else checked, nothing sent", async () => {
    const { sim, billing, p } = await product();
    const err = await billing.createPricePoints(p.id, "annual" as never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BillingValidationError);
    expect((err as BillingValidationError).message).toBe("invalid price points: pricePoints: must be an array of price points");
    expect((err as BillingValidationError).problems).toStrictEqual([
      { property: "pricePoints", message: "must be an array of price points" },
    ]);
    expect(sim.requests).toStrictEqual([]);
  });

  it("a failure that comes back last is still listed in its input's place", async () => {
    const { sim, billing, p } = await product({ maxConcurrency: 2 });
    for (const handle of ["x", "y", "z"]) await billing.createPricePoint(p.id, { handle, name: handle.toUpperCase(), ...MONTHLY });
    // The first create to arrive waits a second: the other worker's two refusals come back before it, whichever it is.
    sim.injectFault({ kind: "delay", ms: 1000, times: 1, match: { method: "POST" } });
    const err = await billing
      .createPricePoints(
        p.id,
        ["x", "y", "z"].map((handle) => ({ handle, name: handle, ...MONTHLY })),
      )
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PricePointsPartialFailureError);
    const e = err as PricePointsPartialFailureError;
    expect(e.created).toStrictEqual([]);
    expect(e.failures.map((f) => [f.index, f.handle, (f.error as BillingApiError).status])).toStrictEqual([
      [0, "x", 422],
      [1, "y", 422],
      [2, "z", 422],
    ]);
    expect(e.cause).toBe(e.failures[0].error);
    const refused = (h: string) =>
      `[${["x", "y", "z"].indexOf(h)}] "${h}": POST /products/${p.id}/price_points.json failed with 422: handle: must be unique - that value has been taken.`;
    expect(e.message).toBe(
      `creating price points of product ${p.id} partly failed: 0 created, 3 failed: ${["x", "y", "z"].map(refused).join("; ")}`,
    );
    expect(sim.requests.filter((r) => r.method === "POST")).toHaveLength(6);
  });
});

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

const MAY_HAVE =
  "read ECONNRESET (ECONNRESET); it may or may not have been applied (the read-back could not confirm it), so read it back before relying on either";

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
