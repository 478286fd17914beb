import { z } from "zod";
import { maybe } from "./common";

/**
 * `GET /site.json`: which site the credentials reach. Only the fields that name it are read, and
 * none is required to be well formed beyond its type: the answer's success is what proves the site
 * and its credentials (the vendor's example even gives id 0). It carries no webhook setting.
 */
export const siteResponse = z.object({
  site: z.object({
    id: maybe(z.number().int()),
    name: maybe(z.string()),
    subdomain: maybe(z.string()),
    test: maybe(z.boolean()),
  }),
});
/** The answer {@link siteResponse} reads: `{ site }`. */
export type SiteResponse = z.infer<typeof siteResponse>;
