import * as pulumi from "@pulumi/pulumi";
import {
  Product,
  ProductFamily,
  ProductPricePoint,
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
// (payment_success events) replayed to it; and a catalog: a family, a `team`
// product (its monthly price is its default price point) and an annual price,
// in dollars and in euros.
const webhooks = new WebhookSettings("demo-webhooks", { webhooksEnabled: true });
const receiver = new WebhookEndpoint("demo-receiver", {
  url: "https://merchant.example.com/billing/webhooks",
  events: ["payment_success", "payment_failure", "subscription_state_change"],
});

const target = { subscriptionId: 1001, productHandle: "pro" };
if (pulumi.runtime.isDryRun()) previewSubscriptionMigration(target);
const migration = new SubscriptionMigration("demo-migration", target);

const replay = new WebhookReplay("demo-replay", { selector: { status: "failed" } }, { dependsOn: [webhooks, receiver] });

const family = new ProductFamily("demo-family", { handle: "teams", name: "Teams" });
const team = new Product("demo-team", {
  productFamily: family.familyId,
  handle: "team",
  name: "Team",
  priceInCents: 9900,
  interval: 1,
  intervalUnit: "month",
});
const teamAnnual = new ProductPricePoint("demo-team-annual", {
  product: team,
  handle: "team-annual",
  name: "Team, annual",
  priceInCents: 99000,
  interval: 12,
  intervalUnit: "month",
  // The demo site sells in euros too: the annual price has a euro price of its own (€899.00), not the exchange rate's.
  useSiteExchangeRate: false,
  currencyPrices: { EUR: { baseline: 899 } },
});

export const teamProductId = team.productId;
export const teamMonthly = pulumi.interpolate`default price point ${team.defaultPricePointId}: ${team.priceInCents} cents per ${team.intervalUnit}`;
export const teamAnnualPricePoint = pulumi.interpolate`${teamAnnual.handle} (id ${teamAnnual.pricePointId}): ${teamAnnual.priceInCents} cents every ${teamAnnual.interval} ${teamAnnual.intervalUnit}s`;
const euros = new Intl.NumberFormat("en", { style: "currency", currency: "EUR" });
export const teamAnnualInEuros = teamAnnual.currencyPrices.apply((prices) =>
  prices?.EUR ? `${euros.format(prices.EUR.baseline)} every 12 months` : "no euro price of its own",
);
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
