import { parseArgs } from "node:util";
import { installPlugin } from "./install";
import { packageDir, packageVersion } from "./package-info";

export const USAGE = `Usage:
  billing-plugin install [--pulumi PATH]
      installs this package's provider plugin, pulumi-resource-billing, into the Pulumi plugin cache
      ($PULUMI_HOME/plugins, default ~/.pulumi/plugins) as \`resource billing <version>\`, from this installed
      package: nothing is downloaded. Then \`pulumi package get-schema billing\` and programs of the generated SDKs
      find it offline. It runs \`pulumi plugin install resource billing <version> --file <folder>\` with the
      Pulumi CLI on PATH (or --pulumi PATH), replacing an installed plugin of the same version. The plugin runs
      this package where it is installed, on the Node.js running this command (or BILLING_PLUGIN_NODE): after
      upgrading or moving the package, run it again.
Exit code: 0 installed; 2 a usage error or a failed install.`;

/** Where the command writes, and the environment the CLI runs with (PULUMI_HOME). */
export interface InstallIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly env?: NodeJS.ProcessEnv;
}

/** `billing-plugin <argv…>`: its exit code; a usage error or a failed install is thrown (bin.ts prints it, exit 2). */
export async function main(argv: string[], io: InstallIo = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { pulumi: { type: "string" }, help: { type: "boolean", short: "h" } },
  });
  if (values.help) {
    io.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const [command, ...rest] = positionals;
  if (command !== "install") {
    throw new Error(
      `${command === undefined ? "a command is required" : `unknown command ${JSON.stringify(command)}`}: give install\n${USAGE}`,
    );
  }
  if (rest.length > 0) throw new Error(`install: unexpected ${JSON.stringify(rest[0])}\n${USAGE}`);
  if (values.pulumi === "") throw new Error("--pulumi: give the path of the pulumi executable");
  const target = { packageDir: packageDir(), version: packageVersion(), node: process.execPath };
  const folder = await installPlugin(target, { cli: values.pulumi, env: io.env ?? process.env });
  io.stdout.write(
    `Installed the billing provider plugin ${target.version} into ${folder}\n(it runs ${target.packageDir} on ${target.node})\n`,
  );
  return 0;
}
