import { KINDS, type ProviderKind } from "../provider/kinds";

/**
 * The engine's type of a billing resource: a dynamic resource registered with
 * module "billing" (see `resourceClass` in provider/kinds/kind.ts), whose
 * type name is the kind's `type`. Policies match on it (and on the plugin's
 * `billing:index:<Type>`) rather than on the resource classes.
 */
export const billingType = <T extends string>(kindType: T) => `pulumi-nodejs:dynamic/billing:${kindType}` as const;

/** Every kind's type, by its registry key: read from the registry, which is the one list of kinds. */
export const TYPES: { readonly [K in ProviderKind]: string } = Object.fromEntries(
  Object.values(KINDS).map((m) => [m.kind.key, billingType(m.kind.type)]),
) as { readonly [K in ProviderKind]: string };

/** A resource's name as the program gave it: the urn's last `::` segment (`urn:pulumi:stack::project::type::name`). */
export function resourceName(urn: string): string {
  const at = urn.lastIndexOf("::");
  return at < 0 ? urn : urn.slice(at + 2);
}

/** How a message names a resource: its kind and name, e.g. `SubscriptionMigration 'subscription-1001'`. */
export function named(type: string, urn: string): string {
  return `${type.slice(type.lastIndexOf(":") + 1)} '${resourceName(urn)}'`;
}
