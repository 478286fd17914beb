import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Workspace } from "../../scripts/lib/pulumi-cli";
import { createWorkspace } from "../../scripts/lib/pulumi-cli";
import { type Simulator, startSimulator } from "../../simulator";
import { KEY, packed, VERSION } from "./plugin-support";
import { type ReleaseServer, startReleaseServer } from "./release-server";
import { installedConsumer } from "./support";

/**
 * The plugin as users get it: from the release its schema's pluginDownloadURL names, served here by a local
 * server laid out like the GitHub release (release-server.ts), with no plugin installed beforehand.
 * `pulumi plugin install resource billing <version> --server …`, then a TypeScript program of the generated
 * Node.js SDK (`pulumi-subscription-billing/billing`) whose first `pulumi up` fetches the plugin by itself.
 * (The Go program of the generated SDK does the same in go-consumer.test.ts.)
 */

const ASSET = `pulumi-resource-billing-v${VERSION}-linux-${process.arch === "arm64" ? "arm64" : "amd64"}.tar.gz`;
const HOOK_URL = "https://hooks.example.com/billing/release";

/** Folders holding a pulumi-resource-billing (node_modules/.bin after an install) off PATH: the engine would prefer it. */
const withoutPluginOnPath = (ws: Workspace) => {
  ws.env.PATH = (ws.env.PATH ?? "")
    .split(path.delimiter)
    .filter((d) => !existsSync(path.join(d, "pulumi-resource-billing")))
    .join(path.delimiter);
};

describe("the plugin from its release (pluginDownloadURL), with the real CLI", function () {
  this.timeout(900_000);
  let release: ReleaseServer;
  const workspaces: Workspace[] = [];

  before(async () => {
    await installedConsumer();
    release = await startReleaseServer(packed(), VERSION);
  });
  after(async () => {
    for (const ws of workspaces) await ws.dispose();
    await release?.close();
  });

  const workspace = async () => {
    const c = await installedConsumer();
    const ws = await createWorkspace(c.bin);
    workspaces.push(ws);
    withoutPluginOnPath(ws);
    Object.assign(ws.env, release.env);
    return { ws, c };
  };

  it("pulumi plugin install resource billing <version> --server <the release> installs it from the release's asset", async () => {
    const { ws } = await workspace();
    const before = release.requests.length;
    await ws.pulumi(["plugin", "install", "resource", "billing", VERSION, "--server", release.downloadUrl], { cwd: ws.dir });
    assert.deepEqual(release.requests.slice(before), [new URL(`${release.downloadUrl}/${ASSET}`).pathname]);
    const listed = await ws.pulumi(["plugin", "ls", "--json"], { cwd: ws.dir });
    const plugins = JSON.parse(listed.stdout) as { name: string; kind: string; version: string }[];
    assert.ok(
      plugins.some((p) => p.name === "billing" && p.kind === "resource" && p.version === VERSION),
      listed.stdout,
    );
  });

  describe("a TypeScript program of the generated Node.js SDK, no plugin installed", () => {
    let sim: Simulator;
    let ws: Workspace;
    let dir: string;
    let adopted: number;
    const printed: string[] = [];
    const pulumi = async (args: string[]) => {
      const res = await ws.pulumi([...args, "--stack", "release"], { cwd: dir, env: { PULUMI_NODEJS_TRANSPILE_ONLY: "true" } });
      printed.push(res.stdout, res.stderr);
      return res;
    };

    before(async () => {
      const made = await workspace();
      ws = made.ws;
      sim = await startSimulator({ apiKey: KEY });
      // Made in the web UI before this stack existed: the create adopts it, and says so under the resource.
      adopted = sim.addEndpoint({ url: HOOK_URL, events: ["payment_success"] }).id;
      dir = path.join(made.c.dir, "release-sdk");
      await mkdir(dir, { recursive: true });
      await writeFile(
        path.join(dir, "Pulumi.yaml"),
        "name: billing-release-sdk\nruntime:\n  name: nodejs\n  options:\n    typescript: true\n",
      );
      await writeFile(
        path.join(dir, "index.ts"),
        [
          'import * as billing from "pulumi-subscription-billing/billing";',
          "",
          `const hooks = new billing.WebhookEndpoint("hooks", { url: "${HOOK_URL}", events: ["payment_failure"] });`,
          "export const endpointId = hooks.endpointId;",
          "",
        ].join("\n"),
      );
      await ws.pulumi(["stack", "init", "release"], { cwd: dir });
      await pulumi(["config", "set", "billing:baseUrl", sim.url]);
      await pulumi(["config", "set", "--secret", "billing:apiKey", KEY]);
    });
    after(async () => {
      await sim?.close();
    });

    it("the first up fetches the plugin from the release by itself, and creates the endpoint (adopting the one made elsewhere)", async () => {
      const before = release.requests.length;
      const res = await pulumi(["up", "--yes", "--skip-preview"]);
      assert.ok(release.requests.slice(before).includes(new URL(`${release.downloadUrl}/${ASSET}`).pathname), release.requests.join("\n"));
      const out = await pulumi(["stack", "output", "endpointId"]);
      assert.equal(Number(out.stdout.trim()), adopted);
      assert.deepEqual(
        sim.endpoints().map((e) => [e.id, e.events]),
        [[adopted, ["payment_failure"]]],
      );
      // The plugin's notice, attributed to the resource as a native provider's: under its type and name.
      assert.match(
        res.stdout,
        new RegExp(`billing:index:WebhookEndpoint \\(hooks\\):\\s+WebhookEndpoint: adopted the existing endpoint ${adopted} `),
      );
    });

    it("a second up has nothing to do, with the plugin now installed (nothing fetched again)", async () => {
      const before = release.requests.length;
      const res = await pulumi(["up", "--yes", "--skip-preview"]);
      assert.match(res.stdout, /Resources:\n\s+\d+ unchanged\n\n/);
      assert.deepEqual(release.requests.slice(before), []);
    });

    it("destroy, and the key shows nowhere in what the CLI printed", async () => {
      await pulumi(["destroy", "--yes", "--skip-preview"]);
      assert.deepEqual(
        sim.endpoints().map((e) => e.events),
        [[]],
      );
      assert.ok(!printed.join("\n").includes(KEY));
    });
  });
});
