import { describe, expect, it } from "vitest";
import {
  type BillingApiError,
  BillingConnectionError,
  BillingValidationError,
  CatalogOutcomeUnknownError,
  PricePointsPartialFailureError,
  type PricePointUpdateInput,
} from "../../sdk";
import { site } from "./helpers";
import { LOST, MONTHLY, product, UNSENT } from "./product-fixtures";

type Billing = Awaited<ReturnType<typeof site>>["billing"];

/**
 * Product and component price points (sdk/catalog/price-points.ts, component-price-points.ts)
 * against the simulator, pinned where the mutation run found them unchecked: the read-back that
 * settles an update or unarchive whose answer was lost (taken only when every field given holds,
 * refused when one differs), the archived price point a create's read-back sees, the order of a
 * partial failure's failures, and the refusals' exact words before anything is sent.
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

describe("refusals of ids name the operation's object", () => {
  it.each([
    ["readPricePoint", (b: Billing) => b.readPricePoint(0, 1), "invalid price point: productId: must be a positive integer id, got 0"],
    [
      "updatePricePoint",
      (b: Billing) => b.updatePricePoint(1, -1, { handle: "a" }),
      "invalid price point: pricePointId: must be a positive integer id, got -1",
    ],
    [
      "readComponentPricePoint",
      (b: Billing) => b.readComponentPricePoint(0, 1),
      "invalid component price point: componentId: must be a positive integer id, got 0",
    ],
    [
      "unarchiveComponentPricePoint",
      (b: Billing) => b.unarchiveComponentPricePoint(1, 1.5),
      "invalid component price point: pricePointId: must be a positive integer id, got 1.5",
    ],
  ] as const)("%s", async (_, call, message) => {
    const { sim, billing } = await site();
    const err = await call(billing).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BillingValidationError);
    expect((err as Error).message).toBe(message);
    expect(sim.requests).toStrictEqual([]);
  });
});

const TIERS = [
  { startingQuantity: 1, endingQuantity: 100, unitPrice: "5" },
  { startingQuantity: 101, unitPrice: "4" },
];

async function componentPoint(client: { maxRetries?: number } = {}) {
  const s = await site({}, { maxRetries: 0, ...client });
  const f = await s.billing.createProductFamily({ handle: "saas", name: "SaaS" });
  const c = await s.billing.createComponent(f.id, {
    kind: "metered",
    handle: "sms",
    name: "SMS",
    unitName: "message",
    pricingScheme: "tiered",
    prices: TIERS,
  });
  const pp = await s.billing.createComponentPricePoint(c.id, {
    handle: "wholesale",
    name: "Wholesale",
    pricingScheme: "tiered",
    prices: TIERS,
    interval: 1,
    intervalUnit: "month",
  });
  s.sim.reset();
  return { ...s, c, pp, point: `/components/${c.id}/price_points/${pp.id}.json` };
}

const CHANGES = [
  ["handle", { handle: "retail" }],
  ["name", { name: "Retail" }],
  ["pricingScheme", { pricingScheme: "volume" }],
  ["interval", { interval: 3, intervalUnit: "month" }],
] as const;

describe("updateComponentPricePoint whose answer is lost: read back, taken only when every field given holds", () => {
  it("every compared field given, applied: the price point read back is the result", async () => {
    const { sim, billing, c, pp, point } = await componentPoint();
    sim.injectFault({ ...LOST, match: { method: "PUT" } });
    const updated = await billing.updateComponentPricePoint(c.id, pp.id, {
      handle: "retail",
      name: "Retail",
      pricingScheme: "volume",
      interval: 3,
      intervalUnit: "month",
    });
    expect(seen(sim)).toStrictEqual([`PUT ${point}`, `GET ${point}`]);
    expect(updated).toStrictEqual({ ...pp, handle: "retail", name: "Retail", pricingScheme: "volume", interval: 3 });
    expect(await billing.readComponentPricePoint(c.id, pp.id)).toStrictEqual(updated);
  });

  it.each(CHANGES)("%s alone, applied: the price point read back is the result", async (_, input) => {
    const { sim, billing, c, pp, point } = await componentPoint();
    sim.injectFault({ ...LOST, match: { method: "PUT" } });
    const updated = await billing.updateComponentPricePoint(c.id, pp.id, input);
    expect(seen(sim)).toStrictEqual([`PUT ${point}`, `GET ${point}`]);
    expect(updated).toStrictEqual({ ...pp, ...input });
  });

  it.each(CHANGES)("%s alone, not applied: the price point read back is not taken for the update", async (_, input) => {
    const { sim, billing, c, pp, point } = await componentPoint();
    sim.injectFault({ ...UNSENT, match: { method: "PUT" } });
    const err = await billing.updateComponentPricePoint(c.id, pp.id, input).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BillingConnectionError);
    expect((err as Error).message).toBe(
      `PUT ${point}: read ECONNRESET (ECONNRESET); it may or may not have been applied (the read-back could not confirm it), so read it back before relying on either`,
    );
    expect(seen(sim)).toStrictEqual([`PUT ${point}`, `GET ${point}`]);
    expect(await billing.readComponentPricePoint(c.id, pp.id)).toStrictEqual(pp);
  });
});

describe("unarchiveComponentPricePoint whose answer is lost", () => {
  it("applied: read back live, returned", async () => {
    const { sim, billing, c, pp, point } = await componentPoint();
    await billing.archiveComponentPricePoint(c.id, pp.id);
    sim.reset();
    sim.injectFault({ ...LOST, match: { method: "PUT" } });
    const back = await billing.unarchiveComponentPricePoint(c.id, pp.id);
    const unarchive = point.replace(/\.json$/, "/unarchive.json");
    expect(seen(sim)).toStrictEqual([`PUT ${unarchive}`, `GET ${point}`]);
    expect(back).toStrictEqual(pp);
  });

  it("not applied: read back still archived, so the failure, saying it may have applied", async () => {
    const { sim, billing, c, pp, point } = await componentPoint();
    const archived = await billing.archiveComponentPricePoint(c.id, pp.id);
    sim.reset();
    sim.injectFault({ ...UNSENT, match: { method: "PUT" } });
    const err = await billing.unarchiveComponentPricePoint(c.id, pp.id).catch((e: unknown) => e);
    const unarchive = point.replace(/\.json$/, "/unarchive.json");
    expect(err).toBeInstanceOf(BillingConnectionError);
    expect((err as Error).message).toBe(
      `PUT ${unarchive}: read ECONNRESET (ECONNRESET); it may or may not have been applied (the read-back could not confirm it), so read it back before relying on either`,
    );
    expect(seen(sim)).toStrictEqual([`PUT ${unarchive}`, `GET ${point}`]);
    expect(await billing.readComponentPricePoint(c.id, pp.id)).toStrictEqual(archived);
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
