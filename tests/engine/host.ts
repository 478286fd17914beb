import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { ROOT } from "./support";

// The host's own generated stubs and protobuf runtime, so messages and client share one copy.
const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
const grpc: typeof import("@grpc/grpc-js") = require(require.resolve("@grpc/grpc-js", { paths: [pulumiDir] }));
const provrpc = require("@pulumi/pulumi/proto/provider_grpc_pb");
export const provproto = require("@pulumi/pulumi/proto/provider_pb");
const structproto = require(require.resolve("google-protobuf/google/protobuf/struct_pb", { paths: [pulumiDir] }));

type Obj = Record<string, unknown>;

/**
 * The real dynamic-provider host (`@pulumi/pulumi/cmd/dynamic-provider`),
 * started the way the engine starts it (cwd = the program directory) and
 * spoken to over gRPC. Everything it prints is kept for the credential scan.
 */
export class ProviderHost {
  output = "";
  private constructor(
    private readonly child: ChildProcess,
    private readonly client: any,
  ) {}

  static async start(env: NodeJS.ProcessEnv = {}): Promise<ProviderHost> {
    const script = require.resolve("@pulumi/pulumi/cmd/dynamic-provider");
    const child = spawn(process.execPath, [script, "127.0.0.1:1"], {
      cwd: ROOT,
      env: { ...process.env, PULUMI_PROJECT: "engine-tests", PULUMI_STACK: "test", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const port = await new Promise<string>((resolve, reject) => {
      child.stdout!.on("data", (d) => {
        output += d;
        const m = /^(\d+)\s*$/m.exec(output);
        if (m) resolve(m[1]);
      });
      child.stderr!.on("data", (d) => (output += d));
      child.on("exit", (code) => reject(new Error(`provider host exited ${code}: ${output}`)));
    });
    const client = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    const host = new ProviderHost(child, client);
    host.output = output;
    child.stdout!.on("data", (d) => (host.output += d));
    child.stderr!.on("data", (d) => (host.output += d));
    return host;
  }

  stop(): void {
    this.client.close();
    this.child.kill();
  }

  private rpc<T>(method: string, req: unknown): Promise<T> {
    return new Promise((resolve, reject) => this.client[method](req, (err: Error | null, res: T) => (err ? reject(err) : resolve(res))));
  }

  async configure(config: Obj): Promise<void> {
    const req = new provproto.ConfigureRequest();
    req.setArgs(structproto.Struct.fromJavaScript(config));
    await this.rpc("configure", req);
  }

  async check(urn: string, olds: Obj, news: Obj): Promise<{ inputs: Obj; failures: { property: string; reason: string }[] }> {
    const req = new provproto.CheckRequest();
    req.setUrn(urn);
    req.setOlds(structproto.Struct.fromJavaScript(olds));
    req.setNews(structproto.Struct.fromJavaScript(news));
    const res: any = await this.rpc("check", req);
    return {
      inputs: res.getInputs().toJavaScript(),
      failures: res.getFailuresList().map((f: any) => ({ property: f.getProperty(), reason: f.getReason() })),
    };
  }

  async create(urn: string, props: Obj): Promise<{ id: string; props: Obj }> {
    const req = new provproto.CreateRequest();
    req.setUrn(urn);
    req.setProperties(structproto.Struct.fromJavaScript(props));
    const res: any = await this.rpc("create", req);
    return { id: res.getId(), props: res.getProperties().toJavaScript() };
  }

  async diff(urn: string, id: string, olds: Obj, news: Obj): Promise<{ changes: number; replaces: string[]; diffs: string[] }> {
    const req = new provproto.DiffRequest();
    req.setUrn(urn);
    req.setId(id);
    req.setOlds(structproto.Struct.fromJavaScript(olds));
    req.setNews(structproto.Struct.fromJavaScript(news));
    const res: any = await this.rpc("diff", req);
    // The changed inputs the engine shows (issue 42: never `preview` or the ids check() adds).
    return { changes: res.getChanges(), replaces: res.getReplacesList(), diffs: res.getDiffsList() };
  }

  async update(urn: string, id: string, olds: Obj, news: Obj): Promise<Obj> {
    const req = new provproto.UpdateRequest();
    req.setUrn(urn);
    req.setId(id);
    req.setOlds(structproto.Struct.fromJavaScript(olds));
    req.setNews(structproto.Struct.fromJavaScript(news));
    const res: any = await this.rpc("update", req);
    return res.getProperties().toJavaScript();
  }

  async read(urn: string, id: string, props: Obj): Promise<{ id: string; props: Obj }> {
    const req = new provproto.ReadRequest();
    req.setUrn(urn);
    req.setId(id);
    req.setProperties(structproto.Struct.fromJavaScript(props));
    const res: any = await this.rpc("read", req);
    return { id: res.getId(), props: res.getProperties().toJavaScript() };
  }

  async delete(urn: string, id: string, props: Obj): Promise<void> {
    const req = new provproto.DeleteRequest();
    req.setUrn(urn);
    req.setId(id);
    req.setProperties(structproto.Struct.fromJavaScript(props));
    await this.rpc("delete", req);
  }
}

export const DIFF_SOME = provproto.DiffResponse.DiffChanges.DIFF_SOME;
export const DIFF_NONE = provproto.DiffResponse.DiffChanges.DIFF_NONE;
