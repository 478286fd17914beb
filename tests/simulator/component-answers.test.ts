import { readFileSync } from "node:fs";
import Ajv from "ajv";
import { describe, expect, it } from "vitest";
import type { Simulator } from "../../simulator";
import { CONTRACT } from "../contract/validator";
import { type Answer, call, start } from "./helpers";

// What a component's and a component price point's answers carry, read back over a real socket after the seeding
// calls and after the API's creates: a prepaid usage component's price point terms (overage tiers and scheme,
// rollover, renewal, expiration) on every price point answer, and a component's `display_on_hosted_page` kept in
// the record but written in no answer, since no component answer schema of the contract has it. Every answer is
// checked against the contract by call(), and here against the schema closed to the keys it publishes, so that a
// key written outside it fails.

const doc = JSON.parse(readFileSync(CONTRACT, "utf8"));
const answerSchema = (path: string, method: string, status: string) =>
  doc.paths[path][method].responses[status].content["application/json"].schema;
const COMPONENT = answerSchema("/components/lookup.json", "get", "200").properties.component;
const PRICE_POINT = answerSchema("/components/{component_id}/price_points/{price_point_id}.json", "get", "200").properties.price_point;

/**
 * The terms the vendor's later `Component Price Point` publishes for prepaid usage components (not in the vendored
 * contract of 2024-07; @maxio-com/advanced-billing-sdk 6.1.0, a devDependency here, models/componentPricePoint):
 * their names and types as it has them, each "Applicable only to prepaid usage components".
 */
const PREPAID_TERMS = {
  overage_prices: { type: "array", items: PRICE_POINT.properties.prices.items },
  overage_pricing_scheme: PRICE_POINT.properties.pricing_scheme,
  renew_prepaid_allocation: { type: "boolean" },
  rollover_prepaid_remainder: { type: "boolean" },
  expiration_interval: { type: ["integer", "null"] },
  expiration_interval_unit: { enum: ["day", "month", "never", null] },
};
const TERM_KEYS = Object.keys(PREPAID_TERMS);

// Formats are the contract check's (call()); here, keys and types.
const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
/** The contract's `Component`, closed: only the keys it publishes. */
const closedComponent = ajv.compile({ ...COMPONENT, additionalProperties: false });
/** The contract's `Component Price Point` and the later prepaid terms, closed. */
const closedPricePoint = ajv.compile({
  ...PRICE_POINT,
  properties: { ...PRICE_POINT.properties, ...PREPAID_TERMS },
  additionalProperties: false,
});

function withinComponent(c: unknown): void {
  expect(closedComponent(c) ? [] : closedComponent.errors).toEqual([]);
}
function withinPricePoint(pp: unknown): void {
  expect(closedPricePoint(pp) ? [] : closedPricePoint.errors).toEqual([]);
}

/** One request, its answer checked against the contract (call()) and its status. */
async function ok(sim: Simulator, method: string, path: string, status: number, body?: unknown): Promise<Answer> {
  const res = await call(sim, method, path, body === undefined ? {} : { body });
  expect(res.status, `${method} ${path}: ${res.text.slice(0, 300)}`).toBe(status);
  return res;
}

/** A price point answer's terms only. */
const termsOf = (pp: Record<string, unknown>) => Object.fromEntries(Object.entries(pp).filter(([k]) => TERM_KEYS.includes(k)));
/** Answer brackets as [starting, ending, unit price]. */
const brackets = (list: any[]) => list.map((p) => [p.starting_quantity, p.ending_quantity, p.unit_price]);

/** Every price point answer of a component: the list, and each read by id and by handle:. */
async function readAll(sim: Simulator, componentId: number): Promise<Map<string, any>> {
  const list = await ok(sim, "GET", `/components/${componentId}/price_points.json`, 201);
  const out = new Map<string, any>();
  for (const pp of list.body.price_points) {
    withinPricePoint(pp);
    const byId = await ok(sim, "GET", `/components/${componentId}/price_points/${pp.id}.json`, 200);
    const byHandle = await ok(sim, "GET", `/components/${componentId}/price_points/handle:${pp.handle}.json`, 200);
    expect(byId.body.price_point).toEqual(pp);
    expect(byHandle.body.price_point).toEqual(pp);
    out.set(pp.handle, pp);
  }
  return out;
}

const family = async () => {
  const sim = await start();
  sim.addProductFamily({ id: 9001, handle: "saas" });
  return sim;
};

describe("a prepaid usage component's price points answer their terms", () => {
  it("seeded: addComponent's default and pricePoints, addComponentPricePoint; ids of overage brackets distinct", async () => {
    const sim = await family();
    const c = sim.addComponent({
      familyHandle: "saas",
      kind: "prepaid_usage",
      handle: "minutes",
      pricingScheme: "stairstep",
      prices: [
        { startingQuantity: 1, endingQuantity: 100, unitPrice: 5 },
        { startingQuantity: 101, unitPrice: 4 },
      ],
      overagePricing: {
        pricingScheme: "stairstep",
        prices: [
          { id: 7001, startingQuantity: 1, endingQuantity: 100, unitPrice: 4 },
          { id: 7002, startingQuantity: 101, unitPrice: 3 },
        ],
      },
      rolloverPrepaidRemainder: true,
      renewPrepaidAllocation: true,
      expirationInterval: 2,
      expirationIntervalUnit: "month",
      pricePoints: [
        {
          handle: "own",
          overagePricing: { pricingScheme: "per_unit", prices: [{ startingQuantity: 1, unitPrice: "6.5" }] },
          rolloverPrepaidRemainder: false,
          renewPrepaidAllocation: false,
          expirationInterval: null,
          expirationIntervalUnit: null,
        },
        { handle: "inherits" },
      ],
    });
    sim.addComponentPricePoint(
      { componentHandle: "minutes" },
      {
        handle: "later",
        overagePricing: {
          pricingScheme: "volume",
          prices: [
            { startingQuantity: 1, endingQuantity: 10, unitPrice: 2 },
            { startingQuantity: 11, unitPrice: 1 },
          ],
        },
        rolloverPrepaidRemainder: true,
        renewPrepaidAllocation: false,
        expirationInterval: 15,
        expirationIntervalUnit: "day",
      },
    );
    const pps = await readAll(sim, c.id);
    const original = [...pps.values()].find((pp) => pp.default)!;
    expect(termsOf(original)).toEqual({
      overage_prices: [
        expect.objectContaining({
          id: 7001,
          component_id: c.id,
          price_point_id: original.id,
          starting_quantity: 1,
          ending_quantity: 100,
          unit_price: "4.0",
          formatted_unit_price: "$4.00",
          segment_id: null,
        }),
        expect.objectContaining({ id: 7002, starting_quantity: 101, ending_quantity: null, unit_price: "3.0" }),
      ],
      overage_pricing_scheme: "stairstep",
      rollover_prepaid_remainder: true,
      renew_prepaid_allocation: true,
      expiration_interval: 2,
      expiration_interval_unit: "month",
    });
    expect(termsOf(pps.get("own"))).toEqual({
      overage_prices: [
        expect.objectContaining({ starting_quantity: 1, ending_quantity: null, unit_price: "6.5", price_point_id: pps.get("own").id }),
      ],
      overage_pricing_scheme: "per_unit",
      rollover_prepaid_remainder: false,
      renew_prepaid_allocation: false,
      expiration_interval: null,
      expiration_interval_unit: null,
    });
    // Without its own: the component's overage tiers (as copies, with their own ids) and terms.
    const inherits = pps.get("inherits");
    expect(termsOf(inherits)).toMatchObject({
      overage_pricing_scheme: "stairstep",
      rollover_prepaid_remainder: true,
      renew_prepaid_allocation: true,
      expiration_interval: 2,
      expiration_interval_unit: "month",
    });
    expect(brackets(inherits.overage_prices)).toEqual([
      [1, 100, "4.0"],
      [101, null, "3.0"],
    ]);
    expect(termsOf(pps.get("later"))).toEqual({
      overage_prices: [
        expect.objectContaining({ starting_quantity: 1, ending_quantity: 10, unit_price: "2.0" }),
        expect.objectContaining({ starting_quantity: 11, ending_quantity: null, unit_price: "1.0" }),
      ],
      overage_pricing_scheme: "volume",
      rollover_prepaid_remainder: true,
      renew_prepaid_allocation: false,
      expiration_interval: 15,
      expiration_interval_unit: "day",
    });
    const ids = [...pps.values()].flatMap((pp) => [...pp.prices, ...pp.overage_prices].map((p: any) => p.id));
    expect(new Set(ids).size).toBe(ids.length);
    // The component answer's overage_prices are its default price point's.
    const read = await ok(sim, "GET", "/components/lookup.json?handle=minutes", 200);
    withinComponent(read.body.component);
    expect(read.body.component.overage_prices).toEqual(original.overage_prices);
  });

  it("seeded without overage pricing: no overage keys (typed without null), rollover and renewal false, no expiration", async () => {
    const sim = await family();
    const c = sim.addComponent({ familyHandle: "saas", kind: "prepaid_usage", handle: "bare" });
    const [pp] = (await readAll(sim, c.id)).values();
    expect(termsOf(pp)).toEqual({
      rollover_prepaid_remainder: false,
      renew_prepaid_allocation: false,
      expiration_interval: null,
      expiration_interval_unit: null,
    });
    const read = await ok(sim, "GET", `/product_families/9001/components/${c.id}.json`, 200);
    expect(read.body.component.overage_prices).toBeNull();
  });

  it("the API's create with the vendor's example: stored, and answered by create, read, list, update, archive, unarchive", async () => {
    const sim = await family();
    const c = sim.addComponent({
      familyHandle: "saas",
      kind: "prepaid_usage",
      handle: "minutes",
      overagePricing: { pricingScheme: "per_unit", prices: [{ startingQuantity: 1, unitPrice: 3 }] },
    });
    const example =
      doc.paths["/components/{component_id}/price_points.json"].post.requestBody.content["application/json"].examples[
        "Prepaid Usage Component"
      ].value;
    const made = await ok(sim, "POST", `/components/${c.id}/price_points.json`, 200, example);
    const pp = made.body.price_point;
    withinPricePoint(pp);
    const expected = {
      overage_prices: [
        expect.objectContaining({
          component_id: c.id,
          price_point_id: pp.id,
          starting_quantity: 1,
          ending_quantity: 100,
          unit_price: "4.0",
          formatted_unit_price: "$4.00",
          segment_id: null,
        }),
      ],
      overage_pricing_scheme: "stairstep",
      rollover_prepaid_remainder: true,
      renew_prepaid_allocation: false,
      expiration_interval: 2,
      expiration_interval_unit: "month",
    };
    expect(termsOf(pp)).toEqual(expected);
    expect(brackets(pp.prices)).toEqual([
      [1, 100, "5.0"],
      [101, null, "4.0"],
    ]);
    // The record holds them.
    const record = sim.components()[0].pricePoints.find((p) => p.id === pp.id)!;
    expect(record).toMatchObject({
      overagePricing: { pricingScheme: "stairstep", prices: [{ startingQuantity: 1, endingQuantity: 100, unitPrice: "4.0" }] },
      rolloverPrepaidRemainder: true,
      renewPrepaidAllocation: false,
      expirationInterval: 2,
      expirationIntervalUnit: "month",
    });
    expect((await readAll(sim, c.id)).get("msrp")).toEqual(pp);
    const base = `/components/${c.id}/price_points/${pp.id}`;
    const updated = await ok(sim, "PUT", `${base}.json`, 200, { price_point: { name: "MSRP 2" } });
    const archived = await ok(sim, "DELETE", `${base}.json`, 200);
    const unarchived = await ok(sim, "PUT", `${base}/unarchive.json`, 200);
    for (const a of [updated, archived, unarchived]) {
      withinPricePoint(a.body.price_point);
      expect(termsOf(a.body.price_point)).toEqual(expected);
    }
    // Promoted, its overage tiers are the component's.
    const promoted = await ok(sim, "PUT", `${base}/default.json`, 200);
    withinComponent(promoted.body.component);
    expect(promoted.body.component.overage_prices).toEqual(pp.overage_prices);
  });

  it("the API's component create: the default and inline price points (one with its own overage_pricing) keep their terms", async () => {
    const sim = await family();
    const made = await ok(sim, "POST", "/product_families/9001/prepaid_usage_components.json", 201, {
      prepaid_usage_component: {
        name: "Minutes",
        handle: "minutes",
        unit_name: "minute",
        pricing_scheme: "per_unit",
        unit_price: 2,
        rollover_prepaid_remainder: true,
        renew_prepaid_allocation: true,
        expiration_interval: 15,
        expiration_interval_unit: "day",
        overage_pricing: {
          pricing_scheme: "stairstep",
          prices: [
            { starting_quantity: 1, ending_quantity: 100, unit_price: 3 },
            { starting_quantity: 101, unit_price: 5 },
          ],
        },
        price_points: [
          {
            name: "Own overage",
            handle: "own",
            pricing_scheme: "per_unit",
            prices: [{ starting_quantity: 1, unit_price: 1 }],
            overage_pricing: { pricing_scheme: "per_unit", prices: [{ starting_quantity: 1, unit_price: "1.5" }] },
          },
          { name: "No overage", handle: "none", pricing_scheme: "per_unit", prices: [{ starting_quantity: 1, unit_price: 1 }] },
        ],
      },
    });
    withinComponent(made.body.component);
    const pps = await readAll(sim, made.body.component.id);
    const original = [...pps.values()].find((pp) => pp.default)!;
    const terms = {
      rollover_prepaid_remainder: true,
      renew_prepaid_allocation: true,
      expiration_interval: 15,
      expiration_interval_unit: "day",
    };
    expect(termsOf(original)).toMatchObject({ ...terms, overage_pricing_scheme: "stairstep" });
    expect(brackets(original.overage_prices)).toEqual([
      [1, 100, "3.0"],
      [101, null, "5.0"],
    ]);
    expect(made.body.component.overage_prices).toEqual(original.overage_prices);
    expect(termsOf(pps.get("own"))).toMatchObject({ ...terms, overage_pricing_scheme: "per_unit" });
    expect(brackets(pps.get("own").overage_prices)).toEqual([[1, null, "1.5"]]);
    expect(termsOf(pps.get("none"))).toEqual(terms);
  });

  it("an inline price point's overage tiers are checked as the component's are", async () => {
    const sim = await family();
    const res = await call(sim, "POST", "/product_families/9001/prepaid_usage_components.json", {
      body: {
        prepaid_usage_component: {
          name: "Minutes",
          unit_price: 2,
          price_points: [
            {
              name: "Gap",
              pricing_scheme: "per_unit",
              prices: [{ starting_quantity: 1, unit_price: 1 }],
              overage_pricing: {
                pricing_scheme: "stairstep",
                prices: [
                  { starting_quantity: 1, ending_quantity: 10, unit_price: 1 },
                  { starting_quantity: 20, unit_price: 2 },
                ],
              },
            },
          ],
        },
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.join(" ")).toMatch(/gaps/);
    expect(sim.components()).toEqual([]);
  });
});

describe("other kinds' price points carry none of the prepaid terms", () => {
  it.each(["metered", "quantity_based", "on_off", "event_based"] as const)(
    "%s: seeded, created (overage_pricing sent is dropped), promoted",
    async (kind) => {
      const sim = await family();
      const c = sim.addComponent({
        familyHandle: "saas",
        kind,
        handle: "c",
        ...(kind === "event_based" ? { eventBasedBillingMetricId: 1 } : {}),
        pricePoints: [{ handle: "second" }],
      });
      sim.addComponentPricePoint({ componentId: c.id }, { handle: "third" });
      const made = await ok(sim, "POST", `/components/${c.id}/price_points.json`, 200, {
        price_point: {
          name: "Sent",
          handle: "sent",
          pricing_scheme: "per_unit",
          prices: [{ starting_quantity: 1, unit_price: 2 }],
          overage_pricing: { pricing_scheme: "per_unit", prices: [{ starting_quantity: 1, unit_price: 3 }] },
          rollover_prepaid_remainder: true,
          expiration_interval: 2,
          expiration_interval_unit: "month",
        },
      });
      withinPricePoint(made.body.price_point);
      const pps = await readAll(sim, c.id);
      expect([...pps.keys()].length).toBe(4);
      for (const pp of [made.body.price_point, ...pps.values()]) expect(termsOf(pp)).toEqual({});
      const promoted = await ok(sim, "PUT", `/components/${c.id}/price_points/${made.body.price_point.id}/default.json`, 200);
      withinComponent(promoted.body.component);
      expect(promoted.body.component.overage_prices).toBeNull();
    },
  );
});

describe("display_on_hosted_page: kept in the record, in no answer (no component answer schema of the contract has it)", () => {
  it("seeded, created, updated by both update paths; every component answer only has keys the contract's Component has", async () => {
    const sim = await family();
    const seeded = sim.addComponent({ familyHandle: "saas", kind: "on_off", handle: "support", displayOnHostedPage: true });
    const created = await ok(sim, "POST", "/product_families/9001/quantity_based_components.json", 201, {
      quantity_based_component: {
        name: "Seats",
        handle: "seats",
        unit_name: "seat",
        pricing_scheme: "per_unit",
        unit_price: 1,
        display_on_hosted_page: true,
      },
    });
    const held = (id: number) => sim.components().find((c) => c.id === id)!.displayOnHostedPage;
    expect([held(seeded.id), held(created.body.component.id)]).toEqual([true, true]);
    const answers: Answer[] = [created];
    answers.push(await ok(sim, "PUT", `/components/${seeded.id}.json`, 200, { component: { display_on_hosted_page: false } }));
    expect(held(seeded.id)).toBe(false);
    answers.push(
      await ok(sim, "PUT", `/product_families/9001/components/${created.body.component.id}.json`, 200, {
        component: { display_on_hosted_page: false },
      }),
    );
    expect(held(created.body.component.id)).toBe(false);
    answers.push(await ok(sim, "GET", "/components/lookup.json?handle=support", 200));
    answers.push(await ok(sim, "GET", `/product_families/9001/components/${seeded.id}.json`, 200));
    const lists = [await ok(sim, "GET", "/components.json", 200), await ok(sim, "GET", "/product_families/9001/components.json", 200)];
    const archived = await ok(sim, "DELETE", `/product_families/9001/components/${seeded.id}.json`, 200);
    const components = [
      ...answers.map((a) => a.body.component),
      ...lists.flatMap((l) => l.body.map((e: any) => e.component)),
      archived.body,
    ];
    expect(components.length).toBe(10);
    for (const c of components) {
      withinComponent(c);
      expect(c).not.toHaveProperty("display_on_hosted_page");
    }
  });
});
