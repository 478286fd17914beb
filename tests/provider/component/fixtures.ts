import { onTestFinished } from "vitest";
import { componentProvider } from "../../../provider";
import { partialFailure } from "../../../provider/engine";
import { component } from "../../../provider/kinds/component";
import type { Context } from "../../../provider/kinds/kind";
import { BillingClient } from "../../../sdk/client";
import { type Simulator, startSimulator } from "../../../simulator";
import { configureRequest, KEY, mutations } from "../support";

// What the Component kind's tests share: the tiered metered `sms` and the on/off `support` components of the
// family `rockets` as a program declares them, one of each kind, a fresh simulator site per test with the
// provider configured for it, and how the tests read what a step sent.

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

/** One component of each kind, as a program declares it. */
export const KINDS: [string, Record<string, unknown>][] = [
  ["metered", sms],
  ["quantity_based", { ...sms, kind: "quantity_based", handle: "seats", unitName: "seat", recurring: true }],
  ["on_off", { productFamily: "handle:rockets", kind: "on_off", handle: "support", name: "Support", unitPrice: "25" }],
  [
    "prepaid_usage",
    {
      ...sms,
      kind: "prepaid_usage",
      handle: "prepaid-sms",
      pricingScheme: "per_unit",
      prices: [{ startingQuantity: 1, unitPrice: "0.1" }],
      overagePricing: { pricingScheme: "volume", prices: TIERS },
      rolloverPrepaidRemainder: true,
      expirationInterval: 1,
      expirationIntervalUnit: "month",
    },
  ],
  ["event_based", { ...sms, kind: "event_based", handle: "api-calls", unitName: "call", eventBasedBillingMetricId: 7 }],
];

export type Inputs = Parameters<typeof component.operations.create>[1];
export type State = Parameters<NonNullable<typeof component.operations.read>>[2];
/** Inputs as the kind's schema parses them (what create and update are given). */
export const inputsOf = (raw: Record<string, unknown>): Inputs => component.kind.inputs.parse(raw) as Inputs;
/** How the kind's messages name a component. */
export const label = (handle: string, id: number | string) => `component \`${handle}\` (id ${id})`;
/** The kind's operations, called directly (the provider shell drops undefined values, which hides them). */
export const ops = component.operations;

/** The SDK's message for a 500 it did not retry. */
export const serverError = (method: string, path: string) =>
  `${method} ${path} failed with 500: Internal Server Error; it may or may not have been applied (the read-back could not confirm it), so read it back before relying on either`;
/** A failed operation's message, and the id and state a partial failure records; undefined when it succeeded. */
export const failureOf = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: Error & { id?: string; properties?: Record<string, unknown> }) => ({ message: e.message, id: e.id, properties: e.properties }),
  );
/** The requests that changed something, as `METHOD path`. */
export const steps = (sim: Simulator) => mutations(sim).map((r) => `${r.method} ${r.path}`);
/** Every request, as `METHOD path`. */
export const requests = (sim: Simulator) => sim.requests.map((r) => `${r.method} ${r.path}`);
/** The notice an update's check gives for an in-place price change: what changes, old → new in money (issue 42). */
export const REPRICED = (handle: string, change: string) =>
  `Component \`${handle}\`: pricing change (${change}): in place: its default price point's prices change in place: every subscription on it pays the new prices from its next charge.`;
/** Check's failure of a name another live component of the family holds (a create, an adoption, a rename). */
export const NAME_TAKEN = (name: string, handle: string, id: number) =>
  `must be a name no other live component of the family has: ${label(handle, id)} holds "${name}", and names are unique among a family's live components (archived ones do not count); choose another name`;
/** Check's failure of a replacement keeping the name of the component it replaces, in the same family. */
export const NAME_KEPT = (name: string, handle: string, id: number, changed: string) =>
  `must differ from the name of the component it replaces: the replacement (${changed}) is created beside ${label(handle, id)}, which holds "${name}" until it is archived after the new one exists, and names are unique among a family's live components; give the replacement another name (once the old one is archived, a later update renames it back in place), or declare it in another family`;
/** The notice of a delete that archives. */
export const ARCHIVED = (handle: string, id: number) =>
  `Component: archived ${label(handle, id)}; the service keeps it archived (there is no unarchive), its handle stays taken, and subscriptions on it keep it.`;

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

/** A new simulator site with family `rockets` and the provider configured for it (componentSetup); the test closes the site. */
export async function startSite() {
  const sim = await startSimulator({ apiKey: KEY });
  return { sim, ...(await componentSetup(sim)) };
}
