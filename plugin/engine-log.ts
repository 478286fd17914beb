import { AsyncLocalStorage } from "node:async_hooks";
import path from "node:path";

/** A message's severity on the engine's diagnostics. */
export type Severity = "info" | "warning";

/** Writes one message to the engine's diagnostics, attributed to `urn` (a resource, or a provider) when given. */
export type EngineLog = (severity: Severity, message: string, urn?: string) => void;

/**
 * Messages on the engine's diagnostics, through its Log service at the address the engine gives the
 * plugin (its first argument), each with its severity and the URN of the resource it is about, as a
 * native provider's are: the CLI shows them under that resource. The plugin's stderr is no place for
 * them: the engine shows a resource plugin's output only in verbose logs
 * (sdk/go/common/resource/plugin/plugin.go, "Hiding logs"). Without an address (a plugin run by hand)
 * they go to stderr.
 */
export function engineLog(args: readonly string[]): EngineLog {
  const address = engineAddressOf(args);
  const printed: EngineLog = (severity, message) => console.error(severity === "warning" ? `warning: ${message}` : message);
  if (!address) return printed;
  // The SDK's own copies: its grpc-js, its generated engine service and messages.
  const from = { paths: [path.dirname(require.resolve("@pulumi/pulumi/package.json"))] };
  const grpc = require(require.resolve("@grpc/grpc-js", from)) as { credentials: { createInsecure(): unknown } };
  const { EngineClient } = require("@pulumi/pulumi/proto/engine_grpc_pb") as {
    EngineClient: new (address: string, credentials: unknown) => { log(req: unknown, done: (err: Error | null) => void): void };
  };
  const { LogRequest, LogSeverity } = require("@pulumi/pulumi/proto/engine_pb") as {
    LogRequest: new () => { setSeverity(s: number): void; setMessage(m: string): void; setUrn(u: string): void };
    LogSeverity: { INFO: number; WARNING: number };
  };
  let client: InstanceType<typeof EngineClient> | undefined;
  return (severity, message, urn) => {
    client ??= new EngineClient(address, grpc.credentials.createInsecure());
    const req = new LogRequest();
    req.setSeverity(severity === "warning" ? LogSeverity.WARNING : LogSeverity.INFO);
    req.setMessage(message);
    req.setUrn(urn ?? "");
    client.log(req, (err) => {
      // The engine gone is no reason to fail an operation: say it where it can still be read.
      if (err) printed(severity, message);
    });
  };
}

/**
 * The URN of the resource whose operation is running, across its awaits: the plugin serves many
 * operations at once, so a notice is attributed by the asynchronous context it was made in.
 */
const operation = new AsyncLocalStorage<string>();

/** Runs `op` as the operation of the resource `urn`: the notices it makes are attributed to it. */
export const forResource = <T>(urn: string, op: () => Promise<T>): Promise<T> => operation.run(urn, op);

/** The URN of the resource whose operation is running, if any. */
export const currentResource = (): string | undefined => operation.getStore();

/** The engine's address: the first argument that is not one of the engine's flags (as the SDK's provider `main` reads it). */
export function engineAddressOf(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--tracing") i++;
    else if (a !== "--logtostderr" && !a.startsWith("-v=")) return a;
  }
  return undefined;
}
