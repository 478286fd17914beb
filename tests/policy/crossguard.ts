import { createRequire } from "node:module";
import type { ResourceValidationArgs, ResourceValidationPolicy } from "@pulumi/policy";

/**
 * CrossGuard's own wrapping of the props (internal to @pulumi/policy, so loaded untyped): a policy judged here
 * sees its props through the proxy the pack's server uses, and tests can give the sentinels the engine sends.
 */
export const crossGuard: {
  unknownCheckingProxy<T extends object>(props: T): T;
  unknownBooleanValue: string;
  unknownNumberValue: string;
  unknownStringValue: string;
  unknownObjectValue: string;
} = createRequire(__filename)("@pulumi/policy/proxy");

/** Runs a policy's validateResource as CrossGuard's server calls it (props behind its proxy); returns the violations. */
export async function violations(
  policy: ResourceValidationPolicy,
  resource: { readonly type: string; readonly urn: string; readonly props: Record<string, unknown> },
  config: Record<string, unknown> = {},
): Promise<string[]> {
  const reported: string[] = [];
  const args = {
    type: resource.type,
    props: crossGuard.unknownCheckingProxy({ __provider: "exports.handler = …", ...resource.props }),
    urn: resource.urn,
    name: "ignored: the urn names it",
    getConfig: () => config,
    notApplicable: (reason?: string) => {
      throw new Error(`notApplicable: ${reason}`);
    },
  } as unknown as ResourceValidationArgs;
  const validations = [policy.validateResource ?? []].flat();
  for (const validate of validations) await validate(args, (message) => reported.push(message));
  return reported;
}
