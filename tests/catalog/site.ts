import { type Simulator, type SimulatorOptions, startSimulator } from "../../simulator";

/** A key that must never show up in anything the catalog command writes. */
export const SECRET_KEY = "sk_catalog_0f9e8d7c6b5a49382716";

/**
 * A site seeded the way a web UI makes one over the years: two families, products with several
 * price points (one archived, one archived product), each component kind with tiers and extra price
 * points, coupons restricted to products and components, some archived. `bulk` more products in a
 * third family push the product list past one page (200 a page).
 */
export function seedWebUiSite(sim: Simulator, o: { bulk?: number; tier?: string } = {}): void {
  sim.addProductFamily({ handle: "plans", name: "Plans", description: "Self-serve plans" });
  sim.addProductFamily({ handle: "addons", name: "Add-ons" });
  sim.addProduct({
    handle: "basic",
    name: "Basic",
    familyHandle: "plans",
    priceInCents: 1900,
    interval: 1,
    intervalUnit: "month",
    pricePoints: [
      { handle: "basic-monthly", name: "Monthly", default: true, priceInCents: 1900, interval: 1, intervalUnit: "month" },
      { handle: "basic-annual", name: "Annual", priceInCents: 19000, interval: 12, intervalUnit: "month" },
      { handle: "basic-2019", name: "2019 price", priceInCents: 1500, interval: 1, intervalUnit: "month", archived: true },
    ],
  });
  sim.addProduct({
    handle: "pro",
    name: "Pro",
    description: "For teams",
    familyHandle: "plans",
    accountingCode: "PRO-1",
    priceInCents: 4900,
    interval: 1,
    intervalUnit: "month",
    trialPriceInCents: 0,
    trialInterval: 14,
    trialIntervalUnit: "day",
    trialType: "no_obligation",
    pricePoints: [
      { handle: "pro-annual", name: "Annual", priceInCents: 49000, interval: 12, intervalUnit: "month" },
      { handle: "pro-quarterly", name: "Quarterly", priceInCents: 13900, interval: 3, intervalUnit: "month", initialChargeInCents: 5000 },
    ],
  });
  sim.addProduct({ handle: "legacy", name: "Legacy", familyHandle: "plans", priceInCents: 900, archived: true });
  const tiers = [
    { startingQuantity: 1, endingQuantity: 100, unitPrice: o.tier ?? "0.10" },
    { startingQuantity: 101, endingQuantity: 1000, unitPrice: "0.05" },
    { startingQuantity: 1001, unitPrice: "0.01" },
  ];
  sim.addComponent({
    familyHandle: "plans",
    kind: "metered",
    handle: "api-calls",
    name: "API calls",
    unitName: "call",
    pricingScheme: "tiered",
    prices: tiers,
    taxable: true,
    pricePoints: [{ handle: "api-calls-eu", name: "EU", pricingScheme: "volume", prices: tiers.map((t) => ({ ...t, unitPrice: "0.2" })) }],
  });
  sim.addComponent({
    familyHandle: "plans",
    kind: "quantity_based",
    handle: "seats",
    name: "Seats",
    unitName: "seat",
    pricingScheme: "stairstep",
    prices: [
      { startingQuantity: 1, endingQuantity: 10, unitPrice: "50" },
      { startingQuantity: 11, unitPrice: "400" },
    ],
    recurring: true,
    allowFractionalQuantities: false,
    pricePoints: [{ handle: "seats-old", name: "Old seats", pricingScheme: "per_unit", unitPrice: "8", archived: true }],
  });
  sim.addComponent({ familyHandle: "addons", kind: "on_off", handle: "sso", name: "SSO", unitPrice: "99.00", displayOnHostedPage: true });
  sim.addComponent({
    familyHandle: "addons",
    kind: "prepaid_usage",
    handle: "credits",
    name: "Credits",
    unitName: "credit",
    pricingScheme: "per_unit",
    unitPrice: "1.5",
    overagePricing: {
      pricingScheme: "tiered",
      prices: [
        { startingQuantity: 1, endingQuantity: 50, unitPrice: "2" },
        { startingQuantity: 51, unitPrice: "1.8" },
      ],
    },
    rolloverPrepaidRemainder: true,
    expirationInterval: 3,
    expirationIntervalUnit: "month",
  });
  sim.addComponent({
    familyHandle: "addons",
    kind: "event_based",
    handle: "events",
    name: "Events",
    unitName: "event",
    pricingScheme: "volume",
    prices: [
      { startingQuantity: 1, endingQuantity: 1000, unitPrice: "0.002" },
      { startingQuantity: 1001, unitPrice: "0.001" },
    ],
    eventBasedBillingMetricId: 42,
  });
  sim.addComponent({
    familyHandle: "plans",
    kind: "metered",
    handle: "old-usage",
    name: "Old usage",
    unitName: "unit",
    unitPrice: "1",
    archived: true,
  });
  sim.addCoupon({ familyHandle: "plans", code: "WELCOME10", name: "Welcome", percentage: 10, restrictedProducts: ["basic", "pro"] });
  sim.addCoupon({
    familyHandle: "plans",
    code: "SEATS5",
    name: "Five off seats",
    amountInCents: 500,
    recurring: true,
    durationPeriodCount: 3,
    stackable: true,
    restrictedComponents: ["seats"],
    restrictedProducts: ["pro"],
  });
  sim.addCoupon({ familyHandle: "addons", code: "BLACKFRIDAY", amountInCents: 2000, endDate: "2025-12-01T00:00:00Z", archived: true });
  if (o.bulk) sim.addProductFamily({ handle: "bulk", name: "Bulk" });
  for (let i = 0; i < (o.bulk ?? 0); i++)
    sim.addProduct({ handle: `bulk-${String(i).padStart(4, "0")}`, name: `Bulk ${i}`, familyHandle: "bulk", priceInCents: 100 + i });
}

/** A simulator with the web UI's catalog, closed after the test. */
export async function webUiSite(o: { bulk?: number; tier?: string } & SimulatorOptions = {}): Promise<Simulator> {
  const { bulk, tier, ...options } = o;
  const sim = await startSimulator({ apiKey: SECRET_KEY, ...options });
  seedWebUiSite(sim, { bulk, tier });
  return sim;
}
