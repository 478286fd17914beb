import { readFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { describeFinding, findCredentials, isCredentialKey } from "./credentials";
import { policyConfigProblem, policyPackConfigSchema } from "./policy-config";

/**
 * The fleet file: every site's stack, its config and its program. It is
 * reviewed and committed, so it never holds a credential: secret config
 * values are named by the environment variable that holds them at run time.
 */

/** A config value as the fleet file gives it: text, a number or flag, or an object/array (stored as JSON, read with requireObject). */
const configValue = z.union([z.string(), z.number(), z.boolean(), z.record(z.string(), z.unknown()), z.array(z.unknown())]);

const configKey = z
  .string()
  .regex(/^[A-Za-z0-9_.-]+:[A-Za-z0-9_.\-[\]"]+$/, 'a config key is "namespace:key", e.g. "billing:baseUrl" or "webhooks:enabled"');

/**
 * Upper case only: a lower-case "name" here is most often the credential itself pasted in, and the
 * message that a variable is not set would then print it.
 */
const envName = z
  .string()
  .regex(
    /^[A-Z_][A-Z0-9_]*$/,
    "the name of an environment variable in capitals, e.g. US_STORE_BILLING_API_KEY (if you pasted the credential itself here, take it out of the file and rotate it)",
  );

const config = z.record(configKey, configValue);
const secrets = z.record(configKey, envName);

/** A program: a Pulumi project directory (holding Pulumi.yaml), or a module (.js/.ts) exporting an inline program (`program` or default). */
const program = z.string().min(1, "a program is a project directory or a module file");

export const siteSchema = z
  .object({
    name: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, "a site name is letters, digits, _ . - (it names the stack by default)")
      .describe("The site's name: the report's key and, by default, its stack name."),
    stack: z.string().min(1).optional().describe("Stack name (or org/project/stack on Pulumi Cloud); default: the site's name."),
    program: program.optional().describe("This site's program; default: the fleet's `program`."),
    config: config.default({}).describe("Plain config of this site's stack, over the fleet's `config`."),
    secrets: secrets.default({}).describe("Secret config: key → the environment variable holding its value at run time."),
    policyPackConfig: policyPackConfigSchema.optional(),
  })
  .strict();

export const fleetSchema = z
  .object({
    project: z
      .string()
      .regex(/^[A-Za-z0-9_.-]+$/)
      .default("billing-fleet")
      .describe("Project name of inline programs (a directory program names its own in Pulumi.yaml)."),
    backend: z.string().min(1).optional().describe("Backend URL; default: PULUMI_BACKEND_URL, else a file backend beside the fleet file."),
    program: program.optional().describe("The program of every site that names none."),
    concurrency: z.number().int().min(1).max(64).optional().describe("Stacks at once (default 4; --concurrency wins)."),
    config: config.default({}).describe("Plain config every site's stack gets."),
    secrets: secrets.default({}).describe("Secret config every site's stack gets: key → environment variable."),
    policyPackConfig: policyPackConfigSchema.optional(),
    sites: z.array(siteSchema).min(1, "a fleet has at least one site"),
  })
  .strict()
  .superRefine((fleet, ctx) => {
    const seen = new Map<string, number>();
    fleet.sites.forEach((site, i) => {
      for (const [what, value] of [
        ["name", site.name],
        ["stack", site.stack ?? site.name],
      ] as const) {
        const key = `${what}:${value}`;
        const first = seen.get(key);
        if (first !== undefined) {
          ctx.addIssue({
            code: "custom",
            path: ["sites", i, what],
            message: `"${value}" is also the ${what} of sites[${first}]: each site has its own stack`,
          });
        } else seen.set(key, i);
      }
      if (!site.program && !fleet.program) {
        ctx.addIssue({ code: "custom", path: ["sites", i, "program"], message: "no program: give the site a `program` or the fleet one" });
      }
    });
    // Every config value, whatever its key is called: a credential may sit in a key, an object, or a JSON or YAML string.
    const plain = (where: (string | number)[], whose: string, prefix: string, cfg: Record<string, unknown>) => {
      for (const [key, value] of Object.entries(cfg)) {
        for (const found of findCredentials(key, value)) {
          ctx.addIssue({
            code: "custom",
            path: [...where, key],
            params: { line: true },
            message: `${whose}: config ${key} holds a credential${describeFinding(found)}: a fleet file is committed, so it never holds one. Take the value out of the file (and rotate it if it was committed), then give the whole key as secret config from an environment variable: secrets: { ${key}: ${envNameFor(prefix, key)} }`,
          });
        }
      }
    };
    const inBackend = fleet.backend ? backendCredential(fleet.backend) : undefined;
    if (inBackend) {
      ctx.addIssue({
        code: "custom",
        path: ["backend"],
        message: `the URL holds a credential (${inBackend}): leave \`backend\` out and set PULUMI_BACKEND_URL in the environment (or --backend)`,
      });
    }
    plain(["config"], "the fleet's config", "", fleet.config);
    for (const [i, site] of fleet.sites.entries()) plain(["sites", i, "config"], `sites[${i}] (${site.name})`, site.name, site.config);
  });

/** What in a backend URL is a credential (a password, a credential-named query parameter), if anything; never the value. */
function backendCredential(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  if (u.password) return "a password after the user name";
  const named = [...u.searchParams.keys()].find((k) => isCredentialKey(k));
  return named ? `the query parameter ${named}` : undefined;
}

/** An environment variable's name to suggest for a secret config key: us-store, billing:apiKey → US_STORE_BILLING_API_KEY. */
const envNameFor = (site: string, key: string): string =>
  `${site}_${key}`
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .toUpperCase();

export type FleetFile = z.output<typeof fleetSchema>;
export type FleetSite = z.output<typeof siteSchema>;

/** One site as it runs: everything resolved (paths absolute, config merged, stack named). */
export interface ResolvedSite {
  readonly name: string;
  readonly stack: string;
  /** Absolute path: a project directory or a module file. */
  readonly program: string;
  readonly programKind: "directory" | "module";
  readonly config: Readonly<Record<string, string>>;
  /** Secret config key → environment variable. */
  readonly secrets: Readonly<Record<string, string>>;
  /** The site's own policy pack config files (absolute), in the order of the packs; see policy-config.ts. */
  readonly policyPackConfig?: readonly string[];
}

export interface Fleet {
  /** Absolute path of the fleet file. */
  readonly file: string;
  readonly project: string;
  readonly backend: string | undefined;
  readonly concurrency: number | undefined;
  /** The fleet's policy pack config files (absolute), for sites that name none. */
  readonly policyPackConfig?: readonly string[];
  readonly sites: readonly ResolvedSite[];
}

export class FleetFileError extends Error {
  override name = "FleetFileError";
}

/** Config values as stack config holds them: text; objects and arrays as JSON. */
const asText = (v: unknown): string => (typeof v === "string" ? v : JSON.stringify(v));

/** Parses a fleet file's text (YAML, of which JSON is a subset) into a resolved fleet; every problem is named by its path. */
export async function parseFleet(text: string, file: string): Promise<Fleet> {
  const { parse } = await import("yaml");
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (err) {
    throw new FleetFileError(`${file}: not YAML or JSON: ${(err as Error).message.split("\n")[0]}`);
  }
  const r = fleetSchema.safeParse(raw);
  if (!r.success) {
    // A credential's line names the site and key in its own words (params.line); the others are named by their path.
    const lines = r.error.issues.map((i) =>
      i.code === "custom" && i.params?.line ? `  ${i.message}` : `  ${i.path.length ? i.path.join(".") : "(top)"}: ${i.message}`,
    );
    throw new FleetFileError(`${file} is not a usable fleet file:\n${lines.join("\n")}`);
  }
  const fleet = r.data;
  const dir = path.dirname(path.resolve(file));
  const { stat } = await import("node:fs/promises");
  const kinds = new Map<string, "directory" | "module">();
  const kindOf = async (p: string, where: string) => {
    if (!kinds.has(p)) {
      const s = await stat(p).catch(() => undefined);
      if (!s) throw new FleetFileError(`${file}: ${where}: ${p} does not exist (a project directory or a module file)`);
      kinds.set(p, s.isDirectory() ? "directory" : "module");
    }
    return kinds.get(p) as "directory" | "module";
  };
  // Checked now, so a missing file fails the fleet file, not every site's preview.
  const policyConfigs = async (files: readonly string[] | undefined, where: string) => {
    const out = files?.map((f) => path.resolve(dir, f));
    for (const f of out ?? []) {
      const problem = await policyConfigProblem(f);
      if (problem) throw new FleetFileError(`${file}: ${where} policyPackConfig: ${problem}`);
    }
    return out;
  };
  const fleetPolicyConfig = await policyConfigs(fleet.policyPackConfig, "the fleet's");
  const sites: ResolvedSite[] = [];
  for (const [i, site] of fleet.sites.entries()) {
    const policyPackConfig = await policyConfigs(site.policyPackConfig, `sites[${i}] (${site.name})`);
    const program = path.resolve(dir, site.program ?? (fleet.program as string));
    sites.push({
      name: site.name,
      stack: site.stack ?? site.name,
      program,
      programKind: await kindOf(program, site.program ? `sites.${i}.program` : "program"),
      config: Object.fromEntries(Object.entries({ ...fleet.config, ...site.config }).map(([k, v]) => [k, asText(v)])),
      secrets: { ...fleet.secrets, ...site.secrets },
      ...(policyPackConfig ? { policyPackConfig } : {}),
    });
  }
  return {
    file: path.resolve(file),
    project: fleet.project,
    backend: fleet.backend,
    concurrency: fleet.concurrency,
    ...(fleetPolicyConfig ? { policyPackConfig: fleetPolicyConfig } : {}),
    sites,
  };
}

export async function loadFleet(file: string): Promise<Fleet> {
  const text = await readFile(file, "utf8").catch((err: NodeJS.ErrnoException) => {
    throw new FleetFileError(`cannot read the fleet file ${file}: ${err.code ?? err.message}`);
  });
  return parseFleet(text, file);
}
