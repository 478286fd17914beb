import { z } from "zod";
import { wireIdList } from "./common";

/** The service's documented cap on `ids` per replay request. */
export const MAX_REPLAY_IDS = 1000;

/**
 * `POST /webhooks/replay.json` body. `uniqueness_token` is the service's generic
 * duplicate-prevention field for POST/PUT bodies; the contract's request schema
 * does not forbid extra top-level keys, and the SDK sends one per batch so that
 * a retried batch is never queued twice.
 */
export const replayWebhooksRequest = z.object({
  ids: wireIdList(1, MAX_REPLAY_IDS),
  uniqueness_token: z.string().optional(),
});
/** The body {@link replayWebhooksRequest} checks: one batch of 1 to 1000 ids and its token. */
export type ReplayWebhooksRequest = z.infer<typeof replayWebhooksRequest>;

/** `200 {"status":"ok"}`: the ids are queued, not yet delivered. */
export const replayWebhooksResponse = z.object({ status: z.string() });
/** The answer {@link replayWebhooksResponse} reads: queued, not yet delivered. */
export type ReplayWebhooksResponse = z.infer<typeof replayWebhooksResponse>;
