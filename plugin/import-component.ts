import type * as plugin from "@pulumi/pulumi/provider";
import { findByHandle } from "../provider/kinds/catalog";
import { componentWithHandle } from "../provider/kinds/component-fields";
import { kinds } from "../provider/runtime";
import type { BillingClient } from "../sdk/client";
import type { Component, ComponentPricePoint, PriceTier } from "../sdk/results";
import { clientOf } from "./import";
import { plain } from "./values";

/**
 * `pulumi import` of a Component by its handle or id, optionally after `<site>/`. The inputs are
 * what the service holds, written the way a program declares them (the family as `handle:…`, the
 * default price point's scheme and tiers, the open-ended last tier without an end, values the
 * service holds when nothing was set left out), so the printed code previews with no changes; the
 * state is the kind's own read of the component, from a seed naming it.
 */

/** `<handle>`, `<id>`, `<site>/<handle>` or `<site>/<id>`. */
const ONE = /^(?:([^/]+)\/)?([^/]+)$/;
const isId = (s: string) => /^[1-9][0-9]{0,15}$/.test(s);
const TYPE = "Component";

/** Held tiers as a declaration writes them. */
const declared = (tiers: readonly PriceTier[]) =>
  tiers.map((t) => ({
    startingQuantity: t.startingQuantity,
    ...(t.endingQuantity !== undefined ? { endingQuantity: t.endingQuantity } : {}),
    unitPrice: t.unitPrice,
  }));

const given = <T>(v: T | undefined | null): v is T => v !== undefined && v !== null && v !== "";
const when = <T>(k: string, v: T | undefined | null, keep = given(v)) => (keep ? { [k]: v } : {});

/**
 * The inputs a program would declare for `c`, whose default price point is `pp`. The service does
 * not report a prepaid component's overage scheme (its answers carry the overage tiers only): the
 * printed one is "per_unit" for one tier and "volume" for more, which the overage pricing's
 * declaration needs and a diff never compares (overagePricing is create-only, compared by tiers).
 * Its rollover terms are printed only where an answer carries them (the contract's do not).
 */
export function componentInputs(c: Component, pp: ComponentPricePoint | undefined, familyHandle: string | undefined, site?: string) {
  const kind = c.kind ?? "metered";
  const handle = c.handle ?? String(c.id);
  const tiers = pp?.prices ?? c.prices;
  // The component's answer carries the overage tiers where its price point's may not.
  const overage = pp?.overagePrices.length ? pp.overagePrices : c.overagePrices;
  const onOff = kind === "on_off";
  const prepaid = kind === "prepaid_usage";
  return {
    productFamily: familyHandle !== undefined ? `handle:${familyHandle}` : c.productFamilyId,
    kind,
    handle,
    name: c.name ?? handle,
    ...(onOff ? {} : when("unitName", c.unitName)),
    ...when("description", c.description),
    ...(onOff
      ? when("unitPrice", tiers[0]?.unitPrice ?? c.unitPrice)
      : { pricingScheme: pp?.pricingScheme ?? c.pricingScheme ?? "per_unit", prices: declared(tiers) }),
    ...(prepaid && overage.length > 0
      ? { overagePricing: { pricingScheme: overage.length === 1 ? "per_unit" : "volume", prices: declared(overage) } }
      : {}),
    ...(prepaid ? when("rolloverPrepaidRemainder", pp?.rolloverPrepaidRemainder, pp?.rolloverPrepaidRemainder === true) : {}),
    ...(prepaid ? when("renewPrepaidAllocation", pp?.renewPrepaidAllocation, pp?.renewPrepaidAllocation === true) : {}),
    ...(prepaid && given(pp?.expirationInterval) && given(pp?.expirationIntervalUnit)
      ? { expirationInterval: pp.expirationInterval, expirationIntervalUnit: pp.expirationIntervalUnit }
      : {}),
    ...(kind === "quantity_based" ? when("recurring", c.recurring, c.recurring === false) : {}),
    ...(kind === "event_based" ? when("eventBasedBillingMetricId", c.eventBasedBillingMetricId) : {}),
    ...(onOff ? {} : when("allowFractionalQuantities", c.allowFractionalQuantities, c.allowFractionalQuantities === true)),
    ...(!prepaid && given(pp?.interval) && given(pp?.intervalUnit) ? { interval: pp.interval, intervalUnit: pp.intervalUnit } : {}),
    ...when("taxable", c.taxable, c.taxable === true),
    ...when("taxCode", c.taxCode),
    ...when("accountingCode", c.accountingCode),
    ...when("itemCategory", c.itemCategory),
    ...when("hideDateRangeOnInvoice", c.hideDateRangeOnInvoice, c.hideDateRangeOnInvoice === true),
    ...when("displayOnHostedPage", c.displayOnHostedPage, c.displayOnHostedPage === true),
    ...when("upgradeCharge", c.upgradeCharge),
    ...when("downgradeCredit", c.downgradeCredit),
    ...(site !== undefined ? { site } : {}),
  };
}

/**
 * The component an import id names: an id is looked for in the site's list (the service reads a component
 * by id only within its family), and, when none has it, taken as a handle: handles may be all digits.
 */
export async function componentByKey(client: BillingClient, key: string): Promise<Component | undefined> {
  if (!isId(key)) return componentWithHandle(client, key);
  const byId = (await client.listComponents({ includeArchived: true })).find((x) => x.id === Number(key));
  return byId ?? componentWithHandle(client, key);
}

export async function importComponent(provider: object, importId: string): Promise<plugin.ReadResult> {
  const m = ONE.exec(importId);
  if (!m)
    throw new Error(
      `${TYPE} import id "${importId}": give the component's handle or id (e.g. text-messages), or <site>/<handle> for an entry of billing:sites`,
    );
  const [, site, key = ""] = m;
  const client = clientOf(provider, site, TYPE, importId);
  const c = await componentByKey(client, key);
  if (!c) throw new Error(`${TYPE} import id "${importId}": component ${key} does not exist at the site: nothing to import`);
  if (c.archivedAt !== undefined)
    throw new Error(
      `${TYPE} import id "${importId}": component \`${c.handle ?? c.id}\` (id ${c.id}) is archived, and the service has no unarchive for components: nothing to import`,
    );
  const familyId = c.productFamilyId;
  const family = familyId === undefined ? undefined : await findByHandle(() => client.readProductFamily(familyId));
  const ppId = c.defaultPricePointId;
  const pp = ppId === undefined ? undefined : await findByHandle(() => client.readComponentPricePoint(c.id, ppId));
  const inputs = componentInputs(c, pp, family?.handle, site);
  const { site: _, ...args } = inputs;
  const seed = {
    componentId: c.id,
    productFamilyId: familyId ?? null,
    handle: inputs.handle,
    args: { ...args, ...(site !== undefined ? { site } : {}) },
    ...(site !== undefined ? { site } : {}),
  };
  const read = await kinds.component.read(provider, String(c.id), seed);
  if (!read.id || !read.props) throw new Error(`${TYPE} import id "${importId}": component ${key} is gone at the site: nothing to import`);
  return plain({ id: String(c.id), props: read.props, inputs });
}
