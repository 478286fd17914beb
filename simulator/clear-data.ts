import { type Answer, empty, errorList } from "./answers";
import type { RouteRequest } from "./routes";
import type { Site } from "./site";

/**
 * `POST /sites/clear_data.json`. The contract: "This call is asynchronous and
 * there may be a delay before the site data is fully deleted. If you are
 * clearing site data for an automated test, you will need to build in a delay
 * and/or check that there are no products, etc., in the site before
 * proceeding. This functionality will only work on sites in TEST mode.
 * Attempts to perform this on sites in “live” mode will result in a response
 * of 403 FORBIDDEN." So: 200 at once (no body: the contract publishes none),
 * the data gone `delayMs` later; a live site's 403 is an error list (its body
 * is not published).
 *
 * `cleanup_scope` (default `all`): `customers` clears "only customers and
 * related subscriptions (leaving the products untouched)"; `all` also "all
 * products": the catalogue (families, products, components, coupons, their
 * price points and currency prices) and the offers made of it. What the
 * contract names neither (the site's settings and currencies, custom fields,
 * reason codes, webhook endpoints and the webhook log) stays; custom fields
 * lose their data, which lived on the subscriptions and customers.
 */
export type CleanupScope = "all" | "customers";
export const CLEANUP_SCOPES: readonly CleanupScope[] = ["all", "customers"];
export const LIVE_SITE = "This site is in live mode: its data can only be cleared on a test site.";
/** Default delay before the data disappears: long enough that a client reading at once still sees it. */
export const CLEAR_DATA_DELAY_MS = 250;

/** The clears asked for and not yet applied. */
export class ClearDataJobs {
  readonly #pending = new Map<NodeJS.Timeout, CleanupScope>();
  readonly #delayMs: number;
  readonly #apply: (scope: CleanupScope) => void;

  /** `apply` clears the site (and, in the server, writes the data file). */
  constructor(delayMs: number, apply: (scope: CleanupScope) => void) {
    if (!Number.isFinite(delayMs) || delayMs < 0) throw new Error(`clearDataDelayMs must be 0 or more, got ${delayMs}`);
    this.#delayMs = delayMs;
    this.#apply = apply;
  }

  get pending(): number {
    return this.#pending.size;
  }

  request(scope: CleanupScope): void {
    const timer = setTimeout(() => {
      this.#pending.delete(timer);
      this.#run(scope);
    }, this.#delayMs);
    timer.unref();
    this.#pending.set(timer, scope);
  }

  /** Applies every pending clear now (a closing simulator: the service would have finished the job). */
  flush(): void {
    for (const [timer, scope] of [...this.#pending]) {
      clearTimeout(timer);
      this.#pending.delete(timer);
      this.#run(scope);
    }
  }

  #run(scope: CleanupScope): void {
    try {
      this.#apply(scope);
    } catch {
      // A data file that cannot be written is reported by the next request's write; a timer has no one to tell.
    }
  }
}

/** The handler: 403 on a live site, 422 for a scope the contract does not list, else 200 and the clear queued. */
export function clearSite(site: Site, _p: string[], req: RouteRequest): Answer {
  if (site.settings.live) return errorList(403, LIVE_SITE);
  const scope = req.query.cleanup_scope ?? "all";
  if (!(CLEANUP_SCOPES as readonly string[]).includes(scope))
    return errorList(422, `cleanup_scope must be ${CLEANUP_SCOPES.join(" or ")}; got '${scope}'.`);
  site.clearing.request(scope as CleanupScope);
  return empty(200);
}
