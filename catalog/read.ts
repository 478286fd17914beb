import { PRICING_FIELDS } from "../provider/kinds/pricing-fields";
import { listComponentPricePoints } from "../sdk/catalog/component-price-points";
import { listComponents } from "../sdk/catalog/components";
import { listCoupons } from "../sdk/catalog/coupons";
import { listProductFamilies } from "../sdk/catalog/families";
import { listProducts } from "../sdk/catalog/products";
import { type BillingClientOptions, resolveConnection } from "../sdk/options";
import { listPricePoints } from "../sdk/products";
import type { Component, ComponentPricePoint, Coupon, PricePoint, PriceTier, Pricing, Product, ProductFamily } from "../sdk/results";
import { Transport } from "../sdk/transport";
import { limiter } from "./limit";
import {
  type CatalogIds,
  type CatalogSnapshot,
  type ComponentEntry,
  type ComponentPricePointEntry,
  type ComponentPricingEntry,
  type CouponEntry,
  type FamilyEntry,
  type OverageEntry,
  type PricePointEntry,
  type PricingEntry,
  type ProductEntry,
  type SkippedObject,
  SNAPSHOT_FORMAT,
  sortedRecord,
  type TierEntry,
} from "./snapshot";

/** The service's limit of requests in flight per site: the read never goes above it. */
export const MAX_IN_FLIGHT = 4;

/** How far a read has come, for a progress display. */
export interface ReadProgress {
  /** Objects read so far (families, products, price points, components, their price points, coupons). */
  readonly objects: number;
  /** Lists read so far (each a request, or one per page for paged lists). */
  readonly lists: number;
  /** Lists still to read, as far as known (each product's and component's price points are known once their list is read). */
  readonly listsLeft: number;
}

/** Options of {@link readCatalog}. */
export interface ReadCatalogOptions {
  /** Read archived objects too (they are in the snapshot with `archived: true`). Default false. */
  readonly includeArchived?: boolean;
  /** Called after each list is read. */
  readonly onProgress?: (p: ReadProgress) => void;
  /** Lists read at once, 1 to 4 (the service's limit). Default 4. */
  readonly maxInFlight?: number;
}

/** What {@link readCatalog} returns: the snapshot, the site's ids aside, and what could not be keyed. */
export interface CatalogRead {
  /** The catalog by handle. */
  readonly snapshot: CatalogSnapshot;
  /** The site's ids of the snapshot's objects, by the same keys. */
  readonly ids: CatalogIds;
  /** Objects left out because no handle keys them across sites. */
  readonly skipped: readonly SkippedObject[];
}

/** Drops undefined and null, so that a field the service holds nothing for is absent, not null. */
function present<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null)) as T;
}

/** A product's or price point's pricing; "never" expiring and no charge after a trial are what the service holds when nothing was set. */
function pricingOf(p: Pricing | undefined): PricingEntry {
  if (!p) return {};
  const out: Record<string, unknown> = {};
  for (const k of PRICING_FIELDS) {
    const v = p[k];
    if (v === undefined || v === null) continue;
    if ((k === "expirationIntervalUnit" && v === "never") || (k === "initialChargeAfterTrial" && v === false)) continue;
    out[k] = v;
  }
  return out as PricingEntry;
}

const tiers = (list: readonly PriceTier[]): TierEntry[] =>
  list.map((t) => present({ startingQuantity: t.startingQuantity, endingQuantity: t.endingQuantity, unitPrice: t.unitPrice }));

/**
 * The SDK reads a price point's overage tiers but not their scheme (the wire's `overage_pricing_scheme`
 * is dropped by its result type): one open tier is read as per_unit, several as tiered.
 */
function overageOf(list: readonly PriceTier[]): OverageEntry | undefined {
  if (list.length === 0) return undefined;
  return { pricingScheme: list.length === 1 && list[0]?.endingQuantity === undefined ? "per_unit" : "tiered", prices: tiers(list) };
}

/** A price point's pricing; `overage`: the component's own overage tiers, for its default price point when its list leaves them out. */
function componentPricingOf(pp: ComponentPricePoint, overage: readonly PriceTier[] = []): ComponentPricingEntry {
  return present({
    pricingScheme: pp.pricingScheme,
    prices: pp.prices.length > 0 ? tiers(pp.prices) : undefined,
    overagePricing: overageOf(pp.overagePrices.length > 0 ? pp.overagePrices : overage),
    interval: pp.interval,
    intervalUnit: pp.intervalUnit,
    useSiteExchangeRate: pp.useSiteExchangeRate,
    taxIncluded: pp.taxIncluded,
    rolloverPrepaidRemainder: pp.rolloverPrepaidRemainder,
    renewPrepaidAllocation: pp.renewPrepaidAllocation,
    expirationInterval: pp.expirationInterval,
    expirationIntervalUnit: pp.expirationIntervalUnit,
  });
}

const archived = (at: string | undefined): { archived?: true } => (at !== undefined ? { archived: true } : {});

/** The entry without absent fields, its keys in order, so that every snapshot's JSON lists fields in one order. */
const ordered = <T extends object>(o: T): T => sortedRecord(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

function familyEntry(f: ProductFamily): FamilyEntry {
  return ordered(
    present({ name: f.name ?? f.handle ?? "", description: f.description || undefined, accountingCode: f.accountingCode || undefined }),
  );
}

function productEntry(p: Product, family: string, points: readonly PricePoint[], skipped: SkippedObject[]): ProductEntry {
  const def = points.find((pp) => pp.id === p.defaultPricePointId) ?? points.find((pp) => pp.type === "default");
  const pricePoints: [string, PricePointEntry][] = [];
  for (const pp of points) {
    if (pp === def) continue;
    if (!pp.handle) {
      skipped.push({ type: "ProductPricePoint", id: pp.id, reason: `a price point of product \`${p.handle}\` without a handle` });
      continue;
    }
    pricePoints.push([pp.handle, ordered({ name: pp.name ?? pp.handle, ...pricingOf(pp.pricing), ...archived(pp.archivedAt) })]);
  }
  return ordered({
    productFamily: family,
    name: p.name ?? p.handle ?? "",
    ...present({
      description: p.description || undefined,
      accountingCode: p.accountingCode || undefined,
      taxCode: p.taxCode || undefined,
      requireCreditCard: p.requireCreditCard,
      requestCreditCard: p.requestCreditCard,
    }),
    ...pricingOf(p.pricing ?? def?.pricing),
    ...archived(p.archivedAt),
    defaultPricePoint: present({ handle: def?.handle ?? p.defaultPricePointHandle, name: def?.name }),
    pricePoints: sortedRecord(pricePoints),
  });
}

function componentEntry(c: Component, family: string, points: readonly ComponentPricePoint[], skipped: SkippedObject[]): ComponentEntry {
  const def = points.find((pp) => pp.id === c.defaultPricePointId) ?? points.find((pp) => pp.type === "default");
  const pricePoints: [string, ComponentPricePointEntry][] = [];
  for (const pp of points) {
    if (pp === def) continue;
    if (!pp.handle) {
      skipped.push({ type: "ComponentPricePoint", id: pp.id, reason: `a price point of component \`${c.handle}\` without a handle` });
      continue;
    }
    pricePoints.push([pp.handle, ordered({ name: pp.name ?? pp.handle, ...componentPricingOf(pp), ...archived(pp.archivedAt) })]);
  }
  // The default price point's pricing is the component's; without its price point list, the component's own view.
  const pricing: ComponentPricingEntry = def
    ? componentPricingOf(def, c.overagePrices)
    : present({
        pricingScheme: c.pricingScheme,
        prices: c.prices.length > 0 ? tiers(c.prices) : undefined,
        overagePricing: overageOf(c.overagePrices),
        interval: c.interval,
        intervalUnit: c.intervalUnit,
      });
  return ordered({
    productFamily: family,
    kind: c.kind ?? "",
    name: c.name ?? c.handle ?? "",
    ...present({
      description: c.description || undefined,
      unitName: c.unitName,
      unitPrice: c.kind === "on_off" ? c.unitPrice : undefined,
      taxable: c.taxable,
      taxCode: c.taxCode || undefined,
      accountingCode: c.accountingCode || undefined,
      itemCategory: c.itemCategory,
      recurring: c.recurring,
      upgradeCharge: c.upgradeCharge,
      downgradeCredit: c.downgradeCredit,
      hideDateRangeOnInvoice: c.hideDateRangeOnInvoice,
      displayOnHostedPage: c.displayOnHostedPage,
      allowFractionalQuantities: c.allowFractionalQuantities,
      eventBasedBillingMetricId: c.eventBasedBillingMetricId,
    }),
    // An on/off component's price is its unitPrice; its price point's single tier says the same again.
    ...(c.kind === "on_off" ? { ...pricing, prices: undefined, pricingScheme: undefined } : pricing),
    ...archived(c.archivedAt),
    defaultPricePoint: present({ handle: def?.handle, name: def?.name ?? c.defaultPricePointName }),
    pricePoints: sortedRecord(pricePoints),
  });
}

function couponEntry(
  c: Coupon,
  family: string,
  productHandle: (id: number) => string,
  componentHandle: (id: number) => string,
): CouponEntry {
  const restricted = (type: string, name: (id: number) => string) => {
    const list = c.restrictions.filter((r) => r.itemType === type).map((r) => r.handle ?? name(r.itemId));
    return list.length > 0 ? [...new Set(list)].sort() : undefined;
  };
  return ordered(
    present({
      productFamily: family,
      name: c.name ?? c.code ?? "",
      description: c.description || undefined,
      percentage: c.percentage !== undefined ? Number(c.percentage) : undefined,
      amountInCents: c.amountInCents,
      recurring: c.recurring,
      durationPeriodCount: c.durationPeriodCount,
      endDate: c.endDate,
      stackable: c.stackable,
      compoundingStrategy: c.compoundingStrategy,
      allowNegativeBalance: c.allowNegativeBalance,
      excludeMidPeriodAllocations: c.excludeMidPeriodAllocations,
      applyOnCancelAtEndOfPeriod: c.applyOnCancelAtEndOfPeriod,
      applyOnSubscriptionExpiration: c.applyOnSubscriptionExpiration,
      restrictedProducts: restricted("Product", productHandle),
      restrictedComponents: restricted("Component", componentHandle),
      ...archived(c.archivedAt),
    }),
  );
}

/**
 * Reads a site's whole catalog (`site`: the options of a `BillingClient`, credentials included, used for
 * this read only and never kept): its families, products and their price points, components and
 * their price points, coupons (every page of each), into one {@link CatalogSnapshot} keyed by
 * handle, with the site's ids aside. At most {@link MAX_IN_FLIGHT} lists are read at once, whatever
 * the options allow. Objects without a handle cannot be keyed across sites: they are listed in
 * `skipped`, not in the snapshot. Archived objects are read only with `includeArchived` (archived
 * products and components are still listed once, to name what a coupon's restrictions point at).
 */
export async function readCatalog(site: BillingClientOptions, options: ReadCatalogOptions = {}): Promise<CatalogRead> {
  // One transport (one pool of at most 4 connections) for the whole read: the SDK's list operations over it.
  const t = new Transport(resolveConnection({ ...site, maxConcurrency: MAX_IN_FLIGHT }));
  try {
    return await readWith(t, options);
  } finally {
    await t.close();
  }
}

async function readWith(t: Transport, options: ReadCatalogOptions): Promise<CatalogRead> {
  const includeArchived = options.includeArchived === true;
  const cap = Math.min(MAX_IN_FLIGHT, Math.max(1, Math.floor(options.maxInFlight ?? MAX_IN_FLIGHT)));
  const run = limiter(cap);
  let objects = 0;
  let lists = 0;
  let listsLeft = 4;
  const live = (rows: { archivedAt?: string }[]) => rows.filter((r) => includeArchived || r.archivedAt === undefined).length;
  // A product's or component's default price point is the product's or component's own pricing, not an object of its own.
  const others = (rows: unknown[]) => Math.max(0, rows.length - 1);
  // `counted`: how many of a list's rows the snapshot holds as objects of their own, so the count only grows.
  const read = async <T>(list: () => Promise<T[]>, counted: (rows: T[]) => number = (rows) => rows.length): Promise<T[]> => {
    const rows = await run(list);
    objects += counted(rows);
    lists++;
    listsLeft--;
    options.onProgress?.({ objects, lists, listsLeft });
    return rows;
  };

  const [families, products, components, coupons] = await Promise.all([
    read(() => listProductFamilies(t)),
    read(() => listProducts(t, { includeArchived: true }), live),
    read(() => listComponents(t, { includeArchived: true }), live),
    read(() => listCoupons(t, { includeArchived })),
  ]);
  const skipped: SkippedObject[] = [];
  const familyHandle = new Map<number, string>();
  const familyRows: [string, FamilyEntry][] = [];
  const familyIds: [string, number][] = [];
  for (const f of families) {
    if (!f.handle) {
      skipped.push({ type: "ProductFamily", id: f.id, reason: "a product family without a handle" });
      continue;
    }
    familyHandle.set(f.id, f.handle);
    familyRows.push([f.handle, familyEntry(f)]);
    familyIds.push([f.handle, f.id]);
  }
  const familyOf = (id: number | undefined) => (id !== undefined ? (familyHandle.get(id) ?? `id:${id}`) : "");

  // Archived products and components were listed to name restrictions; only the wanted ones are read further, and
  // one without a handle not at all (nothing keys it, or its price points, across sites).
  const keyed = <T extends { id: number; handle: string | undefined }>(rows: T[], type: SkippedObject["type"], what: string) =>
    rows.filter((r) => {
      if (!includeArchived && (r as { archivedAt?: string }).archivedAt !== undefined) return false;
      if (r.handle) return true;
      skipped.push({ type, id: r.id, reason: `${what} without a handle (its price points left out with it)` });
      return false;
    });
  const liveProducts = keyed(products, "Product", "a product");
  const liveComponents = keyed(components, "Component", "a component");
  listsLeft += liveProducts.length + liveComponents.length;
  // Each entry is built as its price points arrive, while the other lists are still in flight.
  const productsRead = Promise.all(
    liveProducts.map(async (p): Promise<[string, ProductEntry]> => {
      const points = await read(() => listPricePoints(t, p.id, { includeArchived }), others);
      return [p.handle as string, productEntry(p, p.productFamilyHandle ?? familyOf(p.productFamilyId), points, skipped)];
    }),
  );
  const componentsRead = Promise.all(
    liveComponents.map(async (c): Promise<[string, ComponentEntry]> => {
      const points = await read(() => listComponentPricePoints(t, c.id, { includeArchived }), others);
      return [c.handle as string, componentEntry(c, familyOf(c.productFamilyId), points, skipped)];
    }),
  );

  // The coupons are built while the price point lists are read.
  const productHandle = new Map(products.map((p) => [p.id, p.handle ?? `id:${p.id}`]));
  const componentHandle = new Map(components.map((c) => [c.id, c.handle ?? `id:${c.id}`]));
  const couponRows: [string, CouponEntry][] = [];
  const couponIds: [string, number][] = [];
  for (const c of coupons) {
    if (!c.code) {
      skipped.push({ type: "Coupon", id: c.id, reason: "a coupon without a code" });
      continue;
    }
    couponRows.push([
      c.code,
      couponEntry(
        c,
        familyOf(c.productFamilyId),
        (id) => productHandle.get(id) ?? `id:${id}`,
        (id) => componentHandle.get(id) ?? `id:${id}`,
      ),
    ]);
    couponIds.push([c.code, c.id]);
  }
  const [productRows, componentRows] = await Promise.all([productsRead, componentsRead]);
  const productIds = liveProducts.map((p): [string, number] => [p.handle as string, p.id]);
  const componentIds = liveComponents.map((c): [string, number] => [c.handle as string, c.id]);
  // Price points are skipped as their lists arrive: sorted, the list is the same whatever the order of answers.
  skipped.sort((x, y) => (x.type < y.type ? -1 : x.type > y.type ? 1 : x.id - y.id));
  options.onProgress?.({ objects, lists, listsLeft: 0 });
  return {
    snapshot: {
      format: SNAPSHOT_FORMAT,
      includesArchived: includeArchived,
      families: sortedRecord(familyRows),
      products: sortedRecord(productRows),
      components: sortedRecord(componentRows),
      coupons: sortedRecord(couponRows),
    },
    ids: {
      families: sortedRecord(familyIds),
      products: sortedRecord(productIds),
      components: sortedRecord(componentIds),
      coupons: sortedRecord(couponIds),
    },
    skipped,
  };
}
