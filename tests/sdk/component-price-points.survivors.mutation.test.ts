import { describe, expect, it, onTestFinished } from "vitest";
import { BillingClient, CatalogOutcomeUnknownError } from "../../sdk";
import { componentPricePointCreateBody, componentPricePointUpdateBody } from "../../sdk/catalog/component-bodies";
import type { Simulator } from "../../simulator";
import { editingProxy } from "../provider/support";
import { KEY, refusedWith, requestLog, site } from "./helpers";

// sdk/catalog/component-price-points.ts and component-bodies.ts through BillingClient against the simulator: the
// mutation run left unchecked the refusals' words, a `handle:` reference that is not one, that reads (the update's
// own read of the tiers too) are repeated after a 500, the order of the tiers the update rewrites and the ids it
// skips, the create read-back's account of what it saw, the update read-back's comparison of tiers, and where the
// tiers sit in a body. The builders are called directly only where the wire cannot tell (a key set to undefined).

const TIERS = [
  { startingQuantity: 1, endingQuantity: 10, unitPrice: 5 },
  { startingQuantity: 11, unitPrice: 3 },
];

/** A family, a metered component 30001 and its catalog price point 50001 (tiers 901 and 902). */
async function component(opts: { maxRetries?: number } = {}) {
  const s = await site({}, { maxRetries: opts.maxRetries ?? 0 });
  s.sim.addProductFamily({ id: 1, handle: "one" });
  s.sim.addComponent({ id: 30001, familyId: 1, kind: "metered", handle: "sms", name: "SMS", pricingScheme: "tiered", prices: TIERS });
  s.sim.addComponentPricePoint(
    { componentId: 30001 },
    {
      id: 50001,
      handle: "wholesale",
      name: "Wholesale",
      pricingScheme: "tiered",
      prices: [
        { id: 901, ...TIERS[0] },
        { id: 902, ...TIERS[1] },
      ],
    },
  );
  return s;
}

/** A client through a proxy that edits the simulator's answers. */
async function edited(sim: Simulator, edit: Parameters<typeof editingProxy>[1]) {
  const billing = new BillingClient({ baseUrl: await editingProxy(sim.url, edit), apiKey: KEY, maxRetries: 0 });
  onTestFinished(() => billing.close());
  return billing;
}

/** The last request's price point, which the simulator took: a body it refused would pin nothing worth keeping. */
function accepted(sim: Simulator): Record<string, unknown> {
  const last = sim.requests[sim.requests.length - 1];
  expect(last.status).toBe(200);
  return (last.body as { price_point: Record<string, unknown> }).price_point;
}

const ID = "must be a positive integer id";

describe("refusals name the operation and the property, before anything is sent", () => {
  it.each([["xxxxxxxsms"], ["handle:"], ["handle:-sms"], ["Handle:sms"]])(
    "a read by %j, which is no `handle:<handle>`, is refused as a price point id",
    async (ref) => {
      const { sim, billing } = await component();
      expect(await refusedWith(billing.readComponentPricePoint(30001, ref as unknown as number))).toStrictEqual({
        message: `invalid component price point: pricePointId: ${ID}, got "${ref}"`,
        problems: [{ property: "pricePointId", message: `${ID}, got "${ref}"` }],
      });
      expect(sim.requests).toStrictEqual([]);
    },
  );

  it("a list with component id 0", async () => {
    const { sim, billing } = await component();
    expect(await refusedWith(billing.listComponentPricePoints(0))).toStrictEqual({
      message: `invalid component price point list: componentId: ${ID}, got 0`,
      problems: [{ property: "componentId", message: `${ID}, got 0` }],
    });
    expect(sim.requests).toStrictEqual([]);
  });

  it("a create with component id 0 and a token that is not a string, beside a valid price point", async () => {
    const { sim, billing } = await component();
    const token = "must be a non-empty string (the token of the create being resumed)";
    const input = { handle: "retail", name: "Retail", pricingScheme: "tiered", prices: TIERS } as const;
    expect(await refusedWith(billing.createComponentPricePoint(0, input, { uniquenessToken: 5 as unknown as string }))).toStrictEqual({
      message: `invalid component price point: componentId: ${ID}, got 0; uniquenessToken: ${token}`,
      problems: [
        { property: "componentId", message: `${ID}, got 0` },
        { property: "uniquenessToken", message: token },
      ],
    });
    expect(sim.requests).toStrictEqual([]);
  });

  it("an update with a name that is not a string", async () => {
    const { sim, billing } = await component();
    expect(await refusedWith(billing.updateComponentPricePoint(30001, 50001, { name: 5 as unknown as string }))).toStrictEqual({
      message: "invalid component price point update: name: must be a name (a string), got 5",
      problems: [{ property: "name", message: "must be a name (a string), got 5" }],
    });
    expect(sim.requests).toStrictEqual([]);
  });
});

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
      prices: [{ startingQuantity: 1, endingQuantity: 10, unitPrice: 4 }, TIERS[1]],
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

describe("a create whose answer was lost says what its read-back by handle saw", () => {
  const tail = (seen: string) =>
    `creating the component price point "retail" may or may not have been applied: 1 attempt(s) failed ambiguously (last: POST ` +
    `/components/30001/price_points.json: read ECONNRESET (ECONNRESET)) and no live component price point with handle "retail" is ` +
    `found (${seen}); it may or may not have been created. Resuming reads it back by handle first, then creates it with ` +
    "the same uniqueness_token (tok-1), never a new one";
  const input = { handle: "retail", name: "Retail", pricingScheme: "tiered", prices: TIERS } as const;

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
      { id: 50002, handle: "retail", name: "Shop", pricingScheme: "tiered", prices: TIERS },
    );
    sim.injectFault({ kind: "reset", times: 1, match: { method: "POST" } });
    const err = await billing.createComponentPricePoint(30001, input, { uniquenessToken: "tok-1" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CatalogOutcomeUnknownError);
    expect((err as Error).message).toBe(
      tail('a component price point this create did not make (id 50002 holds name "Shop" where this create asked "Retail")'),
    );
  });
});

describe("the tiers sit last in a price point's body, after the fields that follow them in the input", () => {
  it("a create", async () => {
    const { sim, billing } = await component();
    await billing.createComponentPricePoint(30001, {
      handle: "retail",
      name: "Retail",
      pricingScheme: "tiered",
      prices: TIERS,
      taxIncluded: true,
      interval: 2,
      intervalUnit: "month",
    });
    const sent = accepted(sim);
    expect(Object.keys(sent)).toStrictEqual(["handle", "name", "pricing_scheme", "tax_included", "interval", "interval_unit", "prices"]);
    expect(sent.prices).toStrictEqual([
      { starting_quantity: 1, ending_quantity: 10, unit_price: 5 },
      { starting_quantity: 11, unit_price: 3 },
    ]);
  });

  it("an update", async () => {
    const { sim, billing } = await component();
    await billing.updateComponentPricePoint(30001, 50001, {
      pricingScheme: "volume",
      prices: TIERS,
      taxIncluded: true,
      interval: 2,
      intervalUnit: "month",
    });
    const sent = accepted(sim);
    expect(Object.keys(sent)).toStrictEqual(["pricing_scheme", "tax_included", "interval", "interval_unit", "prices"]);
    expect(sent.prices).toStrictEqual([
      { id: 901, starting_quantity: 1, ending_quantity: 10, unit_price: 5 },
      { id: 902, starting_quantity: 11, unit_price: 3 },
    ]);
  });
});

describe("the body builders leave out a field given as undefined (which JSON would drop, so the wire cannot tell)", () => {
  it("create and update", () => {
    const prices = [{ startingQuantity: 1, unitPrice: 2 }];
    expect(componentPricePointCreateBody({ handle: "r", name: "R", pricingScheme: "per_unit", prices, interval: undefined })).toStrictEqual(
      {
        handle: "r",
        name: "R",
        pricing_scheme: "per_unit",
        prices: [{ starting_quantity: 1, unit_price: 2 }],
      },
    );
    expect(componentPricePointUpdateBody({ name: "R", handle: undefined }, [])).toStrictEqual({ price_point: { name: "R" } });
  });
});
