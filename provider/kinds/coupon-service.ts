import type { BillingClient } from "../../sdk/client";
import { BillingApiError } from "../../sdk/errors";
import type { Coupon as ServiceCoupon } from "../../sdk/results";
import { findByHandle, referencedHandle } from "./catalog";
import type { Family } from "./coupon-fields";
import type { Context } from "./kind";
import { labelOf } from "./lifecycle";
import { familyWithHandle, noFamilyWithHandle } from "./product-family";

/**
 * What the coupon kind asks the service beside its lifecycle's calls: the declared family, the coupon holding
 * a code anywhere on the site, a code no coupon holds (to free one for a replacement), and the words for a
 * coupon the kind cannot manage.
 */

/** `coupon \`SPRING25\` (id 60001)`: how messages name a coupon. */
export const label = (code: string, id: number) => labelOf("coupon", code, id);

/** The declared family: an id is read (for its handle, and to fail naming it when the site has none), a handle looked up. */
export async function familyOf(ctx: Context, inputs: { readonly productFamily: number | string; readonly site?: string }): Promise<Family> {
  const client = ctx.client(inputs.site);
  const handle = referencedHandle(inputs.productFamily);
  if (handle === undefined) {
    const id = inputs.productFamily as number;
    const f = await findByHandle(() => client.readProductFamily(id));
    if (!f)
      throw new Error(`productFamily: no product family has the id ${id} at site ${ctx.siteLabel(inputs.site)} (nothing was changed)`);
    return { id, handle: f.handle };
  }
  const family = await familyWithHandle(client, handle);
  if (!family) throw new Error(`${noFamilyWithHandle(handle, ctx.siteLabel(inputs.site))} (nothing was changed)`);
  return { id: family.id, handle };
}

/**
 * The coupon holding this code anywhere on the site, archived ones included, or undefined. The find answers
 * within one family (the site's default one without `familyId`), so a code held in another family is looked
 * for in the site's list, filtered by code.
 */
export async function couponWithCode(
  client: BillingClient,
  code: string,
  familyId: number | undefined,
): Promise<ServiceCoupon | undefined> {
  if (familyId !== undefined) {
    const found = await findByHandle(() => client.findCoupon(code, { familyId }));
    // Found within the family it was asked in, whether or not the answer says so.
    if (found) return { ...found, productFamilyId: found.productFamilyId ?? familyId };
  }
  return (await client.listCoupons({ includeArchived: true, codes: [code] })).find((c) => c.code === code);
}

/** A code no coupon holds: the replaced coupon's, out of the way of its replacement's. */
export async function freedCode(client: BillingClient, code: string, id: number): Promise<string> {
  for (let n = 0; ; n++) {
    const suffix = `-REPLACED-${id}${n === 0 ? "" : `-${n}`}`;
    const candidate = `${code.slice(0, 255 - suffix.length)}${suffix}`;
    if ((await client.listCoupons({ includeArchived: true, codes: [candidate] })).length === 0) return candidate;
  }
}

/** Why an archived coupon cannot be managed: the service has no unarchive of a coupon, and it keeps the code. */
export const archivedError = (c: ServiceCoupon) =>
  `${label(c.code ?? "?", c.id)} is archived at the service (since ${c.archivedAt}); the service cannot unarchive a coupon and keeps an archived coupon's code: ` +
  "declare the coupon with another code (or restore it in the service's web UI and run `pulumi up` again)";

/** Why a first deploy cannot take a code held in another family. */
export const otherFamily = (c: ServiceCoupon, familyId: number) =>
  `${label(c.code ?? "?", c.id)} exists in another product family (id ${c.productFamilyId ?? "unknown"}, not ${familyId}), and codes are unique within the site: ` +
  "the service cannot move a coupon between families; declare that family, or another code";

/** Why a coupon cannot be adopted or replaced: the service's answer does not say its family, which every call of it needs. */
export const noFamily = (c: ServiceCoupon) =>
  `${label(c.code ?? "?", c.id)} exists, and the service's answer does not say in which family: nothing was changed`;

/**
 * The service's "not there" for a recorded coupon whose family nothing says (its state holds none, and no coupon on
 * the site has its code): every read of a coupon is addressed under its family, so there is nothing to ask.
 */
export const notFound = (code: string, id: number) =>
  new BillingApiError({
    status: 404,
    errors: [],
    method: "GET",
    path: "/coupons.json",
    message: `${label(code, id)}: no coupon on the site has its code, and its state does not say its family`,
  });
