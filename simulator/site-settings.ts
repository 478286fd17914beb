import type { SiteSettingsInput, SiteSettingsRecord } from "./records-site";

/**
 * The site's currencies and mode. A new site is a test site in USD with no
 * other currency, as the simulator always was. The contract's `Site` reports
 * `currency`, `non_primary_currencies` and `test`; the vendor's own end-to-end
 * suite reads a real test site as `currency: "USD"`, `non_primary_currencies:
 * ["EUR", "GBP"]`, `test: true` (maxio-com/ab-typescript-sdk,
 * e2e/src/sitesController.spec.ts). Exchange rates are not on the wire; the
 * vendor's help centre ("Multi-Currency") says each currency has a custom rate
 * or a floating market one, which the simulator models as one fixed rate per
 * currency (1 unless given).
 */
export const DEFAULT_SETTINGS: SiteSettingsRecord = Object.freeze({
  currency: "USD",
  nonPrimaryCurrencies: [] as string[],
  exchangeRates: {},
  live: false,
}) as SiteSettingsRecord;

const ISO_4217 = /^[A-Z]{3}$/;

/** The settings after `change`; a misuse (a code that is not ISO 4217, the primary among the others, a rate for no currency) throws. */
export function changedSettings(current: SiteSettingsRecord, change: SiteSettingsInput, what: string): SiteSettingsRecord {
  const currency = change.currency ?? current.currency;
  const others = [...(change.nonPrimaryCurrencies ?? current.nonPrimaryCurrencies)];
  for (const c of [currency, ...others])
    if (typeof c !== "string" || !ISO_4217.test(c)) throw new Error(`${what}: '${String(c)}' is not an ISO 4217 currency code`);
  if (others.includes(currency)) throw new Error(`${what}: the primary currency ${currency} cannot also be a non-primary one`);
  if (new Set(others).size !== others.length) throw new Error(`${what}: non-primary currencies must be distinct`);
  const given = change.exchangeRates ?? {};
  for (const [c, rate] of Object.entries(given)) {
    if (!others.includes(c)) throw new Error(`${what}: an exchange rate for ${c}, which is not a non-primary currency`);
    if (!Number.isFinite(rate) || rate <= 0) throw new Error(`${what}: the exchange rate for ${c} must be a positive number`);
  }
  const exchangeRates = Object.fromEntries(others.map((c) => [c, given[c] ?? current.exchangeRates[c] ?? 1]));
  if (change.live !== undefined && typeof change.live !== "boolean") throw new Error(`${what}: live must be true or false`);
  return { currency, nonPrimaryCurrencies: others, exchangeRates, live: change.live ?? current.live };
}
