import path from "node:path";
import type * as grpc from "@grpc/grpc-js";
import { main } from "@pulumi/pulumi/provider";
import { setNoticeSink } from "../provider/engine";
import { configurationFor, warnPlainCredentials } from "./config";
import { currentResource, type EngineLog, engineLog } from "./engine-log";
import type { BillingProvider } from "./provider";

/**
 * Serves the provider with the SDK's `main()`, through a request wrapper that adapts two methods of
 * the SDK's provider server (@pulumi/pulumi 3.259.0, provider/server.js), whose class is not exported:
 *
 * - `configure` answers without reading the request, so a provider never sees its configuration. The
 *   wrapper hands the request's configuration to {@link BillingProvider.configure}, and answers as the
 *   dynamic-provider host does (no secrets or resource references in requests: the runtime gets the
 *   same plain values in both; the engine keeps outputs of secret inputs secret itself).
 * - `read` calls `req.getProperties().toJavaScript()`, and `pulumi import` sends a Read with no
 *   properties: the server throws and the import fails (DEFECT of the pinned SDK). The wrapper gives
 *   such a request empty properties, which the provider takes as an import.
 *
 * The wrapper is installed by patching `addService` of the grpc-js the SDK uses, for the provider
 * service only, before `main()` builds its server.
 */
export function serve(provider: BillingProvider, args: string[]): Promise<void> {
  routeMessages(provider, engineLog(args));
  return main(provider, args);
}

/**
 * The plugin's messages on the engine's log, as a native provider's: the runtime's notices (adoptions,
 * archives, pricing changes) as info under the resource whose operation made them, a credential set
 * without --secret as a warning under the provider.
 */
export function routeMessages(provider: BillingProvider, log: EngineLog): void {
  setNoticeSink((message) => log("info", message, currentResource()));
  guardRequests(provider, (message, urn) => log("warning", message, urn));
}

type Callback = (err: Error | null, value?: unknown) => void;
type Handler = (call: { request: Request }, callback: Callback) => unknown;
type Implementation = Record<string, Handler>;
/** The parts of the ConfigureRequest and ReadRequest messages read here. */
interface Request {
  getVariablesMap(): { forEach(f: (value: string, key: string) => void): void };
  getArgs(): { toJavaScript(): Record<string, unknown> } | undefined;
  /** The provider's name (`default`, `default_0_1_0` for default providers); only when the engine configures with URNs. */
  getName?(): string;
  /** The provider's URN, where its diagnostics belong; only when the engine configures with URNs. */
  getUrn?(): string;
  getProperties(): unknown;
  setProperties(s: unknown): void;
}

const PATCHED = Symbol.for("pulumi-subscription-billing/plugin/guard");

/** Installs the wrapper for this provider (once per process). */
export function guardRequests(provider: BillingProvider, warn?: (message: string, urn?: string) => void): void {
  // The SDK's own copies: its grpc-js (whose addService it calls), its generated messages.
  const from = { paths: [path.dirname(require.resolve("@pulumi/pulumi/package.json"))] };
  const grpcJs: typeof grpc = require(require.resolve("@grpc/grpc-js", from));
  const service: unknown = require("@pulumi/pulumi/proto/provider_grpc_pb").ResourceProviderService;
  const messages = require("@pulumi/pulumi/proto/provider_pb") as { ConfigureResponse: new () => ConfigureResponse };
  const { Struct } = require(require.resolve("google-protobuf/google/protobuf/struct_pb", from)) as { Struct: new () => unknown };
  const proto = grpcJs.Server.prototype as unknown as Record<symbol, boolean> & { addService: (s: unknown, i: unknown) => void };
  if (proto[PATCHED]) return;
  proto[PATCHED] = true;
  const addService = proto.addService;
  proto.addService = function (this: unknown, s: unknown, implementation: unknown) {
    const impl =
      s === service ? guarded(implementation as Implementation, provider, messages.ConfigureResponse, Struct, warn) : implementation;
    return addService.call(this, s, impl);
  };
}

interface ConfigureResponse {
  setAcceptsecrets(v: boolean): void;
  setAcceptresources(v: boolean): void;
}

/** The server's methods, with configure and read adapted (see {@link serve}); the others are the server's own. */
export function guarded(
  impl: Implementation,
  provider: Pick<BillingProvider, "configure">,
  Response: new () => ConfigureResponse,
  Struct: new () => unknown,
  /** Where a credential set without --secret is reported: the engine's diagnostics when served (engine-log.ts), under the provider's URN. */
  warn?: (message: string, urn?: string) => void,
): Implementation {
  // grpc-js binds each method to the object given: the server's own methods see `this` with its fields.
  const wrapped = Object.create(impl) as Implementation;
  // The keys warned about: once per key for the life of this server (the plugin process), not per provider.
  const warned = new Set<string>();
  wrapped.configure = (call, callback) => {
    try {
      const variables: [string, string][] = [];
      call.request.getVariablesMap().forEach((value, key) => {
        variables.push([key, value]);
      });
      const args = call.request.getArgs()?.toJavaScript();
      const name = call.request.getName?.() || undefined;
      provider.configure(configurationFor(variables, args, name));
      const urn = call.request.getUrn?.() || undefined;
      warnPlainCredentials(args, name, warn && ((message) => warn(message, urn)), warned);
    } catch (err) {
      callback(err as Error);
      return;
    }
    const resp = new Response();
    resp.setAcceptsecrets(false);
    resp.setAcceptresources(false);
    callback(null, resp);
  };
  wrapped.read = (call, callback) => {
    if (!call.request.getProperties()) call.request.setProperties(new Struct());
    return impl.read.call(wrapped, call, callback);
  };
  return wrapped;
}
