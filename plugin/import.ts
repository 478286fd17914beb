import type * as plugin from "@pulumi/pulumi/provider";
import { KINDS, type ProviderKind } from "../provider/kinds";
import { kinds } from "../provider/runtime";
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
  throw new Error(NOT_IMPORTABLE[key]);
}

/** Why the other kinds cannot be imported, and what to do instead. */
const NOT_IMPORTABLE: Record<Exclude<ProviderKind, "webhookEndpoint">, string> = {
  webhookSettings:
    "WebhookSettings cannot be imported: the service has no GET of the webhook setting (PUT only), so its value cannot be read into a state. " +
    "Declare the resource instead: `pulumi up` sends the PUT, which is idempotent and creates nothing at the service, so there is nothing to adopt.",
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
