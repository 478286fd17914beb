import type { BillingClient } from "../sdk/client";
import { LiveSiteError } from "../sdk/errors";
import type { CleanupScope } from "../sdk/site-config/inputs";
import { collectionsOf, countAll, leftOver } from "./collections";

/** What a reset did, for the command to print; a failed request is thrown instead. */
export type ResetOutcome =
  | { readonly kind: "refused"; readonly message: string }
  | {
      readonly kind: "cleared";
      readonly site: string;
      /** Each collection the scope clears, with what it held before the clear. */
      readonly before: readonly { readonly label: string; readonly count: number }[];
      /** From the clear's request to the read that found the site empty. */
      readonly ms: number;
    }
  | { readonly kind: "timeout"; readonly site: string; readonly left: string; readonly ms: number };

export interface ResetOptions {
  /** How long after the clear the site may still hold data before giving up. */
  readonly timeoutMs: number;
  /** The first pause between reads while waiting; each next one doubles, to at most 5 s. Default 250. */
  readonly pollMs?: number;
  readonly now?: () => number;
}

const MAX_POLL_MS = 5_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Clears a test site's data for `scope` and waits until it reads empty. The site's own word comes first:
 * `GET /site.json` saying `test: false` refuses before the clear is sent; the service's 403 is the last
 * guard (a site made live since). Counts are read before the clear, so the summary says what was there.
 * The wait starts at the clear's answer: the contract says it is asynchronous and asks callers to check
 * that the site is empty before going on.
 */
export async function resetSite(client: BillingClient, scope: CleanupScope, o: ResetOptions): Promise<ResetOutcome> {
  const now = o.now ?? Date.now;
  const site = await client.readSite();
  const name = site.subdomain ?? site.name ?? `id ${site.id ?? "?"}`;
  if (site.test === false)
    return {
      kind: "refused",
      message: `site ${name} is not a test site (GET /site.json answers "test": false): the service clears only test sites; nothing was cleared`,
    };
  const collections = collectionsOf(scope);
  const before = await countAll(client, collections);
  try {
    await client.clearSiteData(scope);
  } catch (err) {
    if (err instanceof LiveSiteError)
      return { kind: "refused", message: `site ${name} is a live site (the service answered 403 Forbidden): nothing was cleared` };
    throw err;
  }
  const started = now();
  let pause = o.pollMs ?? 250;
  for (;;) {
    const counts = await countAll(client, collections).catch((err: Error) => {
      // Whoever runs it next must know the clear went through: a rerun clears again, which is harmless.
      throw new Error(`the clear (scope ${scope}) was accepted, then reading the site failed: ${err.message}`, { cause: err });
    });
    const ms = now() - started;
    if (counts.every((n) => n === 0))
      return { kind: "cleared", site: name, before: collections.map((c, i) => ({ label: c.label, count: before[i] ?? 0 })), ms };
    if (ms >= o.timeoutMs) return { kind: "timeout", site: name, left: leftOver(collections, counts), ms };
    await sleep(Math.min(pause, o.timeoutMs - ms));
    pause = Math.min(pause * 2, MAX_POLL_MS);
  }
}
