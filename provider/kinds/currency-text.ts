/**
 * Currency prices in messages: the preview's notices, the review's pricing section and the policy pack's
 * production pricing rule speak of them in the same words. A module of its own, importing nothing, so that the
 * review and the policy pack read it without loading the provider's modules (as pricing-fields.ts).
 */

/** The input that holds an object's prices in the site's other currencies, on every kind that has them. */
export const CURRENCY_PRICES = "currencyPrices";

/** An amount in a currency: "EUR 9.00"; a unit price with more decimals keeps them ("EUR 0.0125"). */
export function currencyMoney(code: string, amount: unknown): string {
  if (amount === undefined || amount === null) return "none";
  const n = typeof amount === "number" ? amount : typeof amount === "string" ? Number(amount) : Number.NaN;
  if (!Number.isFinite(n)) return `${code} ${String(amount)}`;
  const text = Number(n.toFixed(2)) === n ? n.toFixed(2) : String(amount);
  return `${code} ${text}`;
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** One currency's amounts by part: a role ("baseline"), a tier ("tier 1"), or the amount itself (""). */
function partsOf(v: unknown): Map<string, unknown> {
  if (Array.isArray(v)) return new Map(v.map((x, i) => [`tier ${i + 1}`, x]));
  if (isMap(v)) return new Map(Object.entries(v));
  return new Map(v === undefined || v === null ? [] : [["", v]]);
}

/** One currency's change: its amounts before (absent when new) and after (absent when left out, which the service keeps). */
export interface CurrencyPriceChange {
  readonly currency: string;
  readonly from?: string;
  readonly to?: string;
}

/** A currency's amounts as a reviewer reads them: "baseline EUR 9.00, trial EUR 1.00", "tier 1 EUR 0.80", "EUR 9.00". */
const amountsText = (code: string, parts: Map<string, unknown>, only?: readonly string[]) =>
  [...parts.entries()]
    .filter(([p]) => !only || only.includes(p))
    .map(([p, v]) => `${p === "" ? "" : `${p} `}${currencyMoney(code, v)}`)
    .join(", ");

/**
 * What changes between two declared `currencyPrices`, currency by currency, the parts that changed in money; a
 * currency the new declaration leaves out has no `to` (the service keeps it: it has no delete of a currency price).
 */
export function currencyPriceDiff(from: unknown, to: unknown): CurrencyPriceChange[] {
  const before = isMap(from) ? from : {};
  const after = isMap(to) ? to : {};
  const out: CurrencyPriceChange[] = [];
  for (const code of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) {
    const was = partsOf(before[code]);
    const now = partsOf(after[code]);
    if (!(code in after)) {
      out.push({ currency: code, from: amountsText(code, was) });
      continue;
    }
    if (!(code in before)) {
      out.push({ currency: code, to: amountsText(code, now) });
      continue;
    }
    const parts = [...new Set([...was.keys(), ...now.keys()])];
    const changed = parts.filter((p) => JSON.stringify(was.get(p) ?? null) !== JSON.stringify(now.get(p) ?? null));
    if (changed.length > 0) out.push({ currency: code, from: amountsText(code, was, changed), to: amountsText(code, now, changed) });
  }
  return out;
}

/** What the service does with a currency a declaration leaves out. */
export const KEPT = "kept: the service has no delete of a currency price";

/**
 * The changes as lines: "EUR baseline EUR 9.00 → baseline EUR 10.00", "GBP (new) baseline GBP 8.00", "CAD left out:
 * kept: the service has no delete of a currency price". Empty when nothing differs.
 */
export function currencyPriceChanges(from: unknown, to: unknown): string[] {
  return currencyPriceDiff(from, to).map((c) =>
    c.to === undefined
      ? `${c.currency} left out: ${KEPT}`
      : c.from === undefined
        ? `${c.currency} (new) ${c.to}`
        : `${c.currency} ${c.from} → ${c.to}`,
  );
}

/**
 * What the provider said a change of currency amounts alone does (its preview's `pricingChange.effect`, e.g. "in
 * place: …"), when the fields that changed are only `currencyPrices`; undefined otherwise (then the kind's own
 * words for a pricing change apply). The review and the policy pack both speak so.
 */
export function currencyOnlyEffect(changed: readonly string[], pricingChange: unknown): string | undefined {
  if (changed.length === 0 || !changed.every((f) => f === CURRENCY_PRICES)) return undefined;
  const said = isMap(pricingChange) ? pricingChange.effect : undefined;
  return typeof said === "string" ? said : undefined;
}

/** The changes as one text ("currencyPrices: EUR baseline EUR 9.00 → EUR 10.00; GBP (new) …"), or "" when none. */
export const currencyPricesText = (from: unknown, to: unknown): string => {
  const changes = currencyPriceChanges(from, to);
  return changes.length === 0 ? "" : `${CURRENCY_PRICES}: ${changes.join("; ")}`;
};
