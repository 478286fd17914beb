import * as pulumi from "@pulumi/pulumi";
import { shellProvider } from "./shell";

/** Inputs of {@link SubscriptionMigration}: the target product by id or handle, and options. */
export interface SubscriptionMigrationArgs {
  /** The service's id of the subscription to migrate. */
  readonly subscriptionId: pulumi.Input<number>;
  /** Target product by id; give exactly one of productId / productHandle. */
  readonly productId?: pulumi.Input<number>;
  /** Target product by handle; give exactly one of productId / productHandle. */
  readonly productHandle?: pulumi.Input<string>;
  /** Target price point by id; without a price point the product's default is used. */
  readonly pricePointId?: pulumi.Input<number>;
  /** Target price point by handle; at most one of pricePointId / pricePointHandle. */
  readonly pricePointHandle?: pulumi.Input<string>;
  /** Default false (sent explicitly). Ignored by the service when preservePeriod is set. */
  readonly includeTrial?: pulumi.Input<boolean>;
  /** Default false (sent explicitly). */
  readonly includeInitialCharge?: pulumi.Input<boolean>;
  /** Default true (sent explicitly). */
  readonly includeCoupons?: pulumi.Input<boolean>;
  /** Default false (sent explicitly). */
  readonly preservePeriod?: pulumi.Input<boolean>;
  /** An entry of the stack config `billing:sites`. */
  readonly site?: pulumi.Input<string>;
}

/** Outputs of {@link SubscriptionMigration}: the subscription as the migration left it. */
export interface SubscriptionMigration {
  readonly subscriptionState: pulumi.Output<string>;
  readonly previousState: pulumi.Output<string | null>;
  readonly productId: pulumi.Output<number>;
  readonly productHandle: pulumi.Output<string | null>;
  /** The price point now in effect: the product's default when none was named. */
  readonly pricePointId: pulumi.Output<number | null>;
  readonly currentPeriodEndsAt: pulumi.Output<string | null>;
  readonly nextAssessmentAt: pulumi.Output<string | null>;
  readonly migratedAt: pulumi.Output<string>;
  /** Advice the service's rules call for, e.g. the recommended path for trial_ended subscriptions. */
  readonly warnings: pulumi.Output<string[]>;
}

/** The provider of every SubscriptionMigration: one instance per type (each instance costs a serialization). */
export const subscriptionMigrationProvider = shellProvider("subscriptionMigration", { read: true });

/**
 * Moves a subscription to another product, once. Any input change is a new
 * migration; deleting the resource sends nothing. A migration to the product
 * the subscription already has is refused at preview.
 */
export class SubscriptionMigration extends pulumi.dynamic.Resource {
  constructor(name: string, args: SubscriptionMigrationArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      subscriptionMigrationProvider,
      name,
      {
        subscriptionState: undefined,
        previousState: undefined,
        pricePointId: undefined,
        currentPeriodEndsAt: undefined,
        nextAssessmentAt: undefined,
        migratedAt: undefined,
        warnings: undefined,
        productId: undefined,
        productHandle: undefined,
        ...args,
      },
      opts,
      "billing",
      "SubscriptionMigration",
    );
  }
}
