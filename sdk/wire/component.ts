import { z } from "zod";
import { maybe, timestamp, wireId } from "./common";

/**
 * Components and their price points, as read. Lenient where leniency cannot make a result wrong:
 * nulls and omitted fields read as absent, enums (kind, pricing scheme, upgrade options, item
 * category, interval unit) read as text so that a value newer than this SDK is kept as sent. A
 * price's quantities and unit price are refused when malformed: a tier read wrong is a price
 * reported wrong.
 */

/** An id that refers to another object; 0 (a placeholder) is read, and means none. */
const ref = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/**
 * A tier's quantity: the contract's requests take an integer or its decimal text (`"1"`, as the
 * vendor's price point example sends), its answers an integer. Either is read as the number.
 */
export const wireQuantity = z.union([
  z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  z
    .string()
    .regex(/^\d{1,15}$/)
    .transform(Number),
]);

/** A number as decimal text without an exponent: 6.5e-7 as "0.00000065" (prices have at most 8 decimal places). */
function decimalText(n: number): string {
  const s = String(n);
  return /e/i.test(s) ? n.toFixed(8).replace(/0+$/, "").replace(/\.$/, "") : s;
}

/**
 * A unit price: the contract's answers send decimal text (`"10.0"`, up to 8 decimal places), its
 * requests take a number or text. Read as the decimal text, never through a float, so that
 * `0.00000065` stays exact; a number is written as its decimal text (6.5e-7 as "0.00000065").
 */
export const wireDecimal = z.union([z.string().regex(/^-?\d+(\.\d+)?$/), z.number().finite().transform(decimalText)]);

/** `Component Price`: one tier of a component's or price point's prices. */
export const componentPrice = z.object({
  id: maybe(z.number().int()),
  component_id: maybe(ref),
  price_point_id: maybe(ref),
  starting_quantity: wireQuantity,
  ending_quantity: maybe(wireQuantity),
  unit_price: wireDecimal,
  formatted_unit_price: maybe(z.string()),
  segment_id: maybe(z.number().int()),
});
/** A tier as {@link componentPrice} reads it. */
export type ComponentPrice = z.infer<typeof componentPrice>;

/**
 * `Component Currency Price`: a component price point's unit price in one currency for one tier (`price_id`,
 * the tier's id). The price is decimal text in the contract (kept exact as text; a number is read too).
 */
export const componentCurrencyPrice = z.object({
  id: maybe(z.number().int()),
  currency: z.string(),
  price: wireDecimal,
  formatted_price: maybe(z.string()),
  price_id: maybe(ref),
  price_point_id: maybe(ref),
});
/** A component price point's currency price as {@link componentCurrencyPrice} reads it. */
export type ComponentCurrencyPrice = z.infer<typeof componentCurrencyPrice>;

/**
 * `Component`, of any of the five kinds (`kind` is `metered_component`, `quantity_based_component`,
 * `on_off_component`, `prepaid_usage_component` or `event_based_component`, read as text).
 * `prices` is empty for the per_unit scheme, whose price is `unit_price`.
 */
export const component = z.object({
  id: wireId,
  name: maybe(z.string()),
  handle: maybe(z.string()),
  kind: maybe(z.string()),
  pricing_scheme: maybe(z.string()),
  unit_name: maybe(z.string()),
  unit_price: maybe(wireDecimal),
  product_family_id: maybe(ref),
  product_family_name: maybe(z.string()),
  product_family_handle: maybe(z.string()),
  price_per_unit_in_cents: maybe(z.number().int()),
  archived: maybe(z.boolean()),
  archived_at: maybe(timestamp),
  taxable: maybe(z.boolean()),
  tax_code: maybe(z.string()),
  description: maybe(z.string()),
  accounting_code: maybe(z.string()),
  item_category: maybe(z.string()),
  default_price_point_id: maybe(ref),
  default_price_point_name: maybe(z.string()),
  price_point_count: maybe(z.number().int()),
  price_points_url: maybe(z.string()),
  prices: maybe(z.array(componentPrice)),
  overage_prices: maybe(z.array(componentPrice)),
  recurring: maybe(z.boolean()),
  upgrade_charge: maybe(z.string()),
  downgrade_credit: maybe(z.string()),
  hide_date_range_on_invoice: maybe(z.boolean()),
  display_on_hosted_page: maybe(z.boolean()),
  allow_fractional_quantities: maybe(z.boolean()),
  use_site_exchange_rate: maybe(z.boolean()),
  event_based_billing_metric_id: maybe(ref),
  interval: maybe(z.number().int()),
  interval_unit: maybe(z.string()),
  created_at: maybe(timestamp),
  updated_at: maybe(timestamp),
});
/** A component as {@link component} reads it, before the SDK turns it into its `Component` result. */
export type Component = z.infer<typeof component>;

/** `Component Response`: `{ component }` (create, read, lookup by handle, update, promote a price point). */
export const componentResponse = z.object({ component });
/** The answer {@link componentResponse} reads: `{ component }`. */
export type ComponentResponse = z.infer<typeof componentResponse>;

/**
 * The archive's answer: the contract publishes a bare `Component` for `DELETE
 * /product_families/{id}/components/{id}.json`, unlike every other component answer. Both the bare
 * component and `{ component }` are read (the real service's wrapping is not otherwise documented).
 */
export const componentArchiveResponse = z.union([componentResponse.transform((r) => r.component), component]);
/** The component {@link componentArchiveResponse} reads, wrapped or not. */
export type ComponentArchiveResponse = z.infer<typeof componentArchiveResponse>;

/**
 * `GET /components.json` and `GET /product_families/{id}/components.json`: a bare array of
 * `{ component }`. An entry with id 0 (a placeholder) is read, then left out by the SDK.
 */
export const componentListResponse = z.array(z.object({ component: component.extend({ id: z.number().int().nonnegative() }) }));
/** The answer {@link componentListResponse} reads: one page of `{ component }`. */
export type ComponentListResponse = z.infer<typeof componentListResponse>;

/** The contract's `per_page` maximum for components. */
export const MAX_COMPONENTS_PER_PAGE = 200;

/**
 * `Component Price Point`. `type` is `default`, `catalog` or `custom` (text: kept as sent); a
 * prepaid component's point also carries its overage prices and rollover terms.
 */
export const componentPricePoint = z.object({
  id: wireId,
  type: maybe(z.string()),
  default: maybe(z.boolean()),
  name: maybe(z.string()),
  handle: maybe(z.string()),
  pricing_scheme: maybe(z.string()),
  component_id: maybe(ref),
  archived_at: maybe(timestamp),
  created_at: maybe(timestamp),
  updated_at: maybe(timestamp),
  prices: maybe(z.array(componentPrice)),
  overage_prices: maybe(z.array(componentPrice)),
  overage_pricing_scheme: maybe(z.string()),
  use_site_exchange_rate: maybe(z.boolean()),
  // Only with `?currency_prices=true` (the list's parameter), on a site with other currencies.
  currency_prices: maybe(z.array(componentCurrencyPrice)),
  subscription_id: maybe(ref),
  tax_included: maybe(z.boolean()),
  interval: maybe(z.number().int()),
  interval_unit: maybe(z.string()),
  rollover_prepaid_remainder: maybe(z.boolean()),
  renew_prepaid_allocation: maybe(z.boolean()),
  expiration_interval: maybe(z.number()),
  expiration_interval_unit: maybe(z.string()),
});
/** A price point as {@link componentPricePoint} reads it, before the SDK turns it into its `ComponentPricePoint`. */
export type ComponentPricePoint = z.infer<typeof componentPricePoint>;

/** `Component Price Point Response`: `{ price_point }` (create, read, update, archive, unarchive). */
export const componentPricePointResponse = z.object({ price_point: componentPricePoint });
/** The answer {@link componentPricePointResponse} reads: `{ price_point }`. */
export type ComponentPricePointResponse = z.infer<typeof componentPricePointResponse>;

/**
 * `GET /components/{id}/price_points.json` (`Component Price Points response`): the page's price
 * points and its `meta` (counts, read but not relied on: paging ends on a short page). An entry with
 * id 0 is read, then left out.
 */
export const componentPricePointListResponse = z.object({
  price_points: z.array(componentPricePoint.extend({ id: z.number().int().nonnegative() })),
  meta: maybe(
    z.object({
      total_count: maybe(z.number().int()),
      current_page: maybe(z.number().int()),
      total_pages: maybe(z.number().int()),
      per_page: maybe(z.number().int()),
    }),
  ),
});
/** The answer {@link componentPricePointListResponse} reads: one page of a component's price points. */
export type ComponentPricePointListResponse = z.infer<typeof componentPricePointListResponse>;

/** The contract's `per_page` maximum for a component's price points. */
export const MAX_COMPONENT_PRICE_POINTS_PER_PAGE = 200;
