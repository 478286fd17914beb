import { randomUUID } from "node:crypto";
import { BillingError, BillingValidationError, ReplayPartialFailureError } from "./errors";
import { replayIdsInput } from "./inputs";
import type { ReplayResult } from "./results";
import { apiError, type Transport } from "./transport";
import { problemsOf } from "./validation";
import { DUPLICATE_SUBMISSION, errorListResponse, MAX_REPLAY_IDS, replayWebhooksResponse } from "./wire";

/**
 * Distinct ids in first-seen order. A sorted Float64Array copy finds the
 * duplicates (usually none) so that a million ids cost ~8 MB here, not the
 * ~40 MB a Set of all of them would.
 */
export function distinctIds(ids: readonly number[]): readonly number[] {
  // Ids read from a list or a range arrive ascending: one pass proves them distinct.
  let ascending = true;
  for (let i = 1; i < ids.length && ascending; i++) ascending = ids[i] > ids[i - 1];
  if (ascending) return ids;
  const sorted = Float64Array.from(ids).sort();
  const dup = new Set<number>();
  for (let i = 1; i < sorted.length; i++) if (sorted[i] === sorted[i - 1]) dup.add(sorted[i]);
  if (dup.size === 0) return ids;
  const seen = new Set<number>();
  return ids.filter((id) => {
    if (!dup.has(id)) return true;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/**
 * Queues webhooks for re-delivery: validates every id before sending any,
 * de-duplicates, and sends batches of at most 1000 with at most `concurrency`
 * in flight. Each batch carries its own `uniqueness_token`, so a transparent
 * retry after an ambiguous failure gets a 409 instead of queuing twice; that
 * 409 counts as queued. After a batch fails for good no further batch starts,
 * and the error lists exactly which ids were queued and which were not.
 */
export async function replayWebhooks(t: Transport, ids: unknown, concurrency: number): Promise<ReplayResult> {
  const parsed = replayIdsInput.safeParse(ids);
  if (!parsed.success) throw new BillingValidationError("invalid webhook replay", problemsOf(parsed.error, "ids"));
  const distinct = distinctIds(parsed.data);
  const batchCount = Math.ceil(distinct.length / MAX_REPLAY_IDS);
  const done = new Uint8Array(batchCount);
  let next = 0;
  let failure: BillingError | undefined;

  const worker = async (): Promise<void> => {
    while (failure === undefined && next < batchCount) {
      const index = next++;
      const batch = distinct.slice(index * MAX_REPLAY_IDS, (index + 1) * MAX_REPLAY_IDS);
      const req = { method: "POST", path: "/webhooks/replay.json", body: { ids: batch, uniqueness_token: randomUUID() }, retry: true } as const;
      try {
        const res = await t.send(req);
        const ok = res.status >= 200 && res.status < 300 && replayWebhooksResponse.safeParse(res.body).success;
        if (!ok && !(res.status === 409 && isDuplicate(res.body))) throw apiError(req, res);
        done[index] = 1;
      } catch (err) {
        failure ??= err instanceof BillingError ? err : new BillingError(String(err));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, batchCount) }, worker));

  if (failure === undefined) return { queued: distinct.length, batches: batchCount };
  const queued: number[] = [];
  const notQueued: number[] = [];
  for (let b = 0; b < batchCount; b++) {
    const target = done[b] ? queued : notQueued;
    for (let i = b * MAX_REPLAY_IDS; i < Math.min(distinct.length, (b + 1) * MAX_REPLAY_IDS); i++) target.push(distinct[i]);
  }
  if (queued.length === 0) throw failure;
  throw new ReplayPartialFailureError(queued, notQueued, failure);
}

function isDuplicate(body: unknown): boolean {
  const list = errorListResponse.safeParse(body);
  return list.success && list.data.errors.includes(DUPLICATE_SUBMISSION);
}
