/**
 * The engine's type of a billing resource: a dynamic resource registered with
 * module "billing" (see `resourceClass` in provider/kinds/kind.ts), whose
 * type name is the kind's `type`. Policies match on it rather than on the
 * resource classes, so the pack loads without the provider's modules.
 */
export const billingType = <T extends string>(kindType: T) => `pulumi-nodejs:dynamic/billing:${kindType}` as const;

/** The types the policies look at, by kind. */
export const TYPES = {
  subscriptionMigration: billingType("SubscriptionMigration"),
  webhookSettings: billingType("WebhookSettings"),
  webhookEndpoint: billingType("WebhookEndpoint"),
  productFamily: billingType("ProductFamily"),
  product: billingType("Product"),
  productPricePoint: billingType("ProductPricePoint"),
} as const;

/** A resource's name as the program gave it: the urn's last `::` segment (`urn:pulumi:stack::project::type::name`). */
export function resourceName(urn: string): string {
  const at = urn.lastIndexOf("::");
  return at < 0 ? urn : urn.slice(at + 2);
}

/** How a message names a resource: its kind and name, e.g. `SubscriptionMigration 'subscription-1001'`. */
export function named(type: string, urn: string): string {
  return `${type.slice(type.lastIndexOf(":") + 1)} '${resourceName(urn)}'`;
}
