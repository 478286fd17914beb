import type { BillingClient } from "../../sdk/client";
import type { Offer as ServiceOffer } from "../../sdk/site-config/results";
import { referenceOrder } from "./catalog";
import { referenceSet } from "./coupon-fields";
import type { CatalogReader, SiteView } from "./kind";

/**
 * How the catalog reads offers (`billing-catalog` export and diff, the import file, the plugin's `pulumi import`):
 * listed with the archived ones, keyed by handle, and written as the inputs that declare what the service holds,
 * references as `handle:<h>`. An offer names its price points by id only, so their handles are read beside it.
 */

/** A price point an offer names: its handle, and whether it is its owner's default (then a declaration may leave it out). */
interface PricePointName {
  readonly handle: string | undefined;
  readonly isDefault: boolean;
}

/** An offer with the names of the price points it holds, by `product:<id>` / `component:<id>`. */
export interface HeldOffer extends ServiceOffer {
  readonly pricePoints: Readonly<Record<string, PricePointName>>;
}

/** The offers with their price points' names; each product's and component's price points listed once. */
export async function withPricePoints(client: BillingClient, offers: readonly ServiceOffer[]): Promise<HeldOffer[]> {
  const lists = new Map<string, Promise<readonly { id: number; handle: string | undefined; type: string | undefined }[]>>();
  const listed = (owner: "product" | "component", id: number) => {
    const key = `${owner}:${id}`;
    let l = lists.get(key);
    if (!l) {
      l =
        owner === "product"
          ? client.listPricePoints(id, { includeArchived: true })
          : client.listComponentPricePoints(id, { includeArchived: true });
      lists.set(key, l);
    }
    return l;
  };
  const out: HeldOffer[] = [];
  // One at a time: the catalog's read bounds its requests in flight per list, not within one.
  for (const o of offers) {
    const names: Record<string, PricePointName> = {};
    const name = async (owner: "product" | "component", ownerId: number | undefined, ppId: number | undefined) => {
      if (ownerId === undefined || ppId === undefined) return;
      const pp = (await listed(owner, ownerId)).find((p) => p.id === ppId);
      if (pp) names[`${owner}:${ppId}`] = { handle: pp.handle, isDefault: pp.type === "default" };
    };
    await name("product", o.productId, o.productPricePointId);
    for (const c of o.components) await name("component", c.componentId, c.pricePointId);
    out.push({ ...o, pricePoints: names });
  }
  return out;
}

const ID = /^[1-9][0-9]{0,15}$/;

/** An object of another kind as a reference: `handle:<h>` where the site names it, else its id. */
const asReference = async (site: SiteView, kind: string, id: number) => {
  const key = await site.keyOf(kind, id);
  return key !== undefined ? `handle:${key}` : id;
};

/**
 * A price point as a reference: left out when it is its owner's default, which a create without one takes (a
 * component's default has a handle the service makes up, `uuid:…`, which no other site holds); else `handle:<h>`,
 * or its id when it has no handle.
 */
const pricePointReference = (o: HeldOffer, owner: "product" | "component", id: number | undefined) => {
  const pp = id === undefined ? undefined : o.pricePoints[`${owner}:${id}`];
  if (id === undefined || pp?.isDefault) return undefined;
  return pp?.handle !== undefined ? `handle:${pp.handle}` : id;
};

/** The inputs that declare what the service holds (the name: the handle when it holds none, as a declaration needs one). */
async function inputsOf(o: HeldOffer, site: SiteView): Promise<Record<string, unknown>> {
  const components: { component: number | string; pricePoint?: number | string; startingQuantity: number }[] = [];
  for (const c of o.components) {
    const pricePoint = pricePointReference(o, "component", c.pricePointId);
    components.push({
      component: await asReference(site, "component", c.componentId),
      ...(pricePoint !== undefined ? { pricePoint } : {}),
      startingQuantity: c.startingQuantity ?? 1,
    });
  }
  const coupons = o.coupons.flatMap((c): (number | string)[] => (c.code ? [`handle:${c.code}`] : c.id !== undefined ? [c.id] : []));
  return {
    handle: o.handle,
    name: o.name || o.handle,
    description: o.description || undefined,
    product: o.productId === undefined ? undefined : await asReference(site, "product", o.productId),
    productPricePoint: pricePointReference(o, "product", o.productPricePointId),
    components: components.length > 0 ? components.sort((x, y) => referenceOrder(x.component, y.component)) : undefined,
    coupons: coupons.length > 0 ? referenceSet(coupons) : undefined,
  };
}

/** The offer kind's reader; `record` is the kind's (what an import records). */
export const offerReader = (record: CatalogReader<HeldOffer>["record"]): CatalogReader<HeldOffer> => ({
  list: async (client) => withPricePoints(client, await client.listOffers({ includeArchived: true })),
  /** The offer with this handle, else the one with this id (a handle of digits wins). */
  async find(client, key) {
    const all = await client.listOffers({ includeArchived: true });
    const found = all.find((o) => o.handle === key) ?? (ID.test(key) ? all.find((o) => o.id === Number(key)) : undefined);
    return found && (await withPricePoints(client, [found]))[0];
  },
  id: (o) => o.id,
  key: (o) => o.handle || undefined,
  archived: (o) => o.archivedAt !== undefined,
  fromService: inputsOf,
  record,
});
