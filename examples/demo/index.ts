import * as pulumi from "@pulumi/pulumi";
import {
  previewSubscriptionMigration,
  SubscriptionMigration,
  WebhookEndpoint,
  WebhookReplay,
  WebhookSettings,
} from "pulumi-subscription-billing";

// The demo stack (top-level Pulumi.yaml), run by `npm run demo` against the
// simulator's demo site: webhooks on, the site's receiver (endpoint 1, made in
// the web UI: adopted, not duplicated) subscribed to payment_success too,
// subscription 1001 moved from `basic` to `pro`, and the webhooks that failed
// (payment_success events) replayed to it.
const webhooks = new WebhookSettings("demo-webhooks", { webhooksEnabled: true });
const receiver = new WebhookEndpoint("demo-receiver", {
  url: "https://merchant.example.com/billing/webhooks",
  events: ["payment_success", "payment_failure", "subscription_state_change"],
});

const target = { subscriptionId: 1001, productHandle: "pro" };
if (pulumi.runtime.isDryRun()) previewSubscriptionMigration(target);
const migration = new SubscriptionMigration("demo-migration", target);

const replay = new WebhookReplay("demo-replay", { selector: { status: "failed" } }, { dependsOn: [webhooks, receiver] });

export const webhooksEnabled = webhooks.webhooksEnabled;
export const endpointId = receiver.endpointId;
export const endpointUrl = receiver.url;
export const endpointEvents = receiver.events;
export const subscriptionState = migration.subscriptionState;
export const previousState = migration.previousState;
export const product = migration.productHandle;
export const pricePointId = migration.pricePointId;
export const replayedWebhooks = replay.queuedCount;
export const replayBatches = replay.batchCount;
