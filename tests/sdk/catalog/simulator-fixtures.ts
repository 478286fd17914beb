import { site } from "../helpers";

/** Sites on the simulator with a catalog to start from, shared by the SDK's catalog tests, and the faults they place. */

export const MONTHLY = { priceInCents: 1000, interval: 1, intervalUnit: "month" } as const;

/** The connection is reset after the service applied the request: the answer is lost. */
export const LOST = { kind: "reset", applyAfterHandling: true, times: 1 } as const;

/** The connection is reset before the service handles the request: nothing applied. */
export const UNSENT = { kind: "reset", times: 1 } as const;

/** A family "saas", its product "pro" (1000 a month) and the product's price point "annual"; the request log cleared. */
export async function product(client: { maxRetries?: number; maxConcurrency?: number } = {}) {
  const s = await site({}, { maxRetries: 0, ...client });
  const f = await s.billing.createProductFamily({ handle: "saas", name: "SaaS" });
  const p = await s.billing.createProduct(f.id, { handle: "pro", name: "Pro", ...MONTHLY });
  const pp = await s.billing.createPricePoint(p.id, { handle: "annual", name: "Annual", ...MONTHLY, interval: 12 });
  s.sim.reset();
  return { ...s, f, p, pp };
}

/** A site with families 1 ("one") and 2 ("two"). */
export async function siteWithFamilies(opts: { maxRetries?: number; migrationSettleSeconds?: number } = {}) {
  const s = await site({}, { maxRetries: opts.maxRetries ?? 0, migrationSettleSeconds: opts.migrationSettleSeconds });
  s.sim.addProductFamily({ id: 1, handle: "one", name: "One" });
  s.sim.addProductFamily({ id: 2, handle: "two", name: "Two" });
  return s;
}

/** A site with families 1 and 2, named by their handles ("one", "two"). */
export async function siteWithUnnamedFamilies(opts: { maxRetries?: number } = {}) {
  const s = await site({}, { maxRetries: opts.maxRetries ?? 0 });
  s.sim.addProductFamily({ id: 1, handle: "one" });
  s.sim.addProductFamily({ id: 2, handle: "two" });
  return s;
}

/** Two tiers, the first up to 10 (numbers, as a caller may give them). */
export const TIERS_TO_10 = [
  { startingQuantity: 1, endingQuantity: 10, unitPrice: 5 },
  { startingQuantity: 11, unitPrice: 3 },
];

/** A family, a metered component 30001 and its catalog price point 50001 (tiers 901 and 902). */
export async function component(opts: { maxRetries?: number } = {}) {
  const s = await site({}, { maxRetries: opts.maxRetries ?? 0 });
  s.sim.addProductFamily({ id: 1, handle: "one" });
  s.sim.addComponent({ id: 30001, familyId: 1, kind: "metered", handle: "sms", name: "SMS", pricingScheme: "tiered", prices: TIERS_TO_10 });
  s.sim.addComponentPricePoint(
    { componentId: 30001 },
    {
      id: 50001,
      handle: "wholesale",
      name: "Wholesale",
      pricingScheme: "tiered",
      prices: [
        { id: 901, ...TIERS_TO_10[0] },
        { id: 902, ...TIERS_TO_10[1] },
      ],
    },
  );
  return s;
}

/** Two tiers, the first up to 100 (prices as text). */
export const TIERS_TO_100 = [
  { startingQuantity: 1, endingQuantity: 100, unitPrice: "5" },
  { startingQuantity: 101, unitPrice: "4" },
];

/** A family "saas", its metered component "sms" and the component's monthly price point "wholesale"; the request log cleared. */
export async function componentPoint(client: { maxRetries?: number } = {}) {
  const s = await site({}, { maxRetries: 0, ...client });
  const f = await s.billing.createProductFamily({ handle: "saas", name: "SaaS" });
  const c = await s.billing.createComponent(f.id, {
    kind: "metered",
    handle: "sms",
    name: "SMS",
    unitName: "message",
    pricingScheme: "tiered",
    prices: TIERS_TO_100,
  });
  const pp = await s.billing.createComponentPricePoint(c.id, {
    handle: "wholesale",
    name: "Wholesale",
    pricingScheme: "tiered",
    prices: TIERS_TO_100,
    interval: 1,
    intervalUnit: "month",
  });
  s.sim.reset();
  return { ...s, c, pp, point: `/components/${c.id}/price_points/${pp.id}.json` };
}
