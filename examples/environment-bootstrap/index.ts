import * as pulumi from "@pulumi/pulumi";
import {
  Product,
  ProductFamily,
  ProductPricePoint,
  SubscriptionMigration,
  WebhookEndpoint,
  WebhookReplay,
  WebhookSettings,
} from "pulumi-subscription-billing";

// A new environment: declare its catalog (a family, the launch product and its
// annual price point), turn webhooks on and point them at this environment's
// receiver, move the seeded subscriptions onto the launch product, then replay
// the webhooks that failed while the receiver was down. Handles carry the
// catalog across sites; each site gives its own ids.
const config = new pulumi.Config("bootstrap");
const launchProduct = config.get("launchProduct") ?? "launch";
const launchPrice = config.getNumber("launchPriceInCents") ?? 4900;
const receiverUrl = config.require("webhookReceiver"); // https://…; http only for localhost
const subscriptions = config.requireObject<number[]>("subscriptions");
const failedSince = config.get("failedSince"); // YYYY-MM-DD

const webhooks = new WebhookSettings("webhooks", { webhooksEnabled: true });
// The events the receiver handles. A site endpoint already at this url is adopted.
const receiver = new WebhookEndpoint("receiver", {
  url: receiverUrl,
  events: ["payment_success", "payment_failure", "subscription_state_change"],
});

const family = new ProductFamily("plans", { handle: "plans", name: "Plans" });
const launch = new Product("launch", {
  productFamily: family.familyId,
  handle: launchProduct,
  name: "Launch",
  priceInCents: launchPrice,
  interval: 1,
  intervalUnit: "month",
  // A production stack's policy pack asks for this on any pricing change.
  pricingChangeAcknowledged: config.getBoolean("pricingChangeAcknowledged"),
});
// Given the Product itself, the price point is archived with it on destroy.
const annual = new ProductPricePoint("launch-annual", {
  product: launch,
  handle: `${launchProduct}-annual`,
  name: "Launch, annual",
  priceInCents: launchPrice * 10,
  interval: 12,
  intervalUnit: "month",
});

// Onto the product this program declares: its id is known after it is created (or adopted).
const migrations = subscriptions.map(
  (subscriptionId) => new SubscriptionMigration(`launch-${subscriptionId}`, { subscriptionId, productId: launch.productId }),
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

export const familyId = family.familyId;
export const launchProductId = launch.productId;
export const launchDefaultPricePointId = launch.defaultPricePointId;
export const annualPricePointId = annual.pricePointId;
export const webhooksEnabled = webhooks.webhooksEnabled;
export const receiverEndpointId = receiver.endpointId;
export const receiverEvents = receiver.events;
export const migrated = pulumi
  .all(migrations.map((m) => pulumi.all([m.productHandle, m.subscriptionState])))
  .apply((rows) => rows.map(([product, state], i) => ({ subscriptionId: subscriptions[i], product, state })));
export const replayedWebhooks = replay.queuedCount;
export const replayBatches = replay.batchCount;
