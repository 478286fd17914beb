import { readFile } from "node:fs/promises";
import { z } from "zod";
import type { Operation } from "./report";

/**
 * Policy pack config across a fleet. As with `pulumi preview --policy-pack A --policy-pack-config a.json`,
 * the n-th config file configures the n-th `--policy-pack`, and there are as many configs as packs
 * (or none). A site's own `policyPackConfig` wins for that site; otherwise `--policy-pack-config`
 * on the command line; otherwise the fleet file's top-level `policyPackConfig`.
 */

/** In the fleet file: one JSON file (for a single pack) or a list, in the order of the `--policy-pack` options. */
export const policyPackConfigSchema = z
  .union([z.string().min(1), z.array(z.string().min(1)).min(1)])
  .transform((v) => (typeof v === "string" ? [v] : v))
  .describe(
    "Policy pack config: a JSON file (path relative to the fleet file), or a list, the n-th for the n-th --policy-pack; a site's own wins.",
  );

/** What is wrong with a policy config file (a path the user gave), if anything: it must exist and hold a JSON object. */
export async function policyConfigProblem(file: string): Promise<string | undefined> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === "ENOENT" ? `${file} does not exist` : `${file} cannot be read (${code ?? (err as Error).message})`;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return `${file} is not JSON (${(err as Error).message}): a policy pack config is a JSON object, policy name → its config`;
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    return `${file} holds no JSON object: a policy pack config is an object, policy name → its config, e.g. { "webhooks-stay-enabled-in-production": { "production": true } }`;
  }
  return undefined;
}

/** A policy config that does not pair with the policy packs given; the message names the site and what would be accepted. */
export class PolicyConfigError extends Error {
  override name = "PolicyConfigError";
}

interface Configured {
  readonly name: string;
  readonly stack: string;
  /** The site's own policy config files (absolute), if it names any. */
  readonly policyPackConfig?: readonly string[];
}

/**
 * Each site's policy config files (by stack), paired with the packs in order. Only `preview` and `up` run
 * policies; for the others nothing is passed. Throws PolicyConfigError when a site's configs and the packs
 * don't pair: the CLI would refuse it anyway, once per site, after the others had run.
 */
export function policyConfigsBySite(
  sites: readonly Configured[],
  o: {
    readonly operation: Operation;
    readonly policyPacks?: readonly string[];
    readonly cli?: readonly string[];
    readonly fleet?: readonly string[];
  },
): Map<string, readonly string[]> {
  const out = new Map<string, readonly string[]>();
  if (o.operation !== "preview" && o.operation !== "up") return out;
  const packs = o.policyPacks?.length ?? 0;
  for (const site of sites) {
    const [configs, from] = site.policyPackConfig
      ? [site.policyPackConfig, `site ${site.name}'s policyPackConfig`]
      : o.cli?.length
        ? [o.cli, "--policy-pack-config"]
        : o.fleet
          ? [o.fleet, "the fleet file's policyPackConfig"]
          : [[], ""];
    if (configs.length === 0) continue;
    if (configs.length !== packs) {
      const given = packs === 0 ? "no --policy-pack was given" : `${packs} --policy-pack option${packs === 1 ? " was" : "s were"} given`;
      throw new PolicyConfigError(
        `${from} names ${configs.length} config file${configs.length === 1 ? "" : "s"}, one per policy pack in order, but ${given}: ` +
          "give one --policy-pack DIR per config file (or as many config files as packs)",
      );
    }
    out.set(site.stack, configs);
  }
  return out;
}
