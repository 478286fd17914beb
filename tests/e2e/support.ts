import { cp, mkdir, mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { installPacked } from "../../scripts/lib/packed-install";
import { type CliResult, createWorkspace, ensurePulumi, type Workspace } from "../../scripts/lib/pulumi-cli";

export const ROOT = path.resolve(__dirname, "../..");

/**
 * A consumer folder with the package installed the way a user installs it
 * (from its packed tarball, see installPacked), beside the examples copied in.
 */
export interface Consumer {
  readonly dir: string;
  readonly bin: string;
  example(name: string): string;
}

let consumer: Promise<Consumer> | undefined;

export function installedConsumer(): Promise<Consumer> {
  consumer ??= (async () => {
    // Progress on stderr: on a fresh machine the first build takes minutes.
    const bin = await ensurePulumi();
    const dir = await mkdtemp(path.join(tmpdir(), "billing-consumer-"));
    installPacked(dir, { dependencies: { "ts-node": "10.9.2", typescript: "5.9.3" } });
    for (const name of ["webhook-settings", "reviewed-migration", "environment-bootstrap", "site-config"]) {
      await mkdir(path.join(dir, name), { recursive: true });
      // Only the program and its project file: modules resolve from the consumer's node_modules above.
      for (const f of ["Pulumi.yaml", "index.ts"]) await cp(path.join(ROOT, "examples", name, f), path.join(dir, name, f));
    }
    return { dir, bin, example: (name: string) => path.join(dir, name) };
  })();
  return consumer;
}

/** One stack of one example, with every CLI output kept for the credential scan. */
export class ExampleStack {
  readonly outputs: string[] = [];
  private constructor(
    readonly ws: Workspace,
    readonly cwd: string,
    readonly stack: string,
  ) {}

  static async create(c: Consumer, example: string, stack: string): Promise<ExampleStack> {
    const ws = await createWorkspace(c.bin);
    const s = new ExampleStack(ws, c.example(example), stack);
    await s.run(["stack", "init", stack]);
    return s;
  }

  /** `env`: beside the workspace's environment, as a user sets a variable for one command. */
  async run(args: string[], opts: { allowFailure?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<CliResult> {
    const res = await this.ws
      .pulumi([...args, ...(args[0] === "stack" && args[1] === "init" ? [] : ["--stack", this.stack])], {
        cwd: this.cwd,
        allowFailure: opts.allowFailure,
        env: { PULUMI_NODEJS_TRANSPILE_ONLY: "true", ...opts.env },
      })
      .catch((err: Error & { result?: CliResult }) => {
        if (err.result) this.outputs.push(err.result.stdout, err.result.stderr);
        throw err;
      });
    this.outputs.push(res.stdout, res.stderr);
    return res;
  }

  config(key: string, value: string, secret = false): Promise<CliResult> {
    return this.run(["config", "set", ...(secret ? ["--secret"] : []), key, value]);
  }

  async stackOutputs(): Promise<Record<string, unknown>> {
    return JSON.parse((await this.run(["stack", "output", "--json"])).stdout);
  }

  /** `pulumi stack export`: the whole state as stored. */
  async exportState(): Promise<string> {
    return (await this.run(["stack", "export"])).stdout;
  }

  async stackConfigFile(): Promise<string> {
    return readFile(path.join(this.cwd, `Pulumi.${this.stack}.yaml`), "utf8");
  }

  async dispose(): Promise<void> {
    await this.run(["stack", "rm", "--yes", "--force"], { allowFailure: true });
    await this.ws.dispose();
  }
}

/** Requests that change something at the service (a preview POST changes nothing). */
export function mutations(requests: readonly { method: string; path: string }[]): { method: string; path: string }[] {
  return requests.filter((r) => r.method !== "GET" && !r.path.endsWith("/migrations/preview.json"));
}
