import { onTestFinished } from "vitest";
import { componentProvider } from "../../provider";
import { component } from "../../provider/kinds/component";
import type { Context } from "../../provider/kinds/kind";
import { partialFailure } from "../../provider/engine";
import { BillingClient } from "../../sdk/client";
import type { Simulator } from "../../simulator";
import { configureRequest, KEY } from "./support";

// Declarations and types the Component kind's tests share: the tiered metered `sms` and the on/off
// `support` components of the family `rockets`, as a program declares them.

export const TIERS = [
  { startingQuantity: 1, endingQuantity: 100, unitPrice: "0.5" },
  { startingQuantity: 101, unitPrice: "0.25" },
];
export const sms = {
  productFamily: "handle:rockets",
  kind: "metered",
  handle: "sms",
  name: "Text messages",
  unitName: "message",
  pricingScheme: "tiered",
  prices: TIERS,
};
export const support = { productFamily: "handle:rockets", kind: "on_off", handle: "support", name: "Support", unitPrice: "25" };

export type Inputs = Parameters<typeof component.operations.create>[1];
export type State = Parameters<NonNullable<typeof component.operations.read>>[2];
/** Inputs as the kind's schema parses them (what create and update are given). */
export const inputsOf = (raw: Record<string, unknown>): Inputs => component.kind.inputs.parse(raw) as Inputs;
/** How the kind's messages name a component. */
export const label = (handle: string, id: number | string) => `component \`${handle}\` (id ${id})`;

/**
 * Family `rockets` at `sim`; the provider object configured for it; and, for the kind's operations called
 * directly, a context whose client does not retry (a refused request fails at once) and which collects the
 * notices. `connect` points that client elsewhere (a proxy). Its clients close when the test ends.
 */
export async function componentSetup(sim: Simulator) {
  const family = sim.addProductFamily({ handle: "rockets", name: "Rockets" });
  const notices: string[] = [];
  const open = (url: string) => {
    const c = new BillingClient({ baseUrl: url, apiKey: KEY, maxRetries: 0 });
    onTestFinished(() => c.close());
    return c;
  };
  let client = open(sim.url);
  const connect = (url: string) => {
    client = open(url);
    return client;
  };
  const ctx: Context = {
    client: () => client,
    siteLabel: () => "default",
    partialFailure: (message, id, recorded) => partialFailure(message, id, { ...recorded }, undefined),
    notice: (m) => notices.push(m),
  };
  const components = { ...componentProvider };
  await components.configure!(configureRequest({ "billing:baseUrl": sim.url, "billing:apiKey": KEY }));
  sim.reset();
  return { familyId: family.id, ctx, notices, components, connect };
}
