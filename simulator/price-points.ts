import { ALREADY_ARCHIVED, DEFAULT_NOT_ARCHIVABLE, refuse } from "./wire-catalog";

/**
 * What a product's and a component's price points share: archive, unarchive and promotion to the
 * default follow the same rules on the service (the published 422s), whoever owns the price point.
 */
interface Lifecycle {
  default: boolean;
  archivedAt: string | null;
  updatedAt: string;
  readonly handle: string;
}

/** DELETE …/price_points/{id}.json: never the default (the published 422), nor twice. */
export function archivePricePoint<P extends Lifecycle>(pp: P, now: string): P {
  if (pp.default) refuse("base", DEFAULT_NOT_ARCHIVABLE);
  if (pp.archivedAt !== null) refuse("base", ALREADY_ARCHIVED);
  pp.archivedAt = now;
  pp.updatedAt = now;
  return pp;
}

/** …/unarchive.json. One that is not archived is answered as it is (the contract lists no refusal). */
export function unarchivePricePoint<P extends Lifecycle>(pp: P, now: () => string): P {
  if (pp.archivedAt === null) return pp;
  pp.archivedAt = null;
  pp.updatedAt = now();
  return pp;
}

/**
 * …/default.json: `pp` becomes its owner's default and the old default a catalog one (subscriptions
 * keep theirs). The default already is a no-op. An archived price point cannot be the default (it
 * could not be archived while it was one), so it is refused rather than quietly unarchived.
 */
export function promotePricePoint<O extends { updatedAt: string }, P extends Lifecycle>(owner: O, pp: P, old: P, now: () => string): O {
  if (pp.default) return owner;
  if (pp.archivedAt !== null) refuse("base", `Price point '${pp.handle}' is archived: unarchive it before making it the default.`);
  const at = now();
  old.default = false;
  old.updatedAt = at;
  pp.default = true;
  pp.updatedAt = at;
  owner.updatedAt = at;
  return owner;
}
