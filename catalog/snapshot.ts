/**
 * A site's catalog as plain data, keyed by handle (by code for coupons): ids differ from site to
 * site, handles carry a catalog across them, so nothing here is an id. Fields are the resource kinds'
 * input names; a field the service holds nothing for is left out. The service's own values are kept
 * as it holds them (decimal text for unit prices), so that two snapshots compare what the sites hold.
 */

/** The snapshot's format tag, written into every snapshot file so that `diff` can tell one from a site. */
export const SNAPSHOT_FORMAT = "billing-catalog-snapshot/1";

/** One tier of a component's prices. */
export interface TierEntry {
  readonly startingQuantity: number;
  readonly endingQuantity?: number;
  readonly unitPrice: string;
}

/** A product family. */
export interface FamilyEntry {
  readonly name: string;
  readonly description?: string;
  readonly accountingCode?: string;
}

/** The pricing fields of a product (its default price point's) and of a product price point. */
export interface PricingEntry {
  readonly priceInCents?: number;
  readonly interval?: number;
  readonly intervalUnit?: string;
  readonly trialPriceInCents?: number;
  readonly trialInterval?: number;
  readonly trialIntervalUnit?: string;
  readonly trialType?: string;
  readonly initialChargeInCents?: number;
  readonly initialChargeAfterTrial?: boolean;
  readonly expirationInterval?: number;
  readonly expirationIntervalUnit?: string;
}

/** A price point of a product, other than its default (whose pricing is the product's). */
export interface PricePointEntry extends PricingEntry {
  readonly name: string;
  readonly archived?: true;
}

/**
 * Which price point is the default: its handle and name. The service makes the handle when a
 * product or component is created through the API (`uuid:…`), so it is shown but not compared.
 */
export interface DefaultPricePointEntry {
  readonly handle?: string;
  readonly name?: string;
}

/** A product, with the pricing of its default price point and its other price points by handle. */
export interface ProductEntry extends PricingEntry {
  /** The family's handle. */
  readonly productFamily: string;
  readonly name: string;
  readonly description?: string;
  readonly accountingCode?: string;
  readonly taxCode?: string;
  readonly requireCreditCard?: boolean;
  readonly requestCreditCard?: boolean;
  readonly archived?: true;
  readonly defaultPricePoint: DefaultPricePointEntry;
  readonly pricePoints: Readonly<Record<string, PricePointEntry>>;
}

/** A prepaid usage price's overage. The SDK reads no overage scheme: it is inferred (see read.ts). */
export interface OverageEntry {
  readonly pricingScheme: string;
  readonly prices: readonly TierEntry[];
}

/** The pricing a component's price point holds (its default one's is the component's). */
export interface ComponentPricingEntry {
  readonly pricingScheme?: string;
  readonly prices?: readonly TierEntry[];
  readonly overagePricing?: OverageEntry;
  readonly interval?: number;
  readonly intervalUnit?: string;
  readonly useSiteExchangeRate?: boolean;
  readonly taxIncluded?: boolean;
  readonly rolloverPrepaidRemainder?: boolean;
  readonly renewPrepaidAllocation?: boolean;
  readonly expirationInterval?: number;
  readonly expirationIntervalUnit?: string;
}

/** A component's price point other than its default. */
export interface ComponentPricePointEntry extends ComponentPricingEntry {
  readonly name: string;
  readonly archived?: true;
}

/** A component, with its default price point's pricing and its other price points by handle. */
export interface ComponentEntry extends ComponentPricingEntry {
  /** The family's handle. */
  readonly productFamily: string;
  /** "metered", "quantity_based", "on_off", "prepaid_usage" or "event_based". */
  readonly kind: string;
  readonly name: string;
  readonly description?: string;
  readonly unitName?: string;
  /** An on/off component's price (decimal text). */
  readonly unitPrice?: string;
  readonly taxable?: boolean;
  readonly taxCode?: string;
  readonly accountingCode?: string;
  readonly itemCategory?: string;
  readonly recurring?: boolean;
  readonly upgradeCharge?: string;
  readonly downgradeCredit?: string;
  readonly hideDateRangeOnInvoice?: boolean;
  readonly displayOnHostedPage?: boolean;
  readonly allowFractionalQuantities?: boolean;
  readonly eventBasedBillingMetricId?: number;
  readonly archived?: true;
  readonly defaultPricePoint: DefaultPricePointEntry;
  readonly pricePoints: Readonly<Record<string, ComponentPricePointEntry>>;
}

/** A coupon; its restrictions by handle, sorted. */
export interface CouponEntry {
  /** The family's handle. */
  readonly productFamily: string;
  readonly name: string;
  readonly description?: string;
  readonly percentage?: number;
  readonly amountInCents?: number;
  readonly recurring?: boolean;
  readonly durationPeriodCount?: number;
  readonly endDate?: string;
  readonly stackable?: boolean;
  readonly compoundingStrategy?: string;
  readonly allowNegativeBalance?: boolean;
  readonly excludeMidPeriodAllocations?: boolean;
  readonly applyOnCancelAtEndOfPeriod?: boolean;
  readonly applyOnSubscriptionExpiration?: boolean;
  /** Product handles (`id:<n>` for one the read could not name). */
  readonly restrictedProducts?: readonly string[];
  /** Component handles (`id:<n>` for one the read could not name). */
  readonly restrictedComponents?: readonly string[];
  readonly archived?: true;
}

/** A site's whole catalog, by handle; every record's keys sorted, so its JSON is the same bytes for the same site. */
export interface CatalogSnapshot {
  /** {@link SNAPSHOT_FORMAT}. */
  readonly format: typeof SNAPSHOT_FORMAT;
  /** Whether archived objects were read (then they are here with `archived: true`). */
  readonly includesArchived: boolean;
  /**
   * True for what a program declares (from its preview) rather than what a site holds: it leaves out
   * what the service holds by default, so a diff compares only the fields it declares.
   */
  readonly declaredOnly?: boolean;
  /** Product families by handle. */
  readonly families: Readonly<Record<string, FamilyEntry>>;
  /** Products by handle, each with its price points. */
  readonly products: Readonly<Record<string, ProductEntry>>;
  /** Components by handle, each with its price points. */
  readonly components: Readonly<Record<string, ComponentEntry>>;
  /** Coupons by code. */
  readonly coupons: Readonly<Record<string, CouponEntry>>;
}

/** The site's ids of what a snapshot holds, by the same keys: kept aside, as they differ per site. */
export interface CatalogIds {
  /** Family ids by handle. */
  readonly families: Readonly<Record<string, number>>;
  /** Product ids by handle. */
  readonly products: Readonly<Record<string, number>>;
  /** Component ids by handle. */
  readonly components: Readonly<Record<string, number>>;
  /** Coupon ids by code. */
  readonly coupons: Readonly<Record<string, number>>;
}

/** An object the read left out because nothing can key it across sites (no handle), with its id. */
export interface SkippedObject {
  /** Its kind. */
  readonly type: "ProductFamily" | "Product" | "ProductPricePoint" | "Component" | "ComponentPricePoint" | "Coupon";
  /** Its id at the site read. */
  readonly id: number;
  /** Why it was left out, e.g. "a product without a handle". */
  readonly reason: string;
}

/** A record with its keys in code-unit order (the order JSON and the generated program follow). */
export function sortedRecord<T>(entries: Iterable<readonly [string, T]>): Record<string, T> {
  const byKey = new Map<string, T>(entries);
  // The default sort compares UTF-16 code units: the order JSON.stringify then keeps, and the cheapest one.
  const out: Record<string, T> = {};
  for (const k of [...byKey.keys()].sort()) out[k] = byKey.get(k) as T;
  return out;
}

/** The snapshot as the JSON `export --snapshot` writes: two-space indented, ending with a newline. */
export const snapshotJson = (s: CatalogSnapshot): string => `${JSON.stringify(s, null, 2)}\n`;
