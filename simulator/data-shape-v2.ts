import { z } from "zod";
import { siteFieldsV2 } from "./data-shape";
import type { SiteDataV3 } from "./data-shape-v3";

/**
 * Data files of version 2 (before components and coupons), read and upgraded
 * to version 3's shape (data-shape-v3.ts takes it on from there): a version 2
 * site had neither, so it gets none, and the new sequences start where a fresh
 * site's do.
 */
export const V2 = 2;

export const siteV2 = z.strictObject(siteFieldsV2);
export type SiteDataV2 = z.infer<typeof siteV2>;

export const dataFileV2 = z.strictObject({
  format: z.string(),
  version: z.literal(V2),
  site: siteV2,
});

/** Where a fresh site's component and coupon sequences start (components.ts, coupons.ts). */
export const FIRST_IDS = { component: 30001, componentPricePoint: 40001, price: 50001, coupon: 60001, couponRestriction: 70001 } as const;

export function upgradeV2(site: SiteDataV2): SiteDataV3 {
  return { ...site, nextIds: { ...site.nextIds, ...FIRST_IDS }, components: [], coupons: [] };
}
