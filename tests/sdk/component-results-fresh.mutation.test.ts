import { beforeEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { type Simulator, startSimulator } from "../../simulator";
import { KEY } from "./helpers";

// The module-level parts of the component files, which the mutation run left unchecked: the kind names a component
// answer reads as (component-results.ts KINDS), the fields an update's read-back compares (components.ts REPORTED),
// and the price point update's refusal of a non-object and its descriptions (component-inputs.ts). They are built when the module loads,
// before a mutant is switched on, so each test loads the SDK afresh (vi.resetModules, then import).

beforeEach(() => {
  vi.resetModules();
});

async function client() {
  const sim: Simulator = await startSimulator({ apiKey: KEY });
  const { BillingClient } = await import("../../sdk");
  const billing = new BillingClient({ baseUrl: sim.url, apiKey: KEY, maxRetries: 0 });
  onTestFinished(() => billing.close().then(() => sim.close()));
  sim.addProductFamily({ id: 1, handle: "one" });
  return { sim, billing };
}

describe("a component's kind reads as the SDK names it", () => {
  it.each(["metered", "quantity_based", "on_off", "prepaid_usage", "event_based"] as const)("%s", async (kind) => {
    const { sim, billing } = await client();
    sim.addComponent({
      id: 30001,
      familyId: 1,
      kind,
      handle: "c",
      name: "C",
      ...(kind === "event_based" ? { eventBasedBillingMetricId: 9 } : {}),
    });
    expect((await billing.readComponent(1, 30001)).kind).toBe(kind);
    expect((await billing.listComponents()).map((c) => c.kind)).toStrictEqual([kind]);
  });
});

describe("an update whose answer was lost is confirmed by reading back the fields it set", () => {
  it.each([
    ["name", { name: "Care" }],
    ["description", { description: "Help desk" }],
    ["handle", { handle: "care" }],
  ] as const)("%s", async (_, change) => {
    const { sim, billing } = await client();
    sim.addComponent({ id: 30001, familyId: 1, kind: "on_off", handle: "support", name: "Support", description: "Help" });
    sim.injectFault({ kind: "reset", times: 1, applyAfterHandling: true, match: { method: "PUT" } });
    const got = await billing.updateComponent(1, 30001, change);
    expect({ handle: got.handle, name: got.name, description: got.description }).toStrictEqual({
      handle: "support",
      name: "Support",
      description: "Help",
      ...change,
    });
    expect(sim.requests.map((r) => `${r.method} ${r.path} ${r.status}`)).toStrictEqual([
      "PUT /components/30001.json 0",
      "GET /product_families/1/components/30001.json 200",
    ]);
  });
});

describe("refusals of a value that is not an object", () => {
  it("a price point update", async () => {
    const { componentPricePointUpdateInput } = await import("../../sdk/catalog/component-inputs");
    const { problemsOf } = await import("../../sdk/validation");
    const r = componentPricePointUpdateInput.safeParse(null);
    expect(r.success).toBe(false);
    expect(problemsOf(r.error as never)).toStrictEqual([
      { property: "(input)", message: "must be an object { handle?, name?, pricingScheme?, prices?, … }" },
    ]);
  });

  it("a component", async () => {
    const { componentInput } = await import("../../sdk/catalog/component-inputs");
    const { problemsOf } = await import("../../sdk/validation");
    const r = componentInput.safeParse(null);
    expect(r.success).toBe(false);
    expect(problemsOf(r.error as never)).toStrictEqual([
      { property: "(input)", message: "must be a component object { kind, handle, name, … }" },
    ]);
  });
});

describe("the price point update's descriptions, which the provider's docs and schema publish", () => {
  it("each field's", async () => {
    const { componentPricePointUpdateInput } = await import("../../sdk/catalog/component-inputs");
    const docs = Object.fromEntries(Object.entries(componentPricePointUpdateInput.shape).map(([k, v]) => [k, v.description]));
    expect(docs).toStrictEqual({
      handle: undefined,
      name: undefined,
      pricingScheme: '"per_unit", "volume", "tiered" or "stairstep"; with prices.',
      prices: undefined,
      useSiteExchangeRate: "Whether other currencies' prices follow the site's exchange rate.",
      taxIncluded: "Whether the prices include tax.",
      interval: "How many intervalUnits between charges of the default price point (sites with multifrequency).",
      intervalUnit: '"day" or "month"; with interval.',
    });
  });
});
