import * as pulumi from "@pulumi/pulumi";
import { previewSubscriptionMigration, SubscriptionMigration } from "pulumi-subscription-billing";

// A subscription migration as it arrives in a pull request: the diff of this
// stack's config is the change, and `pulumi preview` is the review. It shows
// the replacement and, through the service's migration preview, the charge.
const config = new pulumi.Config("migration");
const target = {
  subscriptionId: config.requireNumber("subscriptionId"),
  productHandle: config.require("productHandle"),
  pricePointHandle: config.get("pricePointHandle"),
  preservePeriod: config.getBoolean("preservePeriod"),
  // The charge this change was reviewed at: a larger one is refused before anything is sent.
  maxChargeInCents: config.getNumber("maxChargeInCents"),
};

if (pulumi.runtime.isDryRun()) {
  // Logged as an info diagnostic in the preview; a same-product target is
  // refused by the resource's check before this matters.
  previewSubscriptionMigration(target);
}

const migration = new SubscriptionMigration(`subscription-${target.subscriptionId}`, target);

export const subscriptionState = migration.subscriptionState;
export const productHandle = migration.productHandle;
export const pricePointId = migration.pricePointId;
export const migratedAt = migration.migratedAt;
