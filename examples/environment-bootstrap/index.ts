import * as pulumi from "@pulumi/pulumi";
import { SubscriptionMigration, WebhookEndpoint, WebhookReplay, WebhookSettings } from "pulumi-subscription-billing";

// A new environment: turn webhooks on and point them at this environment's
// receiver, move the seeded subscriptions to the launch plan, then replay the
// webhooks that failed while the receiver was down.
const config = new pulumi.Config("bootstrap");
const launchProduct = config.require("launchProduct");
const receiverUrl = config.require("webhookReceiver"); // https://…; http only for localhost
const subscriptions = config.requireObject<number[]>("subscriptions");
const failedSince = config.get("failedSince"); // YYYY-MM-DD

const webhooks = new WebhookSettings("webhooks", { webhooksEnabled: true });
// The events the receiver handles. A site endpoint already at this url is adopted.
const receiver = new WebhookEndpoint("receiver", {
  url: receiverUrl,
  events: ["payment_success", "payment_failure", "subscription_state_change"],
});

const migrations = subscriptions.map(
  (subscriptionId) => new SubscriptionMigration(`launch-${subscriptionId}`, { subscriptionId, productHandle: launchProduct }),
);

// After the receiver is subscribed and webhooks are on; `triggers` lets
// an operator replay again by bumping a value.
const replay = new WebhookReplay(
  "failed-webhooks",
  {
    selector: { status: "failed", ...(failedSince ? { sinceDate: failedSince } : {}) },
    triggers: [config.get("replayRound") ?? "1"],
  },
  { dependsOn: [webhooks, receiver, ...migrations] },
);

export const webhooksEnabled = webhooks.webhooksEnabled;
export const receiverEndpointId = receiver.endpointId;
export const receiverEvents = receiver.events;
export const migrated = pulumi
  .all(migrations.map((m) => pulumi.all([m.productHandle, m.subscriptionState])))
  .apply((rows) => rows.map(([product, state], i) => ({ subscriptionId: subscriptions[i], product, state })));
export const replayedWebhooks = replay.queuedCount;
export const replayBatches = replay.batchCount;
