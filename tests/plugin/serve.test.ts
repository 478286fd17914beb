import path from "node:path";
import type * as grpcJs from "@grpc/grpc-js";
import { afterAll, beforeEach, describe, expect, it, vi } from "vitest";
import { BillingProvider } from "../../plugin/provider";
import { guardRequests, serve } from "../../plugin/serve";
import { setNoticeSink } from "../../provider/engine";
import { type Simulator, startSimulator } from "../../simulator";

/**
 * `serve()` as pulumi-resource-billing runs it, in this process: the SDK's `main()` serves the provider
 * on a port it prints, and the engine's side is played here over real gRPC with the SDK's own generated
 * clients and messages, and a Log service recording what the plugin sends it. What serve adds to
 * `main()` shows only this way: the request wrapper installed on the SDK's grpc-js (Configure reaches
 * the provider, a Read with no properties is an import) and the messages routed to the engine's log.
 * `main()` serves once per process: this file holds the one server.
 */

// The SDK's own copies, as serve.ts and engine-log.ts take them.
const from = { paths: [path.dirname(require.resolve("@pulumi/pulumi/package.json"))] };
const grpc = require(require.resolve("@grpc/grpc-js", from)) as typeof grpcJs;
const { Struct, Value } = require(require.resolve("google-protobuf/google/protobuf/struct_pb", from));
const { Empty } = require(require.resolve("google-protobuf/google/protobuf/empty_pb", from));
const pb = require("@pulumi/pulumi/proto/provider_pb");
const { ResourceProviderClient } = require("@pulumi/pulumi/proto/provider_grpc_pb");
const { AnalyzerService, AnalyzerClient } = require("@pulumi/pulumi/proto/analyzer_grpc_pb");
const { ConfigureAnalyzerRequest } = require("@pulumi/pulumi/proto/analyzer_pb");
const { EngineService } = require("@pulumi/pulumi/proto/engine_grpc_pb");

const KEY = "sk_serve_in_process_3b8e";
const PROVIDER_URN = "urn:pulumi:dev::billing-app::pulumi:providers:billing::default_0_1_0";
const ENDPOINT = "urn:pulumi:dev::billing-app::billing:index:WebhookEndpoint::hooks";
const HOOK = "https://hooks.example.com/billing";
const ENV = ["BILLING_API_KEY", "BILLING_ACCESS_TOKEN", "BILLING_SUBDOMAIN", "BILLING_ENVIRONMENT", "BILLING_BASE_URL"];

interface Logged {
  severity: number;
  message: string;
  urn: string;
}

type Unary = (req: unknown, done: (err: grpcJs.ServiceError | null, res: never) => void) => void;
type Client = Record<string, Unary> & { close(): void };

/** One unary call of `client`, its answer or its error. */
const ask = <T>(client: Client, method: string, req: unknown): Promise<T> =>
  new Promise((resolve, reject) => client[method].call(client, req, (err, res) => (err ? reject(err) : resolve(res as T))));

const bound = (server: grpcJs.Server): Promise<number> =>
  new Promise((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, port) => (err ? reject(err) : resolve(port))),
  );

/** Waits until `ok` holds: on state, not on time (the test's timeout stops a hang). */
const until = async (ok: () => boolean) => {
  while (!ok()) await new Promise((r) => setTimeout(r, 25));
};

describe("serve: the plugin as the engine runs it, over gRPC in this process", () => {
  const servers: grpcJs.Server[] = [];
  const logged: Logged[] = [];
  /** Everything the engine was sent, never cleared (a test that reads its own messages clears `logged`). */
  const everLogged: Logged[] = [];
  const savedEnv = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));
  let sim: Simulator;
  let client: Client;

  // Started by the first test that runs (main() serves once per process), not in a beforeAll: Stryker counts
  // what a beforeAll runs as no test's coverage, so no serve test would run against serve.ts's mutants.
  let started: Promise<void> | undefined;
  beforeEach(async () => {
    started ??= start();
    await started;
  });

  const start = async () => {
    // Credentials only from Configure: none from the environment.
    for (const k of ENV) delete process.env[k];
    sim = await startSimulator({ apiKey: KEY });
    // Every server this process builds, to stop them after; serve's own wrapper goes around this one.
    const proto = grpc.Server.prototype;
    const addService = proto.addService;
    proto.addService = function (this: grpcJs.Server, service, implementation) {
      servers.push(this);
      return addService.call(this, service, implementation);
    };
    // The engine's Log service.
    const engine = new grpc.Server();
    engine.addService(EngineService, {
      log(call: { request: { getSeverity(): number; getMessage(): string; getUrn(): string } }, done: (e: null, r: unknown) => void) {
        const entry = { severity: call.request.getSeverity(), message: call.request.getMessage(), urn: call.request.getUrn() };
        logged.push(entry);
        everLogged.push(entry);
        done(null, new Empty());
      },
    });
    const enginePort = await bound(engine);
    // main() prints the port the engine reads.
    const printed = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      await serve(new BillingProvider("0.1.0"), [`127.0.0.1:${enginePort}`]);
      expect(printed.mock.calls).toEqual([[expect.stringMatching(/^\d+$/)]]);
      client = new ResourceProviderClient(`127.0.0.1:${printed.mock.calls[0][0]}`, grpc.credentials.createInsecure());
    } finally {
      printed.mockRestore();
    }
  };

  afterAll(async () => {
    client?.close();
    for (const s of servers) s.forceShutdown();
    setNoticeSink(undefined);
    await sim?.close();
    for (const [k, v] of Object.entries(savedEnv))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  });

  // The engine's one Configure of this provider (a plain key, so a warning): sent by whichever test needs it
  // first, so that each test also runs alone (as Stryker runs the tests that reach a mutant).
  type Accepts = { getAcceptsecrets(): boolean; getAcceptresources(): boolean; getAcceptoutputs(): boolean };
  let configured: Promise<Accepts> | undefined;
  const configure = () => {
    const req = new pb.ConfigureRequest();
    req.getVariablesMap().set("billing:config:baseUrl", sim.url).set("billing:config:apiKey", KEY);
    req.setArgs(Struct.fromJavaScript({ baseUrl: sim.url, apiKey: KEY }));
    req.setName("default_0_1_0");
    req.setUrn(PROVIDER_URN);
    configured ??= ask<Accepts>(client, "configure", req);
    return configured;
  };

  it("Configure hands the configuration to the provider, declines secrets and resources, and warns the engine of a plain key", async () => {
    const resp = await configure();
    // The SDK's own configure answers true to all three, and never reads the request.
    expect({ secrets: resp.getAcceptsecrets(), resources: resp.getAcceptresources(), outputs: resp.getAcceptoutputs() }).toEqual({
      secrets: false,
      resources: false,
      outputs: false,
    });
    // The Configure's own messages (whichever test sent it, whatever other tests logged since).
    await until(() => everLogged.some((l) => l.urn === PROVIDER_URN));
    expect(everLogged.filter((l) => l.urn === PROVIDER_URN)).toEqual([
      {
        severity: 2,
        message:
          "billing:apiKey is stored in plain text in Pulumi.<stack>.yaml: run `pulumi config set --secret billing:apiKey <value>` to store it encrypted",
        urn: PROVIDER_URN,
      },
    ]);
    expect(JSON.stringify(everLogged)).not.toContain(KEY);
  });

  it("Create reaches the site Configure named, and the runtime's notice is info on the engine's log under the resource", async () => {
    await configure();
    await until(() => logged.some((l) => l.severity === 2));
    logged.length = 0;
    const existing = sim.addEndpoint({ url: HOOK, events: ["payment_failure"] });
    const req = new pb.CreateRequest();
    req.setUrn(ENDPOINT);
    req.setProperties(Struct.fromJavaScript({ url: HOOK, events: ["payment_failure"] }));
    const resp = await ask<{ getId(): string; getProperties(): { toJavaScript(): unknown } }>(client, "create", req);
    expect({ id: resp.getId(), outs: resp.getProperties().toJavaScript() }).toEqual({
      id: String(existing.id),
      outs: { endpointId: existing.id, url: HOOK, events: ["payment_failure"], status: "enabled" },
    });
    await until(() => logged.length >= 1);
    expect(logged).toEqual([
      {
        severity: 1,
        message: `WebhookEndpoint: adopted the existing endpoint ${existing.id} of site ${new URL(sim.url).host} for ${HOOK} (its events were already the declared ones)`,
        urn: ENDPOINT,
      },
    ]);
  });

  it("Read with no properties (pulumi import) reads the resource by its id", async () => {
    await configure();
    const made = sim.addEndpoint({ url: "https://hooks.example.com/imported", events: ["payment_success"] });
    const req = new pb.ReadRequest();
    req.setId(String(made.id));
    req.setUrn(ENDPOINT);
    const resp = await ask<{ getId(): string; getProperties(): { toJavaScript(): unknown }; getInputs(): { toJavaScript(): unknown } }>(
      client,
      "read",
      req,
    );
    expect({ id: resp.getId(), props: resp.getProperties().toJavaScript(), inputs: resp.getInputs().toJavaScript() }).toEqual({
      id: String(made.id),
      props: { endpointId: made.id, url: "https://hooks.example.com/imported", events: ["payment_success"], status: "enabled" },
      inputs: { url: "https://hooks.example.com/imported", events: ["payment_success"] },
    });
  });

  it("a Configure request whose args cannot be read is answered with the error, not with acceptance", async () => {
    const args = new Struct();
    args.getFieldsMap().set("apiKey", new Value()); // a value of no kind
    const req = new pb.ConfigureRequest();
    req.setArgs(args);
    const err = (await ask(client, "configure", req).catch((e: grpcJs.ServiceError) => e)) as grpcJs.ServiceError;
    expect({ code: err.code, details: err.details }).toEqual({ code: grpc.status.UNKNOWN, details: "Unexpected struct type" });
  });

  it("the wrapper is installed once per process: another provider's guardRequests leaves it as it is", () => {
    const installed = grpc.Server.prototype.addService;
    guardRequests(new BillingProvider("0.2.0"));
    expect(grpc.Server.prototype.addService).toBe(installed);
  });

  it("the wrapper is for the provider service only: another service's Configure is its own", async () => {
    const configured: string[] = [];
    const analyzer = new grpc.Server();
    analyzer.addService(AnalyzerService, {
      configure(_call: unknown, done: (e: null, r: unknown) => void) {
        configured.push("analyzer");
        done(null, new Empty());
      },
    });
    const port = await bound(analyzer);
    const policy = new AnalyzerClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure()) as Client;
    try {
      await ask(policy, "configure", new ConfigureAnalyzerRequest());
      expect(configured).toEqual(["analyzer"]);
    } finally {
      policy.close();
    }
  });
});
