import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { tokenOf } from "../../plugin/schema";
import { KINDS } from "../../provider/kinds";
import { createWorkspace, type Workspace } from "../../scripts/lib/pulumi-cli";
import { startSimulator } from "../../simulator";
import { fencedBlocks } from "../docs/examples";
import { KEY, VERSION } from "./plugin-support";
import { type Consumer, installedConsumer, ROOT } from "./support";

/**
 * `billing-plugin install`, the README's commands run word for word by a shell in a fresh project that installed
 * the package from its tarball, with a fresh PULUMI_HOME and no way to download: every download URL points at a
 * closed port, and automatic plugin acquisition is left on, as a user has it. The package's bins are on PATH, as
 * `npm install -g` puts them (pulumi-resource-billing among them): that alone does not serve
 * `pulumi package get-schema billing`; the plugin installed from the package's own files does.
 */

/** The README's sh block of its "The provider plugin, offline" section, one command per line. */
async function readmeLines(): Promise<string[]> {
  const readme = await readFile(path.join(ROOT, "README.md"), "utf8");
  const start = readme.indexOf("## The provider plugin, offline");
  assert.ok(start >= 0, "the README has no section on the plugin offline");
  const end = readme.indexOf("\n## ", start + 1);
  const [block] = fencedBlocks(readme.slice(start, end)).filter((b) => b.info === "sh");
  assert.ok(block, "the README's plugin section shows no commands");
  return block.code.split("\n").filter((l) => l.trim() !== "" && !l.trim().startsWith("#"));
}

describe("billing-plugin install: the plugin from the npm package into a fresh PULUMI_HOME, offline (README's commands)", () => {
  let c: Consumer;
  let ws: Workspace;
  let env: NodeJS.ProcessEnv;
  const sh = (line: string) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile("bash", ["-c", line], { cwd: c.dir, env, maxBuffer: 16 << 20 }, (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
  const folder = () => path.join(env.PULUMI_HOME as string, "plugins", `resource-billing-v${VERSION}`);

  before(async () => {
    c = await installedConsumer();
    ws = await createWorkspace(c.bin);
    const { PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: _acquisitionOff, ...rest } = ws.env;
    env = {
      ...rest,
      PATH: [path.join(c.dir, "node_modules/.bin"), ws.env.PATH].join(path.delimiter),
      // Any plugin download goes to a port where nothing listens.
      PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: ".*=http://127.0.0.1:1/",
    };
  });

  after(() => ws?.dispose());

  it("before the install, get-schema fails though pulumi-resource-billing is on PATH: the plugin is not in the cache", async () => {
    assert.ok(!existsSync(folder()));
    const res = await sh("pulumi package get-schema billing");
    assert.notEqual(res.code, 0, `get-schema succeeded with no plugin installed:\n${res.stdout}`);
  });

  it("the README's lines install the plugin into PULUMI_HOME and get-schema prints the schema of this version", async () => {
    const lines = await readmeLines();
    assert.deepEqual(lines, ["npx billing-plugin install", "pulumi package get-schema billing"]);
    const install = await sh(lines[0]);
    assert.equal(install.code, 0, install.stdout + install.stderr);
    assert.match(install.stdout, new RegExp(`Installed the billing provider plugin ${VERSION.replaceAll(".", "\\.")} into ${folder()}`));
    assert.ok(existsSync(path.join(folder(), "pulumi-resource-billing")), "no plugin in the cache's folder");
    const res = await sh(lines[1]);
    assert.equal(res.code, 0, res.stdout + res.stderr);
    const schema = JSON.parse(res.stdout) as { name: string; version: string; resources: Record<string, unknown> };
    assert.equal(schema.name, "billing");
    assert.equal(schema.version, VERSION);
    assert.deepEqual(
      Object.keys(schema.resources).sort(),
      Object.values(KINDS)
        .map((m) => tokenOf(m.kind.type))
        .sort(),
    );
  });

  it("a second install replaces the first; the plugin still serves", async () => {
    const again = await sh("npx billing-plugin install");
    assert.equal(again.code, 0, again.stdout + again.stderr);
    assert.equal((await sh("pulumi package get-schema billing")).code, 0);
  });

  it("a program of the generated SDK runs on the installed plugin, with no pulumi-resource-billing on PATH", async () => {
    const sim = await startSimulator({ apiKey: KEY });
    const dir = c.example("plugin-installed");
    await mkdir(dir, { recursive: true });
    await cp(path.join(ROOT, "examples/plugin-typescript/Pulumi.yaml"), path.join(dir, "Pulumi.yaml"));
    await writeFile(
      path.join(dir, "index.ts"),
      'import * as billing from "pulumi-subscription-billing/billing";\n' +
        'export const endpointId = new billing.WebhookEndpoint("hooks", { url: "https://hooks.acme.example/billing", events: ["payment_failure"] }).endpointId;\n',
    );
    // Only what the plugin cache holds can serve the program: no folder on PATH has a pulumi-resource-billing.
    const PATH = (ws.env.PATH ?? "")
      .split(path.delimiter)
      .filter((d) => !existsSync(path.join(d, "pulumi-resource-billing")))
      .join(path.delimiter);
    const cli = (args: string[]) => ws.pulumi(args, { cwd: dir, env: { ...env, PATH, PULUMI_NODEJS_TRANSPILE_ONLY: "true" } });
    try {
      await cli(["stack", "init", "installed"]);
      await cli(["config", "set", "billing:baseUrl", sim.url]);
      await cli(["config", "set", "--secret", "billing:apiKey", KEY]);
      await cli(["up", "--yes", "--skip-preview"]);
      const [made] = sim.endpoints();
      assert.deepEqual(JSON.parse((await cli(["stack", "output", "--json"])).stdout), { endpointId: made.id });
      await cli(["destroy", "--yes", "--skip-preview"]);
      assert.deepEqual(sim.endpoints()[0].events, []);
    } finally {
      await cli(["stack", "rm", "--yes", "--force"]).catch(() => undefined);
      await sim.close();
    }
  });
});
