import type {
  CurrencyPriceRole,
  CurrencyPricesOwner,
  PricePointCurrencyPricesInput,
  PrimaryPricingRoles,
} from "../../sdk/catalog/currency-inputs";
import { pricePointCurrencyPricesOf } from "../../sdk/catalog/currency-results";
import type { BillingClient } from "../../sdk/client";
import type { PricePoint } from "../../sdk/results";
import { holdsUnknown, keptNotice } from "./currency-fields";
import type { Context } from "./kind";

/**
 * A product price point's own currency prices, read and made the declared ones: what a ProductPricePoint and a
 * Product (its default price point's) share.
 */

/** A price point as the service holds it, with its own currency prices when it has them (`useSiteExchangeRate: false`). */
export type WithCurrencies = PricePoint & { readonly currencyPrices?: Record<string, Partial<Record<CurrencyPriceRole, number>>> };

/** A price point with its own currency prices read, when it has them (with the exchange rate's, they are not its own). */
export async function withCurrencies(client: BillingClient, productId: number, pp: PricePoint): Promise<WithCurrencies> {
  if (pp.useSiteExchangeRate !== false) return pp;
  return { ...pp, currencyPrices: pricePointCurrencyPricesOf(await client.readPricePointCurrencyPrices(productId, pp.id)) };
}

/** Which price point, declared how, and what was declared before. */
export interface CurrencyTarget {
  /** The kind, for notices ("ProductPricePoint"). */
  readonly type: string;
  /** The price point as messages name it. */
  readonly label: string;
  readonly productId: number;
  readonly site: string | undefined;
  /** The declared `currencyPrices` (undefined: left out). */
  readonly declared: PricePointCurrencyPricesInput | undefined;
  /** The primary pricing they mirror (checked again by the SDK before anything is sent). */
  readonly pricing: PrimaryPricingRoles;
  /** The `currencyPrices` the recorded declaration had; undefined right after a create (nothing recorded yet). */
  readonly recorded: unknown;
  /** Whether the price point was just made (then an empty declaration sends nothing). */
  readonly created: boolean;
}

/**
 * Makes the price point's currency prices the declared ones (create what it lacks, change amounts in place); the
 * currencies it keeps that the declaration leaves out are said. A failure says what was not set: the price point
 * itself is recorded, and the next `up` sends the currency prices again.
 */
export async function convergeCurrencies(ctx: Context, pp: WithCurrencies, t: CurrencyTarget): Promise<WithCurrencies> {
  const { declared } = t;
  if (declared === undefined) {
    const codes = t.recorded && typeof t.recorded === "object" ? Object.keys(t.recorded) : [];
    if (codes.length > 0) ctx.notice(keptNotice(t.type, t.label, codes));
    return pp;
  }
  const codes = Object.keys(declared);
  if (codes.length === 0 && t.created) return pp;
  let set: Awaited<ReturnType<BillingClient["setPricePointCurrencyPrices"]>>;
  try {
    set = await ctx.client(t.site).setPricePointCurrencyPrices(t.productId, pp.id, declared, { pricing: t.pricing });
  } catch (err) {
    throw new Error(`its ${codes.join(", ")} prices were not all set: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (set.undeclared.length > 0) ctx.notice(keptNotice(t.type, t.label, set.undeclared));
  return { ...pp, currencyPrices: pricePointCurrencyPricesOf(set.prices) };
}

/**
 * What the SDK's currency rules need of a declared product price point (or a product's default), once each part is
 * known: the roles its pricing has and its `useSiteExchangeRate`; undefined while any of them is not known yet.
 */
export function pricePointOwner(inputs: Readonly<Record<string, unknown>>): CurrencyPricesOwner | undefined {
  const { trialPriceInCents, trialInterval, initialChargeInCents, useSiteExchangeRate } = inputs;
  if ([trialPriceInCents, trialInterval, initialChargeInCents, useSiteExchangeRate].some(holdsUnknown)) return undefined;
  return {
    kind: "product price point",
    pricing: { trialPriceInCents, trialInterval, initialChargeInCents },
    useSiteExchangeRate: useSiteExchangeRate as boolean | undefined,
  };
}
