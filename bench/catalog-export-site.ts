/**
 * The benchmark's 5,000-object site, in a process of its own (so that its work does not share the
 * measured process's thread): 1 family, 1,000 products with 2 more price points each, 500 components
 * (each kind in turn, tiered) with 2 more price points each, 499 coupons, some restricted. Prints
 * "listening on URL" once seeded; runs until killed. Args: API key, latency in ms.
 */
import { startSimulator } from "../simulator";

export const SITE_OBJECTS = 5_000;
const PRODUCTS = 1_000;
const COMPONENTS = 500;
const COUPONS = 499;
const KINDS = ["metered", "quantity_based", "prepaid_usage", "event_based", "on_off"] as const;

async function main(): Promise<void> {
  const [key = "bench_key", latency = "0"] = process.argv.slice(2);
  const sim = await startSimulator({ apiKey: key, latencyMs: Number(latency), logBodies: false });
  sim.addProductFamily({ handle: "plans", name: "Plans" });
  for (let i = 0; i < PRODUCTS; i++)
    sim.addProduct({
      handle: `product-${i}`,
      name: `Product ${i}`,
      familyHandle: "plans",
      priceInCents: 1000 + i,
      pricePoints: [
        { handle: `product-${i}-annual`, priceInCents: 10_000 + i, interval: 12, intervalUnit: "month" },
        { handle: `product-${i}-quarterly`, priceInCents: 3_000 + i, interval: 3, intervalUnit: "month" },
      ],
    });
  const tiers = [
    { startingQuantity: 1, endingQuantity: 100, unitPrice: "0.10" },
    { startingQuantity: 101, unitPrice: "0.05" },
  ];
  for (let i = 0; i < COMPONENTS; i++) {
    const kind = KINDS[i % KINDS.length]!;
    const onOff = kind === "on_off";
    sim.addComponent({
      familyHandle: "plans",
      kind,
      handle: `component-${i}`,
      name: `Component ${i}`,
      ...(onOff ? { unitPrice: "9.00" } : { unitName: "unit", pricingScheme: "tiered" as const, prices: tiers }),
      ...(kind === "event_based" ? { eventBasedBillingMetricId: 1 } : {}),
      ...(kind === "prepaid_usage"
        ? { overagePricing: { pricingScheme: "per_unit" as const, prices: [{ startingQuantity: 1, unitPrice: "0.2" }] } }
        : {}),
      pricePoints: [1, 2].map((n) =>
        onOff
          ? { handle: `component-${i}-${n}`, pricingScheme: "per_unit" as const, unitPrice: String(9 + n) }
          : { handle: `component-${i}-${n}`, pricingScheme: "volume" as const, prices: tiers },
      ),
    });
  }
  for (let i = 0; i < COUPONS; i++)
    sim.addCoupon({
      familyHandle: "plans",
      code: `CODE${i}`,
      percentage: 5 + (i % 50),
      ...(i % 3 === 0 ? { restrictedProducts: [`product-${i}`], restrictedComponents: [`component-${i % COMPONENTS}`] } : {}),
    });
  process.stdout.write(`listening on ${sim.url}\n`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
