import * as pulumi from "@pulumi/pulumi";
import {
  CustomField,
  Offer,
  Product,
  ProductFamily,
  ProductPricePoint,
  ReasonCode,
  SubscriptionMigration,
  WebhookEndpoint,
  WebhookReplay,
  WebhookSettings,
} from "pulumi-subscription-billing";

// A new environment: declare its catalog (a family, the launch product and its
// annual price point, in every currency the site sells in), the site
// configuration the team's code depends on (the pricing page's offer, the
// cancel page's reason codes, the custom field the signup flow writes), turn webhooks on and point them at this
// environment's receiver, move the seeded subscriptions onto the launch
// product, then replay the webhooks that failed while the receiver was down.
// Handles, codes and names carry all of it across sites; each site gives its
// own ids.
const config = new pulumi.Config("bootstrap");
const launchProduct = config.get("launchProduct") ?? "launch";
const launchPrice = config.getNumber("launchPriceInCents") ?? 4900;
const receiverUrl = config.require("webhookReceiver"); // https://…; http only for localhost
const subscriptions = config.requireObject<number[]>("subscriptions");
const failedSince = config.get("failedSince"); // YYYY-MM-DD
// The launch price in the site's other currencies, in each currency's own units ({"EUR": 45} is €45.00 a
// month): each must be one of the site's currencies (its Settings → Currencies), or preview says which it has.
const monthlyIn = config.getObject<Record<string, number>>("currencyPrices") ?? {};

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
  // Prices of its own in the other currencies; without them the service converts at the site's exchange rate.
  ...(Object.keys(monthlyIn).length > 0
    ? {
        useSiteExchangeRate: false,
        currencyPrices: Object.fromEntries(Object.entries(monthlyIn).map(([currency, monthly]) => [currency, { baseline: monthly * 10 }])),
      }
    : {}),
});

// The pricing page's link: the annual plan as one signup. The service has no update of an offer, so its handle
// names its price: a new price is a new offer (created first, then the old one archived).
const annualOffer = new Offer("launch-annual-offer", {
  handle: `${launchProduct}-annual-${launchPrice * 10}`,
  name: "Launch, annual",
  product: launch.productId,
  productPricePoint: annual.pricePointId,
});

// What the cancel page offers, in this order; the churn reports count by code.
const reasonCodes = [
  new ReasonCode("too-expensive", { code: "too_expensive", description: "It costs too much", position: 1 }),
  new ReasonCode("missing-feature", { code: "missing_feature", description: "A feature I need is missing", position: 2 }),
];
// The signup flow writes it on every subscription. Deleting the field would delete what it holds, so a
// destroy of a field with data is refused until `deleteData: true` has been applied.
const signupChannel = new CustomField("signup-channel", {
  resourceType: "subscriptions",
  name: "Signup channel",
  inputType: "dropdown",
  enum: ["web", "sales", "partner"],
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
export const annualCurrencyPrices = annual.currencyPrices;
export const annualOfferId = annualOffer.offerId;
export const annualOfferHandle = annualOffer.handle;
export const reasonCodeIds = pulumi
  .all(reasonCodes.map((r) => pulumi.all([r.code, r.reasonCodeId])))
  .apply((rows) => Object.fromEntries(rows));
export const signupChannelFieldId = signupChannel.customFieldId;
export const webhooksEnabled = webhooks.webhooksEnabled;
export const receiverEndpointId = receiver.endpointId;
export const receiverEvents = receiver.events;
export const migrated = pulumi
  .all(migrations.map((m) => pulumi.all([m.productHandle, m.subscriptionState])))
  .apply((rows) => rows.map(([product, state], i) => ({ subscriptionId: subscriptions[i], product, state })));
export const replayedWebhooks = replay.queuedCount;
export const replayBatches = replay.batchCount;
