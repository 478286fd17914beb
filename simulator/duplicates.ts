/**
 * The service's duplicate prevention: a `uniqueness_token` seen within the
 * last 60 minutes makes a POST/PUT a 409 that changes nothing.
 *
 * Only requests that changed something record their token (a 2xx from the
 * site, including one whose answer a fault then replaced). A token on a
 * refused request (422, 404…) is not recorded: otherwise a client retrying
 * after an ambiguous failure of a request that was in fact refused would read
 * the 409 as "it was applied". The real service does not document this.
 */
export const DUPLICATE_WINDOW_MS = 60 * 60 * 1000;

export class DuplicateGuard {
  readonly #now: () => number;
  // Insertion order is time order, so expiry only ever trims the front.
  readonly #seen = new Map<string, number>();

  constructor(now: () => number) {
    this.#now = now;
  }

  seen(token: string): boolean {
    this.#expire();
    return this.#seen.has(token);
  }

  record(token: string): void {
    this.#seen.delete(token);
    this.#seen.set(token, this.#now());
  }

  #expire(): void {
    const cutoff = this.#now() - DUPLICATE_WINDOW_MS;
    for (const [token, at] of this.#seen) {
      if (at > cutoff) break;
      this.#seen.delete(token);
    }
  }
}
