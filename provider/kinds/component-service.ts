import type { BillingClient } from "../../sdk/client";
import type { ComponentPricePoint, Component as ServiceComponent } from "../../sdk/results";
import { findByHandle, isNotFound, referencedHandle } from "./catalog";
import { componentWithHandle, heldTiers } from "./component-fields";
import type { Context } from "./kind";

/**
 * What the service holds of components and their price points, as both kinds read it: how one is found
 * (by handle, by id, by a reference), and the outputs each kind records of it.
 */

/**
 * A component, and its default price point (which holds its pricing) once read: `pp` is undefined until
 * {@link withDefaultPricePoint} reads it, null when there is none. A delete or a preview's lookup needs
 * only the component, so its price point is read only where the pricing is compared or recorded.
 */
export interface HeldComponent {
  readonly c: ServiceComponent;
  pp?: ComponentPricePoint | null;
}

/** The component with its default price point read (once: `h` keeps it). */
export async function withDefaultPricePoint(client: BillingClient, h: HeldComponent): Promise<HeldComponent> {
  if (h.pp !== undefined) return h;
  const id = h.c.defaultPricePointId;
  h.pp = id === undefined ? null : ((await findByHandle(() => client.readComponentPricePoint(h.c.id, id))) ?? null);
  return h;
}

/** A component's outputs: its pricing is its default price point's, or, not read, the component's own view of it. */
export function componentOutputs({ c, pp }: HeldComponent, site: string | undefined) {
  return {
    componentId: c.id,
    productFamilyId: c.productFamilyId ?? null,
    handle: c.handle ?? "",
    name: c.name ?? null,
    defaultPricePointId: c.defaultPricePointId ?? null,
    archivedAt: c.archivedAt ?? null,
    pricingScheme: pp?.pricingScheme ?? c.pricingScheme ?? null,
    prices: heldTiers(pp?.prices ?? c.prices),
    ...(site !== undefined ? { site } : {}),
  };
}

/** A component price point's outputs (`componentId`: its component's, when the answer leaves it out). */
export function pricePointOutputs(
  pp: ComponentPricePoint & { readonly currencyPrices?: Record<string, (string | null)[]> },
  componentId: number,
  site: string | undefined,
) {
  return {
    pricePointId: pp.id,
    componentId: pp.componentId ?? componentId,
    handle: pp.handle ?? "",
    name: pp.name ?? null,
    isDefault: pp.type === "default",
    archivedAt: pp.archivedAt ?? null,
    pricingScheme: pp.pricingScheme ?? null,
    prices: heldTiers(pp.prices),
    overagePrices: heldTiers(pp.overagePrices),
    interval: pp.interval ?? null,
    intervalUnit: pp.intervalUnit ?? null,
    useSiteExchangeRate: pp.useSiteExchangeRate ?? null,
    taxIncluded: pp.taxIncluded ?? null,
    rolloverPrepaidRemainder: pp.rolloverPrepaidRemainder ?? null,
    renewPrepaidAllocation: pp.renewPrepaidAllocation ?? null,
    expirationInterval: pp.expirationInterval ?? null,
    expirationIntervalUnit: pp.expirationIntervalUnit ?? null,
    currencyPrices: pp.currencyPrices ?? null,
    ...(site !== undefined ? { site } : {}),
  };
}

/** The component's id: a number as given, a handle looked up (the component must exist). */
export async function componentIdOf(ctx: Context, ref: number | string, site: string | undefined): Promise<number> {
  const handle = referencedHandle(ref);
  if (handle === undefined) return ref as number;
  const c = await componentWithHandle(ctx.client(site), handle);
  if (!c)
    throw new Error(`component: no component has the handle \`${handle}\` at site ${ctx.siteLabel(site)}: declare a Component and pass it`);
  return c.id;
}

const isId = (s: string) => /^[1-9][0-9]{0,15}$/.test(s);

/**
 * The component an import id's part names: an id is looked for in the site's list (the service reads a component
 * by id only within its family), and, when none has it, taken as a handle: handles may be all digits.
 */
export async function componentByKey(client: BillingClient, key: string): Promise<ServiceComponent | undefined> {
  if (!isId(key)) return componentWithHandle(client, key);
  const byId = (await client.listComponents({ includeArchived: true })).find((x) => x.id === Number(key));
  return byId ?? componentWithHandle(client, key);
}

/**
 * The component's price point with this handle, archived ones included, or undefined. Read by
 * `handle:<handle>` (the contract's Read takes it) rather than found in the list, which the contract
 * gives no archived filter: a service may leave archived ones out of it (the simulator does). The
 * SDK reads the `handle:` form; BillingClient's signature names only numeric ids.
 */
export const pricePointWithHandle = (client: BillingClient, componentId: number, handle: string) =>
  findByHandle(() => client.readComponentPricePoint(componentId, `handle:${handle}` as unknown as number));

/** The price point an import id's part names: an id, else (or when no price point has that id) a handle. */
export async function pricePointByKey(client: BillingClient, componentId: number, key: string): Promise<ComponentPricePoint | undefined> {
  const byId = isId(key) ? await findByHandle(() => client.readComponentPricePoint(componentId, Number(key))) : undefined;
  return byId ?? pricePointWithHandle(client, componentId, key);
}

/** Why a price point cannot be declared in the component with this id (none has it: its list answers 404), or undefined. */
export async function missingComponent(ctx: Context, site: string | undefined, componentId: number): Promise<string | undefined> {
  try {
    await ctx.client(site).listComponentPricePoints(componentId);
    return undefined;
  } catch (err) {
    if (!isNotFound(err)) throw err;
    return `no component has the id ${componentId} at site ${ctx.siteLabel(site)}: it must be an existing component's id (e.g. a Component's componentId) or "handle:<handle>"`;
  }
}
