import type { ResourceValidation } from "@pulumi/policy";
import { named } from "./resources";

/**
 * A policy's judgement of one resource: the messages of its violations (none
 * when it complies, or when what it needs is not known yet). Pure: the
 * resource's props and the policy's config in, messages out.
 */
export type Check<C> = (props: Readonly<Record<string, unknown>>, config: C, who: string) => readonly string[];

/**
 * The same kind served by the provider plugin: `billing:index:WebhookSettings` for the dynamic
 * resource's `pulumi-nodejs:dynamic/billing:WebhookSettings`. Both take the same inputs (the plugin's
 * schema comes from the same declarations), so a policy judges both alike.
 */
export const pluginTypeOf = (type: string): string => type.replace(/^pulumi-nodejs:dynamic\/billing:/, "billing:index:");

/**
 * The `validateResource` of a policy that looks at one resource kind, whether a program declares it
 * through the dynamic providers or the provider plugin: other types are skipped. (CrossGuard's typed
 * helpers attach one type for its server to skip the others before calling; two cannot be attached,
 * so the check is here.) `settings` turns the policy's config (as the policy config file gives it,
 * without `enforcementLevel`) into the check's, defaults applied.
 */
export function forType<C>(type: string, settings: (raw: Record<string, unknown>) => C, check: Check<C>): ResourceValidation {
  const types = new Set([type, pluginTypeOf(type)]);
  return (args, reportViolation) => {
    if (!types.has(args.type)) return;
    const config = settings(args.getConfig<Record<string, unknown>>());
    for (const message of check(args.props, config, named(args.type, args.urn))) reportViolation(message);
  };
}

/** For policies without settings of their own. */
export const noSettings = (): undefined => undefined;
