import {
  type CurrencyPricesOwner,
  currencyPricesProblems,
  type SiteCurrencies,
  siteCurrencyProblems,
} from "../../sdk/catalog/currency-inputs";
import type { BillingClient } from "../../sdk/client";
import { underlying } from "../../sdk/reads-once";
import { type CheckFailure, isUnknown } from "../engine";
import { CURRENCY_PRICES, currencyPriceChanges } from "./currency-text";
import type { Context } from "./kind";

/**
 * What the kinds with prices in the site's other currencies share (a product's and a component's price points, a
 * flat-amount coupon): the checks at preview (the SDK's pure ones, and the site's currencies read once per site),
 * the preview's pricing change, and how held currency prices compare with declared ones. Each kind's rules of its
 * own (roles, tiers, percentage) are the SDK's `currencyPricesProblems`, given the kind's owner.
 */

export { CURRENCY_PRICES, currencyPriceChanges, currencyPricesText } from "./currency-text";

/**
 * The site's currencies, read once per client (one client per site and provider configuration): every resource
 * of a preview that declares currency prices asks, and the answer does not change within a run. A failed read is
 * forgotten, so the next check asks again.
 */
const sites = new WeakMap<BillingClient, Promise<SiteCurrencies>>();
export function siteCurrencies(ctx: Context, site: string | undefined): Promise<SiteCurrencies> {
  // Keyed by the client underneath a check's own (which lives for one check).
  const client = underlying(ctx.client(site));
  let read = sites.get(client);
  if (!read) {
    read = client.readSite().then((s) => ({ currency: s.currency, nonPrimaryCurrencies: s.nonPrimaryCurrencies }));
    read.catch(() => sites.delete(client));
    sites.set(client, read);
  }
  return read;
}

/** Whether a value is, or holds, the engine's placeholder for a value not known until `up`. */
export const holdsUnknown = (v: unknown): boolean =>
  isUnknown(v) || (typeof v === "object" && v !== null && Object.values(v as Record<string, unknown>).some(holdsUnknown));

/**
 * The check failures of a declared `currencyPrices`, before anything is sent: the owner's rules when its parts
 * are known (`owner` undefined while they are not), and, as soon as the site is known, each currency against the
 * site's (`GET /site.json`, read once per site). None while the declaration itself is not known.
 */
export async function currencyFailures(
  ctx: Context,
  owner: CurrencyPricesOwner | undefined,
  declared: unknown,
  site: unknown,
): Promise<CheckFailure[]> {
  if (declared === undefined || declared === null || holdsUnknown(declared)) return [];
  const problems = owner ? currencyPricesProblems(owner, declared) : [];
  if (!isUnknown(site) && Object.keys(declared as object).length > 0)
    problems.push(...siteCurrencyProblems(Object.keys(declared as object), await siteCurrencies(ctx, site as string | undefined)));
  return problems.map((p) => ({ property: p.property, reason: p.message }));
}

/**
 * The held currency prices as the declaration would read, for diff: only the declared currencies (those it
 * leaves out the service keeps, and no declaration can remove), each as held, or left out when the object has
 * none in it (so the diff sees it missing). `held` undefined (not read) is nothing held.
 */
export function heldAsDeclared(declared: unknown, held: Readonly<Record<string, unknown>> | null | undefined): Record<string, unknown> {
  if (typeof declared !== "object" || declared === null) return {};
  return Object.fromEntries(Object.keys(declared).flatMap((code) => (held && code in held ? [[code, held[code]]] : [])));
}

/**
 * The part of the preview's `pricingChange` that currency prices make: old and new maps and the changes in money,
 * or undefined when they do not change (or are not known yet). A declaration without `currencyPrices` changes
 * none of them (the service keeps what it holds).
 */
export function currencyPricingChange(
  from: unknown,
  to: unknown,
): { from: Record<string, unknown>; to: Record<string, unknown>; changes: string[] } | undefined {
  if (to === undefined || holdsUnknown(to) || holdsUnknown(from)) return undefined;
  const changes = currencyPriceChanges(from, to);
  if (changes.length === 0) return undefined;
  return { from: { [CURRENCY_PRICES]: from ?? null }, to: { [CURRENCY_PRICES]: to }, changes };
}

/** The preview's `pricingChange`, with what currency prices add to it: the changes in money (`currencies`). */
export interface PricingChange {
  readonly fields: readonly string[];
  readonly from: Readonly<Record<string, unknown>>;
  readonly to: Readonly<Record<string, unknown>>;
  readonly effect: string;
  readonly currencies?: readonly string[];
}

/**
 * A `pricingChange` (pricing-fields' or none) with the currency prices' change added: its field, both maps and
 * the changes in money (`currencies`); `inPlace` is the effect when only currency prices change (a replacement's
 * effect stays: the new object is created with them).
 */
export function withCurrencyChange(
  change: PricingChange | undefined,
  from: unknown,
  to: unknown,
  inPlace: string,
): PricingChange | undefined {
  const currency = currencyPricingChange(from, to);
  if (!currency) return change;
  if (!change) return { fields: [CURRENCY_PRICES], from: currency.from, to: currency.to, effect: inPlace, currencies: currency.changes };
  return {
    ...change,
    fields: [...change.fields, CURRENCY_PRICES],
    from: { ...change.from, ...currency.from },
    to: { ...change.to, ...currency.to },
    currencies: currency.changes,
  };
}

/** The notice for currencies a price point or coupon keeps that its declaration leaves out. */
export const keptNotice = (type: string, label: string, codes: readonly string[]) =>
  `${type}: ${label} keeps its ${codes.join(", ")} price${codes.length === 1 ? "" : "s"}: the declaration leaves ${codes.length === 1 ? "it" : "them"} out, and the service has no delete of a currency price (they stay until changed in its web UI).`;
