import type { Fleet } from "./fleet-file";
import { PolicyConfigError, policyConfigsBySite } from "./policy-config";
import { check, pathInRepo, RenderOptionsError } from "./render";
import type { Operation } from "./report";

/**
 * The fleet's policy packs and their configs in what the renderers write. A
 * rendered fleet that left them out would deploy every site unchecked, the
 * opposite of what the same fleet does from a terminal, and nothing would say so.
 */

/** The packs and the command line's configs (`--policy-pack-config`), as the pods find them in the image. */
export interface PolicyInImage {
  readonly packs: readonly string[];
  readonly configs: readonly string[];
}

/**
 * Where the image holds each pack and config file: like the programs, they come with the checkout
 * (`repoRoot`, at `at(path in the checkout)`), so a pod runs the very pack the image was built with.
 * Throws a RenderOptionsError when one lies outside the checkout, or when the configs do not pair
 * with the packs (the runner in each pod would refuse them, once per pod).
 */
export function policyInImage(
  fleet: Fleet,
  opts: {
    readonly operation: Operation;
    readonly repoRoot: string;
    readonly policyPacks?: readonly string[];
    readonly policyPackConfigs?: readonly string[];
  },
  at: (inRepo: string) => string,
): PolicyInImage {
  const listed = (files: readonly string[] | undefined, option: string, what: string): string[] => {
    check(
      files === undefined || (Array.isArray(files) && files.every((f) => typeof f === "string" && f !== "")),
      option,
      `a list of ${what} paths in the local checkout`,
      files,
    );
    return (files ?? []).map((f, i) => at(pathInRepo(f, opts.repoRoot, `${option}[${i}]`, `the ${what} (${f})`)));
  };
  const packs = listed(opts.policyPacks, "policyPacks", "policy pack folder");
  const configs = listed(opts.policyPackConfigs, "policyPackConfigs", "policy pack config file");
  for (const file of fleetPolicyConfigs(fleet)) pathInRepo(file, opts.repoRoot, "repoRoot", `the fleet's policyPackConfig (${file})`);
  try {
    policyConfigsBySite(fleet.sites, {
      operation: opts.operation,
      policyPacks: opts.policyPacks,
      cli: opts.policyPackConfigs,
      fleet: fleet.policyPackConfig,
    });
  } catch (err) {
    if (err instanceof PolicyConfigError) throw new RenderOptionsError(`policyPacks: ${err.message}`);
    throw err;
  }
  return { packs, configs };
}

/**
 * `render pko` refuses a fleet with policy: the operator's Stack (v2, its CRD) has no field that runs a
 * policy pack on a Stack's updates (pulumi/pulumi-kubernetes-operator#366), and a field it does not know
 * is pruned by the API server, so its Stacks would deploy unchecked.
 */
export function refusePolicyOnPko(
  fleet: Fleet,
  opts: { readonly policyPacks?: readonly string[]; readonly policyPackConfigs?: readonly string[] },
): void {
  const packs = opts.policyPacks ?? [];
  const configs = [...(opts.policyPackConfigs ?? []), ...fleetPolicyConfigs(fleet)];
  if (packs.length === 0 && configs.length === 0) return;
  const given = packs.length ? `policy packs (${packs.join(", ")})` : `policy pack configs (${configs.join(", ")})`;
  throw new RenderOptionsError(
    `policyPacks: this fleet has ${given}, and the Pulumi Kubernetes Operator cannot run a policy pack on a Stack's ` +
      "updates (its Stack has no such field: pulumi/pulumi-kubernetes-operator#366), so its Stacks would deploy " +
      "unchecked. Run the fleet with `billing-fleet render k8s`, whose pods run the packs, or enforce the pack " +
      "from Pulumi Cloud (a policy group) and render without --policy-pack and the fleet's policyPackConfig",
  );
}

/** Every config file the fleet file names, the fleet's and its sites', once each. */
function fleetPolicyConfigs(fleet: Fleet): string[] {
  return [...new Set([...(fleet.policyPackConfig ?? []), ...fleet.sites.flatMap((s) => s.policyPackConfig ?? [])])];
}
