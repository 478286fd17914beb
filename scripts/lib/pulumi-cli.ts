import { execFile, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * Runs the Pulumi CLI offline: a file backend and PULUMI_HOME in a temp
 * folder, passphrase secrets, no update checks or plugin downloads. Used by
 * the demo, the end-to-end tests and the benchmark.
 */

const ROOT = path.resolve(__dirname, "../..");

/** The bin folder holding pulumi, pulumi-language-nodejs and the dynamic-provider plugin. */
export async function ensurePulumi(opts: { quiet?: boolean } = {}): Promise<string> {
  const script = path.join(ROOT, "scripts/ensure-pulumi.sh");
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn("bash", [script], { cwd: ROOT, stdio: ["ignore", "pipe", opts.quiet ? "pipe" : "inherit"] });
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (d) => (stdout += d));
    child.stderr?.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(stdout) : reject(new Error(`ensure-pulumi.sh failed (${code}): ${stderr.slice(-2000)}`)),
    );
  });
  const bin = out.trim().split("\n").pop() ?? "";
  if (!bin) throw new Error("ensure-pulumi.sh printed no bin folder");
  return bin;
}

export interface Workspace {
  readonly dir: string;
  readonly env: NodeJS.ProcessEnv;
  /** Runs `pulumi args…` in `cwd`; rejects with the CLI's output on a non-zero exit unless `allowFailure`. */
  pulumi(args: string[], opts: { cwd: string; allowFailure?: boolean; stream?: boolean; env?: NodeJS.ProcessEnv }): Promise<CliResult>;
  dispose(): Promise<void>;
}

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export const PASSPHRASE = "correct horse battery staple";

export async function createWorkspace(binDir: string): Promise<Workspace> {
  const dir = await mkdtemp(path.join(tmpdir(), "billing-pulumi-"));
  const env: NodeJS.ProcessEnv = {
    ...withoutBillingEnv(process.env),
    // The language host and the provider host run `node` from PATH: make it this Node (22+),
    // whatever the caller's PATH holds (machines here ship Node 20 on PATH).
    PATH: [binDir, path.dirname(process.execPath), process.env.PATH ?? ""].join(path.delimiter),
    PULUMI_HOME: path.join(dir, "home"),
    PULUMI_BACKEND_URL: `file://${path.join(dir, "state")}`,
    PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_SKIP_CONFIRMATIONS: "true",
    PULUMI_COPILOT: "false",
    NO_COLOR: "1",
  };
  await run("mkdir", ["-p", path.join(dir, "state"), path.join(dir, "home")], { cwd: dir, env });
  return {
    dir,
    env,
    pulumi: (args, o) =>
      run("pulumi", [...args, "--non-interactive"], {
        cwd: o.cwd,
        env: { ...env, ...o.env },
        allowFailure: o.allowFailure,
        stream: o.stream,
      }),
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}

/** Credentials come from stack config in these runs, never from the caller's environment. */
function withoutBillingEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !k.startsWith("BILLING_")));
}

function run(
  cmd: string,
  args: string[],
  o: { cwd: string; env: NodeJS.ProcessEnv; allowFailure?: boolean; stream?: boolean },
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = execFile(cmd, args, { cwd: o.cwd, env: o.env, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === "number" ? (err as { code: number }).code : 1) : 0;
      const result = { code, stdout: String(stdout), stderr: String(stderr) };
      if (code !== 0 && !o.allowFailure) {
        reject(
          Object.assign(
            new Error(`pulumi ${args.join(" ")} exited ${code}\n${result.stdout.slice(-4000)}\n${result.stderr.slice(-4000)}`),
            { result },
          ),
        );
      } else resolve(result);
    });
    if (o.stream) {
      child.stdout?.pipe(process.stdout);
      child.stderr?.pipe(process.stderr);
    }
  });
}
