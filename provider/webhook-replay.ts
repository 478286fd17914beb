import * as pulumi from "@pulumi/pulumi";
import { shellProvider } from "./shell";

/** Which webhooks to replay, resolved through the webhook list at create time. */
export interface WebhookSelector {
  readonly status: pulumi.Input<"successful" | "failed" | "pending" | "paused">;
  /** YYYY-MM-DD, inclusive. */
  readonly sinceDate?: pulumi.Input<string>;
  /** YYYY-MM-DD, inclusive. */
  readonly untilDate?: pulumi.Input<string>;
  readonly subscriptionId?: pulumi.Input<number>;
}

/** Inputs of {@link WebhookReplay}: exactly one of ids / selector. */
export interface WebhookReplayArgs {
  /**
   * Webhook ids, any number: sent in batches of at most 1000. Ids are int64:
   * give an id above 2^53 as its decimal string ("9007199254740993") so it is sent exactly.
   */
  readonly ids?: pulumi.Input<pulumi.Input<number | string>[]>;
  readonly selector?: pulumi.Input<WebhookSelector>;
  /** Any values; changing one replays again (as does changing ids or selector). */
  readonly triggers?: pulumi.Input<unknown[]>;
  /** An entry of the stack config `billing:sites`. */
  readonly site?: pulumi.Input<string>;
}

/** Outputs of {@link WebhookReplay}. */
export interface WebhookReplay {
  /** Distinct ids the service is known to have accepted into its delivery queue. */
  readonly queuedCount: pulumi.Output<number>;
  readonly batchCount: pulumi.Output<number>;
  /** When the replay completed; null while part of it is still to be sent. */
  readonly replayedAt: pulumi.Output<string | null>;
  /** Ids a failed run did not queue; the next `up` sends exactly these. */
  readonly notQueuedIds: pulumi.Output<(number | string)[]>;
  /**
   * Ids whose batch may or may not have been queued (its answer was lost). The
   * next `up` re-sends those batches with their original uniqueness tokens, so
   * the service refuses any it already queued: nothing is delivered twice.
   */
  readonly unknownIds: pulumi.Output<(number | string)[]>;
}

/** The provider of every WebhookReplay: one instance per type (each instance costs a serialization). */
export const webhookReplayProvider = shellProvider("webhookReplay");

/** Queues webhooks for re-delivery, once (a one-shot event; deleting it sends nothing). */
export class WebhookReplay extends pulumi.dynamic.Resource {
  constructor(name: string, args: WebhookReplayArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      webhookReplayProvider,
      name,
      {
        queuedCount: undefined,
        batchCount: undefined,
        replayedAt: undefined,
        notQueuedIds: undefined,
        unknownIds: undefined,
        ...args,
      },
      opts,
      "billing",
      "WebhookReplay",
    );
  }
}
