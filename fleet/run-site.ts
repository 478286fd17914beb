import { existsSync } from "node:fs";
import { appendFile, chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { ConfigMap, PulumiCommand, Stack } from "@pulumi/pulumi/automation";
import { EventLog, firstLine } from "./events";
import type { ResolvedSite } from "./fleet-file";
import { knownConfig } from "./known-config";
import { inlineProgram } from "./program";
import { Redactor } from "./redact";
import type { Operation, SiteReport } from "./report";

/** Where and how a site's stack runs; the same for every site of one run. */
export interface SiteRunOptions {
  readonly operation: Operation;
  readonly project: string;
  readonly backend: string;
  /** Holds inline programs' workspaces and the per-site logs; under the user's project, so its node_modules resolve. */
  readonly stateDir: string;
  /** Policy packs to run on preview and up (`pulumi preview --policy-pack`). */
  readonly policyPacks?: readonly string[];
  /** Their config files, the n-th for the n-th pack (`--policy-pack-config`); this site's, see policy-config.ts. */
  readonly policyPackConfigs?: readonly string[];
  /** The environment secrets are read from (default process.env). */
  readonly env?: NodeJS.ProcessEnv;
  /**
   * Aborts the running operations: the CLI gets SIGINT, lets the resource operations in flight
   * finish and records them in state (so the next run neither repeats nor loses them).
   */
  readonly signal?: AbortSignal;
  /** Called with a one-line detail as the stack makes progress. */
  readonly onProgress?: (detail: string) => void;
}

/** A file-safe name of a stack (org/project/stack keeps its last part readable). */
export const stackFileName = (stack: string): string => stack.replace(/[^A-Za-z0-9_.-]+/g, "_");

/**
 * Secret config of a site, read from the environment now. A variable that is not set fails
 * the site before anything runs, naming the variable (never a value).
 */
function secretConfig(site: ResolvedSite, env: NodeJS.ProcessEnv): ConfigMap {
  const missing = Object.entries(site.secrets).filter(([, name]) => !env[name]);
  if (missing.length > 0) {
    throw new Error(
      `secret config ${missing.map(([key, name]) => `${key} needs the environment variable ${name}`).join(", ")}, which is not set`,
    );
  }
  return Object.fromEntries(Object.entries(site.secrets).map(([key, name]) => [key, { value: env[name] as string, secret: true }]));
}

/**
 * NODE_PATH for the stacks' plugins. The dynamic-provider plugin resolves @pulumi/pulumi, and
 * its host this package, from its working directory: an inline workspace's folder may be
 * anywhere (--state-dir), so they are pointed at the node_modules this runner loaded them from.
 */
function nodePath(): string {
  const dirs = [path.resolve(require.resolve("@pulumi/pulumi/package.json"), "../../..")];
  const ours = path.resolve(__dirname, "../../..");
  if (path.basename(ours) === "node_modules") dirs.push(ours);
  if (process.env.NODE_PATH) dirs.push(process.env.NODE_PATH);
  return [...new Set(dirs)].join(path.delimiter);
}

/** One CLI for the run: each workspace would otherwise run `pulumi version` to find and check it. */
let cli: Promise<PulumiCommand> | undefined;

/** The folder of a site's stack settings: the project's for a directory program, the runner's own for an inline one. */
const workDirOf = (site: ResolvedSite, o: SiteRunOptions) =>
  site.programKind === "directory" ? site.program : path.join(o.stateDir, "stacks", stackFileName(site.stack));

/**
 * The site's stack, with no CLI run: every command names it with `--stack`, so selecting it (a Go
 * process that loads the stack: about 1 s of CPU) would tell nothing. Whether it exists is the
 * caller's to know (see configure in runSite).
 */
async function stackOf(site: ResolvedSite, o: SiteRunOptions): Promise<Stack> {
  const { LocalWorkspace, PulumiCommand, Stack } = await import("@pulumi/pulumi/automation");
  cli ??= PulumiCommand.get();
  const pulumiCommand = await cli;
  const envVars = { PULUMI_BACKEND_URL: o.backend, NODE_PATH: nodePath(), ...nodeStartup(o.stateDir) };
  const workDir = workDirOf(site, o);
  const opts =
    site.programKind === "directory"
      ? { workDir, envVars, pulumiCommand }
      : {
          workDir,
          envVars,
          pulumiCommand,
          program: await inlineProgram(site),
          projectSettings: {
            name: o.project,
            runtime: "nodejs" as const,
            backend: { url: o.backend },
            // The project file's plugin override (not in the Automation API's type; the CLI reads it).
            ...({ plugins: { providers: [{ name: "billing", path: await pluginFolder(o.stateDir) }] } } as object),
          },
        };
  if (site.programKind !== "directory") await mkdir(workDir, { recursive: true });
  const ws = await LocalWorkspace.create(opts);
  ws.selectStack = async () => undefined;
  return withoutReadBack(await Stack.select(site.stack, ws));
}

/** Makes the stack unless it exists: one `stack init`, where the Automation API's createOrSelect runs `stack select` first. */
async function createIfMissing(stack: Stack): Promise<void> {
  const { StackAlreadyExistsError } = await import("@pulumi/pulumi/automation");
  await stack.workspace.createStack(stack.name).catch((err: unknown) => {
    if (!(err instanceof StackAlreadyExistsError)) throw err;
  });
}

const pluginFolders = new Map<string, Promise<string>>();

/**
 * The provider plugin of this very package, for the inline programs that declare resources through
 * `pulumi-subscription-billing/billing`: a launcher in the state folder that runs its entry point on
 * the runner's own Node, named by the project's `plugins.providers` (so nothing is installed in the
 * user's plugin cache, and the CLI does not warn, as it does for a plugin found on PATH).
 */
function pluginFolder(stateDir: string): Promise<string> {
  let folder = pluginFolders.get(stateDir);
  if (!folder) {
    folder = writeLauncher(stateDir);
    pluginFolders.set(stateDir, folder);
    // A failure is the site's to report; the next site tries again.
    folder.catch(() => pluginFolders.delete(stateDir));
  }
  return folder;
}

/** Writes the launcher once per state folder and process (every site of a run shares it). */
async function writeLauncher(stateDir: string): Promise<string> {
  const dir = path.join(stateDir, "plugin");
  // Built, this module is dist/fleet/run-site.js; from source (ts-node), fleet/run-site.ts beside dist/.
  const entry = [path.resolve(__dirname, "../plugin/bin.js"), path.resolve(__dirname, "../dist/plugin/bin.js")].find((f) => existsSync(f));
  if (!entry) throw new Error(`the provider plugin's entry point is missing beside ${__dirname}: build the package (npm run build)`);
  const launcher = `#!/bin/sh\nexec "${process.execPath}" "${entry}" "$@"\n`;
  const file = path.join(dir, "pulumi-resource-billing");
  if ((await readFile(file, "utf8").catch(() => "")) !== launcher) {
    await mkdir(dir, { recursive: true });
    await writeFile(file, launcher, { mode: 0o755 });
    // writeFile's mode applies only to a file it creates: a launcher rewritten in place keeps its old mode.
    await chmod(file, 0o755);
  }
  return dir;
}

/**
 * The Automation API ends an `up`, `refresh` or `destroy` with three more CLI runs (`stack output`
 * twice, to mask secrets, and `stack history`) for outputs and a summary the fleet does not use: the
 * report takes the changes from the engine's own summary event (EventLog.changes), and a site's
 * outputs stay in its stack. Without them a no-change `up` is one CLI run, as a bare `pulumi up` is.
 */
function withoutReadBack(stack: Stack): Stack {
  stack.outputs = async () => ({});
  stack.info = async () => undefined;
  return stack;
}

/**
 * Start-up of the Node processes the CLI runs for a site (the dynamic-provider host, a directory
 * program): Node's compile cache, one folder for the whole fleet, so that @pulumi/pulumi, this
 * package and their dependencies are compiled once, not once per site. See docs/fleet.md.
 */
function nodeStartup(stateDir: string): Record<string, string> {
  if (process.env.NODE_COMPILE_CACHE !== undefined) return {};
  return { NODE_COMPILE_CACHE: path.join(stateDir, "node-compile-cache") };
}

/** The CLI's words for a stack that is not there: a record that outlived its stack (see runSite). */
const NO_STACK = /no stack named/i;

/** The policy violations of the run, on `up` as on `preview` (whose document holds them too). */
const violations = (log: EventLog): Pick<SiteReport, "policyViolations"> =>
  log.violations.length ? { policyViolations: [...log.violations] } : {};

const changedOf = (changes: Record<string, number>): number =>
  Object.entries(changes).reduce((n, [op, count]) => (op === "same" ? n : n + count), 0);

/** Runs one site's operation; never throws: a failure is the report's `error`, its whole output the site's log. */
export async function runSite(site: ResolvedSite, o: SiteRunOptions): Promise<SiteReport> {
  const started = performance.now();
  const env = o.env ?? process.env;
  // Everything this site writes or reports passes through it: see redact.ts.
  const redact = new Redactor(Object.values(site.secrets).flatMap((name) => (env[name] ? [env[name]] : [])));
  const log = new EventLog();
  const logFile = path.join(o.stateDir, "logs", `${stackFileName(site.stack)}.log`);
  await mkdir(path.dirname(logFile), { recursive: true });
  await writeFile(logFile, `# billing-fleet ${o.operation} ${site.stack} ${new Date().toISOString()}\n`);
  let pending = Promise.resolve();
  // Whole lines only: a secret split across two chunks of output would escape the redactor.
  let partial = "";
  const write = (text: string) => {
    pending = pending.then(() => appendFile(logFile, redact.text(text))).catch(() => undefined);
  };
  const onOutput = (text: string) => {
    const end = (partial + text).lastIndexOf("\n");
    if (end < 0) partial += text;
    else {
      write((partial + text).slice(0, end + 1));
      partial = (partial + text).slice(end + 1);
    }
  };
  const onEvent: typeof log.onEvent = (e) => {
    log.onEvent(e);
    if (e.resourcePreEvent) o.onProgress?.(redact.text(log.last));
  };
  const base = { name: site.name, stack: site.stack };
  // Whether the CLI's operation began: only then is a failure under an aborted signal the stop's doing.
  let operating = false;
  try {
    const plain: ConfigMap = Object.fromEntries(Object.entries(site.config).map(([k, value]) => [k, { value }]));
    const secrets = secretConfig(site, env);
    const known = await knownConfig({
      stateDir: o.stateDir,
      stackFile: stackFileName(site.stack),
      stack: site.stack,
      workDir: workDirOf(site, o),
      plain,
      secrets,
      env,
    });
    const stack = await stackOf(site, o);
    const noStack = (err: unknown) => NO_STACK.test(err instanceof Error ? err.message : String(err));
    // A stack with a record exists (the runner made it); one without is made here, or found already made.
    const configure = async (exists: boolean) => {
      o.onProgress?.(exists ? "setting the config" : "making the stack");
      if (!exists) await createIfMissing(stack);
      await stack.setAllConfig({ ...plain, ...secrets }).catch(async (err: unknown) => {
        // The record outlived its stack (removed with its settings kept): make it, then set the config, once.
        if (!exists || !noStack(err)) throw err;
        await createIfMissing(stack);
        await stack.setAllConfig({ ...plain, ...secrets });
      });
      await known.remember();
    };
    if (known.unchanged) onOutput("config unchanged since the last run: no stack init, no config set-all\n");
    else await configure(known.recorded);
    const policyPacks = o.policyPacks ? [...o.policyPacks] : undefined;
    const policyPackConfigs = o.policyPackConfigs?.length ? [...o.policyPackConfigs] : undefined;
    const signal = o.signal;
    if (signal?.aborted) throw new Error("not run: the fleet run was interrupted before this site started");
    let changes: Record<string, number> = {};
    let preview: SiteReport["preview"];
    const operate = async () => {
      operating = true;
      switch (o.operation) {
        case "preview": {
          const r = await stack.preview({ onEvent, onOutput, policyPacks, policyPackConfigs, signal });
          changes = { ...r.changeSummary };
          preview = log.preview(changes);
          break;
        }
        case "up":
          await stack.up({ onEvent, onOutput, policyPacks, policyPackConfigs, signal });
          changes = { ...log.changes };
          break;
        case "refresh":
          await stack.refresh({ onEvent, onOutput, signal });
          changes = { ...log.changes };
          break;
        case "destroy":
          await stack.destroy({ onEvent, onOutput, signal });
          changes = { ...log.changes };
          break;
      }
    };
    try {
      await operate();
    } catch (err) {
      // The record outlived its stack (removed with its settings kept): forget it, then make the stack and set its config, once.
      if (!known.unchanged || !noStack(err)) throw err;
      await known.forget();
      await configure(false);
      await operate();
    }
    return redact.value<SiteReport>({
      ...base,
      result: "succeeded",
      changes,
      changed: changedOf(changes),
      durationMs: Math.round(performance.now() - started),
      preview,
      ...violations(log),
    });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    onOutput(`\n${message}\n`);
    return redact.value<SiteReport>({
      ...base,
      result: "failed",
      changes: {},
      changed: 0,
      durationMs: Math.round(performance.now() - started),
      error:
        o.signal?.aborted && operating
          ? `interrupted: ${log.firstError() ?? "the CLI was asked to stop; what it applied is in the stack's state"}`
          : (log.firstError() ?? firstLine(message)),
      ...(o.operation === "preview" ? { preview: log.preview(undefined) } : {}),
      ...violations(log),
    });
  } finally {
    if (partial) write(partial);
    await pending;
  }
}
