import * as pulumi from "@pulumi/pulumi";
import { SubscriptionMigration, WebhookReplay, WebhookSettings } from "pulumi-subscription-billing";

// A new environment: turn webhooks on, move the seeded subscriptions to the
// launch plan, then replay the webhooks that failed while the receiver was down.
const config = new pulumi.Config("bootstrap");
const launchProduct = config.require("launchProduct");
const subscriptions = config.requireObject<number[]>("subscriptions");
const failedSince = config.get("failedSince"); // YYYY-MM-DD

const webhooks = new WebhookSettings("webhooks", { webhooksEnabled: true });

const migrations = subscriptions.map(
  (subscriptionId) => new SubscriptionMigration(`launch-${subscriptionId}`, { subscriptionId, productHandle: launchProduct }),
);

// After the receiver is reachable again and webhooks are on; `triggers` lets
// an operator replay again by bumping a value.
const replay = new WebhookReplay(
  "failed-webhooks",
  {
    selector: { status: "failed", ...(failedSince ? { sinceDate: failedSince } : {}) },
    triggers: [config.get("replayRound") ?? "1"],
  },
  { dependsOn: [webhooks, ...migrations] },
);

export const webhooksEnabled = webhooks.webhooksEnabled;
export const migrated = pulumi
  .all(migrations.map((m) => pulumi.all([m.productHandle, m.subscriptionState])))
  .apply((rows) => rows.map(([product, state], i) => ({ subscriptionId: subscriptions[i], product, state })));
export const replayedWebhooks = replay.queuedCount;
export const replayBatches = replay.batchCount;
