/**
 * The service's duplicate prevention: a `uniqueness_token` seen within the
 * last 60 minutes makes a POST/PUT a 409 that changes nothing.
 *
 * A token is claimed when its request starts being processed and stays
 * claimed while it runs: a duplicate arriving meanwhile is a 409 too, so a
 * client that timed out and retried cannot apply a slow request twice. When
 * the request is refused (422, 404…) the token is forgotten, so that a 409
 * always means "a request with this token was or is being applied"; otherwise
 * a client retrying after an ambiguous failure of a request that was in fact
 * refused would read the 409 as success. The service documents neither the
 * in-progress case nor the refusal case; both are what a lock taken before
 * the work and released on rollback does.
 */
export const DUPLICATE_WINDOW_MS = 60 * 60 * 1000;

export type TokenStatus = "in_progress" | "applied";

export class DuplicateGuard {
  readonly #now: () => number;
  // Insertion order is time order, so expiry only ever trims the front.
  readonly #applied = new Map<string, number>();
  readonly #inProgress = new Set<string>();

  constructor(now: () => number) {
    this.#now = now;
  }

  /** Claims the token for a request about to be processed; false when it is taken (a 409). */
  claim(token: string): boolean {
    if (this.status(token) !== undefined) return false;
    this.#inProgress.add(token);
    return true;
  }

  /** The claimed request finished: remembered for 60 minutes if it applied, forgotten if refused. */
  settle(token: string, applied: boolean): void {
    this.#inProgress.delete(token);
    if (!applied) return;
    this.#applied.delete(token);
    this.#applied.set(token, this.#now());
  }

  status(token: string): TokenStatus | undefined {
    if (this.#inProgress.has(token)) return "in_progress";
    this.#expire();
    return this.#applied.has(token) ? "applied" : undefined;
  }

  /**
   * The applied tokens still within their window, oldest first, for a data
   * file. Tokens of requests still running are left out: a restart ends those
   * requests unanswered, and a client's retry must then be able to apply.
   */
  snapshot(): { token: string; appliedAt: number }[] {
    this.#expire();
    return [...this.#applied].map(([token, appliedAt]) => ({ token, appliedAt }));
  }

  /** Fills an empty guard from a data file; expired tokens fall away on the next look. */
  restore(tokens: readonly { token: string; appliedAt: number }[]): void {
    for (const t of [...tokens].sort((a, b) => a.appliedAt - b.appliedAt)) this.#applied.set(t.token, t.appliedAt);
  }

  #expire(): void {
    const cutoff = this.#now() - DUPLICATE_WINDOW_MS;
    for (const [token, at] of this.#applied) {
      if (at > cutoff) break;
      this.#applied.delete(token);
    }
  }
}
