import path from "node:path";

/**
 * Warnings on the engine's diagnostics, through its Log service at the address the engine gives the
 * plugin (its first argument). The plugin's stderr is no place for them: the engine shows a resource
 * plugin's output only in verbose logs (sdk/go/common/resource/plugin/plugin.go, "Hiding logs"), so
 * `console.error` would reach nobody. Without an address (a plugin run by hand) they go to stderr.
 */
export function engineWarnings(args: readonly string[]): (message: string) => void {
  const address = engineAddressOf(args);
  if (!address) return (message) => console.error(`warning: ${message}`);
  // The SDK's own copies: its grpc-js, its generated engine service and messages.
  const from = { paths: [path.dirname(require.resolve("@pulumi/pulumi/package.json"))] };
  const grpc = require(require.resolve("@grpc/grpc-js", from)) as { credentials: { createInsecure(): unknown } };
  const { EngineClient } = require("@pulumi/pulumi/proto/engine_grpc_pb") as {
    EngineClient: new (address: string, credentials: unknown) => { log(req: unknown, done: (err: Error | null) => void): void };
  };
  const { LogRequest, LogSeverity } = require("@pulumi/pulumi/proto/engine_pb") as {
    LogRequest: new () => { setSeverity(s: number): void; setMessage(m: string): void; setUrn(u: string): void };
    LogSeverity: { WARNING: number };
  };
  let client: InstanceType<typeof EngineClient> | undefined;
  return (message) => {
    client ??= new EngineClient(address, grpc.credentials.createInsecure());
    const req = new LogRequest();
    req.setSeverity(LogSeverity.WARNING);
    req.setMessage(message);
    req.setUrn("");
    client.log(req, (err) => {
      // The engine gone is no reason to fail a configure: say it where it can still be read.
      if (err) console.error(`warning: ${message}`);
    });
  };
}

/** The engine's address: the first argument that is not one of the engine's flags (as the SDK's provider `main` reads it). */
export function engineAddressOf(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--tracing") i++;
    else if (a !== "--logtostderr" && !a.startsWith("-v=")) return a;
  }
  return undefined;
}
