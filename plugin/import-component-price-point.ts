import type * as plugin from "@pulumi/pulumi/provider";
import { findByHandle } from "../provider/kinds/catalog";
import { kinds } from "../provider/runtime";
import type { Component, ComponentPricePoint, PriceTier } from "../sdk/results";
import { clientOf } from "./import";
import { componentByKey } from "./import-component";
import { plain } from "./values";

/**
 * `pulumi import` of a ComponentPricePoint by `<component>/<price point>`, each a handle or an id,
 * optionally after `<site>/`. The inputs are what the service holds, written the way a program
 * declares them (the component as `handle:…`, tiers without the open-ended last tier's end, values
 * the service holds when nothing was set left out), so the printed code previews with no changes;
 * the state is the kind's own read of the price point, from a seed naming it.
 */

/** `<component>/<price point>`, optionally after `<site>/`; each a handle or an id. */
const TWO = /^(?:([^/]+)\/)?([^/]+)\/([^/]+)$/;
const isId = (s: string) => /^[1-9][0-9]{0,15}$/.test(s);
const TYPE = "ComponentPricePoint";

/** Held tiers as a declaration writes them. */
const declared = (tiers: readonly PriceTier[]) =>
  tiers.map((t) => ({
    startingQuantity: t.startingQuantity,
    ...(t.endingQuantity !== undefined ? { endingQuantity: t.endingQuantity } : {}),
    unitPrice: t.unitPrice,
  }));

/**
 * The inputs a program would declare for `pp`. The overage pricing is left out: the service's answer
 * names its tiers but the SDK does not read its scheme, and a declaration that leaves it out is never
 * drift; the prepaid terms are kept where the service holds them.
 */
export function componentPricePointInputs(component: Component, pp: ComponentPricePoint, site: string | undefined) {
  const handle = pp.handle ?? String(pp.id);
  const has = <T>(v: T | undefined): v is T => v !== undefined && v !== null;
  return {
    component: component.handle !== undefined ? `handle:${component.handle}` : component.id,
    handle,
    name: pp.name ?? handle,
    ...(has(pp.pricingScheme) ? { pricingScheme: pp.pricingScheme } : {}),
    prices: declared(pp.prices),
    ...(has(pp.interval) && has(pp.intervalUnit) ? { interval: pp.interval, intervalUnit: pp.intervalUnit } : {}),
    // Each left out at the value the service holds when nothing was set (exchange rate followed, tax not included).
    ...(pp.useSiteExchangeRate === false ? { useSiteExchangeRate: false } : {}),
    ...(pp.taxIncluded === true ? { taxIncluded: true } : {}),
    ...(has(pp.rolloverPrepaidRemainder) ? { rolloverPrepaidRemainder: pp.rolloverPrepaidRemainder } : {}),
    ...(has(pp.renewPrepaidAllocation) ? { renewPrepaidAllocation: pp.renewPrepaidAllocation } : {}),
    ...(has(pp.expirationInterval) && has(pp.expirationIntervalUnit)
      ? { expirationInterval: pp.expirationInterval, expirationIntervalUnit: pp.expirationIntervalUnit }
      : {}),
    ...(pp.type === "default" ? { default: true } : {}),
    ...(site !== undefined ? { site } : {}),
  };
}

export async function importComponentPricePoint(provider: object, importId: string): Promise<plugin.ReadResult> {
  const m = TWO.exec(importId);
  if (!m)
    throw new Error(
      `${TYPE} import id "${importId}": give <component>/<price point>, each a handle or an id (e.g. text-messages/text-messages-volume), or <site>/<component>/<price point> for an entry of billing:sites`,
    );
  const [, site, componentKey = "", ppKey = ""] = m;
  const client = clientOf(provider, site, TYPE, importId);
  const component = await componentByKey(client, componentKey);
  if (!component)
    throw new Error(`${TYPE} import id "${importId}": component ${componentKey} does not exist at the site: nothing to import`);
  // Read by id or by `handle:` (the contract's Read takes either, archived ones too; the list may leave those out).
  // An all-digit key no price point has as its id may still be a handle.
  const byHandle = () => findByHandle(() => client.readComponentPricePoint(component.id, `handle:${ppKey}` as unknown as number));
  const pp = isId(ppKey)
    ? ((await findByHandle(() => client.readComponentPricePoint(component.id, Number(ppKey)))) ?? (await byHandle()))
    : await byHandle();
  if (!pp) throw new Error(`${TYPE} import id "${importId}": component ${componentKey} has no price point ${ppKey}: nothing to import`);
  const inputs = componentPricePointInputs(component, pp, site);
  const { site: _, ...args } = inputs;
  const seed = {
    pricePointId: pp.id,
    componentId: component.id,
    handle: inputs.handle,
    args: { ...args, ...(site !== undefined ? { site } : {}) },
    ...(site !== undefined ? { site } : {}),
  };
  const read = await kinds.componentPricePoint.read(provider, String(pp.id), seed);
  if (!read.id || !read.props)
    throw new Error(`${TYPE} import id "${importId}": price point ${ppKey} is gone at the site: nothing to import`);
  return plain({ id: String(pp.id), props: read.props, inputs });
}
