import * as pulumi from "@pulumi/pulumi";

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

/**
 * The implementation, loaded at call time. The provider host evaluates these
 * methods with its own `require`, which cannot see a package that is only the
 * program's own (the program directory is the package, as in this repo's demo),
 * so resolve from the program directory (the host's working directory) first.
 * Declared in this file so that it is serialized by value with the methods.
 */
function runtime(): typeof import("./runtime") {
  const name = "pulumi-subscription-billing/provider/runtime";
  try {
    return require("node:module").createRequire(require("node:path").join(process.cwd(), "index.js"))(name);
  } catch {
    return require(name);
  }
}

/** The serialized provider: thin shells over the package's runtime module. */
export const subscriptionMigrationProvider: pulumi.dynamic.ResourceProvider = {
  async configure(req) {
    runtime().configure(this, req);
  },
  check(olds, news) {
    return runtime().subscriptionMigration.check(this, olds, news);
  },
  diff(id, olds, news) {
    return runtime().subscriptionMigration.diff(this, id, olds, news);
  },
  create(inputs) {
    return runtime().subscriptionMigration.create(this, inputs);
  },
  update(id, olds, news) {
    return runtime().subscriptionMigration.update(this, id, olds, news);
  },
  read(id, props) {
    return runtime().subscriptionMigration.read(this, id, props);
  },
  delete(id, props) {
    return runtime().subscriptionMigration.del(this, id, props);
  },
};

/**
 * Moves a subscription to another product, once. Any input change is a new
 * migration; deleting the resource sends nothing. A migration to the product
 * the subscription already has is refused at preview.
 */
export class SubscriptionMigration extends pulumi.dynamic.Resource {
  constructor(name: string, args: SubscriptionMigrationArgs, opts?: pulumi.CustomResourceOptions) {
    super(subscriptionMigrationProvider, name, {
      subscriptionState: undefined, previousState: undefined, pricePointId: undefined, currentPeriodEndsAt: undefined,
      nextAssessmentAt: undefined, migratedAt: undefined, warnings: undefined, productId: undefined, productHandle: undefined,
      ...args,
    }, opts, "billing", "SubscriptionMigration");
  }
}
