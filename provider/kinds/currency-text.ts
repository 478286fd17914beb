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

/**
 * What changes between two declared `currencyPrices`, currency by currency, in money: "EUR baseline EUR 9.00 →
 * EUR 10.00", "GBP (new) tier 1 GBP 0.80". A currency the new declaration leaves out is kept by the service (it has
 * no delete of a currency price), and said so. Empty when nothing differs.
 */
export function currencyPriceChanges(from: unknown, to: unknown): string[] {
  const before = isMap(from) ? from : {};
  const after = isMap(to) ? to : {};
  const out: string[] = [];
  for (const code of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) {
    const was = partsOf(before[code]);
    const now = partsOf(after[code]);
    if (!(code in after)) {
      out.push(`${code} left out: the service keeps its ${code} prices (it has no delete of a currency price)`);
      continue;
    }
    const added = !(code in before);
    const parts = [...new Set([...was.keys(), ...now.keys()])];
    const changed = parts.filter((p) => added || JSON.stringify(was.get(p) ?? null) !== JSON.stringify(now.get(p) ?? null));
    if (changed.length === 0) continue;
    const said = changed.map((p) => {
      const name = p === "" ? "" : `${p} `;
      return added
        ? `${name}${currencyMoney(code, now.get(p))}`
        : `${name}${currencyMoney(code, was.get(p))} → ${currencyMoney(code, now.get(p))}`;
    });
    out.push(`${code}${added ? " (new)" : ""} ${said.join(", ")}`);
  }
  return out;
}

/** The changes as one text ("currencyPrices: EUR baseline EUR 9.00 → EUR 10.00; GBP (new) …"), or "" when none. */
export const currencyPricesText = (from: unknown, to: unknown): string => {
  const changes = currencyPriceChanges(from, to);
  return changes.length === 0 ? "" : `${CURRENCY_PRICES}: ${changes.join("; ")}`;
};
