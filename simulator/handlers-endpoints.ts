import { type Answer, errorList, json } from "./answers";
import { renderEndpoint } from "./render-endpoint";
import type { RouteRequest } from "./routes";
import { type Site, SiteError } from "./site";
import { parseEndpointRequest } from "./wire";

/**
 * POST /endpoints.json: answered 200 with `{"endpoint": …}`, as the contract
 * publishes it (not 201). A new endpoint is "enabled": the only status the
 * vendor's examples show, and one made through the API is meant to receive.
 * A URL already used by another endpoint is allowed (see Endpoints).
 */
export function createEndpoint(site: Site, _p: string[], req: RouteRequest): Answer {
  const parsed = parseEndpointRequest(req.body);
  if ("problems" in parsed) return errorList(422, ...parsed.problems);
  return json(200, { endpoint: renderEndpoint(site.endpoints.add({ url: parsed.url, events: parsed.events })) });
}

/** GET /endpoints.json: every endpoint of the site, oldest first, as a bare array (not wrapped, no paging: the contract has none). */
export function listEndpoints(site: Site): Answer {
  return json(200, site.endpoints.list().map(renderEndpoint));
}

/**
 * PUT /endpoints/{id}.json: the url and the COMPLETE list of events replace
 * what was held; an empty list unsubscribes from every event. An unknown id is
 * a 404 whatever the body. The status is left as it was: the request has no
 * field for it, and the contract does not say an update re-enables anything.
 */
export function updateEndpoint(site: Site, [id]: string[], req: RouteRequest): Answer {
  const endpointId = Number(id);
  if (!site.endpoints.get(endpointId)) throw new SiteError(404, "Endpoint not found");
  const parsed = parseEndpointRequest(req.body);
  if ("problems" in parsed) return errorList(422, ...parsed.problems);
  return json(200, { endpoint: renderEndpoint(site.endpoints.change(endpointId, { url: parsed.url, events: parsed.events })) });
}
