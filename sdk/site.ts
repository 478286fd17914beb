import type { Site } from "./results";
import type { Transport } from "./transport";
import { siteResponse } from "./wire";

/** `GET /site.json`. */
export async function readSite(t: Transport): Promise<Site> {
  const { site: s } = await t.call({ method: "GET", path: "/site.json", repeatable: true }, siteResponse);
  return {
    id: s.id ?? undefined,
    name: s.name ?? undefined,
    subdomain: s.subdomain ?? undefined,
    test: s.test ?? undefined,
    currency: s.currency ?? undefined,
    // Absent or null: a site with one currency (the contract publishes no other meaning for it).
    nonPrimaryCurrencies: s.non_primary_currencies ?? [],
  };
}
