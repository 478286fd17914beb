import type { ResourceValidation } from "@pulumi/policy";
import { named } from "./resources";

/**
 * A policy's judgement of one resource: the messages of its violations (none
 * when it complies, or when what it needs is not known yet). Pure: the
 * resource's props and the policy's config in, messages out.
 */
export type Check<C> = (props: Readonly<Record<string, unknown>>, config: C, who: string) => readonly string[];

/**
 * The `validateResource` of a policy that looks at one resource type: other
 * types are skipped (and the type is attached the way CrossGuard's typed
 * helpers attach it, so its server skips them before calling). `settings`
 * turns the policy's config (as the policy config file gives it, without
 * `enforcementLevel`) into the check's, defaults applied.
 */
export function forType<C>(type: string, settings: (raw: Record<string, unknown>) => C, check: Check<C>): ResourceValidation {
  const validate: ResourceValidation = (args, reportViolation) => {
    if (args.type !== type) return;
    const config = settings(args.getConfig<Record<string, unknown>>());
    for (const message of check(args.props, config, named(args.type, args.urn))) reportViolation(message);
  };
  return Object.assign(validate, { __pulumiType: type });
}

/** For policies without settings of their own. */
export const noSettings = (): undefined => undefined;
