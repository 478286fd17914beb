import { writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { FleetFileError, loadFleet } from "./fleet-file";
import { PolicyConfigError, policyConfigProblem } from "./policy-config";
import type { Operation } from "./report";
import { runFleet } from "./runner";
import { shardOf } from "./shard";
import { summaryTable } from "./summary";

const OPERATIONS: readonly Operation[] = ["preview", "up", "refresh", "destroy"];

export const USAGE = `Usage:
  billing-fleet <preview|up|refresh|destroy> FLEET_FILE [options]
    --concurrency N      stacks at once (default: the fleet file's, else 4)
    --shard i/n          run shard i of n (0-based); default JOB_COMPLETION_INDEX/JOB_COMPLETIONS when both are set
    --resume             re-run only the sites that did not succeed in the last run of this operation (and shard)
    --json FILE          write the report as JSON to FILE ("-" for stdout: the display and table then go to stderr)
    --backend URL        the stacks' backend (default: the fleet file's, PULUMI_BACKEND_URL, else file:// in the state folder)
    --state-dir DIR      inline workspaces, per-site logs, last reports (default: .billing-fleet beside the fleet file)
    --policy-pack DIR    run a policy pack on preview and up (repeatable)
    --policy-pack-config FILE
                         the JSON config of a policy pack: the n-th for the n-th --policy-pack, as the Pulumi CLI
                         pairs them (repeatable); over the fleet file's policyPackConfig, under a site's own
    --plain              one line per event instead of the live display (the default when not a terminal)
  billing-fleet render k8s FLEET_FILE --image IMAGE --completions N --repo-root DIR --image-repo-root DIR [options]
    --operation OP  --parallelism N  --namespace NS  --name NAME  --concurrency N  --backend URL
    --passphrase-secret NAME/KEY  --access-token-secret NAME/KEY  --credentials-secret NAME  --service-account NAME
    --policy-pack DIR  --policy-pack-config FILE   (in the checkout: the pods run them from the image)
  billing-fleet render pko FLEET_FILE --project-repo URL (--branch B | --commit SHA) --repo-root DIR --service-account NAME [options]
    --namespace NS  --backend URL  --organization ORG  --passphrase-secret NAME/KEY  --access-token-secret NAME/KEY
    --credentials-secret NAME  --refresh  --destroy-on-finalize   (a fleet with policy packs is refused: the operator cannot run them)
  (render writes YAML to stdout, or to --output FILE)

Credentials never go in the fleet file: its \`secrets\` name environment variables, read when a site runs.
Exit code: 0 when every site succeeded, 1 when any failed, 2 for a usage or fleet-file error.`;

class UsageError extends Error {}

const secretRef = (v: string | undefined, option: string) => {
  if (v === undefined) return undefined;
  const [name, key, ...rest] = v.split("/");
  if (!name || !key || rest.length) throw new UsageError(`--${option} ${v}: give SECRET_NAME/KEY, e.g. pulumi/passphrase`);
  return { name, key };
};

const int = (v: string | undefined, option: string) => {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) throw new UsageError(`--${option} ${v}: give a whole number`);
  return Number(v);
};

/** Runs the command line; resolves to the exit code. Output goes to the given streams. */
export async function main(
  argv: readonly string[],
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream; isTTY?: boolean } = {
    stdout: process.stdout,
    stderr: process.stderr,
    isTTY: process.stdout.isTTY,
  },
): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        concurrency: { type: "string" },
        shard: { type: "string" },
        resume: { type: "boolean" },
        json: { type: "string" },
        backend: { type: "string" },
        "state-dir": { type: "string" },
        "policy-pack": { type: "string", multiple: true },
        "policy-pack-config": { type: "string", multiple: true },
        plain: { type: "boolean" },
        help: { type: "boolean", short: "h" },
        output: { type: "string" },
        image: { type: "string" },
        completions: { type: "string" },
        parallelism: { type: "string" },
        operation: { type: "string" },
        namespace: { type: "string" },
        name: { type: "string" },
        "repo-root": { type: "string" },
        "image-repo-root": { type: "string" },
        "passphrase-secret": { type: "string" },
        "access-token-secret": { type: "string" },
        "credentials-secret": { type: "string" },
        "service-account": { type: "string" },
        "project-repo": { type: "string" },
        branch: { type: "string" },
        commit: { type: "string" },
        organization: { type: "string" },
        refresh: { type: "boolean" },
        "destroy-on-finalize": { type: "boolean" },
      },
    });
    if (values.help || positionals.length === 0) {
      io.stdout.write(`${USAGE}\n`);
      return values.help ? 0 : 2;
    }
    const [command, ...rest] = positionals;
    if (command === "render") return await render(rest, values, io);
    if (!OPERATIONS.includes(command as Operation)) {
      throw new UsageError(`unknown command "${command}": one of ${[...OPERATIONS, "render"].join(", ")}`);
    }
    if (rest.length !== 1) throw new UsageError(`billing-fleet ${command} takes one fleet file`);
    // Flags first: a bad one is a usage error before the fleet file is even read.
    const concurrency = int(values.concurrency, "concurrency");
    let shard: ReturnType<typeof shardOf>;
    try {
      shard = shardOf(values.shard);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    const policyPackConfigs = values["policy-pack-config"]?.map((p) => path.resolve(p));
    for (const file of policyPackConfigs ?? []) {
      const problem = await policyConfigProblem(file);
      if (problem) throw new UsageError(`--policy-pack-config: ${problem}`);
    }
    const fleet = await loadFleet(rest[0] as string);
    const toStdout = values.json === "-";
    const display = toStdout ? "none" : values.plain || !io.isTTY ? "lines" : "live";
    // SIGTERM (a pod evicted, a CI job cancelled) and Ctrl-C stop the run gracefully: the CLI of each running
    // stack gets SIGINT and records what it applied; sites not started are reported as not run.
    const stop = new AbortController();
    const onSignal = (sig: NodeJS.Signals) => {
      if (stop.signal.aborted) return;
      io.stderr.write(`billing-fleet: ${sig}: stopping the running stacks gracefully; sites not started will not run\n`);
      stop.abort();
    };
    process.on("SIGTERM", onSignal);
    process.on("SIGINT", onSignal);
    const report = await runFleet(fleet, {
      signal: stop.signal,
      operation: command as Operation,
      concurrency,
      shard,
      resume: values.resume,
      backend: values.backend,
      stateDir: values["state-dir"],
      policyPacks: values["policy-pack"]?.map((p) => path.resolve(p)),
      policyPackConfigs,
      display,
    });
    process.off("SIGTERM", onSignal);
    process.off("SIGINT", onSignal);
    const table = await summaryTable(report, { color: !!io.isTTY && !process.env.NO_COLOR, width: process.stdout.columns });
    (toStdout ? io.stderr : io.stdout).write(`\n${table}`);
    const json = `${JSON.stringify(report, null, 2)}\n`;
    if (toStdout) io.stdout.write(json);
    else if (values.json) await writeFile(values.json, json);
    return report.sites.some((s) => s.result === "failed") ? 1 : 0;
  } catch (err) {
    if (
      err instanceof UsageError ||
      err instanceof FleetFileError ||
      err instanceof PolicyConfigError ||
      (err as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")
    ) {
      io.stderr.write(`billing-fleet: ${(err as Error).message}\n(see billing-fleet --help)\n`);
      return 2;
    }
    const { RenderOptionsError } = await import("./render");
    if (err instanceof RenderOptionsError) {
      io.stderr.write(`billing-fleet render: ${err.message}\n`);
      return 2;
    }
    io.stderr.write(`billing-fleet: ${(err as Error).message}\n`);
    return 1;
  }
}

type Values = Record<string, string | boolean | string[] | undefined>;

async function render(args: string[], v: Values, io: { stdout: NodeJS.WritableStream }): Promise<number> {
  const [target, file, ...extra] = args;
  if ((target !== "k8s" && target !== "pko") || !file || extra.length) {
    throw new UsageError("billing-fleet render k8s|pko FLEET_FILE [options]");
  }
  const s = (k: string) => v[k] as string | undefined;
  const fleet = await loadFleet(file);
  const { toYaml } = await import("./render");
  const common = {
    namespace: s("namespace"),
    backend: s("backend"),
    passphraseSecret: secretRef(s("passphrase-secret"), "passphrase-secret"),
    accessTokenSecret: secretRef(s("access-token-secret"), "access-token-secret"),
    credentialsSecret: s("credentials-secret") ? { name: s("credentials-secret") as string } : undefined,
    // Carried into the pods (k8s), or refused (pko): never dropped, or the rendered fleet would deploy unchecked.
    policyPacks: (v["policy-pack"] as string[] | undefined)?.map((p) => path.resolve(p)),
    policyPackConfigs: (v["policy-pack-config"] as string[] | undefined)?.map((p) => path.resolve(p)),
  };
  let docs: object[];
  if (target === "k8s") {
    const { renderJob } = await import("./render-k8s");
    const operation = (s("operation") ?? "up") as Operation;
    if (!OPERATIONS.includes(operation)) throw new UsageError(`--operation ${operation}: one of ${OPERATIONS.join(", ")}`);
    docs = renderJob(fleet, {
      ...common,
      image: s("image") as string,
      operation,
      completions: int(s("completions"), "completions") as number,
      parallelism: int(s("parallelism"), "parallelism"),
      repoRoot: path.resolve(s("repo-root") ?? "."),
      imageRepoRoot: s("image-repo-root") as string,
      name: s("name"),
      concurrency: int(s("concurrency"), "concurrency"),
      serviceAccountName: s("service-account"),
    });
  } else {
    const { renderPkoStacks } = await import("./render-pko");
    docs = renderPkoStacks(fleet, {
      ...common,
      projectRepo: s("project-repo") as string,
      branch: s("branch"),
      commit: s("commit"),
      repoRoot: path.resolve(s("repo-root") ?? "."),
      serviceAccountName: s("service-account") as string,
      organization: s("organization"),
      refresh: v.refresh as boolean | undefined,
      destroyOnFinalize: v["destroy-on-finalize"] as boolean | undefined,
    });
  }
  const yaml = toYaml(docs);
  if (s("output")) await writeFile(s("output") as string, yaml);
  else io.stdout.write(yaml);
  return 0;
}
