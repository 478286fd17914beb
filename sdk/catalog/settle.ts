import type { z } from "zod";
import { type ApiRequest, parseBody, type Transport } from "../transport";
import { catalogFailure } from "./refusals";

/**
 * A write that may be repeated (archive, unarchive, promote, update): sent with the transport's
 * retries. When it fails after an attempt that may have applied (a 5xx or a reset, then a refusal
 * such as "already archived", or retries spent), `reached` reads back whether the service is
 * already where the write would have put it; if so that is the result, else the failure is thrown.
 */
export async function settledWrite<S extends z.ZodType, T>(
  t: Transport,
  req: ApiRequest & { readonly repeatable: true },
  answer: S,
  result: (parsed: z.output<S>) => T | Promise<T>,
  reached?: () => Promise<T | undefined>,
): Promise<T> {
  const x = await t.send(req);
  if (x.outcome.kind === "success") return result(parseBody(req, x.outcome.status, x.outcome.body, answer));
  const failure = catalogFailure(req, x);
  if (!x.mayHaveApplied) throw failure;
  if (reached) {
    const r = await reached().catch(() => undefined);
    if (r !== undefined) return r;
  }
  // Never only "failed": the caller must not take it as not done (a pricing change may already have made a default price point).
  failure.message = `${failure.message}; it may or may not have been applied (the read-back could not confirm it), so read it back before relying on either`;
  throw failure;
}
