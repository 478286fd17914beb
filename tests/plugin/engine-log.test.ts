import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { providerConfig } from "../../plugin/config";
import { engineLog } from "../../plugin/engine-log";
import { BillingProvider } from "../../plugin/provider";
import { routeMessages } from "../../plugin/serve";
import { setNoticeSink } from "../../provider/engine";
import { type Simulator, startSimulator } from "../../simulator";
import { captureOutput } from "../provider/support";

/**
 * The plugin's messages reach the engine as a native provider's do: through the engine's Log service (a
 * real gRPC server here, the engine's own generated service definition), each with its severity and the
 * URN of the resource it is about, even while operations of several resources run at once.
 */

const KEY = "sk_engine_log_5c1e";
const URN = (name: string) => `urn:pulumi:dev::billing-app::billing:index:WebhookEndpoint::${name}`;
const PROVIDER_URN = "urn:pulumi:dev::billing-app::pulumi:providers:billing::default_0_1_0";

interface Logged {
  severity: number;
  message: string;
  urn: string;
}

/** The engine's Log service on 127.0.0.1, recording what it is sent; it answers a message `refuse` says so of with an error. */
async function fakeEngine(
  refuse: (message: string) => boolean = () => false,
): Promise<{ address: string; logged: Logged[]; close(): void }> {
  const from = { paths: [path.dirname(require.resolve("@pulumi/pulumi/package.json"))] };
  const grpc = require(require.resolve("@grpc/grpc-js", from)) as typeof import("@grpc/grpc-js");
  const { EngineService } = require("@pulumi/pulumi/proto/engine_grpc_pb");
  const { Empty } = require(require.resolve("google-protobuf/google/protobuf/empty_pb", from));
  const logged: Logged[] = [];
  const server = new grpc.Server();
  server.addService(EngineService, {
    log(
      call: { request: { getSeverity(): number; getMessage(): string; getUrn(): string } },
      done: (e: { code: number; details: string } | null, r?: unknown) => void,
    ) {
      logged.push({ severity: call.request.getSeverity(), message: call.request.getMessage(), urn: call.request.getUrn() });
      if (refuse(call.request.getMessage())) done({ code: grpc.status.UNAVAILABLE, details: "the engine is shutting down" });
      else done(null, new Empty());
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  return { address: `127.0.0.1:${port}`, logged, close: () => server.forceShutdown() };
}

/** Waits until the fake engine has what `ok` asks for: on state, not on time (the test's timeout stops a hang). */
const until = async (ok: () => boolean) => {
  while (!ok()) await new Promise((r) => setTimeout(r, 25));
};

describe("the plugin's messages on the engine's log", () => {
  let engine: Awaited<ReturnType<typeof fakeEngine>>;
  let sim: Simulator;

  beforeAll(async () => {
    engine = await fakeEngine();
    sim = await startSimulator({ apiKey: KEY });
  });
  afterAll(async () => {
    setNoticeSink(undefined);
    engine.close();
    await sim.close();
  });

  it("notices are info under the resource whose operation made them, with operations of two resources interleaved", async () => {
    const provider = new BillingProvider("0.1.0");
    routeMessages(provider, engineLog([engine.address]));
    provider.configure(providerConfig([], { baseUrl: sim.url, apiKey: KEY }));
    // Two endpoints made elsewhere: each create adopts one, and says so.
    const a = sim.addEndpoint({ url: "https://hooks.example.com/a", events: ["payment_failure"] });
    const b = sim.addEndpoint({ url: "https://hooks.example.com/b", events: ["payment_success"] });
    await Promise.all([
      provider.create(URN("a"), { url: "https://hooks.example.com/a", events: ["payment_failure"] }),
      provider.create(URN("b"), { url: "https://hooks.example.com/b", events: ["customer_update"] }),
    ]);
    await until(() => engine.logged.length >= 2);
    const byUrn = Object.fromEntries(engine.logged.map((l) => [l.urn, l]));
    expect(Object.keys(byUrn).sort()).toEqual([URN("a"), URN("b")]);
    expect(byUrn[URN("a")]).toMatchObject({ severity: 1, message: expect.stringContaining(`adopted the existing endpoint ${a.id}`) });
    expect(byUrn[URN("b")]).toMatchObject({ severity: 1, message: expect.stringContaining(`adopted the existing endpoint ${b.id}`) });
    expect(byUrn[URN("b")].message).toContain("its events are now customer_update");
  });

  it("a wait before a retry is info under the resource whose request waits, with another resource's operation running", async () => {
    engine.logged.length = 0;
    const provider = new BillingProvider("0.1.0");
    routeMessages(provider, engineLog([engine.address]));
    provider.configure(providerConfig([], { baseUrl: sim.url, apiKey: KEY, retryBaseDelayMs: 1 }));
    // The create of "busy" is refused with a 429 once (nothing applied), then applied; "calm"'s goes through.
    sim.injectFault({ kind: "status", status: 429, retryAfter: 0, times: 1, match: { method: "POST", path: "/endpoints.json" } });
    await Promise.all([
      provider.create(URN("busy"), { url: "https://hooks.example.com/busy", events: ["payment_failure"] }),
      provider.create(URN("calm"), { url: "https://hooks.example.com/calm", events: ["payment_failure"] }),
    ]);
    // Whichever create's POST came first got the 429: the wait is that resource's.
    const refused = sim.requests.find((r) => r.status === 429)?.body as { endpoint: { url: string } };
    const waited = refused.endpoint.url.replace("https://hooks.example.com/", "");
    await until(() => engine.logged.length >= 1);
    expect(engine.logged).toEqual([
      {
        severity: 1,
        message: "billing: POST /endpoints.json: 429 rate limited (Retry-After: 0); waiting 0.0 s before attempt 2",
        urn: URN(waited),
      },
    ]);
  });

  it("a credential set without --secret is a warning under the provider's URN, without the value", async () => {
    engine.logged.length = 0;
    const provider = new BillingProvider("0.1.0");
    routeMessages(provider, engineLog([engine.address]));
    const { guarded } = await import("../../plugin/serve");
    const { Struct } = await import("google-protobuf/google/protobuf/struct_pb");
    const w = guarded(
      {} as never,
      provider,
      class {
        setAcceptsecrets() {}
        setAcceptresources() {}
      } as never,
      Struct,
      (message, urn) => engineLog([engine.address])("warning", message, urn),
    );
    w.configure(
      {
        request: {
          getVariablesMap: () => new Map<string, string>(),
          getArgs: () => ({ toJavaScript: () => ({ apiKey: "sk_plain_engine_log_77", baseUrl: sim.url }) }),
          getName: () => "default_0_1_0",
          getUrn: () => PROVIDER_URN,
          getProperties: () => undefined,
          setProperties: () => {},
        } as never,
      },
      () => undefined,
    );
    await until(() => engine.logged.length >= 1);
    expect(engine.logged).toEqual([
      { severity: 2, message: expect.stringContaining("billing:apiKey is stored in plain text"), urn: PROVIDER_URN },
    ]);
    expect(JSON.stringify(engine.logged)).not.toContain("sk_plain_engine_log_77");
  });
});

describe("where a message goes when the engine cannot take it", () => {
  it("with no engine address (a plugin run by hand), on stderr, a warning marked as one", async () => {
    const { text } = await captureOutput(async () => {
      const log = engineLog(["--logtostderr", "-v=9"]);
      log("warning", "billing:apiKey is stored in plain text", PROVIDER_URN);
      log("info", "adopted the existing endpoint 7", URN("a"));
    });
    expect(text).toBe("warning: billing:apiKey is stored in plain text\nadopted the existing endpoint 7\n");
  });

  it("a message about no resource reaches the engine with an empty URN", async () => {
    const engine = await fakeEngine();
    try {
      engineLog([engine.address])("info", "about the stack");
      await until(() => engine.logged.length >= 1);
      expect(engine.logged).toEqual([{ severity: 1, message: "about the stack", urn: "" }]);
    } finally {
      engine.close();
    }
  });

  it("a message the engine refuses, or an engine gone, goes to stderr instead; one it takes does not", async () => {
    const engine = await fakeEngine((message) => message.startsWith("refused"));
    const gone = await fakeEngine();
    gone.close();
    const printed = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const log = engineLog([engine.address]);
      log("info", "taken", URN("a"));
      await until(() => engine.logged.length >= 1);
      log("warning", "refused: billing:apiKey is stored in plain text", PROVIDER_URN);
      await until(() => printed.mock.calls.length >= 1);
      engineLog([gone.address])("info", "lost on the way", URN("b"));
      await until(() => printed.mock.calls.length >= 2);
      expect(printed.mock.calls).toEqual([["warning: refused: billing:apiKey is stored in plain text"], ["lost on the way"]]);
      expect(engine.logged.map((l) => l.message)).toEqual(["taken", "refused: billing:apiKey is stored in plain text"]);
    } finally {
      printed.mockRestore();
      engine.close();
    }
  });
});
