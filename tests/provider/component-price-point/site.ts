import { componentPricePointProvider } from "../../../provider";
import { type Simulator, startSimulator } from "../../../simulator";
import { configureRequest, KEY, mutations } from "../support";

/**
 * What the ComponentPricePoint kind's tests share: the price points a program declares, how the kind's messages
 * name one, how the tests read what a step sent, and a fresh simulator site per test: family `rockets` with the
 * metered component `texts` (made first; its default "Original", per unit) and the prepaid one `credits`, the
 * provider configured for it over a real socket.
 */

export const VOLUME = [
  { startingQuantity: 1, endingQuantity: 1000, unitPrice: "0.05" },
  { startingQuantity: 1001, unitPrice: "0.03" },
];
export const volume = {
  component: "handle:texts",
  handle: "texts-volume",
  name: "Volume",
  pricingScheme: "volume" as const,
  prices: VOLUME,
};
export const OVERAGE = { pricingScheme: "per_unit", prices: [{ startingQuantity: 1, unitPrice: "0.10" }] };
export const bulk = {
  handle: "credits-bulk",
  name: "Bulk credits",
  pricingScheme: "per_unit" as const,
  prices: [{ startingQuantity: 1, unitPrice: 2 }],
};
/** A price point of the prepaid `credits`, without its overage (what the service's answers do not show). */
export const prepaid = { component: "handle:credits", ...bulk };
/** The same, with the overage pricing its create needs. */
export const prepaidWithOverage = { ...prepaid, overagePricing: OVERAGE };
export const AFFECTS =
  "subscriptions on this price point pay the new prices from their next charge; charges already made stay as they were";

/** How the kind's messages name a price point. */
export const label = (handle: string, id: number | string) => `component price point \`${handle}\` (id ${id})`;
/** The requests that changed something, as `METHOD path`. */
export const steps = (sim: Simulator) => mutations(sim).map((r) => `${r.method} ${r.path}`);
/** The simulator's credentials, for a change made outside the stack (the web UI). */
export const auth = { authorization: `Basic ${Buffer.from(`${KEY}:x`).toString("base64")}`, "content-type": "application/json" };
/** The SDK's message for the simulator's 404 of a price point (the path the client sent). */
export const notFound = (method: string, componentId: number, id: number) =>
  `${method} /components/${componentId}/price_points/${id}.json failed with 404: Price point not found`;

/** The price point of a component, by id or by handle, as the site holds it. */
export const heldIn = (sim: Simulator, componentId: number, by: { id?: number | string; handle?: string }) =>
  sim
    .components()
    .find((c) => c.id === componentId)
    ?.pricePoints.find((pp) => (by.handle !== undefined ? pp.handle === by.handle : pp.id === Number(by.id)));

/**
 * A new site: metered `texts` (its default `original`) and prepaid `credits` in family `rockets`; the provider configured
 * by `config` (the simulator's url unless given), which `connect` points elsewhere (a proxy); the request log emptied.
 */
export async function startSite(config: (url: string) => Record<string, string> = (url) => ({ "billing:baseUrl": url })) {
  const sim = await startSimulator({ apiKey: KEY });
  sim.addProductFamily({ handle: "rockets", name: "Rockets" });
  const texts = sim.addComponent({ familyHandle: "rockets", kind: "metered", handle: "texts", unitName: "message", unitPrice: "0.01" });
  const credits = sim.addComponent({
    familyHandle: "rockets",
    kind: "prepaid_usage",
    handle: "credits",
    unitName: "credit",
    unitPrice: 1,
    overagePricing: { pricingScheme: "per_unit", prices: [{ startingQuantity: 1, unitPrice: "1.5" }] },
  });
  const original = texts.pricePoints[0] as { id: number; handle: string };
  const points = { ...componentPricePointProvider };
  const connect = async (url: string, extra: Record<string, string> = {}) =>
    points.configure!(configureRequest({ "billing:apiKey": KEY, ...config(url), ...extra }));
  await connect(sim.url);
  sim.reset();
  return { sim, points, texts, credits, original, connect };
}
