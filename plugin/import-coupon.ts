import type * as plugin from "@pulumi/pulumi/provider";
import { outputsOf } from "../provider/kinds/coupon";
import type { BillingClient } from "../sdk/client";
import type { Coupon } from "../sdk/results";
import { clientOf } from "./import";
import { plain } from "./values";

/**
 * `pulumi import` of a Coupon, by code (it carries a coupon across sites; ids differ) or by id. The
 * state is the kind's, read from the service; the inputs are what the service holds, written the way
 * a program declares them (the family and the restrictions as `handle:…` references, options left out
 * where the service holds its default), so that the printed code previews with no changes.
 */

/** `SPRING25`, `60001`, `<site>/SPRING25` (a code has no "/"). */
const ID = /^(?:([^/]+)\/)?([^/]+)$/;
const CODE = /^[A-Z0-9%@+\-_.]+$/;

/** Options a declaration leaves out when the service holds what it holds without them. */
const FLAGS = [
  "recurring",
  "stackable",
  "allowNegativeBalance",
  "excludeMidPeriodAllocations",
  "applyOnCancelAtEndOfPeriod",
  "applyOnSubscriptionExpiration",
] as const;

/** The coupon with this code, else the one with this id (a code may be digits only: the code wins). */
async function couponOf(client: BillingClient, key: string): Promise<Coupon | undefined> {
  const byCode = CODE.test(key)
    ? (await client.listCoupons({ includeArchived: true, codes: [key] })).find((c) => c.code === key)
    : undefined;
  if (byCode || !/^[1-9][0-9]{0,15}$/.test(key)) return byCode;
  return (await client.listCoupons({ includeArchived: true })).find((c) => c.id === Number(key));
}

/** Each restriction as `handle:<handle>` when the service says (or the product's read does), else its id. */
async function references(client: BillingClient, c: Coupon, type: "Product" | "Component"): Promise<(number | string)[]> {
  const out: (number | string)[] = [];
  for (const r of c.restrictions.filter((x) => x.itemType === type)) {
    let handle = r.handle;
    if (handle === undefined && type === "Product") handle = (await client.readProduct(r.itemId)).handle;
    out.push(handle !== undefined ? `handle:${handle}` : r.itemId);
  }
  return out.sort((a, b) => String(a).localeCompare(String(b)));
}

export async function importCoupon(provider: object, importId: string): Promise<plugin.ReadResult> {
  const m = ID.exec(importId);
  if (!m)
    throw new Error(
      `Coupon import id "${importId}": give the coupon's code or id (e.g. SPRING25), or <site>/<code> for an entry of billing:sites`,
    );
  const [, site, key = ""] = m;
  const client = clientOf(provider, site, "Coupon", importId);
  const c = await couponOf(client, key);
  if (!c) throw new Error(`Coupon import id "${importId}": no coupon has the code or id ${key} at the site: nothing to import`);
  if (c.archivedAt !== undefined)
    throw new Error(
      `Coupon import id "${importId}": coupon \`${c.code}\` (id ${c.id}) is archived (since ${c.archivedAt}), and the service cannot unarchive a coupon: nothing to manage`,
    );
  const family = c.productFamilyId !== undefined ? await client.readProductFamily(c.productFamilyId) : undefined;
  const products = await references(client, c, "Product");
  const components = await references(client, c, "Component");
  const code = c.code ?? key;
  const percentage = c.percentage !== undefined && c.percentage !== null ? Number(c.percentage) : undefined;
  const inputs: Record<string, unknown> = {
    productFamily: family?.handle !== undefined ? `handle:${family.handle}` : c.productFamilyId,
    code,
    name: c.name || code,
    ...(c.description ? { description: c.description } : {}),
    ...(percentage !== undefined ? { percentage } : { amountInCents: c.amountInCents }),
    ...Object.fromEntries(FLAGS.filter((k) => c[k] === true).map((k) => [k, true])),
    ...(c.recurring === true && c.durationPeriodCount != null ? { durationPeriodCount: c.durationPeriodCount } : {}),
    ...(c.endDate ? { endDate: c.endDate } : {}),
    ...(c.compoundingStrategy && c.compoundingStrategy !== "compound" ? { compoundingStrategy: c.compoundingStrategy } : {}),
    ...(products.length > 0 ? { restrictedProducts: products } : {}),
    ...(components.length > 0 ? { restrictedComponents: components } : {}),
    ...(site !== undefined ? { site } : {}),
  };
  const outputs = outputsOf(c, site);
  const state = {
    ...outputs,
    code,
    args: inputs,
    productFamilyHandle: family?.handle ?? null,
    ...(products.length > 0 ? { resolvedProductIds: outputs.restrictedProductIds } : {}),
    ...(components.length > 0 ? { resolvedComponentIds: outputs.restrictedComponentIds } : {}),
  };
  return plain({ id: String(c.id), props: state, inputs });
}
