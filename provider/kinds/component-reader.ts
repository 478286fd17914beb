import type { ComponentPricePoint, PriceTier, Component as ServiceComponent } from "../../sdk/results";
import { findByHandle } from "./catalog";
import { type WithCurrencies, withComponentCurrencies } from "./component-currencies";
import { componentWithHandle, declaredTiers, overageSchemeOf } from "./component-fields";
import { takes } from "./component-inputs";
import {
  componentByKey,
  componentOutputs,
  pricePointByKey,
  pricePointOutputs,
  pricePointWithHandle,
  withDefaultPricePoint,
} from "./component-service";
import type { CatalogFacet, CatalogReader, SiteView } from "./kind";

/**
 * How a site's components and their price points are read into the inputs that declare them: the one rule
 * export, the import file, `pulumi import` and diff share (CatalogReader). A component's pricing is its
 * default price point's; each kind of component takes only the fields its create takes.
 */

/** What a reader takes from its kind's declaration: its inputs in their declared order, and its catalog facet. */
export interface ReaderParts {
  readonly fields: readonly string[];
  readonly catalog: Pick<CatalogFacet, "runtimeInputs" | "defaults">;
}

/**
 * The state a kind records of an object adopted with `inputs` (what an import records, as the kind's own read
 * would): its outputs, its key, and the declared inputs (those set, the site among them) as its `args`.
 */
function recorded(parts: ReaderParts, outputs: Record<string, unknown>, key: string | undefined, inputs: Record<string, unknown>) {
  const args = Object.fromEntries(parts.fields.filter((k) => inputs[k] !== undefined).map((k) => [k, inputs[k]]));
  return { ...outputs, handle: key ?? inputs.handle, args };
}
const withSite = (inputs: Record<string, unknown>, site: string | undefined) => (site !== undefined ? { ...inputs, site } : inputs);

/** The declaration of what is held: in the kind's order, without what is absent, empty, a runtime input or the service's default. */
function declaration(held: Record<string, unknown>, { fields, catalog }: ReaderParts): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of fields) {
    const v = held[k];
    if (v === undefined || v === null || v === "" || catalog.runtimeInputs.includes(k)) continue;
    if (k in catalog.defaults && catalog.defaults[k] === v) continue;
    out[k] = v;
  }
  return out;
}

/** A length and its unit, declared together or not at all (each needs the other). */
const pair = (n: string, u: string, length: number | undefined, unit: string | undefined) =>
  length !== undefined && unit !== undefined ? { [n]: length, [u]: unit } : {};

const overage = (answered: string | undefined, tiers: readonly PriceTier[]) =>
  tiers.length > 0 ? { pricingScheme: overageSchemeOf(answered, tiers), prices: declaredTiers(tiers) } : undefined;

/** A reference as a declaration writes it: `handle:<h>` where the referenced object has a handle, else its id. */
const reference = (handle: string | undefined, id: number | undefined) => (handle !== undefined ? `handle:${handle}` : id);

/**
 * What a component declares: its default price point's pricing (the default is the one the component names,
 * else the one of type "default"); where its price points are not listed, the component's own view of it.
 */
async function componentFromService(c: ServiceComponent, site: SiteView, parts: ReaderParts) {
  const kind = c.kind ?? "metered";
  const handle = c.handle ?? String(c.id);
  const points = (await site.children("componentPricePoint", c)) as readonly ComponentPricePoint[];
  const def = points.find((pp) => pp.id === c.defaultPricePointId) ?? points.find((pp) => pp.type === "default");
  const family = c.productFamilyId === undefined ? undefined : await site.keyOf("productFamily", c.productFamilyId);
  const tiers = def?.prices ?? c.prices;
  const held: Record<string, unknown> = {
    productFamily: reference(family, c.productFamilyId),
    kind,
    handle,
    name: c.name || handle,
    unitName: c.unitName,
    description: c.description,
    pricingScheme: def?.pricingScheme ?? c.pricingScheme ?? "per_unit",
    prices: declaredTiers(tiers),
    // An on/off component's price is its default price point's one tier.
    unitPrice: tiers[0]?.unitPrice ?? c.unitPrice,
    // The component's answer carries the overage tiers where its price point's may not.
    overagePricing: overage(def?.overagePricingScheme, def?.overagePrices.length ? def.overagePrices : c.overagePrices),
    rolloverPrepaidRemainder: def?.rolloverPrepaidRemainder,
    renewPrepaidAllocation: def?.renewPrepaidAllocation,
    ...pair("expirationInterval", "expirationIntervalUnit", def?.expirationInterval, def?.expirationIntervalUnit),
    recurring: c.recurring,
    eventBasedBillingMetricId: c.eventBasedBillingMetricId,
    allowFractionalQuantities: c.allowFractionalQuantities,
    ...pair("interval", "intervalUnit", def?.interval ?? c.interval, def?.intervalUnit ?? c.intervalUnit),
    taxable: c.taxable,
    taxCode: c.taxCode,
    accountingCode: c.accountingCode,
    itemCategory: c.itemCategory,
    hideDateRangeOnInvoice: c.hideDateRangeOnInvoice,
    displayOnHostedPage: c.displayOnHostedPage,
    upgradeCharge: c.upgradeCharge,
    downgradeCredit: c.downgradeCredit,
  };
  return declaration(Object.fromEntries(Object.entries(held).filter(([k]) => takes(kind, k))), parts);
}

/** What a component price point declares; its component's default declares `default: true` (it is then the component's part). */
async function pricePointFromService(pp: WithCurrencies, site: SiteView, parts: ReaderParts) {
  const handle = pp.handle ?? String(pp.id);
  const component = pp.componentId === undefined ? undefined : await site.keyOf("component", pp.componentId);
  return declaration(
    {
      component: reference(component, pp.componentId),
      handle,
      name: pp.name || handle,
      pricingScheme: pp.pricingScheme,
      prices: declaredTiers(pp.prices),
      ...pair("interval", "intervalUnit", pp.interval, pp.intervalUnit),
      useSiteExchangeRate: pp.useSiteExchangeRate,
      currencyPrices: pp.currencyPrices && Object.keys(pp.currencyPrices).length > 0 ? pp.currencyPrices : undefined,
      taxIncluded: pp.taxIncluded,
      overagePricing: overage(pp.overagePricingScheme, pp.overagePrices),
      rolloverPrepaidRemainder: pp.rolloverPrepaidRemainder,
      renewPrepaidAllocation: pp.renewPrepaidAllocation,
      ...pair("expirationInterval", "expirationIntervalUnit", pp.expirationInterval, pp.expirationIntervalUnit),
      default: pp.type === "default" ? true : undefined,
    },
    parts,
  );
}

/** The site's components (archived ones included), found by handle or id. */
export const componentReader = (parts: ReaderParts): CatalogReader<ServiceComponent> => ({
  list: (client) => client.listComponents({ includeArchived: true }),
  find: (client, key) => componentByKey(client, key),
  withKey: componentWithHandle,
  id: (c) => c.id,
  key: (c) => c.handle || undefined,
  archived: (c) => c.archivedAt !== undefined,
  fromService: (c, site) => componentFromService(c, site, parts),
  /** The kind's own read of it (one the service cannot unarchive refused): its outputs as refresh records them. */
  async record(client, c, inputs, site) {
    if (c.archivedAt !== undefined)
      throw new Error(
        `component \`${c.handle ?? c.id}\` (id ${c.id}) is archived, and the service has no unarchive for components: nothing to import`,
      );
    const familyId = c.productFamilyId;
    const now = familyId === undefined ? c : await findByHandle(() => client.readComponent(familyId, c.id));
    if (!now) throw new Error(`component ${c.handle ?? c.id} is gone at the site: nothing to import`);
    const declared = withSite(inputs, site);
    const outputs = componentOutputs(await withDefaultPricePoint(client, { c: now }), declared.site as string | undefined);
    return recorded(parts, outputs, now.handle, declared);
  },
});

/** The component a price point is read within: the owner the catalog read hands over. */
function ownerId(owner: unknown): number {
  const id = (owner as { id?: unknown } | undefined)?.id;
  if (typeof id !== "number") throw new Error("a component price point is read within its component: no component was given");
  return id;
}

/** A component's price points (archived ones included), found by handle or id within their component. */
export const componentPricePointReader = (parts: ReaderParts): CatalogReader<WithCurrencies> => ({
  async list(client, owner) {
    const out: WithCurrencies[] = [];
    // One at a time: the catalog's read bounds its requests in flight per list, not within one.
    for (const pp of await client.listComponentPricePoints(ownerId(owner), { includeArchived: true }))
      out.push(await withComponentCurrencies(client, ownerId(owner), pp));
    return out;
  },
  async find(client, key, owner) {
    const found = await pricePointByKey(client, ownerId(owner), key);
    return found && withComponentCurrencies(client, ownerId(owner), found);
  },
  withKey: (client, key, owner) => pricePointWithHandle(client, ownerId(owner), key),
  id: (pp) => pp.id,
  key: (pp) => pp.handle || undefined,
  archived: (pp) => pp.archivedAt !== undefined,
  fromService: (pp, site) => pricePointFromService(pp, site, parts),
  /** The kind's own read of it: its outputs as refresh records them. */
  async record(client, pp, inputs, site) {
    const componentId = pp.componentId ?? Number(inputs.component);
    const read = await findByHandle(() => client.readComponentPricePoint(componentId, pp.id));
    const now = read && (await withComponentCurrencies(client, componentId, read));
    if (!now) throw new Error(`price point ${pp.handle ?? pp.id} is gone at the site: nothing to import`);
    const declared = withSite(inputs, site);
    return recorded(parts, pricePointOutputs(now, componentId, declared.site as string | undefined), now.handle, declared);
  },
});
