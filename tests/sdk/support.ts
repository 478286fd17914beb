import { BillingClient, type BillingClientOptions } from "../../sdk";
import { startSimulator, type Simulator, type SimulatorOptions } from "../../simulator";

export const KEY = "sk_live_SDK_SECRET_4242";
export const TOKEN = "tok_SDK_SECRET_7777";

/** A simulator on a real socket and a client of it; fast retries so fault tests stay quick. */
export async function site(sim: SimulatorOptions = {}, client: Partial<BillingClientOptions> = {}) {
  const s: Simulator = await startSimulator({ apiKey: KEY, ...sim });
  const billing = new BillingClient({ baseUrl: s.url, apiKey: KEY, retryBaseDelayMs: 1, ...client } as BillingClientOptions);
  return {
    sim: s,
    billing,
    async close() {
      await billing.close();
      await s.close();
    },
  };
}

export type Site = Awaited<ReturnType<typeof site>>;

/** Seeds a product catalogue like the service's: each product with a default price point. */
export function catalogue(sim: Simulator) {
  sim.addProduct({ id: 1, handle: "basic" });
  sim.addProduct({ id: 2, handle: "pro", pricePoints: [{ id: 201, handle: "pro-monthly", default: true }, { id: 202, handle: "pro-annual" }] });
  sim.addProduct({ id: 3, handle: "launch" });
}

export const posts = (sim: Simulator, path: RegExp) => sim.requests.filter((r) => r.method === "POST" && path.test(r.path));
