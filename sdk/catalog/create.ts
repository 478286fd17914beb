import { setTimeout as sleep } from "node:timers/promises";
import type { z } from "zod";
import { BillingApiError, BillingError, type CatalogKind, CatalogOutcomeUnknownError } from "../errors";
import { backoffDelay, readBack } from "../retry";
import { type ApiRequest, parseBody, type Transport } from "../transport";
import { catalogFailure } from "./refusals";

/** How a create is retried and resolved; the client's own settings. */
export interface CreateOptions {
  /** Reuse a token, e.g. to resume after {@link CatalogOutcomeUnknownError}. Default: a fresh UUID. */
  readonly uniquenessToken?: string;
  readonly maxRetries: number;
  readonly retryBaseDelayMs: number;
  /** How long to read back after a duplicate-submission answer before calling the outcome unknown. */
  readonly settleMs: number;
}

/** What a read-back by handle saw: the object, or in words what stood in its place. */
export type Sighting<T> = { readonly found: T } | { readonly seen: string };

/**
 * What a create's read-back saw of the object it looks for in a family: a 404 is "not found" (any other failure
 * throws); an archived object, or one in another family, was seen but is not the one this create would have made.
 */
export async function sightingInFamily<T extends { readonly id: number; readonly archivedAt?: string; readonly productFamilyId?: number }>(
  what: string,
  familyId: number,
  lookup: () => Promise<T>,
): Promise<Sighting<T>> {
  let o: T;
  try {
    o = await lookup();
  } catch (err) {
    if (err instanceof BillingApiError && err.status === 404) return { seen: "not found (404)" };
    throw err;
  }
  if (o.archivedAt !== undefined) return { seen: `an archived ${what} (id ${o.id}, archived ${o.archivedAt})` };
  if (o.productFamilyId !== undefined && o.productFamilyId !== familyId)
    return { seen: `${what} ${o.id} in another family (${o.productFamilyId})` };
  return { found: o };
}

/** One catalog create: what it makes, its request (with its token), how its answer reads and how to find it by handle. */
export interface CreateSpec<S extends z.ZodType, T> {
  readonly kind: CatalogKind;
  readonly handle: string;
  readonly uniquenessToken: string;
  readonly request: ApiRequest & { readonly method: "POST"; readonly repeatable: false };
  readonly answer: S;
  readonly result: (parsed: z.output<S>) => T;
  /**
   * Reads back by handle: the live object with this handle, or what was seen instead (nothing, an
   * archived one, one elsewhere). Throws when the read fails.
   */
  readonly find: () => Promise<Sighting<T>>;
  /**
   * How the object found by handle differs from what this create asked (see {@link differsFrom}), or undefined.
   * A create refused because the handle was taken leaves the holder in place, so after an ambiguous attempt a
   * live object with the handle is this create's only when it holds what was asked: otherwise it was there
   * before (or another writer made it), and taking it as created would hand its id to the caller, whose
   * delete would then archive it.
   */
  readonly differs: (found: T) => string | undefined;
}

/**
 * The first asked field a found object holds otherwise, in words, or undefined. A field the create did not
 * ask for, or that the service's answer leaves out (null), is not compared: it cannot tell the objects apart.
 * Text is compared without its surrounding spaces: a service that trims what it stores must not make this
 * create's own object look like another's (whose create would then end in a refusal of the taken handle).
 */
export function differsFrom(id: number, fields: readonly (readonly [name: string, asked: unknown, held: unknown])[]): string | undefined {
  const same = (a: unknown, h: unknown) => a === h || (typeof a === "string" && typeof h === "string" && a.trim() === h.trim());
  for (const [name, asked, held] of fields) {
    if (asked === undefined || held === undefined || held === null || same(asked, held)) continue;
    return `id ${id} holds ${name} ${JSON.stringify(held)} where this create asked ${JSON.stringify(asked)}`;
  }
  return undefined;
}

/**
 * Creates once. The POST carries a `uniqueness_token` and is never repeated blindly: after an
 * outcome that may have been applied (5xx, reset, timeout) the object is read back by its handle
 * (handles are unique per kind, so a live object with it that holds what was asked is the one
 * created; one that holds something else was there before, see {@link CreateSpec.differs}); only
 * when there is none is the POST sent again, with the same token, within `maxRetries`. A 409 "duplicate
 * submission" means a request with this token was applied or is still being processed: it is read
 * back until it appears, for at most `settleMs`. An outcome that stays unknown is
 * {@link CatalogOutcomeUnknownError}, never "nothing was created".
 *
 * An archived object with the handle is not the one created (archiving does not free a handle, so
 * this create cannot have made it): it counts as not found, and the next attempt gets the
 * service's own refusal.
 */
export async function createOnce<S extends z.ZodType, T>(t: Transport, spec: CreateSpec<S, T>, opts: CreateOptions): Promise<T> {
  const req = spec.request;
  const unknown = (cause: BillingError, why: string) =>
    new CatalogOutcomeUnknownError({ kind: spec.kind, handle: spec.handle, uniquenessToken: spec.uniquenessToken, cause, why });
  const sought = `no live ${spec.kind} with handle "${spec.handle}" is found`;
  const find = async (): Promise<Sighting<T>> => {
    const r = await spec.find();
    const d = "found" in r ? spec.differs(r.found) : undefined;
    return d === undefined ? r : { seen: `a ${spec.kind} this create did not make (${d})` };
  };
  let ambiguous: BillingError | undefined;

  for (let attempt = 0; ; attempt++) {
    const x = await t.send(req);
    const o = x.outcome;
    if (o.kind === "success") {
      let parsed: z.output<S>;
      try {
        parsed = parseBody(req, o.status, o.body, spec.answer);
      } catch (err) {
        // Created, but the answer does not say what: a read by handle does.
        const r = await find().catch((e: unknown) => ({ seen: `unreadable (${e instanceof Error ? e.message : String(e)})` }));
        if ("found" in r) return r.found;
        throw unknown(
          err as BillingError,
          `the service answered ${o.status} with a body this SDK does not understand, and ${sought} (${r.seen})`,
        );
      }
      return spec.result(parsed);
    }
    if (o.kind === "duplicate") {
      // Applied, or still being processed: read back until it appears, for at most settleMs.
      const r = await readBack<T>(opts.settleMs, opts.retryBaseDelayMs, find);
      if ("found" in r) return r.found;
      throw unknown(
        catalogFailure(req, x),
        `the service answered that a request with this uniqueness_token was already submitted (it may still be processing), ` +
          `and after ${Math.round(opts.settleMs / 1000)} s of reading back ${sought} (last seen: ${r.last})`,
      );
    }
    const failure = catalogFailure(req, x);
    if (o.kind !== "ambiguous") {
      if (!ambiguous) throw failure;
      // An earlier attempt may have applied: a live object with the handle says it did.
      const r = await find().catch((e: unknown) => ({ seen: `unreadable (${e instanceof Error ? e.message : String(e)})` }));
      if ("found" in r) return r.found;
      // Refused, and nothing of this handle lives: no attempt created it (it would hold the handle).
      if (o.kind === "refused") throw failure;
      throw unknown(
        failure,
        `an attempt failed ambiguously (${ambiguous.message}), then the next one ${failure.message}, and ${sought} (${r.seen})`,
      );
    }
    ambiguous = failure;
    let r: Sighting<T>;
    try {
      r = await find();
    } catch (readErr) {
      throw unknown(
        readErr instanceof BillingError ? readErr : failure,
        `the request failed (${failure.message}) and reading back by handle failed too (${readErr instanceof Error ? readErr.message : String(readErr)})`,
      );
    }
    if ("found" in r) return r.found;
    if (attempt >= opts.maxRetries) {
      throw unknown(failure, `${attempt + 1} attempt(s) failed ambiguously (last: ${failure.message}) and ${sought} (${r.seen})`);
    }
    await sleep(backoffDelay(attempt, opts.retryBaseDelayMs));
  }
}
