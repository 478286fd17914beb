import type { BillingClient } from "../sdk/client";
import type { CleanupScope } from "../sdk/site-config/inputs";

/**
 * What `POST /sites/clear_data.json` clears, as the reads that count it. The contract publishes no list
 * of customers or subscriptions, so they cannot be counted nor awaited directly; what can be read of
 * them is their custom fields' values (a metafield's `data_count`: how many subscriptions or customers
 * hold one), which go with them. `all` adds the catalog, archived objects included (the clear takes
 * them too): a product's price points and currency prices go with their product, a component's with it.
 */
export interface Collection {
  /** How the summary names it: "products (archived included)". */
  readonly label: string;
  /** Singular and plural, for the timeout message: "1 product", "2 products". */
  readonly noun: readonly [one: string, many: string];
  readonly count: (client: BillingClient) => Promise<number>;
}

const fieldValues = async (client: BillingClient, type: "subscriptions" | "customers") =>
  (await client.listMetafields(type)).reduce((n, m) => n + (m.dataCount ?? 0), 0);

const CUSTOMERS: readonly Collection[] = [
  {
    label: "custom field values on subscriptions",
    noun: ["custom field value on subscriptions", "custom field values on subscriptions"],
    count: (c) => fieldValues(c, "subscriptions"),
  },
  {
    label: "custom field values on customers",
    noun: ["custom field value on customers", "custom field values on customers"],
    count: (c) => fieldValues(c, "customers"),
  },
];

/** A catalog list, archived objects asked for: the clear takes them too. */
const archivedToo = (many: string, one: string, list: (c: BillingClient) => Promise<readonly unknown[]>): Collection => ({
  label: `${many} (archived included)`,
  noun: [one, many],
  count: async (c) => (await list(c)).length,
});

const CATALOG: readonly Collection[] = [
  { label: "product families", noun: ["product family", "product families"], count: async (c) => (await c.listProductFamilies()).length },
  archivedToo("products", "product", (c) => c.listProducts({ includeArchived: true })),
  archivedToo("components", "component", (c) => c.listComponents({ includeArchived: true })),
  archivedToo("coupons", "coupon", (c) => c.listCoupons({ includeArchived: true })),
  archivedToo("offers", "offer", (c) => c.listOffers({ includeArchived: true })),
];

/** The collections a scope clears, in the order the summary lists them. */
export function collectionsOf(scope: CleanupScope): readonly Collection[] {
  return scope === "all" ? [...CATALOG, ...CUSTOMERS] : CUSTOMERS;
}

/** One count per collection, in its order; the reads one after the other (the service's per-site cap is 4). */
export async function countAll(client: BillingClient, collections: readonly Collection[]): Promise<number[]> {
  const out: number[] = [];
  for (const c of collections) out.push(await c.count(client));
  return out;
}

/** "2 products, 1 offer": what is left, the empty collections left out. */
export function leftOver(collections: readonly Collection[], counts: readonly number[]): string {
  return collections
    .map((c, i) => [c, counts[i] ?? 0] as const)
    .filter(([, n]) => n > 0)
    .map(([c, n]) => `${n} ${c.noun[n === 1 ? 0 : 1]}`)
    .join(", ");
}
