import { BillingApiError, BillingValidationError, LiveSiteError } from "../errors";
import { failureOf, type Transport } from "../transport";
import { problemsOf } from "../validation";
import { type CleanupScope, cleanupScope } from "./inputs";

/**
 * Clears a test site's data (`POST /sites/clear_data.json?cleanup_scope=`): `customers` removes customers and
 * their subscriptions and resets revenue, `all` the catalog too. The service does it asynchronously ("there may be
 * a delay before the site data is fully deleted"): a caller that goes on must check the site is empty first.
 * A live site is refused with 403: a {@link LiveSiteError}.
 *
 * Repeated like a read after an ambiguous failure: clearing what is already cleared leaves the site as it was,
 * so a second request cannot do anything the first one would not have.
 */
export async function clearSiteData(t: Transport, scope: unknown): Promise<{ scope: CleanupScope }> {
  const r = cleanupScope.safeParse(scope);
  if (!r.success) throw new BillingValidationError("invalid site clearing", problemsOf(r.error, "scope"));
  const req = { method: "POST", path: "/sites/clear_data.json", repeatable: true, query: { cleanup_scope: r.data } } as const;
  const x = await t.send(req);
  if (x.outcome.kind === "success") return { scope: r.data };
  const failure = failureOf(req, x);
  if (x.outcome.kind === "refused" && x.outcome.status === 403 && failure instanceof BillingApiError)
    throw new LiveSiteError({ errors: failure.errors, method: req.method, path: req.path, scope: r.data });
  throw failure;
}
