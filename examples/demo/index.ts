import * as pulumi from "@pulumi/pulumi";
import { previewSubscriptionMigration, SubscriptionMigration, WebhookReplay, WebhookSettings } from "pulumi-subscription-billing";

// The demo stack (top-level Pulumi.yaml), run by `npm run demo` against the
// simulator's demo site: webhooks on, subscription 1001 moved from `basic` to
// `pro`, and the webhooks that failed replayed.
const webhooks = new WebhookSettings("demo-webhooks", { webhooksEnabled: true });

const target = { subscriptionId: 1001, productHandle: "pro" };
if (pulumi.runtime.isDryRun()) previewSubscriptionMigration(target);
const migration = new SubscriptionMigration("demo-migration", target);

const replay = new WebhookReplay("demo-replay", { selector: { status: "failed" } }, { dependsOn: [webhooks] });

export const webhooksEnabled = webhooks.webhooksEnabled;
export const subscriptionState = migration.subscriptionState;
export const previousState = migration.previousState;
export const product = migration.productHandle;
export const pricePointId = migration.pricePointId;
export const replayedWebhooks = replay.queuedCount;
export const replayBatches = replay.batchCount;
