import { randomUUID } from "node:crypto";
import { type BillingError, BillingValidationError, type ReplayBatch, ReplayPartialFailureError } from "./errors";
import { replayIdsInput } from "./inputs";
import type { ReplayResult } from "./results";
import { exactIds, failureOf, type Transport } from "./transport";
import { problemsOf } from "./validation";
import { MAX_REPLAY_IDS, type WebhookId, wireIdList } from "./wire";

/**
 * Distinct ids in first-seen order. A sorted Float64Array copy finds the
 * duplicates (usually none) so that a million ids cost ~8 MB here, not the
 * ~40 MB a Set of all of them would.
 */
export function distinctIds<T extends WebhookId>(ids: readonly T[]): readonly T[] {
  if (ids.some((id) => typeof id === "string")) {
    // Big int64 ids as text are rare; a Set is fine for them.
    const seen = new Set<WebhookId>();
    return ids.filter((id) => {
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    });
  }
  const nums = ids as readonly number[];
  // Ids read from a list or a range arrive ascending: one pass proves them distinct.
  let ascending = true;
  for (let i = 1; i < nums.length && ascending; i++) ascending = nums[i] > nums[i - 1];
  if (ascending) return ids;
  const sorted = Float64Array.from(nums).sort();
  const dup = new Set<number>();
  for (let i = 1; i < sorted.length; i++) if (sorted[i] === sorted[i - 1]) dup.add(sorted[i]);
  if (dup.size === 0) return ids;
  const seen = new Set<number>();
  return ids.filter((id) => {
    if (!dup.has(id as number)) return true;
    if (seen.has(id as number)) return false;
    seen.add(id as number);
    return true;
  });
}

export interface ReplayOptions {
  /**
   * Batches whose outcome was unknown (from {@link ReplayPartialFailureError.unknownBatches}),
   * sent again with their own tokens before the new ids: a 409 proves one was
   * queued the first time, so nothing is delivered twice.
   */
  readonly resume?: readonly ReplayBatch[];
}

const QUEUED = 1;
const UNKNOWN = 2;

/**
 * Queues webhooks for re-delivery: validates every id before sending any,
 * de-duplicates, and sends batches of at most 1000 with at most `concurrency`
 * in flight, each with its own `uniqueness_token`. After a batch fails for
 * good no further batch starts. Every id ends queued, not queued, or unknown
 * (see {@link ReplayPartialFailureError}).
 */
export async function replayWebhooks(t: Transport, ids: unknown, concurrency: number, options: ReplayOptions = {}): Promise<ReplayResult> {
  const parsed = replayIdsInput.safeParse(ids);
  if (!parsed.success) throw new BillingValidationError("invalid webhook replay", problemsOf(parsed.error, "ids"));
  const resume = options.resume ?? [];
  resume.forEach(checkBatch);
  const distinct = distinctIds(parsed.data);
  const batches: ReplayBatch[] = [...resume];
  for (let i = 0; i < distinct.length; i += MAX_REPLAY_IDS) {
    batches.push({ ids: distinct.slice(i, i + MAX_REPLAY_IDS), uniquenessToken: randomUUID() });
  }
  // A resumed batch may already be queued: until the service says so (2xx or 409) it stays unknown.
  const state = new Uint8Array(batches.length).fill(UNKNOWN, 0, resume.length);
  let next = 0;
  let failure: BillingError | undefined;

  const worker = async (): Promise<void> => {
    while (failure === undefined && next < batches.length) {
      const index = next++;
      const batch = batches[index];
      const req = {
        method: "POST",
        path: "/webhooks/replay.json",
        repeatable: true,
        body: { ids: exactIds(batch.ids), uniqueness_token: batch.uniquenessToken },
      } as const;
      const x = await t.send(req);
      // A 2xx is the service accepting the batch; a duplicate means this token's batch was (or is being) queued.
      if (x.outcome.kind === "success" || x.outcome.kind === "duplicate") state[index] = QUEUED;
      else {
        if (x.mayHaveApplied) state[index] = UNKNOWN;
        failure ??= failureOf(req, x);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, batches.length) }, worker));

  const total = batches.reduce((n, b) => n + b.ids.length, 0);
  if (failure === undefined) return { queued: total, batches: batches.length };
  const queued: WebhookId[] = [];
  const notQueued: WebhookId[] = [];
  const unknown: ReplayBatch[] = [];
  batches.forEach((b, i) => {
    if (state[i] === QUEUED) queued.push(...b.ids);
    else if (state[i] === UNKNOWN) unknown.push(b);
    else notQueued.push(...b.ids);
  });
  // Nothing happened at all: the plain error says it best.
  if (queued.length === 0 && unknown.length === 0) throw failure;
  throw new ReplayPartialFailureError(queued, notQueued, failure, unknown);
}

const batchIds = wireIdList(1, MAX_REPLAY_IDS);

function checkBatch(b: ReplayBatch, i: number): void {
  const problems: { property: string; message: string }[] = [];
  if (!batchIds.safeParse(b?.ids).success)
    problems.push({ property: `resume.${i}.ids`, message: `must be 1 to ${MAX_REPLAY_IDS} webhook ids` });
  if (typeof b?.uniquenessToken !== "string" || b.uniquenessToken === "") {
    problems.push({ property: `resume.${i}.uniquenessToken`, message: "must be the non-empty token the batch was first sent with" });
  }
  if (problems.length > 0) throw new BillingValidationError("invalid webhook replay", problems);
}
