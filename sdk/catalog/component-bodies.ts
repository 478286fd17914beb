import type { z } from "zod";
import type { componentInput, componentPricePointInput, componentPricePointUpdateInput, componentUpdateInput } from "./component-inputs";
import type { couponInput } from "./coupon-inputs";

/** Wire bodies of components, their price points and coupons: camelCase to the contract's snake_case, only what was given. */

type Tier = { startingQuantity: number; endingQuantity?: number; unitPrice: number | string };

const snake = (k: string) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Every given field under its snake_case name, `skip` left out. */
function snaked(o: Record<string, unknown>, skip: readonly string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined && !skip.includes(k)) out[snake(k)] = v;
  return out;
}

/** A tier as the contract's `Price`: the open-ended last tier leaves `ending_quantity` out. */
export const priceBody = (t: Tier) => ({
  starting_quantity: t.startingQuantity,
  ...(t.endingQuantity === undefined ? {} : { ending_quantity: t.endingQuantity }),
  unit_price: t.unitPrice,
});

/** The body of a create: `{ "<kind>_component": { … } }`. */
export function componentCreateBody(c: z.output<typeof componentInput>): Record<string, unknown> {
  const o = c as Record<string, unknown>;
  const fields = snaked(o, ["kind", "prices", "overagePricing"]);
  if (Array.isArray(o.prices)) fields.prices = (o.prices as Tier[]).map(priceBody);
  const ov = o.overagePricing as { pricingScheme: string; prices: Tier[] } | undefined;
  if (ov) fields.overage_pricing = { pricing_scheme: ov.pricingScheme, prices: ov.prices.map(priceBody) };
  return { [`${c.kind}_component`]: fields };
}

/** `component` of an update: only the fields given. */
export const componentUpdateBody = (c: z.output<typeof componentUpdateInput>) => ({ component: snaked(c) });

/** `price_point` of a create. */
export function componentPricePointCreateBody(p: z.output<typeof componentPricePointInput>): Record<string, unknown> {
  const fields = snaked(p, ["prices", "overagePricing"]);
  fields.prices = p.prices.map(priceBody);
  if (p.overagePricing)
    fields.overage_pricing = { pricing_scheme: p.overagePricing.pricingScheme, prices: p.overagePricing.prices.map(priceBody) };
  return fields;
}

/**
 * `price_point` of an update. New prices replace the old in the contract's `Update Price` form:
 * the existing tiers (by `id`, in ascending order) are rewritten in place, one past the new list
 * are `_destroy`ed, and new ones added without an id. The contract's update types `ending_quantity`
 * as integer or text, never null: an existing tier with an end cannot be made open-ended, so the new
 * open-ended last tier is always added fresh and the existing one it would have reused destroyed.
 */
export function componentPricePointUpdateBody(
  p: z.output<typeof componentPricePointUpdateInput>,
  existing: readonly { id: number; endingQuantity: number | undefined }[],
): Record<string, unknown> {
  const fields = snaked(p, ["prices"]);
  if (p.prices) {
    const out: Record<string, unknown>[] = [];
    const last = p.prices.length - 1;
    const fresh: Record<string, unknown>[] = [];
    existing.forEach((old, i) => {
      const t = p.prices?.[i];
      if (t === undefined || (i === last && old.endingQuantity !== undefined)) out.push({ id: old.id, _destroy: true });
      else out.push({ id: old.id, ...priceBody(t) });
      if (t !== undefined && i === last && old.endingQuantity !== undefined) fresh.push(priceBody(t));
    });
    for (let i = existing.length; i <= last; i++) fresh.push(priceBody(p.prices[i]));
    fields.prices = [...out, ...fresh];
  }
  return { price_point: fields };
}

/**
 * `coupon` of a create or update, and the restrictions as the contract's maps of id to boolean:
 * the ids given map to true, `unrestrict` (ids restricted now and not given) to false.
 */
export function couponBody(
  c: z.output<typeof couponInput>,
  familyId: number,
  unrestrict: { products: readonly number[]; components: readonly number[] } = { products: [], components: [] },
): Record<string, unknown> {
  const fields = snaked(c, ["restrictedProducts", "restrictedComponents"]);
  // The contract's coupon body types product_family_id as a string (the vendor's example: "2").
  fields.product_family_id = String(familyId);
  const map = (given: readonly number[] | undefined, dropped: readonly number[]) => {
    if (given === undefined && dropped.length === 0) return undefined;
    const m: Record<string, boolean> = {};
    for (const id of dropped) m[String(id)] = false;
    for (const id of given ?? []) m[String(id)] = true;
    return m;
  };
  const products = map(c.restrictedProducts, unrestrict.products);
  const components = map(c.restrictedComponents, unrestrict.components);
  return {
    coupon: fields,
    ...(products ? { restricted_products: products } : {}),
    ...(components ? { restricted_components: components } : {}),
  };
}
