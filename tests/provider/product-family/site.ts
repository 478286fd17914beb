import { afterEach } from "vitest";
import { productFamilyProvider } from "../../../provider";
import { type Simulator, startSimulator } from "../../../simulator";
import { configureRequest, KEY, mutations } from "../support";

/**
 * What the ProductFamily kind's tests share: the family they declare, how they read the requests a step sent, the
 * refusal a family gets whose values differ from what the service holds (it has no update of a family), and a fresh
 * simulator per test whose clock stands still, with the family provider configured for it over a real socket, at the
 * top level and as billing:sites entry `eu`.
 */

export const NOW = "2024-05-01T12:00:00.000Z";
export const family = { handle: "rockets", name: "Rockets" };
export type Json = Record<string, unknown>;

/** The requests that change something, as `METHOD path`. */
export const steps = (sim: Simulator) => mutations(sim).map((r) => `${r.method} ${r.path}`);

/** The refusal of family `rockets` declared with values other than the service's; `fixes` says what it holds. */
export const cannotChange = (fixes: string) =>
  `product family \`rockets\` cannot be changed: the service has no update of a family (${fixes}). ` +
  "Declare the values it holds, or declare a new family with a new handle and move products to it.";

/**
 * A site per test, closed after it (call at a test file's top level; `started` is given each test's simulator).
 * `setup` starts it and returns the family provider; `held` reads a family of the running test's site.
 */
export function familySite(started: (sim: Simulator) => void) {
  let current: Simulator | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });

  async function setup() {
    const sim = await startSimulator({ apiKey: KEY, now: () => new Date(NOW) });
    current = sim;
    started(sim);
    const families = { ...productFamilyProvider };
    await families.configure!(
      configureRequest({
        "billing:baseUrl": sim.url,
        "billing:apiKey": KEY,
        "billing:sites": JSON.stringify({ eu: { baseUrl: sim.url, apiKey: KEY } }),
      }),
    );
    return families;
  }

  /** The family with this handle as the service answers it. */
  async function held(handle: string): Promise<Json> {
    const res = await fetch(`${current?.url}/product_families/handle:${handle}.json`, {
      headers: { authorization: `Basic ${Buffer.from(`${KEY}:x`).toString("base64")}` },
    });
    return ((await res.json()) as { product_family: Json }).product_family;
  }

  return { setup, held };
}
