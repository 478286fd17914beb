import { problemsOf, replayIdsInput, webhookFilterInput, type WebhookFilter } from "../../sdk";
import { clientFor, clientOptionsFor, SiteConfigError } from "./config";
import { changedKeys, isUnknown, partialFailure, siteFailure, userInputs, type CheckFailure } from "./common";

type Props = Record<string, unknown>;

const INPUT_KEYS = ["ids", "selector", "triggers", "site"] as const;

/** check: exactly one of ids / selector, each validated with the SDK's schemas; usable credentials. */
export async function check(provider: object, _olds: Props, news: Props) {
  const inputs = userInputs(news);
  const failures: CheckFailure[] = [];
  for (const key of Object.keys(inputs)) {
    if (!(INPUT_KEYS as readonly string[]).includes(key)) {
      failures.push({ property: key, reason: `is not an input of WebhookReplay (accepted: ${INPUT_KEYS.join(", ")})` });
    }
  }
  const { ids, selector, triggers, site } = inputs;
  if ((ids === undefined) === (selector === undefined)) {
    failures.push({ property: "ids", reason: "give exactly one of ids (webhook ids to replay) or selector (a webhook list filter such as { status: \"failed\" })" });
  }
  if (ids !== undefined && !isUnknown(ids)) {
    const r = replayIdsInput.safeParse(ids);
    if (!r.success) failures.push(...problemsOf(r.error, "ids").map(({ property, message }) => ({ property, reason: message })));
  }
  if (selector !== undefined && !isUnknown(selector)) {
    const r = webhookFilterInput.safeParse(selector);
    if (!r.success) failures.push(...problemsOf(r.error, "selector").map(({ property, message }) => ({ property, reason: message })));
    else if (r.data.status === undefined) {
      failures.push({ property: "selector.status", reason: 'is required: one of "successful", "failed", "pending", "paused"' });
    }
  }
  if (triggers !== undefined && !isUnknown(triggers) && !Array.isArray(triggers)) {
    failures.push({ property: "triggers", reason: "must be an array of values; changing any of them replays again" });
  }
  const bad = siteFailure(site);
  if (bad) failures.push(bad);
  else if (!isUnknown(site)) {
    try {
      clientOptionsFor(provider, site as string | undefined);
    } catch (err) {
      if (!(err instanceof SiteConfigError)) throw err;
      failures.push({ property: "site", reason: err.message });
    }
  }
  return { inputs: news, failures };
}

/** Changing ids, selector, triggers or site replays again; a replay left partial is finished by update. */
export async function diff(_provider: object, _id: string, olds: Props, news: Props) {
  const changed = changedKeys(INPUT_KEYS, (olds.args ?? {}) as Props, userInputs(news));
  if (changed.length === 0) return { changes: Array.isArray(olds.notQueuedIds) && olds.notQueuedIds.length > 0, replaces: [], deleteBeforeReplace: false };
  return { changes: true, replaces: changed, deleteBeforeReplace: false };
}

function argsOf(inputs: Props): Props {
  const a: Props = {};
  for (const k of INPUT_KEYS) if (inputs[k] !== undefined) a[k] = inputs[k];
  return a;
}

/**
 * Sends `ids`; on a partial failure the resource is kept with what was
 * queued counted and what was not listed, so the next `up` sends only those.
 */
async function replay(provider: object, id: string, args: Props, ids: number[], already: { queued: number; batches: number }, providerText: unknown) {
  try {
    const r = await clientFor(provider, args.site as string | undefined).replayWebhooks(ids);
    return {
      args, resolvedCount: already.queued + r.queued, queuedCount: already.queued + r.queued,
      batchCount: already.batches + r.batches, notQueuedIds: [], replayedAt: new Date().toISOString(),
    };
  } catch (err) {
    const e = err as { name?: string; queued?: readonly number[]; notQueued?: readonly number[]; message?: string };
    const notQueued = e.name === "ReplayPartialFailureError" ? [...(e.notQueued ?? [])] : ids;
    const queued = already.queued + (e.name === "ReplayPartialFailureError" ? (e.queued ?? []).length : 0);
    const message = `webhook replay: ${queued} id(s) queued, ${notQueued.length} not queued (${e.message}). ` +
      "The ids not queued are recorded; the next `pulumi up` sends only those.";
    throw partialFailure(message, id, {
      args, queuedCount: queued, batchCount: already.batches, notQueuedIds: notQueued, replayedAt: null,
    }, providerText);
  }
}

export async function create(provider: object, news: Props) {
  const args = argsOf(userInputs(news));
  const id = `replay-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  let ids: number[];
  if (args.ids !== undefined) ids = args.ids as number[];
  else {
    const webhooks = await clientFor(provider, args.site as string | undefined).listWebhooks(args.selector as WebhookFilter);
    ids = webhooks.map((w) => w.id);
  }
  if (ids.length === 0) {
    return { id, outs: { args, resolvedCount: 0, queuedCount: 0, batchCount: 0, notQueuedIds: [], replayedAt: new Date().toISOString() } };
  }
  return { id, outs: await replay(provider, id, args, ids, { queued: 0, batches: 0 }, news.__provider) };
}

/** Finishes a partial replay; otherwise nothing to do (a replay is a one-shot event). */
export async function update(provider: object, id: string, olds: Props, news: Props) {
  const pending = (olds.notQueuedIds ?? []) as number[];
  if (pending.length === 0) return { outs: userInputs(olds) };
  const already = { queued: Number(olds.queuedCount ?? 0), batches: Number(olds.batchCount ?? 0) };
  return { outs: await replay(provider, id, (olds.args ?? argsOf(userInputs(news))) as Props, pending, already, news.__provider) };
}

// No read: what was queued cannot be read back per replay, so refresh keeps the record
// (the host echoes the state by itself when a provider has no read).

/** Queued deliveries cannot be recalled: nothing is sent. */
export async function del(): Promise<void> {}
