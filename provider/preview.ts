import * as pulumi from "@pulumi/pulumi";
import type { MigrationPreview } from "../sdk";
import type { SubscriptionMigrationArgs } from "./subscription-migration";

/**
 * What a migration would charge, read from the service's migration preview,
 * and logged so that a reviewer sees it in `pulumi preview`. Call it beside
 * the SubscriptionMigration it describes (typically while
 * `pulumi.runtime.isDryRun()`). Runs in the program, with the program's stack
 * config (`billing:*`) and BILLING_* environment. Resolves to undefined while
 * inputs are unknown.
 */
export function previewSubscriptionMigration(args: SubscriptionMigrationArgs): pulumi.Output<MigrationPreview | undefined> {
  return pulumi.output(args).apply(async (a) => {
    const { programClient } = await import("./program-client");
    const { site, subscriptionId, ...target } = a;
    const preview = await programClient(site).previewMigration(subscriptionId, target);
    const money = (c: number) => `${c < 0 ? "-" : ""}${(Math.abs(c) / 100).toFixed(2)}`;
    const to = target.productHandle ?? `product ${target.productId}`;
    pulumi.log.info(
      `migration of subscription ${subscriptionId} to ${to}: charge ${money(preview.chargeInCents)}, ` +
        `prorated adjustment ${money(preview.proratedAdjustmentInCents)}, credit applied ${money(preview.creditAppliedInCents)}, ` +
        `payment due ${money(preview.paymentDueInCents)}`,
    );
    return preview;
  });
}
