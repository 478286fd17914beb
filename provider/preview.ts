import * as pulumi from "@pulumi/pulumi";
import type { MigrationPreview } from "../sdk";
import type { SubscriptionMigrationArgs } from "./kinds/subscription-migration";

/**
 * What {@link previewSubscriptionMigration} resolves to once the service has answered: the charge
 * preview, or, when the subscription is already on the target product (the migration has been
 * applied), `alreadyApplied: true` with every amount 0, as nothing would be charged.
 */
export interface SubscriptionMigrationPreview extends MigrationPreview {
  /** True when the subscription is already on the target product: there is no migration left to preview. */
  readonly alreadyApplied?: true;
}

/**
 * What a migration would charge, read from the service's migration preview,
 * and logged so that a reviewer sees it in `pulumi preview`. Call it beside
 * the SubscriptionMigration it describes (typically while
 * `pulumi.runtime.isDryRun()`). Runs in the program, with the program's stack
 * config (`billing:*`) and BILLING_* environment. Resolves to undefined while
 * inputs are unknown, or when the service gave no preview (logged as a warning);
 * to a value with `alreadyApplied: true` when the migration has already been
 * applied (logged as info: every preview after the `up` that migrated). `prorationDate`
 * (ISO-8601) computes the charge as of that moment, e.g. the date a change is
 * scheduled for; default now.
 */
export function previewSubscriptionMigration(
  args: SubscriptionMigrationArgs,
  options: { readonly prorationDate?: pulumi.Input<string> } = {},
): pulumi.Output<SubscriptionMigrationPreview | undefined> {
  return pulumi.all([args, options.prorationDate]).apply(async ([a, prorationDate]) => {
    const { programClient } = await import("./program-client");
    const { BillingApiError, BillingError } = await import("../sdk/errors");
    const { SiteConfigError } = await import("./runtime/config");
    const { targetsProduct } = await import("./kinds/subscription-migration");
    // maxChargeInCents is the provider's check of this very preview, not part of the migration asked about.
    const { site, subscriptionId, maxChargeInCents: _, ...target } = a;
    const to = target.productHandle ?? `product ${target.productId}`;
    let preview: MigrationPreview;
    try {
      preview = await programClient(site).previewMigration(subscriptionId, target, { prorationDate });
    } catch (err) {
      // A review aid must not turn a bad input into an unhandled program exception: the
      // resource's own check reports it against the property, so warn here and go on.
      if (!(err instanceof BillingError || err instanceof SiteConfigError)) throw err;
      // The service refuses to preview a migration to the product the subscription has: after the up that
      // migrated it, that is every later preview. Read the subscription to tell that apart from a real refusal.
      if (err instanceof BillingApiError && err.status === 422) {
        const current = await programClient(site)
          .readSubscription(subscriptionId)
          .catch(() => undefined);
        if (current && targetsProduct(target, current.product)) {
          pulumi.log.info(`subscription ${subscriptionId} is already on ${to}: nothing to preview`);
          return { chargeInCents: 0, proratedAdjustmentInCents: 0, creditAppliedInCents: 0, paymentDueInCents: 0, alreadyApplied: true };
        }
      }
      pulumi.log.warn(`no charge preview for the migration of subscription ${subscriptionId} to ${to}: ${err.message}`);
      return undefined;
    }
    const money = (c: number) => `${c < 0 ? "-" : ""}${(Math.abs(c) / 100).toFixed(2)}`;
    pulumi.log.info(
      `migration of subscription ${subscriptionId} to ${to}: charge ${money(preview.chargeInCents)}, ` +
        `prorated adjustment ${money(preview.proratedAdjustmentInCents)}, credit applied ${money(preview.creditAppliedInCents)}, ` +
        `payment due ${money(preview.paymentDueInCents)}`,
    );
    return preview;
  });
}
