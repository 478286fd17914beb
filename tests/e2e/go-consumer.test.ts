import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { createWorkspace, ensurePulumi, type Workspace } from "../../scripts/lib/pulumi-cli";
import { pack } from "../../scripts/plugin-pack";
import { type Simulator, startSimulator } from "../../simulator";
import { type ReleaseServer, startReleaseServer } from "./release-server";
import { mutations, ROOT } from "./support";

/**
 * A Go program using the generated Go SDK (sdk-gen/go/billing) through the Go Automation API with
 * an inline program (tests/e2e/go-consumer): no language host, the real CLI, the provider plugin
 * `pulumi-resource-billing` not installed beforehand: the engine fetches it from the release the SDK's
 * pluginDownloadURL names (a local server laid out like it), against the simulator.
 */

const API_KEY = "sk_e2e_go_5d20b7";
const HOOK_URL = "https://hooks.example.com/billing/go";
const CONSUMER = path.join(ROOT, "tests/e2e/go-consumer");
const BIN = path.join(ROOT, ".cache/go-consumer/go-consumer");

interface Step {
  result: string;
  changes: Record<string, number>;
  outputs?: Record<string, unknown>;
}
interface Summary {
  stack: string;
  up: Step;
  again: Step;
  refresh: Step;
  destroy: Step;
  secretOutputs: string[];
}

function exec(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { ...opts, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err)
        reject(
          Object.assign(new Error(`${cmd} ${args.join(" ")} failed: ${err.message}\n${stdout.slice(-4000)}\n${stderr.slice(-4000)}`), {
            stdout,
            stderr,
          }),
        );
      else resolve({ stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

const goBinary = () => process.env.GO ?? (existsSync("/usr/local/go/bin/go") ? "/usr/local/go/bin/go" : "go");

/** Newest modification time of any file under `dir`. */
function newest(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

/** The plugin tarball of the current build: the one `npm run plugin:pack` left, unless the build is newer. */
function pluginTarball(version: string): string {
  const tarball = path.join(ROOT, `.cache/plugin/pulumi-resource-billing-v${version}.tar.gz`);
  if (existsSync(tarball) && statSync(tarball).mtimeMs > newest(path.join(ROOT, "dist"))) return tarball;
  return pack();
}

describe("the generated Go SDK through the Go Automation API (inline program), with the real CLI and the plugin", () => {
  let sim: Simulator;
  let ws: Workspace;
  let summary: Summary;
  let output = "";
  let release: ReleaseServer;
  let asset: string;

  before(async () => {
    const bin = await ensurePulumi();
    ws = await createWorkspace(bin);
    const version = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;
    // The engine prefers a pulumi-resource-billing on PATH to an installed plugin: keep such folders off PATH,
    // so that what runs is the tarball's (as tests/e2e/plugin.test.ts does).
    ws.env.PATH = (ws.env.PATH ?? "")
      .split(path.delimiter)
      .filter((dir) => !existsSync(path.join(dir, "pulumi-resource-billing")))
      .join(path.delimiter);
    // No plugin installed: the engine fetches it from the release the SDK's pluginDownloadURL names, served
    // locally (release-server.ts), as a user's first `up` does.
    release = await startReleaseServer(pluginTarball(version), version);
    Object.assign(ws.env, release.env);
    asset = new URL(
      `${release.downloadUrl}/pulumi-resource-billing-v${version}-linux-${process.arch === "arm64" ? "arm64" : "amd64"}.tar.gz`,
    ).pathname;
    // Built into .cache (ignored), -trimpath like the CLI: with a warm module and build cache this takes seconds.
    const goEnv = { ...process.env, GOFLAGS: "-mod=mod -buildvcs=false", GOWORK: "off" };
    await exec(goBinary(), ["build", "-trimpath", "-o", BIN, "."], { cwd: CONSUMER, env: goEnv });
    sim = await startSimulator({ apiKey: API_KEY });
    sim.webhooksEnabled = false;
    const res = await exec(BIN, [], {
      cwd: ws.dir,
      env: {
        ...ws.env,
        BILLING_GO_CONSUMER_BASE_URL: sim.url,
        BILLING_GO_CONSUMER_API_KEY: API_KEY,
        BILLING_GO_CONSUMER_HOOK_URL: HOOK_URL,
      },
    });
    output = res.stdout + res.stderr;
    summary = JSON.parse(res.stdout.trim().split("\n").pop()!);
  });

  after(async () => {
    await sim?.close();
    await release?.close();
    await ws?.dispose();
  });

  it("the plugin, not installed beforehand, was fetched once from the release by the first up", () => {
    assert.deepEqual(
      release.requests.filter((r) => r === asset),
      [asset],
    );
  });

  it("up creates the settings and the endpoint on the site", () => {
    assert.equal(summary.up.result, "succeeded");
    assert.ok((summary.up.changes.create ?? 0) >= 2, JSON.stringify(summary.up.changes));
    assert.equal(summary.up.outputs?.webhooksEnabled, true);
    assert.equal(summary.up.outputs?.endpointUrl, HOOK_URL);
    assert.deepEqual(summary.up.outputs?.endpointEvents, ["payment_failure", "subscription_state_change"]);
    const [endpoint] = sim.endpoints();
    assert.equal(summary.up.outputs?.endpointId, endpoint.id);
    assert.equal(endpoint.url, HOOK_URL);
  });

  it("a second up and a refresh change nothing", () => {
    for (const step of [summary.again, summary.refresh]) {
      assert.equal(step.result, "succeeded");
      assert.deepEqual(Object.keys(step.changes), ["same"], JSON.stringify(step.changes));
    }
  });

  it("the service saw one PUT of the setting and one POST of the endpoint before destroy, and one PUT at destroy", () => {
    assert.deepEqual(
      mutations(sim.requests).map((r) => r.method),
      ["PUT", "POST", "PUT"],
    );
  });

  it("destroy cleans: the endpoint (which the service cannot delete) is subscribed to nothing, the stack is empty", () => {
    assert.equal(summary.destroy.result, "succeeded");
    assert.ok((summary.destroy.changes.delete ?? 0) >= 2, JSON.stringify(summary.destroy.changes));
    assert.deepEqual(
      sim.endpoints().map((e) => e.events),
      [[]],
    );
    // WebhookSettings without disableOnDelete leaves the site as it is.
    assert.equal(sim.webhooksEnabled, true);
  });

  it("the API key shows nowhere in the program's output", () => {
    assert.ok(!output.includes(API_KEY));
  });
});
