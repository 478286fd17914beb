import { z } from "zod";
import { FIRST_CURRENCY_PRICE_ID } from "./currency-prices";
import { type SiteData, siteFieldsV3 } from "./data-shape";
import { FIRST_METAFIELD_ID } from "./metafields";
import { FIRST_OFFER_IDS } from "./offers";
import { FIRST_REASON_CODE_ID } from "./reason-codes";
import { DEFAULT_SETTINGS } from "./site-settings";

/**
 * Data files of version 3 (before the site's settings, currency prices,
 * metafields, reason codes and offers), read and upgraded to the current
 * shape: a version 3 site was a test site in USD alone (what GET /site.json
 * answered for every site then) and had none of the rest, so it gets none,
 * and the new sequences start where a fresh site's do. The upgraded site is
 * then checked by the current schema like any other.
 */
export const V3 = 3;

export const siteV3 = z.strictObject(siteFieldsV3);
export type SiteDataV3 = z.infer<typeof siteV3>;

export const dataFileV3 = z.strictObject({
  format: z.string(),
  version: z.literal(V3),
  site: siteV3,
});

export function upgradeV3(site: SiteDataV3): SiteData {
  return {
    ...site,
    nextIds: {
      ...site.nextIds,
      currencyPrice: FIRST_CURRENCY_PRICE_ID,
      metafield: FIRST_METAFIELD_ID,
      reasonCode: FIRST_REASON_CODE_ID,
      offer: FIRST_OFFER_IDS.offer,
      offerSignupPage: FIRST_OFFER_IDS.signupPage,
    },
    settings: structuredClone(DEFAULT_SETTINGS),
    productCurrencyPrices: [],
    componentCurrencyPrices: [],
    couponCurrencyPrices: [],
    metafields: [],
    reasonCodes: [],
    offers: [],
  };
}
