import { type ComponentCurrencyPricesInput, componentCurrencyPricesInput } from "../../sdk/catalog/currency-inputs";
import { componentCurrencyPricesOf } from "../../sdk/catalog/currency-results";
import type { BillingClient } from "../../sdk/client";
import type { ComponentPricePoint } from "../../sdk/results";
import { keptNotice } from "./currency-fields";
import type { Context } from "./kind";
import { labelOf } from "./lifecycle";

/**
 * A component price point's prices in the site's other currencies, one unit price per tier of its `prices`: the
 * input, read beside the price point (its own read has no `currency_prices`: the component's list does), set after
 * its create or update (neither body carries them), a currency left out kept.
 */

export const currencyPricesField = componentCurrencyPricesInput
  .optional()
  .describe(
    "Its prices in the site's other currencies (with `useSiteExchangeRate: false`), by ISO code: one unit price per tier of `prices`, in their order, then (a prepaid price point) one per tier of `overagePricing.prices` (`{ EUR: [\"0.09\", \"0.07\"] }`, in the currency's own units). The tiers must be mirrored (the service's rule), and each currency must be one of the site's (checked at preview). Set after the price point, changed in place; a currency left out is kept (the service has no delete of a currency price).",
  );

/** Unit prices per tier, as the service holds them (decimal text); a tier without one is null. */
export type HeldComponentCurrencies = Record<string, (string | null)[]>;

/** A price point as the service holds it, with its own currency prices when it has them. */
export type WithCurrencies = ComponentPricePoint & { readonly currencyPrices?: HeldComponentCurrencies };

const heldOf = (prices: Parameters<typeof componentCurrencyPricesOf>[0], tierIds: readonly number[]): HeldComponentCurrencies =>
  Object.fromEntries(Object.entries(componentCurrencyPricesOf(prices, tierIds)).map(([c, p]) => [c, p.map((x) => x ?? null)]));

/** The price point with its own currency prices (with the exchange rate's, they are not its own: not read). */
export async function withComponentCurrencies(
  client: BillingClient,
  componentId: number,
  pp: ComponentPricePoint,
): Promise<WithCurrencies> {
  // An archived one's are not read: they are read through the component's list of price points, which leaves archived ones out.
  if (pp.useSiteExchangeRate !== false || pp.archivedAt !== undefined) return pp;
  const read = await client.readComponentPricePointCurrencyPrices(componentId, pp.id);
  return { ...pp, currencyPrices: heldOf(read.prices, read.tierIds) };
}

/** Whether two unit prices are the same amount ("5" is 5.00). */
const same = (a: unknown, b: unknown) => a !== undefined && a !== null && b !== undefined && b !== null && Number(a) === Number(b);

/**
 * The held currency prices as the declaration reads, for diff: each declared currency in its declared form when
 * it prices the same, else as held; one the price point has none in left out (so the diff sees it missing).
 */
export function componentHeldAsDeclared(declared: unknown, held: HeldComponentCurrencies | null | undefined): Record<string, unknown> {
  if (typeof declared !== "object" || declared === null) return {};
  const out: Record<string, unknown> = {};
  for (const [code, want] of Object.entries(declared as Record<string, unknown[]>)) {
    const has = held?.[code];
    if (!has) continue;
    out[code] = Array.isArray(want) && want.length === has.length && want.every((w, i) => same(w, has[i])) ? want : has;
  }
  return out;
}

/**
 * Makes the price point's currency prices the declared ones; the currencies it keeps that the declaration leaves
 * out are said. A failure says which currencies were not set.
 */
export async function convergeComponentCurrencies(
  ctx: Context,
  pp: WithCurrencies,
  declared: ComponentCurrencyPricesInput | undefined,
  where: { readonly componentId: number; readonly site: string | undefined },
  recorded: Readonly<Record<string, unknown>> | undefined,
): Promise<WithCurrencies> {
  const name = labelOf("component price point", pp.handle ?? "?", pp.id);
  if (declared === undefined) {
    const before = recorded?.currencyPrices;
    const codes = before && typeof before === "object" ? Object.keys(before) : [];
    if (codes.length > 0) ctx.notice(keptNotice("ComponentPricePoint", name, codes));
    return pp;
  }
  const codes = Object.keys(declared);
  if (codes.length === 0 && recorded === undefined) return pp;
  const client = ctx.client(where.site);
  let set: Awaited<ReturnType<BillingClient["setComponentPricePointCurrencyPrices"]>>;
  try {
    set = await client.setComponentPricePointCurrencyPrices(where.componentId, pp.id, declared);
  } catch (err) {
    throw new Error(`its ${codes.join(", ")} prices were not all set: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (set.undeclared.length > 0) ctx.notice(keptNotice("ComponentPricePoint", name, set.undeclared));
  const { tierIds } = await client.readComponentPricePointCurrencyPrices(where.componentId, pp.id);
  return { ...pp, currencyPrices: heldOf(set.prices, tierIds) };
}
