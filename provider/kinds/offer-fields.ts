import { z } from "zod";
import { couponCode } from "../../sdk/catalog/coupon-inputs";
import type { BillingClient } from "../../sdk/client";
import { integer, valueText } from "../../sdk/input-values";
import type { OfferInput } from "../../sdk/site-config/input-types";
import type { Offer as ServiceOffer } from "../../sdk/site-config/results";
import { isUnknown } from "../engine";
import { findByHandle, isNotFound, referencedHandle, referenceField, referenceOrder } from "./catalog";
import { referenceSet } from "./coupon-fields";
import { accepting } from "./inputs";
import type { Context } from "./kind";
import { productWithHandle } from "./product";

/**
 * An offer's references as declared (a product, its price point, components with their price points and
 * quantities, coupons), resolved to what the service's create takes (ids, coupon codes), and compared with an
 * offer the service holds: the service has no update, so "differs" decides between adopting an offer and
 * refusing to touch it.
 */

/** One component of an offer, as declared. */
export const offerComponent = z
  .object(
    {
      component: referenceField("component").describe(
        'The component: a Component\'s `componentId`, an id, or "handle:<handle>" (resolved at apply time).',
      ),
      pricePoint: referenceField("component price point")
        .optional()
        .describe(
          "One of the component's price points: a ComponentPricePoint's `pricePointId`, an id, or \"handle:<handle>\" of a price point of this component. Left out: the component's default at the create.",
        ),
      startingQuantity: integer(0, "a whole number of units, 0 or more (an on/off component: 0 or 1)").describe(
        "The quantity a subscription to the offer starts with.",
      ),
    },
    { error: "must be an object { component, pricePoint?, startingQuantity }" },
  )
  .strict();

type Ref = number | string;

/** The components, each once, ordered by their reference (ids, then handles), so that order makes no diff. */
export const offerComponents = z
  .array(offerComponent, { error: (i) => `must be a list of { component, pricePoint?, startingQuantity }, got ${valueText(i.input)}` })
  .refine((a) => new Set(a.map((c) => JSON.stringify(c.component))).size === a.length, { error: "must not name a component twice" })
  .transform((a) => [...a].sort((x, y) => referenceOrder(x.component, y.component)));

/**
 * A coupon by its id (a Coupon's `couponId`) or its code, written `"handle:<code>"` once checked (the catalog's
 * form of a reference: a coupon's key is its code), so that a program's and a site's export read alike.
 */
const couponReference = z.unknown().transform((v, ctx): Ref => {
  if (typeof v === "number" && Number.isSafeInteger(v) && v > 0) return v;
  const code = typeof v === "string" ? v.replace(/^handle:/, "") : undefined;
  if (code !== undefined && couponCode.safeParse(code).success) return `handle:${code}`;
  ctx.addIssue({
    code: "custom",
    message: `must be a coupon's code (e.g. a Coupon's \`code\`: uppercase letters, digits and "%", "@", "+", "-", "_", "."), its id (a Coupon's \`couponId\`), or "handle:<code>", got ${valueText(v)}`,
  });
  return z.NEVER;
});

export const offerCoupons = accepting<readonly Ref[]>({
  type: "array",
  items: { anyOf: [{ type: "integer", minimum: 1 }, { type: "string" }] },
})(
  z
    .array(couponReference, { error: (i) => `must be a list of coupon codes or ids, got ${valueText(i.input)}` })
    .refine((a) => new Set(a).size === a.length, { error: "must not name a coupon twice" })
    .transform(referenceSet),
);

/** The declared references, as the engine may still hold some unknown. */
export interface Declared {
  readonly site?: string;
  readonly handle: string;
  readonly name: string;
  readonly description?: string;
  readonly product: Ref;
  readonly productPricePoint?: Ref;
  readonly components?: readonly { readonly component: Ref; readonly pricePoint?: Ref; readonly startingQuantity: number }[];
  readonly coupons?: readonly Ref[];
}

/** A declaration as the service's create takes it: every reference an id, coupons by code. */
export type Resolved = OfferInput;

/** A reference that names nothing at the site: a failure naming its input. */
export class Unresolved extends Error {
  constructor(
    readonly property: string,
    readonly reason: string,
  ) {
    super(`${property}: ${reason}`);
  }
}

const noHandle = (ctx: Context, site: string | undefined, what: string, handle: string, resource: string, output: string) =>
  `no ${what} has the handle \`${handle}\` at site ${ctx.siteLabel(site)}: pass its id (for a ${resource} declared in the same program, its \`${output}\`, so that it is created first) or the handle of an existing one`;

/**
 * What the service refuses to make an offer of (the simulator's reading: an archived product, price point, component or
 * coupon takes no new subscribers, and an offer is a way to subscribe). Said only of a new offer: one the site holds
 * already may name what was archived since.
 */
const archivedRefusal = (what: string, archivedAt: string) =>
  `${what} is archived (since ${archivedAt}): the service makes no new offer of it; unarchive it, or name a live one`;

/** An object with an id, a handle and, once archived, when. */
interface Named {
  readonly id: number;
  readonly handle?: string | undefined;
  readonly archivedAt?: string | undefined;
}

/** The price point a reference names among its owner's (archived ones listed too); a failure naming `property` otherwise. */
function pricePointOf(
  ctx: Context,
  site: string | undefined,
  points: readonly Named[],
  ref: Ref,
  where: { property: string; owner: string; resource: string; strict: boolean },
): number {
  const handle = referencedHandle(ref);
  const pp = points.find((p) => (handle === undefined ? p.id === ref : p.handle === handle));
  if (!pp && handle !== undefined)
    throw new Unresolved(where.property, noHandle(ctx, site, `price point of ${where.owner}`, handle, where.resource, "pricePointId"));
  if (!pp)
    throw new Unresolved(
      where.property,
      `price point ${ref} is not one of ${where.owner}'s: name one of its price points (its id, or "handle:<handle>")`,
    );
  if (where.strict && pp.archivedAt !== undefined)
    throw new Unresolved(where.property, archivedRefusal(`price point \`${pp.handle ?? pp.id}\` of ${where.owner}`, pp.archivedAt));
  return pp.id;
}

async function componentIds(
  ctx: Context,
  site: string | undefined,
  item: NonNullable<Declared["components"]>[number],
  strict: boolean,
): Promise<{ componentId: number; pricePointId?: number; startingQuantity: number }> {
  const client = ctx.client(site);
  const handle = referencedHandle(item.component);
  const found = handle === undefined ? undefined : await findByHandle(() => client.findComponentByHandle(handle));
  if (handle !== undefined && !found)
    throw new Unresolved("components", noHandle(ctx, site, "component", handle, "Component", "componentId"));
  if (strict && found?.archivedAt !== undefined)
    throw new Unresolved("components", archivedRefusal(`component \`${handle}\` (id ${found?.id})`, found?.archivedAt as string));
  // The contract's own refusal, said at preview where the component is read (by handle).
  if (found?.kind === "on_off" && item.startingQuantity > 1)
    throw new Unresolved(
      "components",
      `component \`${handle}\` is on/off: it starts at 0 or 1 (the service refuses "starting_quantity for an On/Off component can only be '1' or '0'"), got ${item.startingQuantity}`,
    );
  const component = found?.id ?? (item.component as number);
  if (item.pricePoint === undefined) return { componentId: component, startingQuantity: item.startingQuantity };
  // An id is not read otherwise: one that names no component is the list's 404, a failure naming the input (not a throw).
  const points = await client.listComponentPricePoints(component, { includeArchived: true }).catch((err: unknown) => {
    if (!isNotFound(err)) throw err;
    throw new Unresolved(
      "components",
      `no component has the id ${component} at site ${ctx.siteLabel(site)}: name a component the site holds (its id, or "handle:<handle>"; for a Component declared in the same program, its \`componentId\`)`,
    );
  });
  const owner = `component ${handle !== undefined ? `\`${handle}\`` : component}`;
  const pricePointId = pricePointOf(ctx, site, points, item.pricePoint, {
    property: "components",
    owner,
    resource: "ComponentPricePoint",
    strict,
  });
  return { componentId: component, pricePointId, startingQuantity: item.startingQuantity };
}

/** Coupon codes: an id is read as the code the site holds for it; a code no coupon has is refused. */
async function couponCodes(client: BillingClient, refs: readonly Ref[], siteLabel: string, strict: boolean): Promise<string[]> {
  const held = await client.listCoupons({ includeArchived: true });
  return refs.map((r) => {
    const c = held.find((x) => (typeof r === "number" ? x.id === r : x.code === r.slice("handle:".length)));
    if (!c?.code)
      throw new Unresolved(
        "coupons",
        `no coupon has the ${typeof r === "number" ? `id ${r}` : `code ${r.slice(7)}`} at site ${siteLabel}: name a coupon the site holds (its code or its id; for a Coupon declared in the same program, its \`code\`)`,
      );
    if (strict && c.archivedAt !== undefined) throw new Unresolved("coupons", archivedRefusal(`coupon \`${c.code}\``, c.archivedAt));
    return c.code;
  });
}

/** The product a reference names (archived ones too); a failure naming `product` when none. */
async function productOf(ctx: Context, d: Declared) {
  const client = ctx.client(d.site);
  const handle = referencedHandle(d.product);
  const p =
    handle === undefined ? await findByHandle(() => client.readProduct(d.product as number)) : await productWithHandle(client, handle);
  if (p) return p;
  if (handle !== undefined) throw new Unresolved("product", noHandle(ctx, d.site, "product", handle, "Product", "productId"));
  throw new Unresolved(
    "product",
    `no product has the id ${d.product} at site ${ctx.siteLabel(d.site)}: name a product the site holds (its id, or "handle:<handle>"; for a Product declared in the same program, its \`productId\`)`,
  );
}

/**
 * The declaration as the service's create takes it; a reference that names nothing throws {@link Unresolved}, before
 * anything is sent. `strict`, for an offer about to be created: what the service would refuse to offer (archived) too.
 */
export async function resolveOffer(ctx: Context, d: Declared, strict = false): Promise<Resolved> {
  const client = ctx.client(d.site);
  const product = await productOf(ctx, d);
  const label = product.handle !== undefined ? `product \`${product.handle}\`` : `product ${product.id}`;
  if (strict && product.archivedAt !== undefined)
    throw new Unresolved("product", archivedRefusal(`${label} (id ${product.id})`, product.archivedAt));
  const productPricePointId =
    d.productPricePoint === undefined
      ? undefined
      : pricePointOf(ctx, d.site, await client.listPricePoints(product.id, { includeArchived: true }), d.productPricePoint, {
          property: "productPricePoint",
          owner: label,
          resource: "ProductPricePoint",
          strict,
        });
  const components = d.components && (await Promise.all(d.components.map((c) => componentIds(ctx, d.site, c, strict))));
  if (components && new Set(components.map((c) => c.componentId)).size !== components.length)
    throw new Unresolved("components", "must name each component once: it names one twice (by its id and its handle)");
  return {
    handle: d.handle,
    name: d.name,
    ...(d.description !== undefined ? { description: d.description } : {}),
    productId: product.id,
    ...(productPricePointId !== undefined ? { productPricePointId } : {}),
    ...(components !== undefined ? { components } : {}),
    ...(d.coupons !== undefined ? { coupons: await couponCodes(client, d.coupons, ctx.siteLabel(d.site), strict) } : {}),
  };
}

/** Whether any of the declaration's references is still unknown (at preview): then nothing can be resolved yet. */
export function holdsUnknown(d: Readonly<Record<string, unknown>>): boolean {
  const deep = (v: unknown): boolean =>
    isUnknown(v) || (Array.isArray(v) ? v.some(deep) : v !== null && typeof v === "object" ? Object.values(v).some(deep) : false);
  return ["site", "handle", "name", "description", "product", "productPricePoint", "components", "coupons"].some((k) => deep(d[k]));
}

const sameList = <T>(a: readonly T[], b: readonly T[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * The declared fields the offer holds differently (what the declaration leaves out is not compared: a price point
 * left out is the default the service chose). Components and coupons compare as sets.
 */
export function offerDifferences(o: ServiceOffer, r: Resolved): string[] {
  const out: string[] = [];
  if (o.name !== r.name) out.push("name");
  if (r.description !== undefined && (o.description ?? "") !== r.description) out.push("description");
  if (o.productId !== r.productId) out.push("product");
  if (r.productPricePointId !== undefined && o.productPricePointId !== r.productPricePointId) out.push("productPricePoint");
  if (r.components !== undefined) {
    const held = new Map(o.components.map((c) => [c.componentId, c]));
    const same =
      held.size === r.components.length &&
      r.components.every((c) => {
        const h = held.get(c.componentId);
        return (
          h !== undefined &&
          h.startingQuantity === c.startingQuantity &&
          (c.pricePointId === undefined || h.pricePointId === c.pricePointId)
        );
      });
    if (!same) out.push("components");
  }
  if (r.coupons !== undefined) {
    const held = o.coupons.map((c) => c.code ?? "").sort();
    if (!sameList(held, [...r.coupons].sort())) out.push("coupons");
  }
  return out;
}
