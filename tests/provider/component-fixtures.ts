import { component } from "../../provider/kinds/component";

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
