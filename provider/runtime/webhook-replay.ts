import {
  keysOf,
  problemsOf,
  ReplayPartialFailureError,
  replayIdsInput,
  type WebhookFilter,
  type WebhookId,
  webhookFilterInput,
} from "../../sdk";
import { type CheckFailure, changedKeys, failuresOf, isUnknown, notice, partialFailure, unknownInputs, userInputs } from "./common";
import { clientFor, siteCheck } from "./config";

type Props = Record<string, unknown>;

const INPUT_KEYS = ["ids", "selector", "triggers", "site"] as const;

/** check: exactly one of ids / selector, each validated with the SDK's schemas; usable credentials. */
export async function check(provider: object, _olds: Props, news: Props) {
  const inputs = userInputs(news);
  const failures: CheckFailure[] = unknownInputs("WebhookReplay", INPUT_KEYS, inputs);
  const { ids, selector, triggers, site } = inputs;
  if ((ids === undefined) === (selector === undefined)) {
    failures.push({
      property: "ids",
      reason: 'give exactly one of ids (webhook ids to replay) or selector (a webhook list filter such as { status: "failed" })',
    });
  }
  if (ids !== undefined && !isUnknown(ids)) {
    const r = replayIdsInput.safeParse(ids);
    if (!r.success) failures.push(...failuresOf(problemsOf(r.error, "ids")));
  }
  if (selector !== undefined && !isUnknown(selector)) {
    const r = webhookFilterInput.safeParse(selector);
    if (!r.success) failures.push(...failuresOf(problemsOf(r.error, "selector", { "": keysOf(webhookFilterInput) })));
    // Required here (the SDK's filter may omit it): checked on the raw value, so another bad field does not hide it.
    const isObject = typeof selector === "object" && selector !== null && !Array.isArray(selector);
    if (isObject && (selector as Props).status === undefined)
      failures.push({ property: "selector.status", reason: 'is required: one of "successful", "failed", "pending", "paused"' });
  }
  if (triggers !== undefined && !isUnknown(triggers) && !Array.isArray(triggers)) {
    failures.push({ property: "triggers", reason: "must be an array of values; changing any of them replays again" });
  }
  failures.push(...siteCheck(provider, site));
  return { inputs: news, failures };
}

/**
 * The service forgets a uniqueness_token after 60 minutes; a batch of unknown
 * outcome re-sent later could be queued a second time. Past this age it is
 * no longer re-sent automatically (a margin under the 60 minutes).
 */
export const TOKEN_REUSE_WINDOW_MS = 55 * 60 * 1000;

interface RecordedBatch {
  readonly ids: WebhookId[];
  readonly uniquenessToken: string;
  /** When it was first sent (ISO-8601): its token is honoured by the service for 60 minutes from then. */
  readonly sentAt: string;
}

const batchesOf = (props: Props): RecordedBatch[] => (Array.isArray(props.unknownBatches) ? (props.unknownBatches as RecordedBatch[]) : []);
const resendable = (b: RecordedBatch, now = Date.now()) => now - Date.parse(b.sentAt) < TOKEN_REUSE_WINDOW_MS;

/** Changing ids, selector, triggers or site replays again; a replay left partial or unknown is finished by update. */
export async function diff(_provider: object, _id: string, olds: Props, news: Props) {
  const changed = changedKeys(INPUT_KEYS, (olds.args ?? {}) as Props, userInputs(news));
  if (changed.length > 0) return { changes: true, replaces: changed, deleteBeforeReplace: false };
  const unfinished = (Array.isArray(olds.notQueuedIds) && olds.notQueuedIds.length > 0) || batchesOf(olds).some((b) => resendable(b));
  return { changes: unfinished, replaces: [], deleteBeforeReplace: false };
}

function argsOf(inputs: Props): Props {
  const a: Props = {};
  for (const k of INPUT_KEYS) if (inputs[k] !== undefined) a[k] = inputs[k];
  return a;
}

interface Progress {
  readonly queued: number;
  readonly batches: number;
  /** Unknown batches too old to re-send: kept as unknown, reported, never sent again. */
  readonly expired: RecordedBatch[];
}

/**
 * Sends `ids` and re-sends `resume` with their own tokens. Whatever does not
 * succeed is recorded (a partial failure keeps the resource in state): ids
 * not queued are sent afresh by the next `up`; batches of unknown outcome are
 * re-sent with the same token, so the service's 409 proves them queued and
 * nothing is delivered twice.
 */
async function replay(
  provider: object,
  id: string,
  args: Props,
  ids: WebhookId[],
  resume: RecordedBatch[],
  done: Progress,
  providerText: unknown,
) {
  const client = clientFor(provider, args.site as string | undefined);
  const sentAt = new Date().toISOString();
  const expiredIds = done.expired.flatMap((b) => b.ids);
  try {
    const r = await client.replayWebhooks(ids, { resume });
    if (done.expired.length > 0) notice(expiredWarning(expiredIds));
    return {
      args,
      queuedCount: done.queued + r.queued,
      batchCount: done.batches + r.batches,
      notQueuedIds: [],
      unknownIds: expiredIds,
      unknownBatches: done.expired,
      replayedAt: new Date().toISOString(),
    };
  } catch (err) {
    let queued = 0;
    let notQueued: WebhookId[] = [...ids];
    let unknown: RecordedBatch[] = resume;
    if (err instanceof ReplayPartialFailureError) {
      queued = err.queued.length;
      notQueued = [...err.notQueued];
      const firstSent = new Map(resume.map((b) => [b.uniquenessToken, b.sentAt]));
      unknown = err.unknownBatches.map((b) => ({
        ids: [...b.ids],
        uniquenessToken: b.uniquenessToken,
        sentAt: firstSent.get(b.uniquenessToken) ?? sentAt,
      }));
    }
    const all = [...unknown, ...done.expired];
    const unknownIds = all.flatMap((b) => b.ids);
    const message =
      `webhook replay: ${done.queued + queued} id(s) queued, ${notQueued.length} not queued, ${unknownIds.length} unknown ` +
      `(${err instanceof Error ? err.message : String(err)}). Recorded: the next \`pulumi up\` sends the ids not queued, and re-sends ` +
      "the batches of unknown outcome with their original uniqueness tokens, so the service refuses any it already queued.";
    throw partialFailure(
      message,
      id,
      {
        args,
        queuedCount: done.queued + queued,
        batchCount: done.batches,
        notQueuedIds: notQueued,
        unknownIds,
        unknownBatches: all,
        replayedAt: null,
      },
      providerText,
    );
  }
}

function expiredWarning(ids: readonly WebhookId[]): string {
  return (
    `warning: WebhookReplay: ${ids.length} webhook id(s) have an unknown outcome and their uniqueness tokens are older than the ` +
    `service's 60-minute duplicate window, so they are not re-sent (they may be queued already): ${ids.slice(0, 10).join(", ")}` +
    `${ids.length > 10 ? ", …" : ""}. Check the receiver; to replay them anyway, list them in a new WebhookReplay.`
  );
}

export async function create(provider: object, news: Props) {
  const args = argsOf(userInputs(news));
  const id = `replay-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  let ids: WebhookId[];
  if (args.ids !== undefined) ids = args.ids as WebhookId[];
  else {
    const webhooks = await clientFor(provider, args.site as string | undefined).listWebhooks(args.selector as WebhookFilter);
    ids = webhooks.map((w) => w.id);
  }
  if (ids.length === 0) {
    return {
      id,
      outs: {
        args,
        queuedCount: 0,
        batchCount: 0,
        notQueuedIds: [],
        unknownIds: [],
        unknownBatches: [],
        replayedAt: new Date().toISOString(),
      },
    };
  }
  return { id, outs: await replay(provider, id, args, ids, [], { queued: 0, batches: 0, expired: [] }, news.__provider) };
}

/** Finishes a partial replay: ids not queued afresh, unknown batches with their tokens; otherwise nothing to do. */
export async function update(provider: object, id: string, olds: Props, news: Props) {
  const pending = (olds.notQueuedIds ?? []) as WebhookId[];
  const recorded = batchesOf(olds);
  const resume = recorded.filter((b) => resendable(b));
  if (pending.length === 0 && resume.length === 0) return { outs: userInputs(olds) };
  const done = {
    queued: Number(olds.queuedCount ?? 0),
    batches: Number(olds.batchCount ?? 0),
    expired: recorded.filter((b) => !resendable(b)),
  };
  return { outs: await replay(provider, id, (olds.args ?? argsOf(userInputs(news))) as Props, pending, resume, done, news.__provider) };
}

// No read: what was queued cannot be read back per replay, so refresh keeps the record
// (the host echoes the state by itself when a provider has no read).

/** Queued deliveries cannot be recalled: nothing is sent. */
export async function del(): Promise<void> {}
