import { z } from "zod";
import { maybe } from "./common";

/**
 * `GET /site.json`: which site the credentials reach, and its currencies. Only the fields that name it
 * and its currencies are read, and none is required to be well formed beyond its type: the answer's
 * success is what proves the site and its credentials (the vendor's example even gives id 0 and the
 * currency "string"). It carries no webhook setting.
 *
 * `currency` is the site's primary currency (what every `*_in_cents` price is in); `non_primary_currencies`
 * the others a price point or a coupon may be priced in (the contract: "ISO code for one of the site level
 * currencies"). A list entry that is not text is left out rather than refusing the site: a currency read
 * wrong can only name a currency the site may not have, which the service then refuses itself.
 */
export const siteResponse = z.object({
  site: z.object({
    id: maybe(z.number().int()),
    name: maybe(z.string()),
    subdomain: maybe(z.string()),
    test: maybe(z.boolean()),
    currency: maybe(z.string()),
    non_primary_currencies: maybe(z.array(z.unknown()).transform((a) => a.filter((c): c is string => typeof c === "string"))),
  }),
});
/** The answer {@link siteResponse} reads: `{ site }`. */
export type SiteResponse = z.infer<typeof siteResponse>;
