import { describe, expect, it } from "vitest";
import type { Simulator } from "../../simulator";
import { call, start } from "./helpers";

// The service's rules for a component create, as a table: each body, the error list it is refused with
// (published wording where there is one: createMeteredComponent's example, updateComponentPricePoint's bracket texts).

async function site(): Promise<Simulator> {
  const sim = await start();
  sim.addProductFamily({ id: 9001, handle: "saas" });
  sim.addComponent({ familyHandle: "saas", kind: "metered", handle: "taken" });
  return sim;
}

const GAP =
  "Successive brackets may not have gaps in quantity (i.e. if one bracket ends at quantity 10, the next must begin at quantity 11)";
const OVERLAP = "There cannot be any overlapping bracket ranges";
const ENDING = "Ending quantity: must be greater than the low end bracket quantity, if given";
const metered = (extra: Record<string, unknown>) => ({ name: "Calls", unit_name: "call", pricing_scheme: "tiered", ...extra });
const p = (s: number | string, e: number | string | null, u: number | string = 1) => ({
  starting_quantity: s,
  ending_quantity: e,
  unit_price: u,
});

const RULES: [string, string, Record<string, unknown>, string[]][] = [
  [
    "the published example: an empty body",
    "metered",
    {},
    [
      "Name: cannot be blank.",
      "Unit name: cannot be blank.",
      "At least 1 price bracket must be defined",
      "Pricing scheme: cannot be blank.",
      "Pricing scheme: is not one of the allowed values.",
    ],
  ],
  [
    "an unknown scheme",
    "metered",
    metered({ pricing_scheme: "graduated", prices: [p(1, null)] }),
    ["Pricing scheme: is not one of the allowed values."],
  ],
  ["no brackets", "metered", metered({ prices: [] }), ["At least 1 price bracket must be defined"]],
  [
    "per_unit without a unit price or brackets",
    "metered",
    metered({ pricing_scheme: "per_unit" }),
    ["At least 1 price bracket must be defined"],
  ],
  ["a gap", "metered", metered({ prices: [p(1, 10), p(12, null)] }), [GAP]],
  ["an overlap", "metered", metered({ prices: [p(1, 10), p(10, null)] }), [OVERLAP]],
  ["descending brackets", "metered", metered({ prices: [p(11, null), p(1, 10)] }), [OVERLAP]],
  ["an open bracket before the last", "metered", metered({ prices: [p(1, null), p(11, null)] }), [OVERLAP]],
  ["an end at its start", "metered", metered({ prices: [p(5, 5), p(6, null)] }), [ENDING]],
  [
    "two per_unit brackets",
    "metered",
    metered({ pricing_scheme: "per_unit", prices: [p(1, 10), p(11, null)] }),
    ["Prices: a per_unit price point takes exactly one price bracket."],
  ],
  [
    "a negative price",
    "metered",
    metered({ prices: [p(1, null, -1)] }),
    ["Unit price: must be a number of 0 or more with at most 8 decimal places."],
  ],
  [
    "nine decimal places",
    "metered",
    metered({ prices: [p(1, null, "0.000000001")] }),
    ["Unit price: must be a number of 0 or more with at most 8 decimal places."],
  ],
  ["a fractional quantity", "metered", metered({ prices: [p("1.5", null)] }), ["Starting quantity: must be a whole number of 0 or more."]],
  ["a handle taken", "metered", metered({ handle: "taken", prices: [p(1, null)] }), ["Handle must be unique within a Site."]],
  [
    "a handle in capitals",
    "metered",
    metered({ handle: "Calls", prices: [p(1, null)] }),
    [
      "API Handle: must start with a letter or number and may only contain lowercase letters, numbers, or the characters '.', ':', '-', or '_'.",
    ],
  ],
  [
    "a tax code over 10 characters",
    "metered",
    metered({ tax_code: "D00000000000", prices: [p(1, null)] }),
    ["Tax code: is too long (maximum is 10 characters)."],
  ],
  [
    "an event based component without its metric",
    "event_based",
    { name: "E", unit_name: "e", pricing_scheme: "per_unit", unit_price: 1 },
    ["Event based billing metric: cannot be blank."],
  ],
  [
    "a quantity based component without a unit name",
    "quantity_based",
    { name: "Q", pricing_scheme: "per_unit", unit_price: 1 },
    ["Unit name: cannot be blank."],
  ],
  ["an on/off component without a price", "on_off", { name: "O" }, ["At least 1 price bracket must be defined"]],
  [
    "a prepaid overage with a gap",
    "prepaid_usage",
    { name: "M", unit_price: 1, overage_pricing: { pricing_scheme: "tiered", prices: [p(1, 10), p(20, null)] } },
    [GAP],
  ],
  [
    "an inline price point with an overlap",
    "metered",
    metered({ prices: [p(1, null)], price_points: [{ name: "W", pricing_scheme: "volume", prices: [p(1, 10), p(5, null)] }] }),
    [OVERLAP],
  ],
  ["no object under the kind's key", "metered", { name: "x" }, ["metered_component must be an Object"]],
];

describe("component create rules", () => {
  it.each(RULES)("%s (%s): 422", async (_what, kind, inner, errors) => {
    const sim = await site();
    const body = _what.startsWith("no object") ? inner : { [`${kind}_component`]: inner };
    const res = await call(sim, "POST", `/product_families/9001/${kind}_components.json`, { body });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ errors });
    expect(sim.components()).toHaveLength(1);
  });

  it.each([
    ["a closed last bracket (the vendor's own examples)", [p(1, 100), p(101, 200)]],
    ["a first bracket from 0", [p(0, 20), p(21, null)]],
    ["quantities and prices as text", [p("1", "10", "10.50"), p("11", null, "9")]],
  ])("%s is accepted", async (_what, prices) => {
    const sim = await site();
    const res = await call(sim, "POST", "/product_families/9001/metered_components.json", {
      body: { metered_component: metered({ prices }) },
    });
    expect(res.status).toBe(201);
  });
});
