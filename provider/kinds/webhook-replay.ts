import { z } from "zod";
import { ReplayPartialFailureError } from "../../sdk/errors";
import { replayIdsInput, type WebhookFilter, webhookFilterInput } from "../../sdk/inputs";
import type { WebhookId } from "../../sdk/wire";
import { shellProvider } from "../shell";
import type { WebhookReplayArgs, WebhookReplayOutputs } from "./generated/webhook-replay";
import { accepting, presenceRule, siteInput } from "./inputs";
import { type ArgsOf, type Context, declareKind, type InputsOf, type KindModule, resourceClass } from "./kind";

/** A webhook list filter whose status is required (the SDK's may omit it: a replay of every webhook is never meant). */
const selector = accepting<{
  /** Webhooks in this delivery status (required: a replay of every webhook is never meant). */
  readonly status: "successful" | "failed" | "pending" | "paused";
  /** Webhooks created on or after this date (YYYY-MM-DD). */
  readonly sinceDate?: string;
  /** Webhooks created on or before this date (YYYY-MM-DD). */
  readonly untilDate?: string;
  /** Only this subscription's webhooks. */
  readonly subscriptionId?: number;
}>({ required: ["status"] })(
  webhookFilterInput.superRefine(
    ...presenceRule<unknown>(
      "status",
      (raw) => typeof raw === "object" && raw !== null && !Array.isArray(raw) && (raw as { status?: unknown }).status === undefined,
      'is required: one of "successful", "failed", "pending", "paused"',
    ),
  ),
);

const kind = declareKind({
  key: "webhookReplay",
  type: "WebhookReplay",
  summary: "Queues webhooks for re-delivery, once: any number of ids, or those a selector finds (a one-shot event).",
  inputs: z
    .object({
      ids: accepting<(number | string)[]>({ type: "array", items: { type: ["integer", "string"] } })(replayIdsInput)
        .optional()
        .describe(
          'Webhook ids, any number: sent in batches of at most 1000. Ids are int64: give an id above 2^53 as its decimal string ("9007199254740993") so it is sent exactly.',
        ),
      selector: selector.optional().describe("Which webhooks to replay, resolved through the webhook list at create time."),
      triggers: z
        .array(z.unknown(), { error: "must be an array of values; changing any of them replays again" })
        .optional()
        .describe("Any values; changing one replays again (as does changing ids or selector)."),
      site: siteInput,
    })
    .superRefine(
      ...presenceRule<{ ids?: unknown; selector?: unknown }>(
        "ids",
        (raw) => (raw.ids === undefined) === (raw.selector === undefined),
        'give exactly one of ids (webhook ids to replay) or selector (a webhook list filter such as { status: "failed" })',
      ),
    ),
  outputs: z.object({
    queuedCount: z.number().int().describe("Distinct ids the service is known to have accepted into its delivery queue."),
    batchCount: z.number().int().describe("Requests sent (at most 1000 ids each)."),
    replayedAt: z.string().nullable().describe("When the replay completed; null while part of it is still to be sent."),
    notQueuedIds: z.array(z.union([z.number(), z.string()])).describe("Ids a failed run did not queue; the next `up` sends exactly these."),
    unknownIds: z
      .array(z.union([z.number(), z.string()]))
      .describe(
        "Ids whose batch may or may not have been queued (its answer was lost). The next `up` re-sends those batches with their original uniqueness tokens, so nothing is delivered twice.",
      ),
  }),
  replaceOn: "all",
  refresh: false,
  onDelete: "nothing (queued deliveries cannot be recalled)",
  example: { ids: [5005, 5006] },
});

type Inputs = InputsOf<typeof kind>;

/** A batch of unknown outcome: re-sent with its token, which the service honours for 60 minutes from `sentAt`. */
const recordedBatch = z.object({ ids: z.array(z.union([z.number(), z.string()])), uniquenessToken: z.string(), sentAt: z.string() });
type RecordedBatch = z.output<typeof recordedBatch>;

const state = kind.outputs.extend({
  args: kind.inputs,
  notQueuedIds: kind.outputs.shape.notQueuedIds.default([]),
  unknownIds: kind.outputs.shape.unknownIds.default([]),
  unknownBatches: z.array(recordedBatch).default([]),
});
type State = z.output<typeof state>;

/**
 * The service forgets a uniqueness_token after 60 minutes; a batch of unknown
 * outcome re-sent later could be queued a second time. Past this age it is
 * no longer re-sent automatically (a margin under the 60 minutes).
 */
export const TOKEN_REUSE_WINDOW_MS = 55 * 60 * 1000;

const resendable = (b: RecordedBatch, now = Date.now()) => now - Date.parse(b.sentAt) < TOKEN_REUSE_WINDOW_MS;

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
async function replay(ctx: Context, id: string, args: Inputs, ids: WebhookId[], resume: RecordedBatch[], done: Progress): Promise<State> {
  const sentAt = new Date().toISOString();
  const expiredIds = done.expired.flatMap((b) => b.ids);
  try {
    const r = await ctx.client(args.site).replayWebhooks(ids, { resume });
    if (done.expired.length > 0) ctx.notice(expiredWarning(expiredIds));
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
    const recorded: State = {
      args,
      queuedCount: done.queued + queued,
      batchCount: done.batches,
      notQueuedIds: notQueued,
      unknownIds,
      unknownBatches: all,
      replayedAt: null,
    };
    throw ctx.partialFailure(message, id, recorded);
  }
}

function expiredWarning(ids: readonly WebhookId[]): string {
  return (
    `warning: WebhookReplay: ${ids.length} webhook id(s) have an unknown outcome and their uniqueness tokens are older than the ` +
    `service's 60-minute duplicate window, so they are not re-sent (they may be queued already): ${ids.slice(0, 10).join(", ")}` +
    `${ids.length > 10 ? ", …" : ""}. Check the receiver; to replay them anyway, list them in a new WebhookReplay.`
  );
}

export const webhookReplay: KindModule<typeof kind, State> = {
  kind,
  importer: {
    refused:
      "WebhookReplay cannot be imported: it records a replay this stack requested (a one-shot event), and the service keeps no replay object to adopt.",
  },
  operations: {
    state,
    recordedInputs: (s) => s.args,
    unfinished: (s) => s.notQueuedIds.length > 0 || s.unknownBatches.some((b) => resendable(b)),

    async create(ctx, args) {
      const id = `replay-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
      const ids = args.ids ?? (await ctx.client(args.site).listWebhooks(args.selector as WebhookFilter)).map((w) => w.id);
      if (ids.length === 0) {
        const empty: State = {
          args,
          queuedCount: 0,
          batchCount: 0,
          notQueuedIds: [],
          unknownIds: [],
          unknownBatches: [],
          replayedAt: new Date().toISOString(),
        };
        return { id, state: empty };
      }
      return { id, state: await replay(ctx, id, args, ids, [], { queued: 0, batches: 0, expired: [] }) };
    },

    /** Finishes a partial replay: ids not queued afresh, unknown batches with their tokens; otherwise nothing to do. */
    async update(ctx, id, s) {
      const resume = s.unknownBatches.filter((b) => resendable(b));
      if (s.notQueuedIds.length === 0 && resume.length === 0) return s;
      const done = { queued: s.queuedCount, batches: s.batchCount, expired: s.unknownBatches.filter((b) => !resendable(b)) };
      return replay(ctx, id, s.args, s.notQueuedIds, resume, done);
    },

    // No read: what was queued cannot be read back per replay, so refresh keeps the record
    // (the host echoes the state by itself when a provider has no read).

    /** Queued deliveries cannot be recalled: nothing is sent. */
    async del() {},
  },
};

/** Which webhooks to replay (`WebhookReplayArgs.selector`). */
export type WebhookSelector = NonNullable<WebhookReplayArgs["selector"]>;

/** The args' TypeScript types, from the declaration; WebhookReplayArgs gives each its docs (generated: ./generated/webhook-replay.ts). */
export type ArgTypes = ArgsOf<typeof kind>;
export type { WebhookReplayArgs, WebhookReplayOutputs };

/** WebhookReplay's operations as a dynamic provider, to call directly (configure it first); its resources store the smaller storedProvider, which loads the same. */
export const webhookReplayProvider = shellProvider(kind);

/**
 * Queues webhooks for re-delivery, once (a one-shot event; deleting it sends nothing).
 *
 * @example
 * ```ts
 * import { WebhookReplay } from "pulumi-subscription-billing";
 *
 * const webhookReplay = new WebhookReplay("webhook-replay", {
 *   ids: [5005, 5006],
 * });
 * ```
 */
export class WebhookReplay extends resourceClass<typeof kind, WebhookReplayArgs, WebhookReplayOutputs>(kind) {}
