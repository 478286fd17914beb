import { BillingApiError } from "../../sdk/errors";
import type { MigrationPreview, Subscription } from "../../sdk/results";
import type { CheckFailure } from "../engine";

/**
 * What a SubscriptionMigration's preview judges before anything is sent: whether the subscription may take the
 * migration (not onto the product it has, an eligible state), why it could not be read, and whether the
 * service's previewed charge is within maxChargeInCents. Pure functions of what the service answered.
 */

const ELIGIBLE = new Set(["active", "trialing"]);
export const RECOMMENDED_FOR_TRIAL_ENDED =
  "the recommended path for a trial_ended subscription is to cancel it, change its product, then reactivate it";

export function sameProductMessage(subscriptionId: unknown, product: { id?: unknown; handle?: unknown }): string {
  const name = product.handle ? `'${String(product.handle)}' (id ${String(product.id)})` : `id ${String(product.id)}`;
  return (
    `subscription ${String(subscriptionId)} is already on product ${name}: the service refuses a migration to the ` +
    "product a subscription already has. Target a different product; to move to another price point of the same " +
    "product, that is a price point change, a different operation than a product migration; if nothing should " +
    "change, remove this SubscriptionMigration."
  );
}

export function targetsProduct(t: { productId?: unknown; productHandle?: unknown }, product: { id?: unknown; handle?: unknown }): boolean {
  if (t.productId !== undefined) return t.productId === product.id;
  return t.productHandle !== undefined && t.productHandle === product.handle;
}

/**
 * Whether `sub`, as it is now, may take this migration. Decided on its
 * current `state`: the vendor documents `previous_state` as meaningful in
 * webhooks only (API answers repeat `state` there). A state the contract does
 * not list is not eligible.
 */
export function eligibility(
  inputs: { productId?: unknown; productHandle?: unknown },
  sub: Subscription,
): { failure?: CheckFailure; warning?: string } {
  if (targetsProduct(inputs, sub.product)) {
    return {
      failure: {
        property: inputs.productId !== undefined ? "productId" : "productHandle",
        reason: sameProductMessage(sub.id, sub.product),
      },
    };
  }
  if (sub.state === "trial_ended") {
    return {
      warning: `subscription ${sub.id} is trial_ended: the API accepts migrating it for backwards compatibility, but ${RECOMMENDED_FOR_TRIAL_ENDED}.`,
    };
  }
  if (!ELIGIBLE.has(sub.state)) {
    return {
      failure: {
        property: "subscriptionId",
        reason: `subscription ${sub.id} is ${sub.state}; only active or trialing subscriptions can be migrated (trial_ended is accepted but not recommended)`,
      },
    };
  }
  return {};
}

const money = (cents: number) => `${cents < 0 ? "-" : ""}${(Math.abs(cents) / 100).toFixed(2)}`;

/** Why the charge is not acknowledged by maxChargeInCents, if it is not. */
export function overMaximum(
  inputs: { readonly subscriptionId: number; readonly maxChargeInCents?: number },
  charge: MigrationPreview | string,
): string | undefined {
  const max = inputs.maxChargeInCents;
  if (max === undefined) return undefined;
  if (typeof charge === "string") return `${charge}; a maximum cannot be checked without it`;
  if (charge.chargeInCents <= max) return undefined;
  return (
    `the service previews a charge of ${charge.chargeInCents} cents (${money(charge.chargeInCents)}) for subscription ` +
    `${inputs.subscriptionId}, above maxChargeInCents ${max} (${money(max)}); to accept it, set maxChargeInCents: ${charge.chargeInCents}`
  );
}

/** Why the subscription could not be read, as a check failure; undefined for an error that is no user's to fix. */
export function readFailure(err: unknown, subscriptionId: number, site: string | undefined): CheckFailure | undefined {
  if (err instanceof BillingApiError && err.status === 404) {
    return {
      property: "subscriptionId",
      reason: `subscription ${subscriptionId} does not exist on this site: it must be the id of one of the site's subscriptions`,
    };
  }
  if (err instanceof BillingApiError && (err.status === 401 || err.status === 403)) {
    return {
      // On "site" only when one was named: the CLI prints the property's value, and a top-level key is no input.
      property: site === undefined ? "" : "site",
      reason:
        `the service refused the configured credentials (${err.status}); check ` +
        (site === undefined
          ? "billing:apiKey / billing:accessToken (or BILLING_API_KEY / BILLING_ACCESS_TOKEN)"
          : `billing:sites["${site}"].apiKey / .accessToken`),
    };
  }
  return undefined;
}
