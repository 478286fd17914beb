import type { SiteSettingsRecord } from "./records-site";
import { DEFAULT_SETTINGS } from "./site-settings";

/** The simulated site's id: GET /site.json's `site.id`, and every endpoint's `site_id`. */
export const SITE_ID = 1;

/**
 * GET /site.json, shaped like the contract's `Site`. It has no field for
 * whether webhooks are enabled (field notes: "drift cannot be detected"), so
 * the simulator does not invent one: a client that wants to read the setting
 * back must find that it cannot. The currencies and `test` are the site's
 * settings (a fresh test site in USD alone by default); the other values are
 * those of a fresh test site.
 */
export function renderSite(
  subdomain: string,
  settings: Pick<SiteSettingsRecord, "currency" | "nonPrimaryCurrencies" | "live"> = DEFAULT_SETTINGS,
) {
  return {
    site: {
      id: SITE_ID,
      name: "Billing Simulator",
      subdomain,
      currency: settings.currency,
      seller_id: 1,
      non_primary_currencies: [...settings.nonPrimaryCurrencies],
      relationship_invoicing_enabled: true,
      customer_hierarchy_enabled: false,
      whopays_enabled: false,
      whopays_default_payer: "self-ungrouped",
      allocation_settings: { upgrade_charge: "prorated", downgrade_credit: "none", accrue_charge: "true" },
      default_payment_collection_method: "automatic",
      organization_address: {
        street: null,
        line2: null,
        city: null,
        state: null,
        zip: null,
        country: null,
        name: "Billing Simulator",
        phone: null,
      },
      tax_configuration: { kind: "custom", fully_configured: false, destination_address: "shipping_then_billing" },
      net_terms: {
        default_net_terms: 0,
        automatic_net_terms: 0,
        remittance_net_terms: 0,
        net_terms_on_remittance_signups_enabled: false,
        custom_net_terms_enabled: false,
      },
      test: !settings.live,
    },
  };
}
