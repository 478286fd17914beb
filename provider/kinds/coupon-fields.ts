import { z } from "zod";
import type { CouponInput } from "../../sdk/catalog/input-types";
import type { BillingClient } from "../../sdk/client";
import { valueText } from "../../sdk/inputs";
import type { Coupon as ServiceCoupon } from "../../sdk/results";
import { isUnknown } from "../engine";
import { findByHandle, referencedHandle, referenceField, referenceOrder } from "./catalog";
import { heldAsDeclared } from "./currency-fields";
import { accepting } from "./inputs";
import type { Context } from "./kind";
import { productWithHandle } from "./product";

/**
 * A coupon's fields as the kind compares and sends them: the declared scalars, the outputs read from the
 * service's answer, what differs between a declaration and what the service holds, the bodies of a create
 * and an update, and the restrictions resolved from references to the site's ids.
 */

/** The declared fields besides the family and the restrictions, compared one by one with what the service holds. */
export const SCALARS = [
  "code",
  "name",
  "description",
  "percentage",
  "amountInCents",
  "recurring",
  "durationPeriodCount",
  "endDate",
  "stackable",
  "compoundingStrategy",
  "allowNegativeBalance",
  "excludeMidPeriodAllocations",
  "applyOnCancelAtEndOfPeriod",
  "applyOnSubscriptionExpiration",
] as const;
type Scalar = (typeof SCALARS)[number];

/** What the service holds when a create leaves the field out (the service's documented defaults, as the simulator applies them). */
export const SERVICE_DEFAULTS = {
  recurring: false,
  stackable: false,
  compoundingStrategy: "compound",
  allowNegativeBalance: false,
  excludeMidPeriodAllocations: false,
  applyOnCancelAtEndOfPeriod: false,
  applyOnSubscriptionExpiration: false,
} as const;

export type Restriction = "restrictedProducts" | "restrictedComponents";

/** A list of references as a set: each once, ids ascending, then handles ascending, so that order makes no diff. */
export const referenceSet = <T extends number | string>(refs: readonly T[]): T[] => [...new Set(refs)].sort(referenceOrder);

/** A list of references: each an id or `handle:<handle>`, as a set (sorted, each once), so that order makes no diff. */
export const referenceList = (what: string, example: string) =>
  accepting<readonly (number | string)[]>({
    type: "array",
    items: {
      anyOf: [
        { type: "integer", minimum: 1 },
        { type: "string", pattern: "^handle:" },
      ],
    },
  })(
    z
      .array(referenceField(what), {
        error: (i) => `must be a list of ${what} references (each an id, e.g. ${example}, or "handle:<handle>"), got ${valueText(i.input)}`,
      })
      .transform(referenceSet),
  );

/** The site's ids of the coupon's restrictions of one type ("Product", "Component"), each once, ascending. */
export const idsOf = (c: ServiceCoupon, type: string) =>
  [...new Set(c.restrictions.filter((r) => r.itemType === type).map((r) => r.itemId))].sort((a, b) => a - b);

/** The percentage as a number (the service answers decimal text); null for an amount coupon. */
export const percentOf = (c: ServiceCoupon): number | null =>
  c.percentage === undefined || c.percentage === null ? null : Number(c.percentage);

/** The coupon as the kind's outputs (the plugin's import records them too). */
export function outputsOf(c: ServiceCoupon & { readonly currencyPrices?: Record<string, number> }, site: string | undefined) {
  return {
    couponId: c.id,
    productFamilyId: c.productFamilyId ?? null,
    code: c.code ?? "",
    name: c.name ?? null,
    description: c.description ?? null,
    percentage: percentOf(c),
    amountInCents: c.amountInCents ?? null,
    recurring: c.recurring ?? null,
    durationPeriodCount: c.durationPeriodCount ?? null,
    endDate: c.endDate ?? null,
    stackable: c.stackable ?? null,
    compoundingStrategy: c.compoundingStrategy ?? null,
    allowNegativeBalance: c.allowNegativeBalance ?? null,
    excludeMidPeriodAllocations: c.excludeMidPeriodAllocations ?? null,
    applyOnCancelAtEndOfPeriod: c.applyOnCancelAtEndOfPeriod ?? null,
    applyOnSubscriptionExpiration: c.applyOnSubscriptionExpiration ?? null,
    restrictedProductIds: idsOf(c, "Product"),
    restrictedComponentIds: idsOf(c, "Component"),
    currencyPrices: c.currencyPrices ?? null,
    archivedAt: c.archivedAt ?? null,
    ...(site !== undefined ? { site } : {}),
  };
}

/** The ids the declared restrictions resolved to (a restriction left out of the declaration: none). */
export interface Resolved {
  products?: number[];
  components?: number[];
}

/** The family's id and handle: a number as given (its handle read, to tell a reference in another form from a move), a handle looked up. */
export interface Family {
  readonly id: number;
  readonly handle: string | undefined;
}

/**
 * Where a coupon lives: its site, its family (undefined when nothing says it), and the ids its declared restrictions
 * resolved to, once resolved (at a create before anything is sent; at an update by the converge, which fills it in).
 */
export interface Where {
  readonly site: string | undefined;
  readonly family: Family | undefined;
  resolved?: Resolved;
}

/** What the kind records of a coupon besides its code and args: the outputs, the family's handle, the ids the restrictions resolved to. */
export const recordOf = (c: ServiceCoupon & { readonly currencyPrices?: Record<string, number> }, where: Where) => ({
  ...outputsOf(c, where.site),
  productFamilyHandle: where.family?.handle ?? null,
  ...(where.resolved?.products !== undefined ? { resolvedProductIds: where.resolved.products } : {}),
  ...(where.resolved?.components !== undefined ? { resolvedComponentIds: where.resolved.components } : {}),
});

export const sameDate = (a: string, b: string | null | undefined) =>
  b !== null && b !== undefined && (a === b || Date.parse(a) === Date.parse(b));
export const sameSet = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** The service's view of a declared field, for comparison with the declaration. */
function heldValue(c: ServiceCoupon, k: Scalar): unknown {
  if (k === "percentage") return percentOf(c);
  if (k === "description") return c.description ?? "";
  return c[k] ?? null;
}

/** Declared fields (restrictions as resolved ids) the service holds differently. What a declaration leaves out is the service's choice. */
export function differences(c: ServiceCoupon, inputs: Readonly<Record<string, unknown>>, resolved: Resolved): string[] {
  const out: string[] = SCALARS.filter((k) => {
    const want = inputs[k];
    if (want === undefined) return false;
    if (k === "endDate") return !sameDate(want as string, c.endDate);
    return want !== heldValue(c, k);
  });
  if (resolved.products !== undefined && !sameSet(resolved.products, idsOf(c, "Product"))) out.push("restrictedProducts");
  if (resolved.components !== undefined && !sameSet(resolved.components, idsOf(c, "Component"))) out.push("restrictedComponents");
  return out;
}

/** What a state holds that {@link declaredAsHeld} reads: the declared args, and the outputs last read. */
interface Held {
  readonly args: Readonly<Record<string, unknown>>;
  readonly couponId?: number;
  readonly description?: string | null;
  readonly endDate?: string | null;
  readonly restrictedProductIds?: readonly number[];
  readonly restrictedComponentIds?: readonly number[];
  readonly resolvedProductIds?: readonly number[];
  readonly resolvedComponentIds?: readonly number[];
  readonly currencyPrices?: Readonly<Record<string, number>> | null;
}

/**
 * The inputs a state records, as diff compares them with the declaration: the service's values for what is
 * declared (a change made in the web UI shows as a diff, and up restores it). What a declaration leaves out, and
 * a flag the service does not say (null), stand as declared; an end date is the same when it names the same
 * instant; restrictions are the declaration while the service holds the ids they resolved to, its ids once not.
 */
export function declaredAsHeld(s: Held): Record<string, unknown> {
  const out: Record<string, unknown> = { ...s.args };
  // A pending create holds no service values yet: its declaration stands (no description drift from "").
  const service: Record<string, unknown> = s.couponId === undefined ? { ...s } : { ...s, description: s.description ?? "" };
  for (const k of SCALARS) {
    if (out[k] === undefined || service[k] === undefined) continue;
    if (k === "endDate") {
      if (!sameDate(out[k] as string, s.endDate)) out[k] = s.endDate ?? null;
    } else if (service[k] !== null || k === "percentage" || k === "amountInCents") out[k] = service[k];
  }
  const held = (declared: unknown, resolved: readonly number[] | undefined, ids: readonly number[] | undefined) =>
    declared !== undefined && resolved && ids && !sameSet(resolved, ids);
  if (held(out.restrictedProducts, s.resolvedProductIds, s.restrictedProductIds)) out.restrictedProducts = s.restrictedProductIds;
  if (held(out.restrictedComponents, s.resolvedComponentIds, s.restrictedComponentIds)) out.restrictedComponents = s.restrictedComponentIds;
  // Only the declared currencies: those it keeps that the declaration leaves out, no declaration can remove.
  if (out.currencyPrices !== undefined) out.currencyPrices = heldAsDeclared(s.args.currencyPrices, s.currencyPrices);
  return out;
}

/** The SDK's input for a create or an update: the declared fields, restrictions as ids. */
export function bodyOf(inputs: Readonly<Record<string, unknown>>, resolved: Resolved | undefined): CouponInput {
  const {
    productFamily: _,
    adopt: __,
    site: ___,
    restrictedProducts: ____,
    restrictedComponents: _____,
    currencyPrices: ______,
    pricingChangeAcknowledged: _______,
    ...fields
  } = inputs;
  return {
    ...fields,
    ...(resolved?.products !== undefined ? { restrictedProducts: resolved.products } : {}),
    ...(resolved?.components !== undefined ? { restrictedComponents: resolved.components } : {}),
  } as unknown as CouponInput;
}

/**
 * The coupon as the service holds it, as the update's input (the update takes the create's body, so what it
 * holds is sent back unchanged). Not its end date: a past one, which an expired coupon holds, is refused.
 */
export function heldBody(c: ServiceCoupon): CouponInput {
  const body: Record<string, unknown> = { name: c.name || c.code };
  for (const k of SCALARS) {
    if (k === "endDate" || k === "name" || (k === "durationPeriodCount" && c.recurring !== true)) continue;
    const v = heldValue(c, k);
    if (v !== null && v !== undefined) body[k] = v;
  }
  return body as unknown as CouponInput;
}

const WHAT = { restrictedProducts: "product", restrictedComponents: "component" } as const;

/** A handle's object on the site, or undefined. */
const lookup = (client: BillingClient, property: Restriction, handle: string): Promise<{ id: number } | undefined> =>
  property === "restrictedProducts" ? productWithHandle(client, handle) : findByHandle(() => client.findComponentByHandle(handle));

const unknownHandle = (ctx: Context, site: string | undefined, property: Restriction, handle: string) => {
  const what = WHAT[property];
  const resource = what === "product" ? "Product" : "Component";
  return (
    `no ${what} has the handle \`${handle}\` at site ${ctx.siteLabel(site)}: each entry must be an existing ${what}'s id or "handle:<handle>"; ` +
    `for a ${resource} declared in the same program, pass the ${resource} (or its ${what}Id) so that it is created first`
  );
};

/** The declared references as the site's ids (each once, sorted); a handle that names nothing is an error naming the property. */
export async function resolve(
  ctx: Context,
  inputs: {
    readonly site?: string;
    readonly restrictedProducts?: readonly (number | string)[];
    readonly restrictedComponents?: readonly (number | string)[];
  },
): Promise<Resolved> {
  const client = ctx.client(inputs.site);
  const out: Resolved = {};
  for (const property of ["restrictedProducts", "restrictedComponents"] as const) {
    const refs = inputs[property];
    if (refs === undefined) continue;
    const ids = new Set<number>();
    for (const ref of refs) {
      const handle = referencedHandle(ref);
      if (handle === undefined) {
        ids.add(ref as number);
        continue;
      }
      const found = await lookup(client, property, handle);
      if (!found) throw new Error(`${property}: ${unknownHandle(ctx, inputs.site, property, handle)} (nothing was changed)`);
      ids.add(found.id);
    }
    out[property === "restrictedProducts" ? "products" : "components"] = [...ids].sort((a, b) => a - b);
  }
  return out;
}

/** A coupon's discount: a percentage or a flat amount (the other is null). */
export const DISCOUNT = ["percentage", "amountInCents"] as const;

/**
 * The `preview.pricingChange` of a coupon's discount declared anew against `from` (the earlier declaration, or
 * what the service holds when adopting): both fields, since a coupon switches from one to the other; or undefined.
 */
export function discountChange(to: Readonly<Record<string, unknown>>, from: Readonly<Record<string, unknown>>, effect: string) {
  const value = (v: unknown) => (v === undefined || v === null ? null : Number(v));
  if (DISCOUNT.some((k) => isUnknown(to[k]))) return undefined;
  const fields = DISCOUNT.filter((k) => value(to[k]) !== value(from[k]));
  if (fields.length === 0) return undefined;
  const pick = (v: Readonly<Record<string, unknown>>) => Object.fromEntries(fields.map((k) => [k, value(v[k])]));
  return { fields: [...fields] as string[], from: pick(from), to: pick(to), effect };
}
