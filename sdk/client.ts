import type { MigrationInput, WebhookFilter } from "./inputs";
import * as migration from "./migration";
import { resolveConnection, type BillingClientOptions } from "./options";
import { replayWebhooks } from "./replay";
import type { MigrationPreview, ReplayResult, Subscription, Webhook } from "./results";
import { Transport } from "./transport";
import { listWebhooks, setWebhooksEnabled } from "./webhooks";

/**
 * Typed client of the billing API for one site. Options are checked in the
 * constructor, inputs before any request; auth, retries and the per-site
 * concurrency cap live in its single transport.
 */
export class BillingClient {
  readonly #transport: Transport;
  readonly #maxConcurrency: number;
  readonly #maxRetries: number;
  readonly #retryBaseDelayMs: number;

  constructor(options: BillingClientOptions) {
    const connection = resolveConnection(options);
    this.#transport = new Transport(connection);
    this.#maxConcurrency = connection.maxConcurrency;
    this.#maxRetries = connection.maxRetries;
    this.#retryBaseDelayMs = connection.retryBaseDelayMs;
  }

  /** Queues webhooks for re-delivery; any number of ids, sent in batches of at most 1000. */
  replayWebhooks(ids: readonly number[]): Promise<ReplayResult> {
    return replayWebhooks(this.#transport, ids, this.#maxConcurrency);
  }

  /** Turns webhook delivery on or off for the site. */
  setWebhooksEnabled(enabled: boolean): Promise<{ webhooksEnabled: boolean }> {
    return setWebhooksEnabled(this.#transport, enabled);
  }

  /** Moves a subscription to another product; returns the updated subscription. */
  migrateSubscription(subscriptionId: number, target: MigrationInput, options: { uniquenessToken?: string } = {}): Promise<Subscription> {
    return migration.migrateSubscription(this.#transport, subscriptionId, target, {
      uniquenessToken: options.uniquenessToken, maxRetries: this.#maxRetries, retryBaseDelayMs: this.#retryBaseDelayMs,
    });
  }

  /** What a migration would charge, without applying it. */
  previewMigration(subscriptionId: number, target: MigrationInput): Promise<MigrationPreview> {
    return migration.previewMigration(this.#transport, subscriptionId, target);
  }

  readSubscription(subscriptionId: number): Promise<Subscription> {
    return migration.readSubscription(this.#transport, subscriptionId);
  }

  /** Every webhook matching the filter, across all pages. */
  listWebhooks(filter?: WebhookFilter): Promise<Webhook[]> {
    return listWebhooks(this.#transport, filter);
  }

  /** Closes the connection pool. */
  close(): Promise<void> {
    return this.#transport.close();
  }

  /** Never shows credentials, even to a debugger's inspect. */
  toJSON(): object {
    return { client: "BillingClient" };
  }
}
