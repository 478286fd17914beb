import { describe, expect, it, onTestFinished } from "vitest";
import { BillingClient, BillingConnectionError } from "../../../sdk";
import type { Simulator } from "../../../simulator";
import { editingProxy } from "../../provider/support";
import { KEY, requestLog } from "../helpers";
import { component, componentPoint, LOST, TIERS_TO_10, UNSENT } from "./simulator-fixtures";

/**
 * Component price points (sdk/catalog/component-price-points.ts) through BillingClient against the simulator: reads
 * repeated after a 500 (the price update's own read of the tiers too), the tiers a price update rewrites (in
 * ascending order, by the ids the service gave), and the read-back that settles an update or unarchive whose answer
 * was lost (taken only when every field and tier given reads back the same).
 */

/** A client through a proxy that edits the simulator's answers. */
async function edited(sim: Simulator, edit: Parameters<typeof editingProxy>[1]) {
  const billing = new BillingClient({ baseUrl: await editingProxy(sim.url, edit), apiKey: KEY, maxRetries: 0 });
  onTestFinished(() => billing.close());
  return billing;
}

describe("reads are repeated after a 500, as a read may be", () => {
  it("a read by id, and by `handle:<handle>`", async () => {
    const { sim, billing } = await component({ maxRetries: 1 });
    const path = "/components/30001/price_points/50001.json";
    sim.injectFault({ kind: "status", status: 500, times: 1, match: { method: "GET", path } });
    const got = await billing.readComponentPricePoint(30001, 50001);
    expect([got.id, got.handle, got.name]).toStrictEqual([50001, "wholesale", "Wholesale"]);
    const byHandle = await billing.readComponentPricePoint(30001, "handle:wholesale" as unknown as number);
    expect([byHandle.id, byHandle.handle]).toStrictEqual([50001, "wholesale"]);
    expect(requestLog(sim)).toStrictEqual([
      `GET ${path} 500`,
      `GET ${path} 200`,
      "GET /components/30001/price_points/handle:wholesale.json 200",
    ]);
  });

  it("a list", async () => {
    const { sim, billing } = await component({ maxRetries: 1 });
    const path = "/components/30001/price_points.json";
    sim.injectFault({ kind: "status", status: 500, times: 1, match: { method: "GET", path } });
    const got = await billing.listComponentPricePoints(30001);
    expect(got.map((p) => [p.id, p.name])).toStrictEqual([
      [40001, "Original"],
      [50001, "Wholesale"],
    ]);
    expect(requestLog(sim)).toStrictEqual([`GET ${path} 500`, `GET ${path} 201`]);
  });

  it("the update's read of the tiers it rewrites", async () => {
    const { sim, billing } = await component({ maxRetries: 1 });
    const path = "/components/30001/price_points/50001.json";
    sim.injectFault({ kind: "status", status: 500, times: 1, match: { method: "GET", path } });
    const got = await billing.updateComponentPricePoint(30001, 50001, {
      prices: [{ startingQuantity: 1, endingQuantity: 10, unitPrice: 4 }, TIERS_TO_10[1]],
    });
    expect(got.prices.map((p) => Number(p.unitPrice))).toStrictEqual([4, 3]);
    expect(requestLog(sim)).toStrictEqual([`GET ${path} 500`, `GET ${path} 200`, `PUT ${path} 200`]);
  });
});

describe("a price update rewrites the tiers it read in ascending order, by the ids the service gave", () => {
  const NEW = [
    { startingQuantity: 1, endingQuantity: 20, unitPrice: 4 },
    { startingQuantity: 21, unitPrice: 2 },
  ];

  it("tiers answered highest first are taken lowest first", async () => {
    const { sim } = await component();
    const billing = await edited(sim, (method, _path, body) => {
      const pp = body.price_point as { prices: unknown[] } | undefined;
      if (method === "GET" && pp) pp.prices.reverse();
    });
    const got = await billing.updateComponentPricePoint(30001, 50001, { prices: NEW });
    expect(got.prices.map((p) => [p.startingQuantity, p.endingQuantity, Number(p.unitPrice)])).toStrictEqual([
      [1, 20, 4],
      [21, undefined, 2],
    ]);
    expect(sim.requests.find((r) => r.method === "PUT")?.body).toStrictEqual({
      price_point: {
        prices: [
          { id: 901, starting_quantity: 1, ending_quantity: 20, unit_price: 4 },
          { id: 902, starting_quantity: 21, unit_price: 2 },
        ],
      },
    });
  });

  it("a tier without a real id (0, the vendor's placeholder) is not rewritten: the new one is added fresh", async () => {
    const { sim } = await component();
    const billing = await edited(sim, (method, _path, body) => {
      const pp = body.price_point as { prices: { id: number }[] } | undefined;
      if (method === "GET" && pp) pp.prices[1].id = 0;
    });
    // The service still holds tier 902, which this update did not name, so it refuses the overlap; only the body matters here.
    await billing.updateComponentPricePoint(30001, 50001, { prices: NEW }).catch(() => undefined);
    expect(sim.requests.find((r) => r.method === "PUT")?.body).toStrictEqual({
      price_point: {
        prices: [
          { id: 901, starting_quantity: 1, ending_quantity: 20, unit_price: 4 },
          { starting_quantity: 21, unit_price: 2 },
        ],
      },
    });
  });
});

describe("a price update whose answer was lost is taken as applied only when every tier reads back the same", () => {
  const NEW = [
    { startingQuantity: 1, endingQuantity: 20, unitPrice: 4 },
    { startingQuantity: 21, unitPrice: 2 },
  ];
  const CONFIRMED = [
    { startingQuantity: 1, endingQuantity: 20, unitPrice: "4.0" },
    { startingQuantity: 21, endingQuantity: undefined, unitPrice: "2.0" },
  ];
  const unconfirmed =
    "PUT /components/30001/price_points/50001.json failed with 500: Internal Server Error; it may or may not have been applied (the read-back could not " +
    "confirm it), so read it back before relying on either";

  /** The update applied, its answer a 500, and the read-back after it edited by `change` (its tiers as the service wrote them). */
  async function lost(change: (prices: Record<string, unknown>[]) => void) {
    const { sim } = await component();
    sim.injectFault({ kind: "status", status: 500, times: 1, applyAfterHandling: true, match: { method: "PUT" } });
    let gets = 0;
    const billing = await edited(sim, (method, _path, body) => {
      const pp = body.price_point as { prices: Record<string, unknown>[] } | undefined;
      if (method === "GET" && pp && ++gets === 2) change(pp.prices);
    });
    const outcome = await billing.updateComponentPricePoint(30001, 50001, { prices: NEW }).then(
      (p) => p.prices,
      (e: Error) => e.message,
    );
    return { sim, outcome };
  }

  it("read back as asked: the result", async () => {
    const { sim, outcome } = await lost(() => {});
    expect(outcome).toStrictEqual(CONFIRMED);
    expect(requestLog(sim)).toStrictEqual([
      "GET /components/30001/price_points/50001.json 200",
      "PUT /components/30001/price_points/50001.json 500",
      "GET /components/30001/price_points/50001.json 200",
    ]);
  });

  it.each<[string, (prices: Record<string, unknown>[]) => void]>([
    ["a tier starting elsewhere", (p) => Object.assign(p[1], { starting_quantity: 22 })],
    ["a tier ending elsewhere", (p) => Object.assign(p[0], { ending_quantity: 21 })],
    ["a tier at another price", (p) => Object.assign(p[1], { unit_price: "2.5" })],
    ["a tier fewer", (p) => p.pop()],
  ])("read back with %s: the failure, said to be unconfirmed", async (_, change) => {
    const { outcome } = await lost(change);
    expect(outcome).toBe(unconfirmed);
  });

  it("not applied (a 500 before the service saw it): the read-back holds the old tiers, so the failure", async () => {
    const { sim, billing } = await component();
    sim.injectFault({ kind: "status", status: 500, times: 1, match: { method: "PUT" } });
    await expect(billing.updateComponentPricePoint(30001, 50001, { prices: NEW })).rejects.toThrow(unconfirmed);
    expect(
      sim
        .components()
        .find((c) => c.id === 30001)
        ?.pricePoints[1].prices.map((p) => p.unitPrice),
    ).toStrictEqual(["5.0", "3.0"]);
  });
});

const seen = (sim: { requests: { method: string; path: string }[] }) => sim.requests.map((r) => `${r.method} ${r.path}`);

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
