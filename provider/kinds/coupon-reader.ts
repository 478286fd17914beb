import type { Coupon as ServiceCoupon } from "../../sdk/results";
import { referencedHandle } from "./catalog";
import { type HeldCoupon, withCouponCurrencies } from "./coupon-currencies";
import { idsOf, percentOf, recordOf, referenceSet, SERVICE_DEFAULTS } from "./coupon-fields";
import { label } from "./coupon-service";
import type { CatalogReader, SiteView } from "./kind";

/**
 * How the catalog reads coupons (`billing-catalog` export and diff, the import file, the plugin's `pulumi
 * import`): listed across the site, keyed by code, and written as the inputs that declare what the service
 * holds, so that a program re-creates exactly that elsewhere and previews with no changes here.
 */

/** A code as the contract allows one; digits only is a code too (and then wins over an id). */
const CODE = /^[A-Z0-9%@+\-_.]+$/;
const ID = /^[1-9][0-9]{0,15}$/;

/**
 * An end date as the service answers one after a create or an update: the instant in UTC, to the second
 * ("2031-06-30" → "2031-06-30T00:00:00Z"), milliseconds kept when not zero; text that is no date stays as it is.
 * The service normalizes what it is sent to this form, so writing it makes a coupon whose site data holds a bare
 * date, or another offset, read the same as its copy made through the API elsewhere.
 */
export function instantOf(text: string): string {
  const t = Date.parse(text);
  return Number.isNaN(t) ? text : new Date(t).toISOString().replace(/\.000Z$/, "Z");
}

/** Each restriction of a type as `handle:<handle>` (the answer's, else the site's), else its id; as a set, as check writes it. */
async function references(c: ServiceCoupon, type: "Product" | "Component", site: SiteView): Promise<(number | string)[] | undefined> {
  const out: (number | string)[] = [];
  for (const r of c.restrictions.filter((x) => x.itemType === type)) {
    const handle = r.handle ?? (await site.keyOf(type === "Product" ? "product" : "component", r.itemId));
    out.push(handle !== undefined ? `handle:${handle}` : r.itemId);
  }
  return out.length > 0 ? referenceSet(out) : undefined;
}

/**
 * The inputs that declare what the service holds: the family and the restrictions as `handle:` references (an id
 * where the site names none), the name (the code when the service holds none: a declaration needs one), the
 * discount, the options the service does not hold by default, a duration only on a recurring coupon (a
 * declaration cannot say one otherwise), the end date as the service answers it after a create.
 */
async function inputsOf(c: HeldCoupon, site: SiteView): Promise<Record<string, unknown>> {
  const code = c.code ?? "";
  const family = c.productFamilyId === undefined ? undefined : await site.keyOf("productFamily", c.productFamilyId);
  const percentage = percentOf(c);
  const fields: Record<string, unknown> = {
    productFamily: family !== undefined ? `handle:${family}` : c.productFamilyId,
    code,
    name: c.name || code,
    description: c.description || undefined,
    ...(percentage !== null ? { percentage } : { amountInCents: c.amountInCents }),
    recurring: c.recurring,
    durationPeriodCount: c.recurring === true ? c.durationPeriodCount : undefined,
    endDate: c.endDate ? instantOf(c.endDate) : undefined,
    stackable: c.stackable,
    compoundingStrategy: c.compoundingStrategy,
    allowNegativeBalance: c.allowNegativeBalance,
    excludeMidPeriodAllocations: c.excludeMidPeriodAllocations,
    applyOnCancelAtEndOfPeriod: c.applyOnCancelAtEndOfPeriod,
    applyOnSubscriptionExpiration: c.applyOnSubscriptionExpiration,
    restrictedProducts: await references(c, "Product", site),
    restrictedComponents: await references(c, "Component", site),
    currencyPrices: c.currencyPrices && Object.keys(c.currencyPrices).length > 0 ? c.currencyPrices : undefined,
  };
  const byDefault = (k: string, v: unknown) =>
    Object.hasOwn(SERVICE_DEFAULTS, k) && SERVICE_DEFAULTS[k as keyof typeof SERVICE_DEFAULTS] === v;
  return Object.fromEntries(Object.entries(fields).filter(([k, v]) => v !== undefined && v !== null && !byDefault(k, v)));
}

/** The coupon kind's reader; `argsOf` is its lifecycle's (the declared inputs it records). */
export const couponReader = (argsOf: (inputs: Record<string, unknown>) => Record<string, unknown>): CatalogReader<HeldCoupon> => ({
  async list(client) {
    const out: HeldCoupon[] = [];
    // One at a time: the catalog's read bounds its requests in flight per list, not within one.
    for (const c of await client.listCoupons({ includeArchived: true })) out.push(await withCouponCurrencies(client, c));
    return out;
  },

  /** The coupon with this code, else the one with this id (a code may be digits only: the code wins). */
  async find(client, key) {
    const byCode = CODE.test(key)
      ? (await client.listCoupons({ includeArchived: true, codes: [key] })).find((c) => c.code === key)
      : undefined;
    const found =
      byCode || !ID.test(key) ? byCode : (await client.listCoupons({ includeArchived: true })).find((c) => c.id === Number(key));
    return found && withCouponCurrencies(client, found);
  },
  withKey: async (client, code) => (await client.listCoupons({ includeArchived: true, codes: [code] })).find((c) => c.code === code),
  id: (c) => c.id,
  key: (c) => c.code || undefined,
  archived: (c) => c.archivedAt !== undefined,
  fromService: inputsOf,

  /**
   * What an import records: the outputs, the family's handle (as the inputs name it), the held restrictions as the
   * ids the declared ones resolved to. An archived coupon is refused: the service cannot unarchive one.
   */
  async record(_client, c, inputs, site) {
    if (c.archivedAt !== undefined)
      throw new Error(
        `${label(c.code ?? "?", c.id)} is archived (since ${c.archivedAt}), and the service cannot unarchive a coupon: nothing to manage`,
      );
    const family = typeof inputs.productFamily === "string" ? referencedHandle(inputs.productFamily) : undefined;
    const resolved = {
      ...(inputs.restrictedProducts !== undefined ? { products: idsOf(c, "Product") } : {}),
      ...(inputs.restrictedComponents !== undefined ? { components: idsOf(c, "Component") } : {}),
    };
    const where = { site, family: c.productFamilyId === undefined ? undefined : { id: c.productFamilyId, handle: family }, resolved };
    return { ...recordOf(c, where), code: c.code ?? String(inputs.code), args: argsOf(inputs) };
  },
});
