import { type Answer, errorList, json } from "./answers";
import { renderSubscription } from "./render";
import type { RouteRequest } from "./routes";
import type { Site } from "./site";
import { fieldProblems, migrationPreviewRequest, migrationRequest } from "./wire";

export function readSubscription(site: Site, [id]: string[], req: RouteRequest): Answer {
  return json(200, renderSubscription(site.view(Number(id)), req.render));
}

export function migrate(site: Site, [id]: string[], req: RouteRequest): Answer {
  const parsed = migrationRequest.safeParse(req.body);
  if (!parsed.success) {
    site.view(Number(id)); // an unknown subscription is a 404 whatever the body
    return errorList(422, ...fieldProblems(parsed.error));
  }
  return json(200, renderSubscription(site.migrate(Number(id), parsed.data.migration, req.baseUrl), req.render));
}

export function preview(site: Site, [id]: string[], req: RouteRequest): Answer {
  const parsed = migrationPreviewRequest.safeParse(req.body);
  if (!parsed.success) {
    site.view(Number(id));
    return errorList(422, ...fieldProblems(parsed.error));
  }
  return json(200, { migration: site.preview(Number(id), parsed.data.migration) });
}

/** The 3-D Secure link, visited by the customer's browser: not part of the API, so not in the contract. */
export function authenticate(site: Site, [token]: string[]): Answer {
  const r = site.completeAuthentication(token);
  return json(200, {
    authentication: "completed",
    subscription_id: r.subscriptionId,
    message: r.alreadyCompleted ? "This authentication was already completed." : "Authentication complete; the migration was applied.",
  });
}
