import { site } from "./helpers";

/** Shared by the SDK's product and price point tests against the simulator. */

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
