import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { packInto } from "../../scripts/lib/packed-install";
import { createWorkspace, ensurePulumi, type Workspace } from "../../scripts/lib/pulumi-cli";
import { type Simulator, startSimulator } from "../../simulator";
import { blockOf, commandLines, installLines, readmeSection } from "./readme";

/**
 * The README's first program, in a project made the usual way: the Install section's commands, word for word
 * (`npm init -y` first: npm 11 writes "main": "index.js" and "type": "commonjs"; the packed tarball stands for
 * the registry's package), then "A first program"'s Pulumi.yaml, its stack commands (the site pointed at a
 * simulated demo site instead of `acme`) and its index.ts, run by the real CLI as a user runs it.
 */
const KEY = "demo_api_key";

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

describe("the README's first program, from npm init -y, with the real CLI", function () {
  this.timeout(600_000);
  let ws: Workspace;
  let dir: string;
  let project: string;
  let sim: Simulator;
  let env: NodeJS.ProcessEnv;

  function sh(line: string): Promise<Run> {
    return new Promise((resolve) => {
      execFile("bash", ["-c", line], { cwd: project, env, maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
  }

  async function shAll(lines: string[]): Promise<void> {
    for (const line of lines) {
      const run = await sh(line);
      assert.equal(run.code, 0, `\`${line}\` failed:\n${run.stdout}\n${run.stderr}`);
    }
  }

  before(async () => {
    ws = await createWorkspace(await ensurePulumi());
    sim = await startSimulator({ seed: "demo" });
    dir = await mkdtemp(path.join(tmpdir(), "billing-first-program-"));
    project = path.join(dir, "billing-stacks");
    await mkdir(project);
    // A user's shell, the key exported; the README's stack commands choose no backend (the workspace's file backend).
    env = { ...ws.env, BILLING_API_KEY: KEY };
  });

  after(async () => {
    await sim?.close();
    await ws?.dispose();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("Install: npm init -y, then the README's lines, leave a package.json without main, in CommonJS", async () => {
    const tarball = packInto(project);
    await shAll(await installLines(tarball));
    const pkg = JSON.parse(await readFile(path.join(project, "package.json"), "utf8"));
    // What npm wrote stays (the case), but for what the README says to change.
    assert.equal(pkg.type, "commonjs");
    assert.equal(pkg.main, undefined);
    assert.ok(pkg.dependencies["pulumi-subscription-billing"] && pkg.dependencies["@pulumi/pulumi"], JSON.stringify(pkg));
  });

  it("A first program: its Pulumi.yaml, stack commands and index.ts preview and apply with no warning about the entry point", async () => {
    const first = await readmeSection("A first program");
    assert.match(first, /Pulumi\.yaml[\s\S]*package\.json[\s\S]*index\.ts/, "the section shows the project's layout");
    await writeFile(path.join(project, "Pulumi.yaml"), blockOf(first, "yaml"));
    await writeFile(path.join(project, "index.ts"), blockOf(first, "ts"));
    await shAll(commandLines(blockOf(first, "sh")).map((l) => l.replace("billing:subdomain acme", `billing:baseUrl ${sim.url}`)));

    const preview = await sh("pulumi preview");
    const previewed = `${preview.stdout}\n${preview.stderr}`;
    assert.equal(preview.code, 0, previewed);
    assert.doesNotMatch(previewed, /Could not find entry point|DEP0128|Invalid 'main' field/);
    assert.match(previewed, /SubscriptionMigration/);

    const up = await sh("pulumi up --yes");
    const applied = `${up.stdout}\n${up.stderr}`;
    assert.equal(up.code, 0, applied);
    assert.doesNotMatch(applied, /Could not find entry point|DEP0128|Invalid 'main' field/);
    const outputs = JSON.parse((await sh("pulumi stack output --json")).stdout) as { state?: string };
    assert.equal(outputs.state, "active");
    assert.equal(sim.migrationsApplied(1001), 1, "subscription 1001 was migrated once");
    const destroyed = await sh("pulumi destroy --yes");
    assert.equal(destroyed.code, 0, `${destroyed.stdout}\n${destroyed.stderr}`);
  });
});
