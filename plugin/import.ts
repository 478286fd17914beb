import type * as plugin from "@pulumi/pulumi/provider";
import { KINDS, type ProviderKind } from "../provider/kinds";
import { kinds } from "../provider/runtime";
import { clientFor, SiteConfigError, siteLabel } from "../provider/runtime/config";
import { importFamily, importPricePoint, importProduct } from "./import-catalog";
import { importComponent } from "./import-component";
import { importComponentPricePoint } from "./import-component-price-point";
import { importCoupon } from "./import-coupon";
import { plain } from "./values";

/**
 * `pulumi import <token> <name> <id>`: the engine's Read carries the id and nothing else, while each
 * kind's read (the runtime's, shared with the dynamic providers) refreshes a recorded state. So an
 * import gives the kind's read a seed state it can refresh, from what the id says, and answers with
 * the state read from the service and the inputs that state records (`recordedInputs`, the same the
 * runtime's diff compares), which the engine needs to adopt the resource and prints as code.
 */
export async function importRead(provider: object, key: ProviderKind, id: string): Promise<plugin.ReadResult> {
  if (key === "webhookEndpoint") return importEndpoint(provider, id);
  if (key === "webhookSettings") return importSettings(provider, id);
  if (key === "productFamily") return importFamily(provider, id);
  if (key === "product") return importProduct(provider, id);
  if (key === "productPricePoint") return importPricePoint(provider, id);
  if (key === "coupon") return importCoupon(provider, id);
  if (key === "componentPricePoint") return importComponentPricePoint(provider, id);
  if (key === "component") return importComponent(provider, id);
  throw new Error(NOT_IMPORTABLE[key]);
}

/** Why the one-shot kinds cannot be imported. */
const NOT_IMPORTABLE: Record<
  Exclude<
    ProviderKind,
    | "webhookEndpoint"
    | "webhookSettings"
    | "productFamily"
    | "product"
    | "productPricePoint"
    | "componentPricePoint"
    | "coupon"
    | "component"
  >,
  string
> = {
  subscriptionMigration:
    "SubscriptionMigration cannot be imported: it records a migration this stack performed (a one-shot event), and the service keeps no migration object to adopt.",
  webhookReplay:
    "WebhookReplay cannot be imported: it records a replay this stack requested (a one-shot event), and the service keeps no replay object to adopt.",
};

/** `123` (the configured site) or `eu-shop/123` (an entry of billing:sites). */
const ENDPOINT_ID = /^(?:(.+)\/)?([1-9][0-9]*)$/;

/**
 * A WebhookEndpoint by the service's endpoint id. The kind's read finds the endpoint by the resource id
 * when the state has no endpointId (its own rule for imports), so the seed holds only what the state
 * schema requires; the site, when the id names one, says which credentials to use.
 */
async function importEndpoint(provider: object, importId: string): Promise<plugin.ReadResult> {
  const m = ENDPOINT_ID.exec(importId);
  if (!m) {
    throw new Error(
      `WebhookEndpoint import id "${importId}" is not an endpoint id: give the service's id of the endpoint (e.g. 123), or <site>/<id> for an entry of billing:sites`,
    );
  }
  const [, site, id] = m;
  const seed = { url: "", events: [], ...(site !== undefined ? { site } : {}) };
  const read = await kinds.webhookEndpoint.read(provider, id, seed);
  if (!read.id || !read.props || Object.keys(read.props).length === 0) {
    throw new Error(
      `webhook endpoint ${id} does not exist on ${site === undefined ? "the configured site" : `site "${site}"`}: nothing to import`,
    );
  }
  const state = KINDS.webhookEndpoint.operations.state.parse(read.props);
  return plain({ id, props: read.props, inputs: KINDS.webhookEndpoint.operations.recordedInputs(state) });
}

/** `enabled` / `disabled` (the configured site), or `<site>/enabled` for an entry of billing:sites. */
const SETTINGS_ID = /^(?:(.+)\/)?(enabled|disabled)$/;

/**
 * WebhookSettings by site. The service has no GET of the setting (and /site.json does not show it),
 * so the id states the value the operator believes is set, and the state records it as stated, not
 * confirmed (`appliedAt` null): the next up sends the PUT once, which is idempotent, and from then on
 * the value is one this stack applied. What the import does check is the site: a read of /site.json
 * that changes nothing proves it is configured and answers with its credentials.
 */
async function importSettings(provider: object, importId: string): Promise<plugin.ReadResult> {
  const m = SETTINGS_ID.exec(importId);
  if (!m) throw new Error(settingsIdProblem(importId));
  const [, site, value] = m;
  await clientOf(provider, site, "WebhookSettings", importId).readSite();
  const webhooksEnabled = value === "enabled";
  const state = { webhooksEnabled, disableOnDelete: false, ...(site !== undefined ? { site } : {}), appliedAt: null };
  return plain({ id: siteLabel(provider, site), props: state, inputs: { webhooksEnabled, ...(site !== undefined ? { site } : {}) } });
}

/** Words a user may write for a state: read as that attempt, never as a site's name. */
const STATE_WORDS = /^(on|off|true|false|yes|no|1|0|enabled?|disabled?)$/i;

/**
 * Why an import id of WebhookSettings is not one: only a slash makes a site (`<site>/enabled`), so a
 * word without one is answered as the state it tries to say ("on" is not a state), not as a site.
 */
export function settingsIdProblem(importId: string): string {
  const why =
    "the service cannot report whether webhooks are on, so the id states the value you expect; the next up sends the PUT once to confirm it";
  const slash = importId.lastIndexOf("/");
  if (slash < 0) {
    const known = STATE_WORDS.test(importId) || importId === "";
    return (
      `WebhookSettings import id "${importId}": ${JSON.stringify(importId)} is not a state: use enabled or disabled ` +
      `(or <site>/enabled for an entry of billing:sites${known ? "" : `, e.g. "${importId}/enabled" if ${JSON.stringify(importId)} is one`}); ${why}`
    );
  }
  const site = importId.slice(0, slash);
  const value = importId.slice(slash + 1);
  if (site === "") {
    return `WebhookSettings import id "${importId}" names no site before the slash: use enabled or disabled for the configured site, or <site>/enabled for an entry of billing:sites; ${why}`;
  }
  return (
    `WebhookSettings import id "${importId}": ${JSON.stringify(value)} is not a state: use "${site}/enabled" or ` +
    `"${site}/disabled" for site "${site}" of billing:sites; ${why}`
  );
}

/** The site's client; a site the configuration does not have fails naming the type and the import id. */
export function clientOf(provider: object, site: string | undefined, type: string, importId: string) {
  try {
    return clientFor(provider, site);
  } catch (err) {
    // The message names the site when there is one, or says what to configure when there is none.
    if (err instanceof SiteConfigError) throw new Error(`${type} import id "${importId}": ${err.message}`);
    throw err;
  }
}
