import type { EndpointRecord } from "./records";
import { SITE_ID } from "./render-site";

/** `Endpoint`: every field the contract names, none it does not (its examples have exactly these five). */
export interface WireEndpoint {
  id: number;
  url: string;
  /** The simulated site's id, the `id` of GET /site.json (the examples show a site's own id, 1). */
  site_id: number;
  status: string;
  /** As stored: the order the client sent, each key once. */
  webhook_subscriptions: string[];
}

export function renderEndpoint(e: EndpointRecord): WireEndpoint {
  return { id: e.id, url: e.url, site_id: SITE_ID, status: e.status, webhook_subscriptions: [...e.events] };
}
