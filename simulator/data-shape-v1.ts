import { z } from "zod";
import { DEFAULT_FAMILY } from "./catalog";
import { id, siteActivity, timestamp } from "./data-shape";
import type { SiteDataV2 } from "./data-shape-v2";
import { NO_TERMS } from "./wire-catalog";

/**
 * Data files of version 1 (before product families and full price point
 * terms), read and upgraded to the current shape: the upgraded site is then
 * checked by the current schema like any other. A version 1 site showed every
 * product in one family (id 1, "plans"); it becomes that family, held.
 */
export const V1 = 1;

const pricePointV1 = z.strictObject({
  id,
  handle: z.string().min(1),
  name: z.string(),
  default: z.boolean(),
  priceInCents: z.int().nonnegative(),
  intervalMonths: z.int().positive(),
});

const productV1 = z.strictObject({
  id,
  handle: z.string().min(1).nullable(),
  name: z.string(),
  priceInCents: z.int().nonnegative(),
  pricePoints: z.array(pricePointV1).min(1),
  createdAt: timestamp,
});

const siteV1 = z.strictObject({
  webhooksEnabled: z.boolean(),
  nextIds: z.strictObject({ product: id, pricePoint: id, subscription: id, webhook: id, endpoint: id }),
  products: z.array(productV1),
  ...siteActivity,
});

export const dataFileV1 = z.strictObject({
  format: z.string(),
  version: z.literal(V1),
  site: siteV1,
});

/** The family version 1 rendered every product in, with the id it showed. */
const V1_FAMILY_ID = 1;

/** To version 2's shape; data-shape-v2.ts takes it on from there. */
export function upgradeV1(site: z.infer<typeof siteV1>): SiteDataV2 {
  const first = site.products.map((p) => p.createdAt).sort()[0];
  return {
    ...site,
    nextIds: { ...site.nextIds, family: 9001, signupPage: 1 },
    productFamilies:
      first === undefined ? [] : [{ id: V1_FAMILY_ID, ...DEFAULT_FAMILY, accountingCode: null, createdAt: first, updatedAt: first }],
    products: site.products.map((p) => ({
      id: p.id,
      handle: p.handle,
      name: p.name,
      // What version 1 answered for every product.
      description: "",
      familyId: V1_FAMILY_ID,
      accountingCode: null,
      taxCode: null,
      requireCreditCard: true,
      requestCreditCard: true,
      requestBillingAddress: false,
      requireBillingAddress: false,
      requireShippingAddress: false,
      signupPages: [],
      versionNumber: 1,
      archivedAt: null,
      pricePoints: p.pricePoints.map(({ intervalMonths, ...pp }) => ({
        ...NO_TERMS,
        ...pp,
        interval: intervalMonths,
        intervalUnit: "month" as const,
        useSiteExchangeRate: true,
        archivedAt: null,
        createdAt: p.createdAt,
        updatedAt: p.createdAt,
      })),
      createdAt: p.createdAt,
      updatedAt: p.createdAt,
    })),
  };
}
